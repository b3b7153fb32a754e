/**
 * Who may speak to customers through the app: a reply in a watched call thread goes to the customer's conversation
 * as if from the organization, and a `/campaign try` message goes to an agent. Refused, in this order:
 *
 * - people of another team: a Slack Connect channel's members from another organization (the message event's
 *   `user_team` / `source_team`, or the person's own `team_id` from users.info, is not the app's team);
 * - guests (users.info `is_restricted`, `is_ultra_restricted`), whatever the lists say;
 * - anyone else who is not a responder (RESPONDER_USER_IDS / RESPONDER_USERGROUP_ID; default: the admins).
 *
 * When Slack cannot tell us who the person is, nothing is sent (the person is asked to write again).
 *
 * The app's own team comes from `auth.test` with the bot token: that is the workspace the token (and so the app)
 * belongs to, whatever a payload says. Payload fields are a fallback only while auth.test cannot be reached: in a
 * shared channel the envelope's top-level `team_id` may be the other organization's, and Bolt's `context.teamId`
 * (from `authorizations[0].team_id`, the installation the event was delivered for) is the only one that fits.
 */
import type { WebClient } from '@slack/web-api';
import { BoundedMap, type MemoryFigures } from '../../bounded.js';
import type { Translator } from '../../i18n/translator.js';
import type { Logger } from '../../log.js';
import type { SpeakerCheck, SpeakerQuery, SpeakerRefusal, SpeakerVerdict } from '../../watch/ports.js';
import type { Permissions } from '../permissions.js';

interface Person {
  teamId?: string;
  guest: boolean;
  at: number;
}

export interface SpeakersOptions {
  /** How long what users.info said about a person is trusted. */
  personCacheMs?: number;
  /** People remembered at most (those looked up longest ago go first). Default 5,000. */
  maxPeople?: number;
  now?: () => number;
}

export class Speakers implements SpeakerCheck {
  private ownTeam: string | undefined;
  private readonly people: BoundedMap<string, Person>;
  private readonly cacheMs: number;
  private readonly now: () => number;

  constructor(
    private readonly client: WebClient,
    private readonly permissions: Permissions,
    private readonly logger: Logger,
    opts: SpeakersOptions = {},
  ) {
    this.cacheMs = opts.personCacheMs ?? 5 * 60_000;
    this.now = opts.now ?? Date.now;
    this.people = new BoundedMap(opts.maxPeople ?? 5000);
  }

  /** The size of what is remembered of people (bench/soak.bench.ts). */
  memoryFigures(): MemoryFigures {
    return { 'speakers.people': this.people.size };
  }

  /** The app's team (auth.test, remembered once known); the payload's installation team while it is not. */
  async ownTeamId(payloadTeamId?: string): Promise<string | undefined> {
    if (this.ownTeam) return this.ownTeam;
    try {
      const res = await this.client.auth.test();
      if (typeof res.team_id === 'string' && res.team_id) this.ownTeam = res.team_id;
    } catch (err) {
      this.logger.warn({ err: String(err) }, "auth.test failed; the event's installation team stands in for ours");
    }
    return this.ownTeam ?? payloadTeamId;
  }

  private async person(userId: string): Promise<Person> {
    const known = this.people.get(userId);
    if (known && this.now() - known.at < this.cacheMs) return known;
    // Out of date: forgotten now, so a lookup that fails leaves nothing stale behind.
    this.people.delete(userId);
    const res = await this.client.users.info({ user: userId });
    const u = res.user as
      { team_id?: string; is_restricted?: boolean; is_ultra_restricted?: boolean; is_stranger?: boolean } | undefined;
    if (!u) throw new Error('users.info returned no user');
    const p: Person = { guest: Boolean(u.is_restricted || u.is_ultra_restricted), at: this.now() };
    if (u.team_id) p.teamId = u.team_id;
    // A person Slack calls a stranger is from an organization we do not share a workspace with.
    if (u.is_stranger) p.teamId ??= 'stranger';
    this.people.set(userId, p);
    return p;
  }

  /** May this person's words reach a customer (or an agent)? */
  async check(q: SpeakerQuery, client: WebClient = this.client): Promise<SpeakerVerdict> {
    const own = await this.ownTeamId(q.payloadTeamId);
    if (!own) return { ok: false, reason: 'unknown', detail: "the app's own team is unknown" };
    const foreign = [q.userTeam, q.sourceTeam].find((t) => t !== undefined && t !== '' && t !== own);
    if (foreign) return { ok: false, reason: 'external', detail: `person of team ${foreign}` };
    let p: Person;
    try {
      p = await this.person(q.userId);
    } catch (err) {
      this.logger.warn({ user: q.userId, err: String(err) }, 'could not look up who wrote a reply');
      return { ok: false, reason: 'unknown', detail: 'users.info failed' };
    }
    if (p.teamId && p.teamId !== own) return { ok: false, reason: 'external', detail: `person of team ${p.teamId}` };
    if (p.guest) return { ok: false, reason: 'guest', detail: 'guest account' };
    if (!(await this.permissions.canReply(q.userId, client))) {
      return { ok: false, reason: 'not-responder', detail: 'not a responder' };
    }
    return { ok: true };
  }

  /** What the refused person is told (our own sentences; the responder mentions are ours too), in their words. */
  refusalSentence(reason: SpeakerRefusal, what: 'reply' | 'try', t: Translator): string {
    const kept = t.t(what === 'reply' ? 'relay.kept.reply' : 'relay.kept.try');
    switch (reason) {
      case 'external':
        return t.t('relay.refused.external', { kept });
      case 'guest':
        return t.t('relay.refused.guest', { kept });
      case 'unknown':
        return t.t(what === 'reply' ? 'relay.refused.unknownReply' : 'relay.refused.unknownTry');
      case 'not-responder':
        return t.t('relay.refused.notResponder', { kept, whoCan: this.permissions.whoCanReply(t), what });
    }
  }
}
