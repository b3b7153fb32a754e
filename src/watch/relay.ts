/**
 * Replies from Slack to the service: a person's message in a call's Slack thread (or in their DM with the app during
 * `/campaign try`) is sent with POST /message {agent_id, end_user_id, content}; the agent's answer is posted back in
 * order through delivery, with the person's own message counted as already in Slack; a reaction on the person's
 * message says sent (✅) or failed (❌, with an ephemeral reason).
 *
 * Ignored: the bot's own and other bots' messages, edits, deletions and other subtypes, top-level channel messages,
 * internal notes (`note:` / `//`), and an event Slack delivers twice (same `event_id`, claimed in the store, so one
 * replica handles it even when the redelivery reaches another; remembered for an hour).
 *
 * Only responders speak to customers (src/slack/watch/speakers.ts): anyone else's reply stays in Slack as an internal note (🔒, and
 * an ephemeral saying who can reply); guests and people of another team never relay. A thread we do not know is
 * trusted only when its parent was posted by this app and its campaign is watched in that channel. Every reply sent
 * to a customer, or refused, is audited.
 */
import { BoundedSet, type MemoryFigures } from '../bounded.js';
import type { Logger } from '../log.js';
import type { OutreachApi } from '../outreach/api.js';
import { humanMessage } from '../outreach/errors.js';
import type { Message, SendMessageResult } from '../outreach/schemas.js';
import { serviceErrorText } from '../render/service-error.js';
import { relayFailedSentence, tryHintText } from '../render/watch.js';
import type { Translator } from '../i18n/translator.js';
import { messageKey, newCursor, relayedTextMarker, withAccounted } from './conversation.js';
import type { Delivery } from './delivery.js';
import type { Poster } from './poster.js';
import type { AuditRecord, SpeakerCheck, SpeakerQuery, WatchSlack } from './ports.js';
import { subKey, type ConversationCursor, type PostRecord, type WatchState } from './state.js';

const REACTION_SENT = 'white_check_mark';
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
  /** A person wrote in a call's thread (reply, note, or a reply kept in Slack): its customer no longer waits. */
  humanWrote?(post: PostRecord): Promise<void>;
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

export type RelayOutcome = 'ignored' | 'duplicate' | 'note' | 'not-ours' | 'sent' | 'failed' | 'empty' | 'kept';

export class Relay {
  constructor(private readonly d: RelayDeps) {}

  /**
   * True for exactly one delivery of an event id (claimed durably in the store, insert-if-absent: two deliveries
   * arriving together, here or at two replicas, cannot both pass); false for a redelivery.
   */
  async firstDelivery(eventId: string | undefined): Promise<boolean> {
    if (!eventId) return true;
    return this.d.state.claimEvent(eventId);
  }

  async onMessage(e: SlackMessageEvent, meta: RelayMeta): Promise<RelayOutcome> {
    const v = classifyMessageEvent(e, { userId: meta.botUserId, botId: meta.botId });
    if (v.kind === 'ignore') return 'ignored';
    const post = v.kind === 'thread' ? await this.threadPost(v.channel, v.threadTs, meta) : undefined;
    if (v.kind === 'thread' && !post) return 'not-ours';
    if (v.kind === 'dm' && (await this.d.state.tries.get(v.user))?.dmChannelId !== v.channel) {
      if (!(await this.firstDelivery(meta.eventId))) return 'duplicate';
      await this.d.poster
        .post(v.channel, {
          text: tryHintText(await this.d.words(v.user)),
        })
        .catch(() => undefined);
      return 'not-ours';
    }
    if (!(await this.firstDelivery(meta.eventId))) return 'duplicate';
    if (post && v.text.trim() !== '') {
      await this.d.humanWrote?.(post).catch((err: unknown) => {
        this.d.logger.warn({ channel: v.channel, err: String(err) }, 'could not record that a person answered');
      });
    }
    if (isInternalNote(v.text)) return 'note';
    if (v.text.trim() === '') return 'empty';
    if (!(await this.maySpeak(v, meta, post))) return 'kept';
    return v.kind === 'thread' ? this.relayThreadReply(v, post!) : this.relayTry(v);
  }

  /**
   * Whether the author may write to the customer (or, in a try DM, to the agent). If not, the message stays where it
   * is, marked 🔒 (❌ when Slack could not tell us who wrote it), the author is told why, and the refusal audited.
   */
  private async maySpeak(
    v: Exclude<EventVerdict, { kind: 'ignore' }>,
    meta: RelayMeta,
    post: PostRecord | undefined,
  ): Promise<boolean> {
    const { speakers, poster, audit } = this.d;
    const verdict = await speakers.check({
      userId: v.user,
      ...(v.userTeam ? { userTeam: v.userTeam } : {}),
      ...(v.sourceTeam ? { sourceTeam: v.sourceTeam } : {}),
      ...(meta.teamId ? { payloadTeamId: meta.teamId } : {}),
    });
    if (verdict.ok) return true;
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
    return false;
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
   * campaign must be watched in that channel now.
   */
  private async threadPost(channel: string, threadTs: string, meta: RelayMeta): Promise<PostRecord | undefined> {
    const known = await this.d.state.postByThreadTs(channel, threadTs);
    if (known) return known;
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
      const sub = Number.isSafeInteger(campaignId)
        ? await this.d.state.subscriptions.get(subKey(campaignId, channel))
        : undefined;
      if (!sub || sub.suspended) return undefined;
      const callId = String(p.call_id);
      const threadId = String(p.thread_id);
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
    } catch (err) {
      this.d.logger.warn({ channel, err: String(err) }, 'could not look up the parent of a thread reply');
      return undefined;
    }
  }

  private async fail(channel: string, user: string, ts: string, threadTs: string | undefined, err: unknown) {
    this.d.logger.warn({ channel, err: err instanceof Error ? err.message : String(err) }, 'relaying a reply failed');
    await this.d.poster.react(channel, ts, REACTION_FAILED).catch(() => undefined);
    const t = await this.d.words(user);
    await this.d.poster
      .ephemeral(channel, user, relayFailedSentence(serviceErrorText(err, t), t), threadTs)
      .catch(() => undefined);
  }

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
    const save = async (fn: (c: ConversationCursor) => ConversationCursor) => {
      await state.updatePost(channelId, callId, (cur) => ({ ...cur, conv: fn(cur.conv ?? newCursor(Date.now())) }));
    };
    try {
      if (post.rebuilt) {
        // Rebuilt mapping: what the thread holds now was shown before the mapping was let go. (A post that merely has
        // no cursor yet, its message just posted, shows nothing yet: `save` starts its cursor at the first message.)
        const all = await outreach.getMessages(threadId);
        const last = all[all.length - 1];
        const conv: ConversationCursor = { ...newCursor(Date.now()), count: all.length, introPosted: true };
        if (last) conv.lastKey = messageKey(last);
        const fresh = (cur: PostRecord): PostRecord | undefined => {
          // Another reply (here or at another replica) set the cursor first: it may already count more.
          if (!cur.rebuilt) return undefined;
          const next: PostRecord = { ...cur, conv };
          delete next.rebuilt;
          return next;
        };
        post = (await state.updatePost(channelId, callId, fresh)) ?? post;
      }
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
      // Known before sending: if we crash after the service took it, the poller still won't post it back.
      await save((c) => withAccounted(c, relayedTextMarker(v.text)));
      const result = await outreach.sendMessage({
        agent_id: post.agentId!,
        end_user_id: post.endUserId!,
        content: v.text,
      });
      await save((c) => ({
        ...(result.in_response_to ? withAccounted(c, messageKey(result.in_response_to)) : c),
        lastActivityAt: Date.now(),
      }));
      await this.auditReply(v, post, 'ok');
      await this.d.poster.react(v.channel, v.ts, REACTION_SENT).catch(() => undefined);
      await this.refresh(threadId, result, async () => (await state.post(channelId, callId))?.conv);
      return 'sent';
    } catch (err) {
      await this.auditReply(v, post, 'failed', humanMessage(err));
      await this.fail(v.channel, v.user, v.ts, v.threadTs, err);
      return 'failed';
    }
  }

  /** Who wrote to which customer (end user) of which campaign, and when; never the words themselves. */
  private async auditReply(
    v: Extract<EventVerdict, { kind: 'thread' }>,
    post: PostRecord,
    result: 'ok' | 'failed',
    why?: string,
  ): Promise<void> {
    const at = `at ${new Date().toISOString()}, Slack message ${v.ts}`;
    await this.d.audit({
      userId: v.user,
      action: replyAction(post, v.channel),
      campaignId: post.campaignId,
      result,
      detail: why ? `${why} (${at})` : at,
    });
  }

  /**
   * After a send: read the conversation again so the answer is posted in order after anything that came before it.
   * If that read fails, and what we hold is exactly what the thread has accounted for, the answer is appended to it.
   */
  private async refresh(
    threadId: string,
    result: SendMessageResult,
    conv: () => Promise<ConversationCursor | undefined>,
  ) {
    try {
      const all = await this.d.outreach.getMessages(threadId);
      await this.d.delivery.conversationFetched(threadId, all);
    } catch (err) {
      const held = this.d.delivery.conversations.get(threadId) ?? [];
      const c = await conv();
      if (c && held.length === c.count) {
        const added: Message[] = [...(result.in_response_to ? [result.in_response_to] : []), ...result.messages];
        await this.d.delivery.conversationFetched(threadId, [...held, ...added]);
      } else {
        this.d.logger.warn(
          { threadId, err: String(err) },
          'could not read the conversation; the poller will post the answer',
        );
      }
    }
  }

  private async relayTry(v: Extract<EventVerdict, { kind: 'dm' }>): Promise<RelayOutcome> {
    const { state, outreach } = this.d;
    const session = await state.tries.get(v.user);
    if (!session?.agentId) return 'not-ours';
    const agentId = session.agentId;
    try {
      if (session.conv) {
        await state.updateTry(v.user, (cur) =>
          cur.conv ? { ...cur, conv: withAccounted(cur.conv, relayedTextMarker(v.text)) } : undefined,
        );
      }
      const result = await outreach.sendMessage({ agent_id: agentId, end_user_id: session.endUserId, content: v.text });
      const cur = (await state.tries.get(v.user)) ?? session;
      const threadId = result.thread.id;
      await this.d.poster.react(v.channel, v.ts, REACTION_SENT).catch(() => undefined);
      if (cur.threadId !== threadId || !cur.conv) {
        // A conversation new to this DM: what the thread held before (an earlier try) is not replayed; we start at
        // the person's message, which is already here.
        const start = result.in_response_to ? [result.in_response_to, ...result.messages] : result.messages;
        let conv = newCursor(Date.now());
        if (result.in_response_to) conv = withAccounted(conv, messageKey(result.in_response_to));
        await state.tries.put(v.user, { ...cur, threadId, conv });
        this.d.delivery.conversations.set(threadId, start);
        await this.d.delivery.conversationFetched(threadId, start);
        return 'sent';
      }
      await state.updateTry(v.user, (c) =>
        c.conv
          ? {
              ...c,
              conv: {
                ...(result.in_response_to ? withAccounted(c.conv, messageKey(result.in_response_to)) : c.conv),
                lastActivityAt: Date.now(),
              },
            }
          : undefined,
      );
      await this.refresh(threadId, result, async () => (await state.tries.get(v.user))?.conv);
      return 'sent';
    } catch (err) {
      await this.fail(v.channel, v.user, v.ts, undefined, err);
      return 'failed';
    }
  }
}

/** The audit's action for a reply in a call thread: which end user, which call, where. */
function replyAction(post: PostRecord, channel: string): string {
  const who = post.endUserId ? `end user ${post.endUserId}` : 'the end user';
  return `reply to ${who} (call ${post.callId}) in ${channel}`;
}
