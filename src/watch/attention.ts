/**
 * Watches that call people in: the assignee, customers left waiting, and the watch's owner told what became of the
 * campaign. All state is in the store (state.ts: a post's `turnMentioned`, the `waiting` records, the campaigns'
 * `campaignFacts`), so it survives a restart and whichever replica leads honours it; time is the app's clock.
 *
 * - **The end user writes**: an end-user (`EU`) message of a call thread sent after the call ended (while the call
 *   runs, its lines are the live transcript: the agent is talking with them). The first such message of a **turn**
 *   mentions the thread's assignee: a turn starts when the end user writes and ends when the agent answers (an `AI`
 *   message is posted) or a person answers (see Waiting below). So the assignee is mentioned once
 *   per turn, however many messages the end user sends in a row.
 * - **The assignee**: the thread's `assigned_to[].email` (GET /thread, read once per turn) looked up in Slack with
 *   `users.lookupByEmail` (cached for an hour, a miss too); the first one Slack knows. None: the person who set the
 *   watch in that channel. The id mentioned always comes from Slack or from the watch, never from outside text.
 * - **Waiting**: the first unanswered end-user message of a thread makes a `waiting` record (its time on the app's
 *   clock); a person's answer deletes it: a reply from the Slack thread that reached the customer, a note in the
 *   thread by a person who may reply to customers, or an answer a person sent from the service's own app
 *   (`sent_by_user`). A reply kept in Slack (a guest's, another team's person's, a non-responder's "+1") does not. The agent's answers do not: the
 *   customer waits for a person. After the watch's `reminderMinutes` (default 15), checked after each poll cycle,
 *   one reminder is posted in the thread mentioning the assignee, and
 *   only while the campaign's schedule runs (its active days, between their start and stop times, in the campaign's
 *   timezone; a campaign without a schedule runs any time): a wait that comes due outside the schedule is reminded
 *   of when the schedule opens again, if nobody answered meanwhile. At most one reminder per waiting record.
 * - **The owner's DMs**: each watched campaign is read (GET /campaigns/{id}) at most every `campaignCheckMs`; when
 *   its status becomes `finished`, or `inactive` without anyone pausing it from Slack (the audit trail tells:
 *   main.ts), each watch's owner is told by DM. So they are when a lifecycle action from Slack, or a poll, is refused
 *   with `BILLING_LIMIT_REACHED` (at most once a day per campaign).
 */
import { formatInTimeZone } from 'date-fns-tz';
import { BoundedMap, type MemoryFigures } from '../bounded.js';
import type { Translator } from '../i18n/translator.js';
import type { Logger } from '../log.js';
import type { CallOptions, OutreachApi } from '../outreach/api.js';
import { isOutreachError } from '../outreach/errors.js';
import { FINAL_CALL_STATUSES } from '../outreach/rules.js';
import { DAYS, type Message, type Schedule } from '../outreach/schemas.js';
import { campaignEventNotice, waitingReminder, withAssigneeMention, type CampaignEvent } from '../render/attention.js';
import type { SlackMessage } from '../render/types.js';
import { DEFAULT_REMINDER_MINUTES } from '../render/watch-settings.js';
import { messageKey } from './conversation.js';
import { postOnce, type Poster } from './poster.js';
import type { WatchSlack } from './ports.js';
import {
  postKey,
  subKey,
  type CampaignFacts,
  type PostRecord,
  type Subscription,
  type WaitingRecord,
  type WatchState,
} from './state.js';

/** How long a users.lookupByEmail answer (a miss too) is reused. */
const EMAIL_CACHE_MS = 3600_000;
/** Assignees' addresses remembered at most. */
const MAX_EMAILS = 5000;
/** The plan limit is told to the owners at most this often per campaign. */
const BILLING_RETELL_MS = 24 * 3600_000;
const POLL = { priority: 'poller', maxRetries: 0 } as const;

/** What a read of a campaign gives its facts (from GET /campaigns/{id} or from the campaign list). */
interface ReadFacts {
  status: string;
  scheduling?: Schedule | null;
  timezone?: string | null;
}

/** More campaigns due for a read than this: the campaign list is read instead of each one (checkCampaigns). */
const LIST_CAMPAIGNS_ABOVE = 3;

export interface AttentionDeps {
  state: WatchState;
  outreach: OutreachApi;
  slack: WatchSlack;
  poster: Poster;
  logger: Logger;
  /** The app's clock (ms). */
  now: () => number;
  channelWords(channelId: string): Promise<Translator>;
  personWords(userId: string): Promise<{ t: Translator }>;
  /** Queues a work item of a channel's delivery worker (`remind:<callId>`). */
  enqueue(channelId: string, item: string): void;
  /** Least time between two reads of a watched campaign's status. */
  campaignCheckMs: number;
}

/** Whether the campaign runs at `at` by its weekly schedule, in its timezone. No schedule: it runs any time. */
export function inSchedule(scheduling: Schedule | null | undefined, timezone: string | undefined, at: number): boolean {
  if (!scheduling) return true;
  const days = DAYS.filter((d) => scheduling[d]);
  if (days.length === 0) return true;
  let local: string;
  try {
    local = formatInTimeZone(new Date(at), timezone ?? 'UTC', 'i HH:mm');
  } catch {
    local = formatInTimeZone(new Date(at), 'UTC', 'i HH:mm');
  }
  const [dayNumber, hhmm] = local.split(' ') as [string, string];
  const day = scheduling[DAYS[Number(dayNumber) - 1]!];
  if (!day?.active) return false;
  const start = day.startTime.slice(0, 5);
  const stop = day.stopTime.slice(0, 5);
  return hhmm >= start && hhmm < stop;
}

export class Attention {
  private readonly emails = new BoundedMap<string, { id: string | undefined; at: number }>(MAX_EMAILS);

  constructor(private readonly d: AttentionDeps) {}

  /** The size of what attention keeps in memory (bench/soak.bench.ts). */
  memoryFigures(): MemoryFigures {
    return { 'attention.emails': this.emails.size };
  }

  // ---------------------------------------------------------------------------------------------------------------
  // The end user writes (called by delivery around posting a conversation message in a call thread)

  /** Whether this end-user message is the end user writing (after the call ended), not the live transcript. */
  private async writes(post: PostRecord, m: Message): Promise<boolean> {
    if (m.sent_by !== 'EU') return false;
    const call = await this.d.state.call(post.campaignId, post.callId);
    if (!call) return true;
    // Ended (its policy evaluation may still be settling: `final` waits for it, the end user does not).
    if (!call.final && !FINAL_CALL_STATUSES.includes(call.status)) return false;
    const endedAt = call.snapshot?.ended_at ?? call.endedAt;
    const ended = endedAt ? Date.parse(endedAt) : call.finalAt;
    return ended === undefined || Number.isNaN(ended) || Date.parse(m.sent_at) >= ended;
  }

  /** The message as posted in the call thread: an end user's first message of a turn calls the assignee in. */
  async beforePost(post: PostRecord, m: Message, reply: SlackMessage, t: Translator) {
    if (!(await this.writes(post, m))) return { reply, mentioned: false };
    // Recorded before the message reaches Slack: a leader that dies right after posting it leaves the wait (and its
    // reminder) to the next one.
    await this.recordWaiting(post, m);
    if (post.turnMentioned) return { reply, mentioned: false };
    const assignee = await this.assignee(post);
    if (!assignee) return { reply, mentioned: false };
    return { reply: withAssigneeMention(reply, assignee, t), mentioned: true };
  }

  /** After a conversation message reached the call thread: the turn and the waiting record move on. */
  async afterPost(post: PostRecord, m: Message, mentioned: boolean, byPerson = false): Promise<void> {
    const { state } = this.d;
    if (byPerson || (m.sent_by !== 'EU' && m.sent_by_user)) {
      // A person answered, from the service's own app (`sent_by_user`) or from this call's thread in another channel
      // (`byPerson`): shown in the thread, it is a human reply.
      await this.humanWrote(post);
      return;
    }
    if (m.sent_by === 'AI') {
      if (post.turnMentioned) await this.endTurn(post);
      return;
    }
    if (!(await this.writes(post, m))) return;
    if (mentioned) {
      await state.updatePost(post.channelId, post.callId, (cur) =>
        cur.turnMentioned ? undefined : { ...cur, turnMentioned: true },
      );
    }
  }

  /** The end user waits for a person from this message on (the first unanswered one of the wait). */
  private async recordWaiting(post: PostRecord, m: Message): Promise<void> {
    const { state } = this.d;
    const key = postKey(post.channelId, post.callId);
    if (!post.ts || (await state.waiting.get(key))) return;
    const link = await this.d.slack.permalink(post.channelId, post.ts).catch(() => undefined);
    const rec: WaitingRecord = {
      channelId: post.channelId,
      campaignId: post.campaignId,
      callId: post.callId,
      ...(post.threadId ? { threadId: post.threadId } : {}),
      threadTs: post.ts,
      since: this.d.now(),
      messageKey: messageKey(m),
      ...(post.endUserName ? { endUserName: post.endUserName } : {}),
      ...(link ? { link } : {}),
    };
    await state.waiting.insertIfAbsent(key, rec, { expiresAt: this.d.now() + state.retentionMs });
  }

  private async endTurn(post: Pick<PostRecord, 'channelId' | 'callId'>): Promise<void> {
    await this.d.state.updatePost(post.channelId, post.callId, (cur) => {
      if (!cur.turnMentioned) return undefined;
      const next = { ...cur };
      delete next.turnMentioned;
      return next;
    });
  }

  /**
   * A person answered the call's customer (a reply that reached them, a note of a person who may reply, an answer from
   * the service's own app): nobody waits any more. The turn ends first, so once the wait is gone it is over.
   */
  async humanWrote(post: Pick<PostRecord, 'channelId' | 'callId'>): Promise<void> {
    await this.endTurn(post);
    await this.d.state.waiting.delete(postKey(post.channelId, post.callId));
  }

  /** Who is called in for a thread: its assignee found in Slack, else the person who set the watch there. */
  async assignee(post: Pick<PostRecord, 'campaignId' | 'channelId' | 'threadId'>): Promise<string | undefined> {
    if (post.threadId) {
      try {
        const thread = await this.d.outreach.getThread(post.threadId, POLL);
        for (const a of thread.assigned_to ?? []) {
          const id = a.email ? await this.userByEmail(a.email) : undefined;
          if (id) return id;
        }
      } catch (err) {
        this.d.logger.warn({ threadId: post.threadId, err: String(err) }, 'could not read a thread’s assignee');
      }
    }
    const sub = await this.d.state.subscriptions.get(subKey(post.campaignId, post.channelId));
    return sub?.createdBy;
  }

  private async userByEmail(email: string): Promise<string | undefined> {
    const key = email.trim().toLowerCase();
    const now = Date.now();
    const hit = this.emails.get(key);
    if (hit && now - hit.at < EMAIL_CACHE_MS) return hit.id;
    try {
      const id = await this.d.slack.userIdByEmail(key);
      this.emails.set(key, { id, at: now });
      return id;
    } catch (err) {
      this.d.logger.warn({ err: String(err) }, 'could not look up an assignee in Slack (users:read.email?)');
      return undefined;
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Reminders and the campaigns' status (after each poll cycle, by the leader)

  /**
   * After a poll cycle's listings: campaigns' status read when due (not while the service is down: the poller's probe
   * alone asks it then), then reminders that came due are queued. `requests`: the options of the service requests
   * (the cycle's, so they count in its figures).
   */
  async afterCycle(subscriptions: Subscription[], serviceDown = false, requests: CallOptions = POLL): Promise<void> {
    const active = subscriptions.filter((s) => !s.suspended);
    if (!serviceDown) {
      try {
        await this.checkCampaigns(active, requests);
      } catch (err) {
        this.d.logger.warn({ err: String(err) }, 'could not read the watched campaigns’ status');
      }
    }
    await this.queueReminders(active);
  }

  private async queueReminders(active: Subscription[]): Promise<void> {
    const subs = new Map(active.map((s) => [subKey(s.campaignId, s.channelId), s]));
    const now = this.d.now();
    for (const [, w] of await this.d.state.waiting.list()) {
      if (w.remindedAt !== undefined) continue;
      const sub = subs.get(subKey(w.campaignId, w.channelId));
      if (!sub) continue;
      const minutes = sub.reminderMinutes ?? DEFAULT_REMINDER_MINUTES;
      if (now - w.since < minutes * 60_000) continue;
      const facts = await this.d.state.campaignFacts.get(String(w.campaignId));
      if (!inSchedule(facts?.scheduling, facts?.timezone ?? sub.campaignTimezone, now)) continue;
      this.d.enqueue(w.channelId, `remind:${w.callId}`);
    }
  }

  /** The delivery worker's `remind:<callId>` item: the one reminder, unless someone answered meanwhile. */
  async remind(channelId: string, callId: string): Promise<void> {
    const { state } = this.d;
    const key = postKey(channelId, callId);
    const w = await state.waiting.get(key);
    if (!w || w.remindedAt !== undefined) return;
    const sub = await state.subscriptions.get(subKey(w.campaignId, channelId));
    if (!sub || sub.suspended) return;
    const post = await state.post(channelId, callId);
    const assignee = await this.assignee({
      campaignId: w.campaignId,
      channelId,
      ...((post?.threadId ?? w.threadId) ? { threadId: post?.threadId ?? w.threadId } : {}),
    });
    const t = await this.d.channelWords(channelId);
    const msg = waitingReminder(
      {
        assignee: assignee ?? sub.createdBy,
        minutes: sub.reminderMinutes ?? DEFAULT_REMINDER_MINUTES,
        ...(w.endUserName ? { endUserName: w.endUserName } : {}),
      },
      t,
    );
    const reminder = {
      ...msg,
      threadTs: w.threadTs,
      metadata: { event_type: 'outreach_reminder', event_payload: { call_id: callId } },
    };
    // Posted once across a leader's death between posting and recording it; not at all if someone answered or
    // another leader reminded meanwhile.
    const posted = await postOnce(this.d.poster, channelId, reminder, w.remindingSince, async (since) => {
      const marked = await state.updateWaiting(key, (cur) =>
        cur.remindedAt === undefined ? { ...cur, remindingSince: since } : undefined,
      );
      return marked !== undefined && marked.remindedAt === undefined;
    });
    if (!posted) return;
    const at = this.d.now();
    await state.updateWaiting(key, (cur) => (cur.remindedAt === undefined ? { ...cur, remindedAt: at } : undefined));
  }

  /**
   * Reads each watched campaign when due; a move to `finished` or an `inactive` not from Slack tells the owners.
   * More than a few due at once are read from the campaign list (GET /campaigns, 100 a page, which carries status,
   * schedule and timezone): 200 watched campaigns cost 2 requests a minute instead of 200 of the 12 a second.
   */
  private async checkCampaigns(active: Subscription[], requests: CallOptions): Promise<void> {
    const { state } = this.d;
    const byCampaign = new Map<number, Subscription[]>();
    for (const s of active) byCampaign.set(s.campaignId, [...(byCampaign.get(s.campaignId) ?? []), s]);
    const due: Array<{ campaignId: number; subs: Subscription[]; before: CampaignFacts | undefined }> = [];
    for (const [campaignId, subs] of byCampaign) {
      const before = await state.campaignFacts.get(String(campaignId));
      if (before && this.d.now() - before.checkedAt < this.d.campaignCheckMs) continue;
      due.push({ campaignId, subs, before });
    }
    const listed =
      due.length > LIST_CAMPAIGNS_ABOVE
        ? await this.listedCampaigns(
            due.map((d) => d.campaignId),
            requests,
          )
        : new Map<number, ReadFacts>();
    for (const { campaignId, subs, before } of due) {
      const now = this.d.now();
      let detail: ReadFacts | undefined = listed.get(campaignId);
      try {
        detail ??= await this.d.outreach.getCampaign(campaignId, requests);
      } catch (err) {
        if (codeOf(err) === 'BILLING_LIMIT_REACHED') await this.billingReached(campaignId);
        continue;
      }
      const next: CampaignFacts = { ...(before ?? { campaignId }), campaignId, checkedAt: now, status: detail.status };
      if (detail.scheduling) next.scheduling = detail.scheduling;
      else delete next.scheduling;
      if (detail.timezone) next.timezone = detail.timezone;
      let event: CampaignEvent | undefined;
      if (before?.status && before.status !== detail.status) {
        if (detail.status === 'finished') event = 'finished';
        else if (detail.status === 'inactive') {
          if (before.pausedFromSlackAt === undefined) event = 'paused';
        }
      }
      if (detail.status !== 'inactive') delete next.pausedFromSlackAt;
      await state.campaignFacts.put(String(campaignId), next, { expiresAt: now + state.retentionMs });
      if (event) await this.tellOwners(subs, event);
    }
  }

  /** The campaigns `ids` as the campaign list shows them (archived ones too); those it does not show are read alone. */
  private async listedCampaigns(ids: number[], requests: CallOptions): Promise<Map<number, ReadFacts>> {
    const wanted = new Set(ids);
    const found = new Map<number, ReadFacts>();
    try {
      for await (const c of this.d.outreach.iterateCampaigns({ includeArchived: true }, requests)) {
        if (!wanted.delete(c.id)) continue;
        found.set(c.id, {
          status: c.status,
          ...(c.scheduling ? { scheduling: c.scheduling } : {}),
          ...(c.timezone ? { timezone: c.timezone } : {}),
        });
        if (wanted.size === 0) break;
      }
    } catch (err) {
      this.d.logger.debug({ err: String(err) }, 'listing campaigns failed; reading the due ones one by one');
    }
    return found;
  }

  /** Someone paused the campaign from Slack (the audit trail says so): its `inactive` is not the service's doing. */
  async pausedFromSlack(campaignId: number): Promise<void> {
    const { state } = this.d;
    const at = this.d.now();
    const done = await state.updateCampaignFacts(campaignId, (cur) => ({ ...cur, pausedFromSlackAt: at }));
    if (!done) {
      await state.campaignFacts.insertIfAbsent(
        String(campaignId),
        { campaignId, checkedAt: 0, pausedFromSlackAt: at },
        { expiresAt: at + state.retentionMs },
      );
    }
  }

  /** The service refused the campaign for the plan limit: its watches' owners are told (at most once a day). */
  async billingReached(campaignId: number): Promise<void> {
    const { state } = this.d;
    const subs = await state.activeSubscriptions(campaignId);
    if (subs.length === 0) return;
    const at = this.d.now();
    let tell = false;
    const mark = (cur: CampaignFacts): CampaignFacts | undefined => {
      if (cur.billingToldAt !== undefined && at - cur.billingToldAt < BILLING_RETELL_MS) return undefined;
      tell = true;
      return { ...cur, billingToldAt: at };
    };
    const done = await state.updateCampaignFacts(campaignId, mark);
    if (!done) {
      tell = await state.campaignFacts.insertIfAbsent(
        String(campaignId),
        { campaignId, checkedAt: 0, billingToldAt: at },
        { expiresAt: at + state.retentionMs },
      );
    }
    if (tell) await this.tellOwners(subs, 'billing');
  }

  private async tellOwners(subs: Subscription[], event: CampaignEvent): Promise<void> {
    const owners = new Map<string, Subscription[]>();
    for (const s of subs) owners.set(s.createdBy, [...(owners.get(s.createdBy) ?? []), s]);
    for (const [owner, list] of owners) {
      try {
        const { t } = await this.d.personWords(owner);
        const first = list[0]!;
        const text = campaignEventNotice(
          {
            event,
            campaignId: first.campaignId,
            ...(first.campaignName ? { campaignName: first.campaignName } : {}),
            channelIds: list.map((s) => s.channelId),
          },
          t,
        );
        await this.d.slack.dm(owner, text);
      } catch (err) {
        this.d.logger.warn({ user: owner, event, err: String(err) }, 'could not tell the owner of a watch by DM');
      }
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // The Home tab

  /** Conversations waiting for a person's reply in watched channels (not suspended), oldest first. */
  async waitingList(): Promise<WaitingRecord[]> {
    const { state } = this.d;
    const active = new Set((await state.activeSubscriptions()).map((s) => subKey(s.campaignId, s.channelId)));
    return (await state.waiting.list())
      .map(([, w]) => w)
      .filter((w) => active.has(subKey(w.campaignId, w.channelId)))
      .sort((a, b) => a.since - b.since);
  }
}

/** The service's error key of a failure, when it gave one. */
function codeOf(err: unknown): string | undefined {
  return isOutreachError(err) ? err.key : undefined;
}
