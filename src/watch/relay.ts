/**
 * Replies from Slack to the service: a person's message in a call's Slack thread (or in their DM with the app during
 * `/campaign try`) is sent with POST /message {agent_id, end_user_id, content} (reply-send.ts: mark, act, record);
 * the agent's answer is posted back in order through delivery, with the person's own message counted as already in
 * Slack (conversation.ts); a reaction on the person's message says sent (✅) or failed (❌, with an ephemeral reason).
 *
 * Ignored: the bot's own and other bots' messages, edits, deletions and other subtypes, top-level channel messages,
 * internal notes (`note:` / `//`), and an event Slack delivers twice: a reply is marked once per Slack message in
 * its conversation's ledger, anything else claims its `event_id` in the store (remembered for an hour), so one
 * replica handles it even when the redelivery reaches another.
 *
 * Only responders speak to customers (src/slack/watch/speakers.ts): anyone else's reply stays in Slack as an internal
 * note (🔒, and an ephemeral saying who can reply); guests and people of another team never relay. Only a reply that
 * reached the customer, or a note of a person who may reply, ends the customer's wait (attention.ts). A thread is
 * trusted only when its campaign is watched in that channel now (a thread we do not know, only when its parent was
 * posted by this app): a reply in the thread of a campaign no longer watched there stays in Slack, and its author is
 * told. Every reply sent to a customer, or refused, is audited.
 */
import { randomUUID } from 'node:crypto';
import { BoundedSet, type MemoryFigures } from '../bounded.js';
import type { Logger } from '../log.js';
import type { OutreachApi } from '../outreach/api.js';
import { relayUnwatchedSentence, tryHintText } from '../render/watch.js';
import type { Translator } from '../i18n/translator.js';
import { postRef, tryRef } from './conversation.js';
import type { Delivery } from './delivery.js';
import type { Poster } from './poster.js';
import type { AuditRecord, SpeakerCheck, SpeakerQuery, SpeakerVerdict, WatchSlack } from './ports.js';
import { replyAction, ReplySender } from './reply-send.js';
import { subKey, type PendingSend, type PostRecord, type WatchState } from './state.js';

const REACTION_FAILED = 'x';
/** On a reply that stayed in Slack because its author may not write to customers. */
const REACTION_KEPT = 'lock';
/** Longest reply sent to the service. */
const MAX_REPLY_CHARS = 4000;
/** Threads remembered as not being call messages, at most (the oldest looked up are looked up again). */
const MAX_NOT_CALLS = 10_000;

/** The parts of a Slack message event we read. */
export interface SlackMessageEvent {
  type?: string;
  subtype?: string;
  hidden?: boolean;
  channel?: string;
  channel_type?: string;
  user?: string;
  /** The author's team and the team the message was sent from: another organization's in a Slack Connect channel. */
  user_team?: string;
  source_team?: string;
  bot_id?: string;
  bot_profile?: unknown;
  app_id?: string;
  text?: string;
  ts?: string;
  thread_ts?: string;
  files?: Array<{ name?: string; title?: string; permalink?: string }>;
}

/** The author's teams as the event states them. */
type Teams = Pick<SpeakerQuery, 'userTeam' | 'sourceTeam'>;

export type EventVerdict =
  | { kind: 'ignore'; why: string }
  | ({ kind: 'thread'; channel: string; threadTs: string; ts: string; user: string; text: string } & Teams)
  | ({ kind: 'dm'; channel: string; ts: string; user: string; text: string } & Teams);

const KEPT_SUBTYPES = new Set(['file_share', 'thread_broadcast']);

/** Decides what a message event is to us. Pure. */
export function classifyMessageEvent(e: SlackMessageEvent, bot: { userId?: string; botId?: string }): EventVerdict {
  if (e.type !== undefined && e.type !== 'message') return { kind: 'ignore', why: 'not a message' };
  if (e.subtype && !KEPT_SUBTYPES.has(e.subtype)) return { kind: 'ignore', why: `subtype ${e.subtype}` };
  if (e.hidden) return { kind: 'ignore', why: 'hidden' };
  if (e.bot_id || e.bot_profile) return { kind: 'ignore', why: e.bot_id === bot.botId ? 'own message' : 'a bot' };
  if (!e.user || (bot.userId && e.user === bot.userId)) return { kind: 'ignore', why: 'own message' };
  if (!e.channel || !e.ts) return { kind: 'ignore', why: 'incomplete' };
  const text = eventText(e);
  const teams: Teams = {
    ...(e.user_team ? { userTeam: e.user_team } : {}),
    ...(e.source_team ? { sourceTeam: e.source_team } : {}),
  };
  if (e.thread_ts && e.thread_ts !== e.ts) {
    return { kind: 'thread', channel: e.channel, threadTs: e.thread_ts, ts: e.ts, user: e.user, text, ...teams };
  }
  if (e.channel_type === 'im' || e.channel.startsWith('D')) {
    return { kind: 'dm', channel: e.channel, ts: e.ts, user: e.user, text, ...teams };
  }
  return { kind: 'ignore', why: 'top-level channel message' };
}

/** `note: …` or `// …`: stays in Slack. */
export function isInternalNote(text: string): boolean {
  const t = text.trimStart();
  return /^note:/i.test(t) || t.startsWith('//');
}

/** Slack mrkdwn as a person typed it → plain text for the service (links and mentions readable, entities undone). */
export function slackToPlain(text: string): string {
  return text
    .replace(/<(https?:[^|>]+)\|([^>]+)>/g, '$2 ($1)')
    .replace(/<(https?:[^>]+)>/g, '$1')
    .replace(/<mailto:([^|>]+)(?:\|[^>]+)?>/g, '$1')
    .replace(/<#[CG][A-Z0-9]+\|([^>]*)>/g, '#$1')
    .replace(/<@([UW][A-Z0-9]+)(?:\|[^>]*)?>/g, '@$1')
    .replace(/<!(here|channel|everyone)(?:\|[^>]*)?>/g, '@$1')
    .replace(/<!subteam\^[A-Z0-9]+\|([^>]*)>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function eventText(e: SlackMessageEvent): string {
  const parts = [slackToPlain(e.text ?? '')];
  for (const f of e.files ?? []) {
    const name = f.title || f.name || 'file';
    parts.push(f.permalink ? `[file: ${name}] ${f.permalink}` : `[file: ${name}]`);
  }
  return parts
    .filter((p) => p.trim() !== '')
    .join('\n')
    .slice(0, MAX_REPLY_CHARS);
}

export interface RelayDeps {
  state: WatchState;
  outreach: OutreachApi;
  delivery: Delivery;
  poster: Poster;
  /** Looks up a thread's parent message. */
  slack: WatchSlack;
  logger: Logger;
  speakers: SpeakerCheck;
  audit: AuditRecord;
  /** The words of one person: what the relay tells a writer (hints, refusals, failures) is in their language. */
  words(userId: string): Promise<Translator>;
  /**
   * A person ended a call's customer's wait: their reply reached the customer, or they (a person who may reply)
   * wrote a note in the thread.
   */
  humanWrote?(post: PostRecord): Promise<void>;
  /** A reply marked this long ago and not recorded is completed by whoever finds it (reply-send.ts). */
  abandonedAfterMs: number;
}

/** What the relay knows of the delivery besides the event: ids of this app and its installation. */
export interface RelayMeta {
  eventId?: string;
  botUserId?: string;
  botId?: string;
  /** The envelope's `api_app_id`: this app. */
  appId?: string;
  /** Bolt's `context.teamId` (the installation's team), a stand-in only while auth.test cannot be reached. */
  teamId?: string;
}

export type RelayOutcome =
  'ignored' | 'duplicate' | 'note' | 'not-ours' | 'sent' | 'failed' | 'pending' | 'empty' | 'kept' | 'unwatched';

/** The call behind a thread: its post, or a call of ours whose campaign is not watched in that channel now. */
type ThreadCall = { kind: 'watched'; post: PostRecord } | { kind: 'unwatched'; campaignId: number; suspended: boolean };

type Written = Exclude<EventVerdict, { kind: 'ignore' }>;

export class Relay {
  private readonly sender: ReplySender;

  constructor(private readonly d: RelayDeps) {
    this.sender = new ReplySender({
      state: d.state,
      outreach: d.outreach,
      delivery: d.delivery,
      poster: d.poster,
      logger: d.logger,
      audit: d.audit,
      words: (userId) => d.words(userId),
      ...(d.humanWrote ? { humanWrote: d.humanWrote } : {}),
      abandonedAfterMs: d.abandonedAfterMs,
    });
  }

  /**
   * True for exactly one delivery of an event id (claimed durably in the store, insert-if-absent: two deliveries
   * arriving together, here or at two replicas, cannot both pass); false for a redelivery.
   */
  async firstDelivery(eventId: string | undefined): Promise<boolean> {
    if (!eventId) return true;
    return this.d.state.claimEvent(eventId);
  }

  /** After a poll cycle (the leader): replies marked and not recorded whose senders seem gone are completed. */
  recoverReplies(): Promise<void> {
    return this.sender.recoverMarked();
  }

  async onMessage(e: SlackMessageEvent, meta: RelayMeta): Promise<RelayOutcome> {
    const v = classifyMessageEvent(e, { userId: meta.botUserId, botId: meta.botId });
    if (v.kind === 'ignore') return 'ignored';
    if (v.kind === 'dm') return this.onDirectMessage(v, meta);
    const call = await this.threadPost(v.channel, v.threadTs, meta);
    if (!call) return 'not-ours';
    if (v.text.trim() === '') return 'empty';
    if (call.kind === 'unwatched') {
      if (isInternalNote(v.text)) return 'note';
      return (await this.firstDelivery(meta.eventId)) ? this.unwatched(v, call) : 'duplicate';
    }
    const verdict = await this.check(v, meta);
    if (isInternalNote(v.text)) {
      if (!(await this.firstDelivery(meta.eventId))) return 'duplicate';
      // A note of a person who may reply is their answer in the team: the customer no longer waits for one.
      if (verdict.ok) await this.endWait(call.post, v.channel);
      return 'note';
    }
    if (!verdict.ok) return (await this.firstDelivery(meta.eventId)) ? this.keep(v, call.post, verdict) : 'duplicate';
    return this.relayThreadReply(v, call.post);
  }

  /** A message in a DM with the app: to the agent of the person's try, else a hint how to start one. */
  private async onDirectMessage(v: Extract<EventVerdict, { kind: 'dm' }>, meta: RelayMeta): Promise<RelayOutcome> {
    if ((await this.d.state.tries.get(v.user))?.dmChannelId !== v.channel) {
      if (!(await this.firstDelivery(meta.eventId))) return 'duplicate';
      await this.d.poster.post(v.channel, { text: tryHintText(await this.d.words(v.user)) }).catch(() => undefined);
      return 'not-ours';
    }
    if (isInternalNote(v.text)) return 'note';
    if (v.text.trim() === '') return 'empty';
    const verdict = await this.check(v, meta);
    if (!verdict.ok) return (await this.firstDelivery(meta.eventId)) ? this.keep(v, undefined, verdict) : 'duplicate';
    return this.relayTry(v);
  }

  private async endWait(post: PostRecord, channel: string): Promise<void> {
    await this.d.humanWrote?.(post).catch((err: unknown) => {
      this.d.logger.warn({ channel, err: String(err) }, 'could not record that a person answered');
    });
  }

  /** Whether the author may write to the customer (or, in a try DM, to the agent): Slack's word on who they are. */
  private check(v: Written, meta: RelayMeta): Promise<SpeakerVerdict> {
    return this.d.speakers.check({
      userId: v.user,
      ...(v.userTeam ? { userTeam: v.userTeam } : {}),
      ...(v.sourceTeam ? { sourceTeam: v.sourceTeam } : {}),
      ...(meta.teamId ? { payloadTeamId: meta.teamId } : {}),
    });
  }

  /**
   * The author may not write to the customer (or the agent): the message stays where it is, marked 🔒 (❌ when Slack
   * could not tell us who wrote it), the author is told why, and the refusal audited. The customer still waits.
   */
  private async keep(
    v: Written,
    post: PostRecord | undefined,
    verdict: Extract<SpeakerVerdict, { ok: false }>,
  ): Promise<RelayOutcome> {
    const { speakers, poster, audit } = this.d;
    const threadTs = v.kind === 'thread' ? v.threadTs : undefined;
    this.d.logger.info({ channel: v.channel, user: v.user, reason: verdict.reason }, 'a reply stayed in Slack');
    await poster
      .react(v.channel, v.ts, verdict.reason === 'unknown' ? REACTION_FAILED : REACTION_KEPT)
      .catch(() => undefined);
    await poster
      .ephemeral(
        v.channel,
        v.user,
        speakers.refusalSentence(verdict.reason, v.kind === 'thread' ? 'reply' : 'try', await this.d.words(v.user)),
        threadTs,
      )
      .catch(() => undefined);
    await audit({
      userId: v.user,
      action: post ? replyAction(post, v.channel) : `write to an agent in ${v.channel}`,
      ...(post ? { campaignId: post.campaignId } : {}),
      result: verdict.reason === 'unknown' ? 'failed' : 'refused',
      detail: `${verdict.detail}; the message stayed in Slack (${new Date().toISOString()})`,
    });
    return 'kept';
  }

  /** A reply in the thread of a call whose campaign this channel no longer watches: it stays in Slack, and why. */
  private async unwatched(
    v: Extract<EventVerdict, { kind: 'thread' }>,
    call: Extract<ThreadCall, { kind: 'unwatched' }>,
  ): Promise<RelayOutcome> {
    const { poster } = this.d;
    this.d.logger.info(
      { channel: v.channel, campaignId: call.campaignId },
      'a reply in an unwatched thread stayed in Slack',
    );
    await poster.react(v.channel, v.ts, REACTION_KEPT).catch(() => undefined);
    const text = relayUnwatchedSentence(call.campaignId, call.suspended, await this.d.words(v.user));
    await poster.ephemeral(v.channel, v.user, text, v.threadTs).catch(() => undefined);
    await this.d.audit({
      userId: v.user,
      action: `reply in a thread of campaign ${call.campaignId} in ${v.channel}`,
      campaignId: call.campaignId,
      result: 'refused',
      detail: `the campaign is ${call.suspended ? 'suspended' : 'not watched'} in ${v.channel}; the message stayed in Slack (${new Date().toISOString()})`,
    });
    return 'unwatched';
  }

  /** Threads already looked up in Slack and found not to be call messages. */
  private readonly notCalls = new BoundedSet<string>(MAX_NOT_CALLS);

  /** The size of what the relay keeps in memory (bench/soak.bench.ts). */
  memoryFigures(): MemoryFigures {
    return { 'relay.notCalls': this.notCalls.size };
  }

  /**
   * The call whose Slack thread a reply is in: the post found by its message's ts, or else through the parent
   * message's metadata (campaign, call, thread ids), in a watched channel. Not finding it by ts means one of two
   * things, told apart by the post's own key (channel, call id):
   * - the post exists but its ts is not stored yet: the leader (here or at another replica) has just posted the call
   *   message and not yet written it back. Its ts is written now and nothing is marked as shown: the conversation
   *   cursor, when it is created, starts at the first message, so every line is still posted once;
   * - the post is gone (let go once settled and idle, or expired after the retention): it is rebuilt, and what the
   *   conversation holds now counts as shown before (relayThreadReply).
   * Ours means posted by this app (its `bot_id`, or its `app_id` when the bot id is unknown): anyone can post a
   * message with the same metadata shape, and trusting it would let them reach any campaign's conversations. And its
   * campaign must be watched in that channel now, whether the post is known or not: otherwise `unwatched`.
   */
  private async threadPost(channel: string, threadTs: string, meta: RelayMeta): Promise<ThreadCall | undefined> {
    const known = await this.d.state.postByThreadTs(channel, threadTs);
    if (known) return this.watchedNow(known.campaignId, channel, () => known);
    const key = `${channel}/${threadTs}`;
    if (this.notCalls.has(key)) return undefined;
    if (!(await this.d.state.watchedChannel(channel))) return undefined;
    try {
      const m = await this.d.slack.messageAt(channel, threadTs);
      const p = m?.metadata?.event_payload;
      if (m?.ts !== threadTs || m.metadata?.event_type !== 'outreach_call' || !p?.call_id || !p.thread_id) {
        this.notCalls.add(key);
        return undefined;
      }
      const appId = m.app_id ?? m.bot_profile?.app_id;
      const byThisApp = meta.botId ? m.bot_id === meta.botId : Boolean(meta.appId && appId === meta.appId);
      if (!byThisApp) {
        this.d.logger.warn(
          { channel, threadTs, botId: m.bot_id, appId },
          'a thread parent carries call metadata but was not posted by this app; its replies are not relayed',
        );
        this.notCalls.add(key);
        return undefined;
      }
      const campaignId = Number(p.campaign_id);
      if (!Number.isSafeInteger(campaignId)) return undefined;
      return this.watchedNow(campaignId, channel, () =>
        this.mappedPost(channel, threadTs, campaignId, String(p.call_id), String(p.thread_id)),
      );
    } catch (err) {
      this.d.logger.warn({ channel, err: String(err) }, 'could not look up the parent of a thread reply');
      return undefined;
    }
  }

  /** The call's post when its campaign is watched (not suspended) in the channel now; else `unwatched`. */
  private async watchedNow(
    campaignId: number,
    channel: string,
    post: () => PostRecord | undefined | Promise<PostRecord | undefined>,
  ): Promise<ThreadCall | undefined> {
    const sub = await this.d.state.subscriptions.get(subKey(campaignId, channel));
    if (!sub || sub.suspended) return { kind: 'unwatched', campaignId, suspended: sub !== undefined };
    const found = await post();
    return found ? { kind: 'watched', post: found } : undefined;
  }

  /** The post of a call found by its Slack message: its ts written back, or rebuilt when it was let go. */
  private async mappedPost(
    channel: string,
    threadTs: string,
    campaignId: number,
    callId: string,
    threadId: string,
  ): Promise<PostRecord | undefined> {
    // Posted, not yet written back: only the ts is added (the poster writes the same one when it gets there).
    const withTs = (cur: PostRecord): PostRecord | undefined =>
      cur.ts ? undefined : { ...cur, ts: threadTs, threadId: cur.threadId ?? threadId };
    const existing = await this.d.state.updatePost(channel, callId, withTs);
    if (existing) return existing;
    const rebuilt: PostRecord = {
      channelId: channel,
      campaignId,
      callId,
      threadId,
      createdAt: new Date().toISOString(),
      ts: threadTs,
      rebuilt: true,
    };
    if (await this.d.state.insertPost(rebuilt)) return rebuilt;
    // Written meanwhile (another replica rebuilt it, or the poster wrote it back): that one holds.
    return await this.d.state.updatePost(channel, callId, withTs);
  }

  /** A responder's reply in a call's thread: the post made ready (people, a rebuilt cursor), then sent. */
  private async relayThreadReply(
    v: Extract<EventVerdict, { kind: 'thread' }>,
    mapped: PostRecord,
  ): Promise<RelayOutcome> {
    const { state, outreach } = this.d;
    const found = await state.post(mapped.channelId, mapped.callId);
    if (!found?.threadId) return 'not-ours';
    let post = found;
    const { channelId, callId } = post;
    const threadId = found.threadId;
    try {
      // Rebuilt mapping: what the thread holds now was shown before the mapping was let go. (A post that merely has
      // no cursor yet, its message just posted, shows nothing yet: its cursor starts at the first message.)
      if (post.rebuilt) post = await this.d.delivery.ledger.rebuiltShown(post, await outreach.getMessages(threadId));
      if (!post.agentId || !post.endUserId) {
        const thread = await outreach.getThread(threadId);
        const withPeople = (cur: PostRecord): PostRecord => ({
          ...cur,
          agentId: thread.agent.id,
          endUserId: thread.end_user.id,
          ...(thread.end_user.display_name ? { endUserName: thread.end_user.display_name } : {}),
        });
        post = (await state.updatePost(channelId, callId, withPeople)) ?? withPeople(post);
      }
    } catch (err) {
      // Nothing was marked or sent: the person is told it failed and may write it again.
      return this.sender.notSent({ ref: postRef(post), post }, { channelId: v.channel, ts: v.ts, userId: v.user }, err);
    }
    const send = newSend(v, { agentId: post.agentId!, endUserId: post.endUserId!, threadId });
    return this.sender.send({ ref: postRef(post), post }, send);
  }

  private async relayTry(v: Extract<EventVerdict, { kind: 'dm' }>): Promise<RelayOutcome> {
    const session = await this.d.state.tries.get(v.user);
    if (!session?.agentId) return 'not-ours';
    const send = newSend(v, {
      agentId: session.agentId,
      endUserId: session.endUserId,
      // The thread the session talks in, when it is this agent's (else the send creates or finds one).
      ...(session.threadId && session.conv ? { threadId: session.threadId } : {}),
    });
    return this.sender.send({ ref: tryRef(v.user) }, send);
  }
}

/** The mark of a reply about to be sent (reply-send.ts). */
function newSend(v: Written, to: { agentId: string; endUserId: string; threadId?: string }): PendingSend {
  return {
    ts: v.ts,
    channelId: v.channel,
    userId: v.user,
    content: v.text,
    idempotencyKey: randomUUID(),
    ...to,
    at: Date.now(),
  };
}
