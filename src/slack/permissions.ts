/**
 * Who may do what. Everyone may read. People in ADMIN_USER_IDS, and members of the Slack user group
 * ADMIN_USERGROUP_ID when it is set, may create, edit, run lifecycle actions, upload and watch; with neither set,
 * every full member of the workspace may change (the live service allows that only with ALLOW_EVERYONE_TO_CHANGE=true,
 * see config.ts): never a guest, single- or multi-channel, nor a person of another organization in a Slack Connect
 * channel (members.ts).
 * Replying to customers (a reply in a watched call thread sent as the customer's conversation, `/campaign try`) is
 * for RESPONDER_USER_IDS / RESPONDER_USERGROUP_ID; with neither set, for whoever may change. Checked on the server
 * for every command, button, view submission and relayed reply.
 */
import type { WebClient } from '@slack/web-api';
import type { Translator } from '../i18n/translator.js';
import { ENGLISH } from '../render/format.js';
import { raw } from '../render/mrkdwn.js';
import { tmd } from '../render/text.js';
import { WorkspaceMembers } from './members.js';

export interface Permissions {
  canChange(userId: string, client: WebClient): Promise<boolean>;
  /** A sentence (mrkdwn, with our own mentions) telling a refused person who can do it, in their words. */
  whoCan(t?: Translator): string;
  /** Whether the person may write to customers (relayed thread replies, `/campaign try`). */
  canReply(userId: string, client: WebClient): Promise<boolean>;
  /** A sentence (mrkdwn) telling a person whose reply was kept in Slack who can reply to customers. */
  whoCanReply(t?: Translator): string;
}

export interface PermissionOptions {
  adminUserIds: string[];
  adminUsergroupId?: string;
  /** Who may reply to customers; with neither this nor `responderUsergroupId`, whoever may change. */
  responderUserIds?: string[];
  responderUsergroupId?: string;
  /** How long a user group's member list is trusted. */
  groupCacheMs?: number;
  /** Who is a full member of the workspace (when nobody is listed: everyone means them only). */
  members?: WorkspaceMembers;
  now?: () => number;
}

export function createPermissions(opts: PermissionOptions): Permissions {
  const cacheMs = opts.groupCacheMs ?? 60_000;
  const now = opts.now ?? Date.now;
  const admins = allowList(opts.adminUserIds, opts.adminUsergroupId, cacheMs, now);
  const responders = allowList(opts.responderUserIds ?? [], opts.responderUsergroupId, cacheMs, now);

  const members = opts.members ?? new WorkspaceMembers({ now });
  const canChange = async (userId: string, client: WebClient) =>
    admins.open() ? members.isFullMember(userId, client) : admins.has(userId, client);
  const whoCan = (t: Translator = ENGLISH) =>
    admins.open() ? t.t('readOnly.fullMembersOnly') : tmd(t, 'readOnly.whoCan', { who: raw(admins.names(t)) });
  return {
    canChange,
    whoCan,
    async canReply(userId, client) {
      return responders.open() ? canChange(userId, client) : responders.has(userId, client);
    },
    whoCanReply(t: Translator = ENGLISH) {
      const who = responders.open() ? admins.names(t) : responders.names(t);
      if (!who) return t.t('readOnly.anyMemberCanReply');
      return tmd(t, 'readOnly.whoCanReply', { who: raw(who) });
    },
  };
}

/** Listed people plus the members of a Slack user group (read through usergroups.users.list, cached). */
function allowList(ids: string[], usergroupId: string | undefined, cacheMs: number, now: () => number) {
  const people = new Set(ids);
  let group: { members: Set<string>; at: number } | undefined;

  async function groupMembers(client: WebClient): Promise<Set<string>> {
    if (!usergroupId) return new Set();
    if (group && now() - group.at < cacheMs) return group.members;
    const res = await client.usergroups.users.list({ usergroup: usergroupId });
    group = { members: new Set(res.users ?? []), at: now() };
    return group.members;
  }

  return {
    /** Nobody listed and no group: the list does not restrict. */
    open: () => people.size === 0 && !usergroupId,
    async has(userId: string, client: WebClient): Promise<boolean> {
      if (people.has(userId)) return true;
      if (!usergroupId) return false;
      try {
        return (await groupMembers(client)).has(userId);
      } catch {
        // Can't read the group right now: refuse rather than let anything through unchecked.
        return false;
      }
    },
    /** Our own mentions (not escaped: nothing in them comes from outside). */
    names(t: Translator): string {
      const parts = [];
      if (people.size) parts.push([...people].map((u) => `<@${u}>`).join(', '));
      if (usergroupId) parts.push(tmd(t, 'readOnly.groupMembers', { group: raw(`<!subteam^${usergroupId}>`) }));
      return t.list(parts);
    },
  };
}
