/**
 * Who may change campaigns. People in ADMIN_USER_IDS, and members of the Slack user group ADMIN_USERGROUP_ID when it
 * is set, may create, edit, run lifecycle actions, upload and watch; everyone may read. With neither set, everyone may
 * change. Checked on the server for every command, button and view submission.
 */
import type { WebClient } from '@slack/web-api';

export interface Permissions {
  canChange(userId: string, client: WebClient): Promise<boolean>;
  /** A sentence telling a refused person who can do it. */
  whoCan(): string;
}

export interface PermissionOptions {
  adminUserIds: string[];
  adminUsergroupId?: string;
  /** How long the user group's member list is trusted. */
  groupCacheMs?: number;
  now?: () => number;
}

export function createPermissions(opts: PermissionOptions): Permissions {
  const admins = new Set(opts.adminUserIds);
  const cacheMs = opts.groupCacheMs ?? 60_000;
  const now = opts.now ?? Date.now;
  let group: { members: Set<string>; at: number } | undefined;

  async function groupMembers(client: WebClient): Promise<Set<string>> {
    if (!opts.adminUsergroupId) return new Set();
    if (group && now() - group.at < cacheMs) return group.members;
    const res = await client.usergroups.users.list({ usergroup: opts.adminUsergroupId });
    group = { members: new Set(res.users ?? []), at: now() };
    return group.members;
  }

  return {
    async canChange(userId, client) {
      if (admins.size === 0 && !opts.adminUsergroupId) return true;
      if (admins.has(userId)) return true;
      if (!opts.adminUsergroupId) return false;
      try {
        return (await groupMembers(client)).has(userId);
      } catch {
        // Can't read the group right now: refuse rather than let a change through unchecked.
        return false;
      }
    },
    whoCan() {
      const people = [...admins].map((u) => `<@${u}>`);
      const parts = [];
      if (people.length) parts.push(people.join(', '));
      if (opts.adminUsergroupId) parts.push(`members of <!subteam^${opts.adminUsergroupId}>`);
      return `Only ${parts.join(' and ')} can change campaigns. Ask one of them, or ask an admin to add you to ADMIN_USER_IDS.`;
    },
  };
}
