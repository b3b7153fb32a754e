/**
 * Who is a full member of the workspace the app is installed in, from `users.info`: not a guest (multi-channel
 * `is_restricted`, single-channel `is_ultra_restricted`), not a person of another organization (Slack Connect:
 * `is_stranger`, or a `team_id` other than the app's own, which `auth.test` with the bot token tells), not
 * deactivated, not a bot. When Slack cannot tell, the answer is no: nothing is let through unchecked.
 *
 * What users.info said is kept for a few minutes (a bounded number of people); a failed lookup is not kept.
 */
import type { WebClient } from '@slack/web-api';
import { LookupCache } from './lookup-cache.js';

export type Membership = 'full' | 'guest' | 'external' | 'deactivated' | 'bot' | 'unknown';

interface SlackUser {
  team_id?: string;
  deleted?: boolean;
  is_bot?: boolean;
  is_restricted?: boolean;
  is_ultra_restricted?: boolean;
  is_stranger?: boolean;
}

export interface WorkspaceMembersOptions {
  /** How long what users.info said about a person is trusted (default 5 minutes). */
  cacheMs?: number;
  /** People remembered at most (default 5,000). */
  maxPeople?: number;
  now?: () => number;
}

export class WorkspaceMembers {
  private ownTeam: string | undefined;
  private readonly people: LookupCache<SlackUser>;

  constructor(opts: WorkspaceMembersOptions = {}) {
    this.people = new LookupCache({
      ttlMs: opts.cacheMs ?? 5 * 60_000,
      max: opts.maxPeople ?? 5_000,
      ...(opts.now ? { now: opts.now } : {}),
    });
  }

  /** What kind of person this is to the workspace ('unknown' when Slack could not be asked). */
  async membership(userId: string, client: WebClient): Promise<Membership> {
    let user: SlackUser;
    let own: string | undefined;
    try {
      [user, own] = await Promise.all([this.user(userId, client), this.ownTeamId(client)]);
    } catch {
      return 'unknown';
    }
    if (user.deleted) return 'deactivated';
    if (user.is_bot) return 'bot';
    if (user.is_stranger || (user.team_id !== undefined && user.team_id !== own)) return 'external';
    if (user.is_restricted || user.is_ultra_restricted) return 'guest';
    return 'full';
  }

  async isFullMember(userId: string, client: WebClient): Promise<boolean> {
    return (await this.membership(userId, client)) === 'full';
  }

  private user(userId: string, client: WebClient): Promise<SlackUser> {
    return this.people.get(userId, async () => {
      const res = await client.users.info({ user: userId });
      if (!res.user) throw new Error('users.info returned no user');
      return res.user as SlackUser;
    });
  }

  /** The app's own team: what auth.test says for the bot token (remembered once known). */
  private async ownTeamId(client: WebClient): Promise<string> {
    if (this.ownTeam) return this.ownTeam;
    const res = await client.auth.test();
    if (typeof res.team_id !== 'string' || res.team_id === '') throw new Error('auth.test returned no team');
    this.ownTeam = res.team_id;
    return this.ownTeam;
  }
}
