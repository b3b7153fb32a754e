/**
 * Delivery: one worker per channel turns recorded state into Slack messages, one write at a time (paced by the
 * poster), persisting each result before the next write. The poller and the relay only record what should be shown
 * and enqueue a work item; so Slack's pace never holds up polling, and after a restart everything that was recorded
 * but not yet shown is simply enqueued again.
 *
 * Work items of a channel: `call:<callId>` (the call's own message), `digest:<id>` (a burst digest), `conv:<callId>`
 * (the conversation in the call's thread), `try:<userId>` (a `/campaign try` conversation in a DM), `wa:<key>`
 * (WhatsApp digest or contact message), `remind:<callId>` (the one reminder of a customer left waiting: attention.ts).
 *
 * Bursts: when more new calls wait for a channel than it can take before the next poll (`burstThreshold`), the
 * channel switches to digest mode: waiting and further new calls go into a digest message updated in place (every
 * call listed, none dropped) until calls have been calm for `calmMs`.
 *
 * Slack's limits (its budgets per method are the poster's, src/slack/method-budget.ts; here is what is asked of it):
 * - One message is written at most every `updateGapMs` (UPDATE_GAP_MS): a change within the gap waits for the gap's
 *   end and then the state of that moment is sent, so states in between cost nothing. What waits is recorded, so it
 *   is never lost: a final state is delivered later, never dropped (after a restart it is queued again with the rest).
 * - A call message posted while its call runs is "open": it owes a final chat.update. Slack allows few of those (its
 *   Tier 3, ~50 a minute for the workspace), so a running call is posted only while the open messages plus the
 *   chat.update calls made in the last `updateWindowMs` (Slack's minute) stay below `maxOpenCalls` (twice the
 *   watch's share of a minute, from Slack's budget: the final states of every open message fit in two minutes of
 *   updates, beside the updates under way). A call that starts beyond that is posted when it ends, once, in its final
 *   state, as is any call that ends before its first post went out. Each open message is released when its final
 *   state is written (or when its channel no longer watches).
 *
 * The store cannot persist (disk full, database down): nothing is written into Slack, since what is posted now could
 * not be recorded and would be posted again after a restart. The queues are emptied; when the store takes writes
 * again the watch service queues again everything recorded but not shown (service.ts `resume`).
 *
 * Records more than one writer changes (posts, digests, WhatsApp posts, try sessions) are changed with
 * compare-and-set (state.ts `updateRecord`); placing new calls in a channel (digest or not) runs one at a time per
 * channel.
 */
import { BoundedMap, BoundedSet, type MemoryFigures } from '../bounded.js';
import type { Translator } from '../i18n/translator.js';
import type { Logger } from '../log.js';
import type { Message } from '../outreach/schemas.js';
import {
  callDigestMessage,
  callMetadata,
  conversationIntro,
  conversationReply,
  DIGEST_CAPACITY,
  digestLine,
  type DigestLine,
} from '../render/call-message.js';
import type { SlackMessage } from '../render/types.js';
import {
  ConversationLedger,
  hashText,
  messageKey,
  newCursor,
  needsMirrors,
  nextStep,
  postRef,
  tryRef,
  type ConversationRef,
  type Mirror,
} from './conversation.js';
import { PermanentSlackError, postOnce, RejectedSlackError, type OutgoingMessage, type Poster } from './poster.js';
import {
  postKey,
  type CallRecord,
  type ChannelRecord,
  type ConversationCursor,
  type DigestRecord,
  type PostRecord,
  type WatchState,
  type WhatsAppPost,
} from './state.js';

/**
 * Least time between two writes of one message. Slack allows ~50 chat.update a minute for the whole workspace
 * (Tier 3), shared by every channel and by people's own updates; a call's states follow each other faster than
 * anyone reads them (queued, ringing, answered within seconds), and only the latest matters when the gap ends.
 */
export const UPDATE_GAP_MS = 5_000;

/**
 * Call messages that may wait for their final update at once when Slack's budget is not known (the watch's tuning
 * takes twice its share of chat.update a minute from the budget: src/slack/watch/create.ts). Each of them will cost
 * one chat.update when its call ends. Beyond that, calls are posted when they end (one call each instead of two).
 */
export const MAX_OPEN_CALLS = 20;

/** An open message whose call never ended (given up on) stops counting against the cap after this long. */
const OPEN_CALL_FORGET_MS = 3600_000;

/**
 * Caps of what delivery keeps in memory per thread or call (bounded.ts): each entry is let go when the poller lets
 * its post or conversation go (`forgetThread`, `forgetPost`); the cap is the second bound. Conversations: a
 * conversation is followed for `threadIdleMs` (30 min) after its last message, so at 330 calls a minute about
 * 10,000 are followed at once; one evicted early is read again at its next read, nothing is lost.
 */
const MAX_CONVERSATIONS = 20_000;
/** Per call message (post keys): when it was last written, new calls not posted yet, running calls held. */
const MAX_PER_CALL = 20_000;

/**
 * Share of the watch's workspace allowance of posts (`workspacePostsPerInterval`) the channels' digests are paced to
 * when calls come faster than Slack takes posts; the rest goes to the threads' lines, reminders and single posts.
 */
const DIGEST_SHARE = 0.5;
/**
 * Longest wait between two digests of a channel, in poll intervals (3 minutes at 30 s): a call's final state is seen
 * within an interval of its end and then waits at most this, plus its turn in Slack's budget, well within 5 minutes.
 */
const MAX_DIGEST_GAP_INTERVALS = 6;

/** Weight of the newest item in a channel's moving average of how long its items take (heldByGap). */
const WRITE_MS_WEIGHT = 0.2;

export interface DeliveryOptions {
  /** New calls waiting in one channel beyond which it switches to a digest. */
  burstThreshold: number;
  /** A digest channel returns to one message per call after this long without new calls. */
  calmMs: number;
  /** Delay before an item that failed for now is tried again. */
  retryDelayMs: number;
  /** Least time between two writes of one message (UPDATE_GAP_MS). */
  updateGapMs: number;
  /**
   * Open call messages (posted while their call runs, owing their final update) plus the chat.update calls of the
   * last `updateWindowMs`, at most (MAX_OPEN_CALLS): beyond, a running call is posted when it ends.
   */
  maxOpenCalls: number;
  /** Slack's chat.update window (its minute, at the budget's time scale). Undefined: only open messages count. */
  updateWindowMs?: number;
  /**
   * New call messages Slack lets the watch post in one poll interval over every channel (its share of the
   * workspace's chat.postMessage allowance). More than this waiting: each channel a new call comes to switches to a
   * digest, as it does on a burst of its own, and the channels' digests are paced to a share of it (`digestGap`).
   * Undefined: no such rule.
   */
  workspacePostsPerInterval?: number;
  /** The poll interval: the allowance above is per interval. */
  pollIntervalMs: number;
}

export interface DeliveryHooks {
  /** A call's message as `channelId` reads it (its language, the campaign's zone). */
  renderCall(call: CallRecord, channelId: string): Promise<SlackMessage | undefined>;
  renderWhatsApp(key: string): Promise<SlackMessage | undefined>;
  /** The words of what is written into a channel (the channel's language) or a person's DM (the person's). */
  translator(reader: { channelId: string } | { userId: string }): Promise<Translator>;
  /**
   * Slack refused a channel or the token. 'stopped': the channel's watches (or, for the token, everything) stopped,
   * drop what waits; 'retry': it was not confirmed (a spurious token error), try the item again later.
   */
  onPermanentError(err: PermanentSlackError): Promise<'stopped' | 'retry'>;
  /** Whether anything may be written into Slack at all now (false while the token is refused). */
  deliveryOpen(): boolean;
  /** Whether anything should still be written into this channel (not suspended, still watched, or a try DM). */
  channelActive(channelId: string): Promise<boolean>;
  /** A call's final state reached Slack for the first time (metrics: call end to Slack). */
  finalShown?(call: CallRecord, at: number): void;
  /** A call is first shown in a channel, its own message or a digest line (metrics: call creation to Slack). */
  callPosted?(call: CallRecord, at: number): void;
  /** Who is called in on a call thread's messages, and the one reminder of a waiting customer (attention.ts). */
  attention?: ConversationAttention;
}

/** What a call thread's messages do besides being posted (attention.ts `Attention`). */
interface ConversationAttention {
  /** The message as it is to be posted (the assignee mentioned on the first end-user message of a turn). */
  beforePost(
    post: PostRecord,
    m: Message,
    reply: SlackMessage,
    t: Translator,
  ): Promise<{ reply: SlackMessage; mentioned: boolean }>;
  /**
   * The message reached the thread (recorded): the turn and the waiting customer move on. `byPerson`: a reply sent
   * from this call's thread in another channel (the service holds it as the end user's).
   */
  afterPost(post: PostRecord, m: Message, mentioned: boolean, byPerson?: boolean): Promise<void>;
  /** The work item `remind:<callId>`. */
  remind(channelId: string, callId: string): Promise<void>;
}

export interface DeliveryStats {
  callPosts: number;
  callUpdates: number;
  digestPosts: number;
  digestUpdates: number;
  conversationPosts: number;
  /** Posts found already in Slack after a death between posting and recording (not posted again). */
  recoveredPosts: number;
  failures: number;
  /**
   * For the benchmarks, per call (the most recent MAX_PER_CALL): when its final state reached Slack (`at`, our clock in
   * ms), when the poller saw it (`seenAt`), and how it was written.
   */
  finalShown: Map<string, FinalShown>;
}

type Outcome = 'done' | 'again';

/** When a call's final state reached Slack, when the poller saw it, and how it was written. */
export interface FinalShown {
  at: number;
  seenAt: number;
  via: 'post' | 'update' | 'digest';
}

export class Delivery {
  readonly stats: DeliveryStats = {
    callPosts: 0,
    callUpdates: 0,
    digestPosts: 0,
    digestUpdates: 0,
    conversationPosts: 0,
    recoveredPosts: 0,
    failures: 0,
    finalShown: new BoundedMap(MAX_PER_CALL),
  };
  /**
   * Latest GET /message result per service thread (not persisted: fetched again after a restart), until the poller
   * stops following the thread (`forgetThread`).
   */
  readonly conversations = new BoundedMap<string, Message[]>(MAX_CONVERSATIONS);
  /** What each thread has shown and what was sent from it (conversation.ts): the relay goes through it too. */
  readonly ledger: ConversationLedger;
  private readonly queues = new Map<string, Set<string>>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Per channel, the placing of new calls under way (one at a time: digest or not is decided on what is there). */
  private readonly placing = new Map<string, Promise<unknown>>();
  /** Post keys of new calls placed but not posted yet (counted against the burst threshold while queued). */
  private readonly unposted = new BoundedSet<string>(MAX_PER_CALL);
  /**
   * When each message (`call:<postKey>`, `digest:<id>`, `digests:<channel>`, `wa:<key>`) was last written (this
   * process's memory), for the last `updateGapMs` (`wrote`): Slack takes far fewer writes than the cap in that time.
   */
  private readonly lastWrite = new BoundedMap<string, number>(MAX_PER_CALL);
  /** Items held back by the update gap (or the digests' pace), by `<channel> <item>`: queued again when it ends. */
  private readonly deferred = new Map<string, { timer: NodeJS.Timeout; at: number }>();
  /** When each channel last posted a digest, for the channels that did within the longest digest gap (`digestGap`). */
  private readonly digestPostedAt = new BoundedMap<string, number>(MAX_PER_CALL);
  /** Channel workers waiting for a call's message or a digest held back by the gap (`run`), woken when it ends. */
  private readonly gapWaiters = new Map<string, Array<() => void>>();
  /** Open call messages (posted while their call ran, final update owed), by post key: when they were posted. */
  private readonly openCalls = new BoundedMap<string, number>(MAX_PER_CALL);
  /** Digests whose first post is being made: new calls go into the next one. */
  private readonly closedDigests = new Set<string>();
  /** Running calls not posted because the open messages were at the cap, by post key. */
  private readonly held = new BoundedMap<string, { channelId: string; callId: string }>(MAX_PER_CALL);
  /** When the latest chat.update calls were made (within `updateWindowMs`, oldest first; at most `maxOpenCalls`). */
  private readonly updatesMade: number[] = [];
  /** Per channel: how long its items took to handle lately, ms (heldByGap). */
  private readonly writeMs = new BoundedMap<string, number>(MAX_PER_CALL);
  private idleWaiters: Array<() => void> = [];
  /** Posts and updates tried in Slack so far (`writeMs` takes in the items that tried one). */
  private slackWrites = 0;
  private stopped = false;

  constructor(
    private readonly state: WatchState,
    private readonly poster: Poster,
    private readonly hooks: DeliveryHooks,
    private readonly opts: DeliveryOptions,
    private readonly logger: Logger,
  ) {
    this.ledger = new ConversationLedger(state);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Queueing

  /** Whether the store can make changes durable: while it cannot, nothing goes to Slack. */
  storeDurable(): boolean {
    return this.state.store.status().durable;
  }

  enqueue(channelId: string, item: string): void {
    if (this.stopped || !this.hooks.deliveryOpen() || !this.storeDurable()) return;
    let q = this.queues.get(channelId);
    if (!q) this.queues.set(channelId, (q = new Set()));
    q.add(item);
    if (!this.running.has(channelId)) this.startWorker(channelId);
  }

  /**
   * The channel's worker, until its queue is empty. Its queue is let go with it; an item queued between the worker's
   * last look and its end starts it again.
   */
  private startWorker(channelId: string): void {
    const p = this.run(channelId).finally(() => {
      this.running.delete(channelId);
      const q = this.queues.get(channelId);
      if (q && q.size > 0 && !this.stopped) return this.startWorker(channelId);
      if (q?.size === 0) this.queues.delete(channelId);
      if (this.isIdle()) this.notifyIdle();
    });
    this.running.set(channelId, p);
  }

  /** Items waiting, over all channels. */
  pending(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.size;
    return n;
  }

  queueOf(channelId: string): string[] {
    return [...(this.queues.get(channelId) ?? [])];
  }

  /**
   * Resolves when nothing is waiting, being written or held back by the update gap (retries scheduled for later
   * after a failure do not count).
   */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  private isIdle(): boolean {
    return this.pending() === 0 && this.running.size === 0 && this.deferred.size === 0;
  }

  private notifyIdle(): void {
    const w = this.idleWaiters;
    this.idleWaiters = [];
    for (const r of w) r();
  }

  /** Takes work again after `stop()` (this replica leads again). */
  start(): void {
    this.stopped = false;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    // Held back by the gap or by the open cap: recorded, and queued again when delivery starts again.
    for (const d of this.deferred.values()) clearTimeout(d.timer);
    this.deferred.clear();
    this.wakeGapWaiters();
    this.held.clear();
    for (const q of this.queues.values()) q.clear();
    await Promise.allSettled([...this.running.values()]);
    // What only this process's memory held: a replica that leads again starts as after a restart (resume).
    this.queues.clear();
    this.conversations.clear();
    this.unposted.clear();
    this.openCalls.clear();
    this.lastWrite.clear();
    this.digestPostedAt.clear();
    this.writeMs.clear();
    this.notifyIdle();
  }

  /** The poller no longer follows this service thread: its conversation is let go. */
  forgetThread(threadId: string): void {
    this.conversations.delete(threadId);
  }

  /** The poller let a call's post go (settled and idle): what delivery remembered of its message goes too. */
  forgetPost(channelId: string, callId: string): void {
    const key = postKey(channelId, callId);
    this.unposted.delete(key);
    this.held.delete(key);
    // Its open message's place goes to a call held for one.
    this.closeOpen(key);
    this.lastWrite.delete(`call:${key}`);
  }

  /** The size of each map delivery keeps in memory, and what their caps let go (bench/soak.bench.ts). */
  memoryFigures(): MemoryFigures {
    const byKind: MemoryFigures = {};
    for (const q of this.queues.values()) {
      for (const item of q) {
        const kind = `delivery.pending.${item.slice(0, item.indexOf(':'))}`;
        byKind[kind] = (byKind[kind] ?? 0) + 1;
      }
    }
    return {
      ...byKind,
      'delivery.conversations': this.conversations.size,
      'delivery.conversations.evicted': this.conversations.evicted,
      'delivery.queues': this.queues.size,
      'delivery.pending': this.pending(),
      'delivery.unposted': this.unposted.size,
      'delivery.lastWrite': this.lastWrite.size,
      'delivery.deferred': this.deferred.size,
      'delivery.digestPostedAt': this.digestPostedAt.size,
      'delivery.writeMs': this.writeMs.size,
      'delivery.openCalls': this.openCalls.size,
      'delivery.held': this.held.size,
      'delivery.placing': this.placing.size,
      'delivery.timers': this.timers.size,
      'delivery.finalShown': this.stats.finalShown.size,
    };
  }

  private retryLater(channelId: string, item: string): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.enqueue(channelId, item);
    }, this.opts.retryDelayMs);
    t.unref?.();
    this.timers.add(t);
  }

  /**
   * How long until `message` may be written again (0: now). When it must wait, `item` is queued again at the end
   * of the gap (once, however many changes come meanwhile), and the caller leaves it for then.
   */
  private gapLeft(message: string, channelId: string, item: string): number {
    return this.heldBack(this.lastWrite.get(message), this.opts.updateGapMs, channelId, item);
  }

  /** As `gapLeft`, for a write last made at `last` (undefined: never) that may follow it after `gapMs`. */
  private heldBack(last: number | undefined, gapMs: number, channelId: string, item: string): number {
    const left = last === undefined ? 0 : last + gapMs - Date.now();
    if (left <= 0) return 0;
    const key = `${channelId} ${item}`;
    if (!this.deferred.has(key)) {
      const timer = setTimeout(() => {
        this.deferred.delete(key);
        this.enqueue(channelId, item);
        this.wakeGapWaiters(channelId);
        if (this.isIdle()) this.notifyIdle();
      }, left);
      timer.unref?.();
      this.deferred.set(key, { timer, at: Date.now() + left });
    }
    return left;
  }

  /**
   * Least time between two digests of a channel. Calls coming faster than Slack takes posts put every channel they
   * come to into digests; at hundreds of calls a minute over hundreds of channels each digest then holds one call or
   * two, and the digests alone would take the whole allowance. So they are paced: the channels that post digests share
   * DIGEST_SHARE of the allowance, each waiting its share of the interval (200 channels at 135 posts an interval: 3
   * intervals), never less than the update gap, never more than MAX_DIGEST_GAP_INTERVALS.
   */
  private digestGap(): number {
    const { workspacePostsPerInterval: room, pollIntervalMs, updateGapMs } = this.opts;
    const longest = MAX_DIGEST_GAP_INTERVALS * pollIntervalMs;
    const now = Date.now();
    // Posts are remembered in order (a write moves its key to the end): channels that posted none lately go first.
    for (const [channelId, at] of this.digestPostedAt) {
      if (now - at <= longest) break;
      this.digestPostedAt.delete(channelId);
    }
    if (room === undefined) return updateGapMs;
    const paced = (pollIntervalMs * this.digestPostedAt.size) / Math.max(1, room * DIGEST_SHARE);
    return Math.min(longest, Math.max(updateGapMs, paced));
  }

  /**
   * Whether one of the channel's call messages, digests or WhatsApp messages is due before a thread line taken now
   * would be written (a digest waiting for its pace, longer, lets the channel's thread lines go meanwhile). How long a
   * write takes is what the channel's writes took lately (`writeMs`): while Slack's post allowance is spent, seconds
   * (a line taken now would make the call's write wait another turn behind every other channel's); otherwise about the
   * channel's pacing, and a busy channel's lines go between its calls' updates instead of after all of them.
   */
  private heldByGap(channelId: string): boolean {
    const prefix = `${channelId} `;
    const soon = Date.now() + Math.min(this.opts.updateGapMs, this.writeMs.get(channelId) ?? this.opts.updateGapMs);
    for (const [key, d] of this.deferred) {
      if (key.startsWith(prefix) && !isThreadItem(key.slice(prefix.length)) && d.at <= soon) return true;
    }
    return false;
  }

  /** Takes in how long one of the channel's items took (a moving average, so one slow write does not decide). */
  private tookMs(channelId: string, ms: number): void {
    const before = this.writeMs.get(channelId);
    this.writeMs.set(channelId, before === undefined ? ms : before + (ms - before) * WRITE_MS_WEIGHT);
  }

  private wakeGapWaiters(channelId?: string): void {
    for (const [ch, waiters] of this.gapWaiters) {
      if (channelId !== undefined && ch !== channelId) continue;
      this.gapWaiters.delete(ch);
      for (const wake of waiters) wake();
    }
  }

  private wrote(message: string): void {
    const now = Date.now();
    this.lastWrite.set(message, now);
    // A write moves its key to the end, so the writes older than the gap, which matter no more, are at the front.
    for (const [k, at] of this.lastWrite) {
      if (now - at <= this.opts.updateGapMs) break;
      this.lastWrite.delete(k);
    }
  }

  /** Whether another call message may be posted before its call ended (see the top of the file). */
  private openRoom(): boolean {
    const now = Date.now();
    for (const [k, at] of this.openCalls) if (now - at > OPEN_CALL_FORGET_MS) this.openCalls.delete(k);
    return this.openCalls.size + this.recentUpdates(now) < this.opts.maxOpenCalls;
  }

  /** A chat.update was made (a call message, a digest, a WhatsApp message). */
  private updated(): void {
    if (this.opts.updateWindowMs === undefined) return;
    this.updatesMade.push(Date.now());
    if (this.updatesMade.length > this.opts.maxOpenCalls) this.updatesMade.shift();
  }

  /** chat.update calls made within the last `updateWindowMs`. */
  private recentUpdates(now: number): number {
    const windowMs = this.opts.updateWindowMs;
    if (windowMs === undefined) return 0;
    while (this.updatesMade.length > 0 && now - this.updatesMade[0]! >= windowMs) this.updatesMade.shift();
    return this.updatesMade.length;
  }

  /** New calls placed and not in Slack yet: queued for their post, or held while the open messages are at the cap. */
  newCallsWaiting(): { queued: number; held: number } {
    return { queued: Math.max(0, this.unposted.size - this.held.size), held: this.held.size };
  }

  /**
   * An item that will not be written (its channel no longer watches, or Slack refused the message): the new call it
   * carried no longer counts as waiting (a burst, the workspace's backlog: `workspaceBacklogged`), and a message it
   * held open owes nothing more. Left counted, such calls added up over hours and sent every channel to digests.
   */
  private letGo(channelId: string, item: string): void {
    if (!item.startsWith('call:')) return;
    const key = postKey(channelId, item.slice(5));
    this.unposted.delete(key);
    this.held.delete(key);
    this.closeOpen(key);
  }

  /** An open message got its final state: a held call may take its place. */
  private closeOpen(key: string): void {
    if (!this.openCalls.delete(key)) return;
    const next = this.held.entries().next().value as [string, { channelId: string; callId: string }] | undefined;
    if (!next) return;
    this.held.delete(next[0]);
    this.enqueue(next[1].channelId, `call:${next[1].callId}`);
  }

  private async run(channelId: string): Promise<void> {
    const q = this.queues.get(channelId)!;
    while (q.size > 0 && !this.stopped) {
      if (!this.storeDurable() || !this.hooks.deliveryOpen()) {
        // Everything waiting is recorded and queued again once the store (or the token) is back.
        q.clear();
        return;
      }
      const item = nextItem(q);
      if (isThreadItem(item) && this.heldByGap(channelId)) {
        // The channel's next digest (or call message) is held back a few seconds by the update gap: a thread line
        // taken now would wait its turn in Slack's post budget behind every other channel's, and the digest behind
        // it another turn. What a call came to goes first; the worker waits for the gap instead.
        await new Promise<void>((wake) =>
          this.gapWaiters.set(channelId, [...(this.gapWaiters.get(channelId) ?? []), wake]),
        );
        continue;
      }
      q.delete(item);
      try {
        if (!(await this.hooks.channelActive(channelId))) {
          this.letGo(channelId, item);
          continue;
        }
        const began = Date.now();
        const writesBefore = this.slackWrites;
        const outcome = await this.handle(channelId, item);
        // Only an item that wrote to Slack tells how long a write takes (one found unchanged takes a store read).
        if (this.slackWrites > writesBefore) this.tookMs(channelId, Date.now() - began);
        if (outcome === 'again') q.add(item);
      } catch (err) {
        if (err instanceof PermanentSlackError) {
          const outcome = await this.hooks.onPermanentError(err).catch((e: unknown) => {
            this.logger.error({ err: String(e) }, 'could not suspend a channel');
            return 'retry' as const;
          });
          if (outcome === 'retry') {
            this.stats.failures++;
            this.retryLater(channelId, item);
            continue;
          }
          // What waits is recorded in the state and enqueued again when the channel (or the token) is back.
          q.clear();
          if (err.scope === 'token') for (const other of this.queues.values()) other.clear();
          for (const key of this.unposted) {
            if (err.scope === 'token' || key.startsWith(`${channelId}/`)) this.unposted.delete(key);
          }
          return;
        }
        if (err instanceof RejectedSlackError) {
          // Sending it again would fail the same way; it is logged and left as is.
          this.stats.failures++;
          this.logger.error({ channel: channelId, item, err: err.message }, 'Slack refused a message; skipped');
          this.letGo(channelId, item);
          continue;
        }
        this.stats.failures++;
        this.logger.warn({ channel: channelId, item, err: String(err) }, 'delivery failed for now; will retry');
        this.retryLater(channelId, item);
      }
    }
  }

  private handle(channelId: string, item: string): Promise<Outcome> {
    const sep = item.indexOf(':');
    const kind = item.slice(0, sep);
    const id = item.slice(sep + 1);
    switch (kind) {
      case 'call':
        return this.deliverCall(channelId, id);
      case 'digest':
        return this.deliverDigest(id);
      case 'conv':
        return this.deliverConversation(channelId, id);
      case 'try':
        return this.deliverTry(id);
      case 'wa':
        return this.deliverWhatsApp(id);
      case 'remind':
        return this.hooks.attention ? this.hooks.attention.remind(channelId, id).then(() => 'done') : done();
      default:
        return done();
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Calls

  /** Runs `fn` after the placing under way in the channel (one at a time per channel). */
  private inChannel<T>(channelId: string, fn: () => Promise<T>): Promise<T> {
    const before = this.placing.get(channelId) ?? Promise.resolve();
    const run = before.catch(() => undefined).then(fn);
    const tail = run.catch(() => undefined);
    this.placing.set(channelId, tail);
    void tail.then(() => {
      if (this.placing.get(channelId) === tail) this.placing.delete(channelId);
    });
    return run;
  }

  /**
   * A call newly shown in a channel: its own message, or a line in the channel's digest during a burst. Resolves once
   * its record is stored (and the message queued).
   */
  placeNewCall(post: PostRecord, call: CallRecord): Promise<void> {
    const channelId = post.channelId;
    return this.inChannel(channelId, async () => {
      const ch = await this.state.channel(channelId);
      if (ch.mode === 'digest') {
        const calm = Date.now() - (ch.lastDigestAt ?? 0) > this.opts.calmMs && this.waitingNewCalls(channelId) === 0;
        if (!calm) {
          // A running call is listed once it ended: each digest line is written once, in its final state.
          if (!call.final) await this.state.putPost({ ...post, awaitsDigest: true });
          else await this.addToDigest(post, call, ch);
          return;
        }
        await this.state.channels.put(channelId, { ...ch, mode: 'normal' });
      }
      await this.state.putPost(post);
      this.unposted.add(postKey(channelId, post.callId));
      this.enqueue(channelId, `call:${post.callId}`);
      if (this.waitingNewCalls(channelId) > this.opts.burstThreshold || this.workspaceBacklogged()) {
        await this.switchToDigest(channelId);
      }
    });
  }

  /**
   * A call shown because its end user waits for a person (a filter had left it out): always its own message, even
   * while the channel is in digest mode, since only a message has a thread to show the conversation in and to reply
   * from. Not counted among the new calls a burst moves into a digest.
   */
  placeOwnMessage(post: PostRecord): Promise<void> {
    return this.inChannel(post.channelId, async () => {
      await this.state.putPost(post);
      this.enqueue(post.channelId, `call:${post.callId}`);
    });
  }

  /**
   * A call listed in a digest whose end user now waits for a person: it gets its own message as well (its line
   * stays), so the conversation has a thread to be shown in and replied from. Not counted among new calls.
   */
  async ownMessageFromDigest(post: PostRecord): Promise<void> {
    const own = await this.state.updatePost(post.channelId, post.callId, (cur) => {
      if (!cur.digestId || cur.ts) return undefined;
      const { digestId: _listed, ...rest } = cur;
      return rest;
    });
    if (own) this.enqueue(post.channelId, `call:${post.callId}`);
  }

  /** A known call changed: its message (or digest line) needs an update. */
  async callChanged(post: PostRecord, call: CallRecord): Promise<void> {
    if (post.awaitsDigest && !post.digestId) {
      if (call.final) await this.placeAwaited(post.channelId, post.callId, call);
      return;
    }
    if (post.digestId) {
      const line = this.lineOf(call);
      if (!line) return;
      const d = await this.state.updateDigest(post.digestId, (cur) => {
        const lines = cur.lines.map((l) => (l.callId === call.callId ? line : l));
        return { ...cur, lines, fp: digestFp(lines), updatedAt: Date.now() };
      });
      if (d) this.enqueue(post.channelId, `digest:${d.id}`);
      return;
    }
    this.enqueue(post.channelId, `call:${post.callId}`);
  }

  /**
   * A call that came while its channel was in digest mode has ended: listed in the channel's digest, or, if the
   * channel has calmed down meanwhile, posted on its own (in its final state).
   */
  private placeAwaited(channelId: string, callId: string, call: CallRecord): Promise<void> {
    return this.inChannel(channelId, async () => {
      const cur = await this.state.post(channelId, callId);
      if (!cur?.awaitsDigest || cur.digestId || cur.ts) return;
      const { awaitsDigest: _listed, ...post } = cur;
      const ch = await this.state.channel(channelId);
      if (ch.mode === 'digest') {
        await this.addToDigest(post, call, ch);
        return;
      }
      await this.state.putPost(post);
      this.unposted.add(postKey(channelId, callId));
      this.enqueue(channelId, `call:${callId}`);
    });
  }

  /** Queued new calls of the channel not posted yet. */
  private waitingNewCalls(channelId: string): number {
    let n = 0;
    for (const item of this.queues.get(channelId) ?? []) {
      if (item.startsWith('call:') && this.unposted.has(postKey(channelId, item.slice(5)))) n++;
    }
    return n;
  }

  /**
   * Whether more new call messages wait (over every channel, not counting running calls held by the open cap) than
   * Slack's workspace allowance lets out before the next poll: calls come faster than Slack takes posts.
   */
  private workspaceBacklogged(): boolean {
    const room = this.opts.workspacePostsPerInterval;
    if (room === undefined || this.unposted.size <= room) return false;
    let waiting = 0;
    for (const key of this.unposted) if (!this.held.has(key) && ++waiting > room) return true;
    return false;
  }

  /** A post recorded without a message yet, queued again after a restart (service.ts `resume`). */
  noteUnposted(post: PostRecord): void {
    if (!post.ts && !post.digestId && !post.awaitsDigest) this.unposted.add(postKey(post.channelId, post.callId));
  }

  private lineOf(call: CallRecord): DigestLine | undefined {
    return call.snapshot ? digestLine(call.snapshot, call.campaignId) : undefined;
  }

  private async switchToDigest(channelId: string): Promise<void> {
    let ch = await this.state.channel(channelId);
    this.logger.info(
      { channel: channelId },
      'calls arrive faster than Slack allows: switching the channel to a digest',
    );
    ch = { ...ch, mode: 'digest', lastDigestAt: Date.now() };
    await this.state.channels.put(channelId, ch);
    const q = this.queues.get(channelId);
    for (const item of [...(q ?? [])]) {
      if (!item.startsWith('call:') || !this.unposted.has(postKey(channelId, item.slice(5)))) continue;
      const post = await this.state.post(channelId, item.slice(5));
      if (!post || post.ts || post.digestId) continue;
      const call = await this.state.call(post.campaignId, post.callId);
      if (!call) continue;
      // The channel's worker may have taken it meanwhile (it is being posted on its own): leave it to the worker.
      if (!q?.has(item)) continue;
      q.delete(item);
      if (call.final) ch = await this.addToDigest(post, call, ch);
      else {
        await this.state.putPost({ ...post, awaitsDigest: true });
        this.unposted.delete(postKey(channelId, post.callId));
      }
    }
  }

  /**
   * Lists the call in the channel's current digest (a new one when full). Written digest first, then the post that
   * points at it, then the channel: a crash in between leaves the call listed (never unlisted). Returns the channel.
   */
  private async addToDigest(post: PostRecord, call: CallRecord, ch: ChannelRecord): Promise<ChannelRecord> {
    const line = this.lineOf(call);
    if (!line) return ch;
    let digest = ch.currentDigestId ? await this.state.digests.get(ch.currentDigestId) : undefined;
    let seq = ch.digestSeq;
    // A digest already posted is not written again for new calls (Slack's updates are scarcer than its posts): they
    // go into the next one, posted at most once per update gap.
    if (
      !digest ||
      digest.lines.length >= DIGEST_CAPACITY ||
      digest.ts !== undefined ||
      digest.postingSince !== undefined ||
      this.closedDigests.has(digest.id)
    ) {
      seq = ch.digestSeq + 1;
      digest = { channelId: post.channelId, id: `${post.channelId}/${seq}`, seq, lines: [], fp: '' };
      await this.state.putDigest(digest);
    }
    const written = await this.state.updateDigest(digest.id, (cur) => {
      const lines = [...cur.lines.filter((l) => l.callId !== call.callId), line];
      const next: DigestRecord = { ...cur, lines, fp: digestFp(lines), updatedAt: Date.now() };
      return next;
    });
    if (!written) throw new Error(`the digest ${digest.id} disappeared while a call was added to it`);
    await this.state.putPost({ ...post, digestId: written.id });
    this.unposted.delete(postKey(post.channelId, post.callId));
    const next: ChannelRecord = {
      ...ch,
      mode: 'digest',
      currentDigestId: written.id,
      digestSeq: seq,
      lastDigestAt: Date.now(),
    };
    await this.state.channels.put(post.channelId, next);
    this.enqueue(post.channelId, `digest:${written.id}`);
    return next;
  }

  private async deliverCall(channelId: string, callId: string): Promise<Outcome> {
    const post = await this.state.post(channelId, callId);
    const call = post && (await this.state.call(post.campaignId, callId));
    // Let go meanwhile (or its call): nothing will be written, so nothing is kept for it.
    if (!post || !call) this.forgetPost(channelId, callId);
    if (!post || post.digestId) return 'done';
    if (!call || post.deliveredFp === call.fp) {
      // Final in the state it was shown in (its policy evaluation settled without a change): nothing more is owed.
      if (call?.final) this.closeOpen(postKey(channelId, callId));
      return 'done';
    }
    if (post.awaitsDigest) {
      // Queued again after a restart: listed once it is final.
      if (call.final) await this.placeAwaited(channelId, callId, call);
      return 'done';
    }
    const fp = call.fp;
    const final = call.final;
    const key = postKey(channelId, callId);
    // Held without rendering it (it is looked at again each time an open message closes); checked again below.
    if (!post.ts && !final && this.storeDurable() && !this.openRoom()) {
      this.held.set(key, { channelId, callId });
      return 'done';
    }
    const msg = await this.hooks.renderCall(call, channelId);
    if (!msg) return 'done';
    const message = `call:${key}`;
    const metadata = callMetadata(post.campaignId, callId, post.threadId);
    // What this channel shows of the call (a compact line is the same for many fingerprints: written only if changed).
    const shown = hashText(JSON.stringify(msg));
    const via = post.ts ? 'update' : 'post';
    if (!post.ts) {
      if (!this.storeDurable()) return 'done';
      if (!final && !this.openRoom()) {
        // Posted when it ends (callChanged queues it then), or when an open message is closed.
        this.held.set(key, { channelId, callId });
        return 'done';
      }
      this.held.delete(key);
      // Counted before the post goes out: the other channels' workers check the cap meanwhile.
      if (!final) this.openCalls.set(key, Date.now());
      const record: RecordOf<PostRecord> = {
        current: post,
        update: (fn) => this.state.updatePost(channelId, callId, fn),
        put: (rec) => this.state.putPost(rec),
      };
      const posted = (cur: PostRecord, ts: string): PostRecord => ({
        ...cur,
        ts,
        deliveredFp: fp,
        shownHash: shown,
        conv: cur.conv ?? newCursor(Date.now()),
      });
      try {
        await this.postAndRecord(channelId, { ...msg, metadata }, message, record, posted, { call_id: callId });
      } catch (err) {
        this.openCalls.delete(key);
        throw err;
      }
      this.stats.callPosts++;
      this.hooks.callPosted?.(call, Date.now());
      this.unposted.delete(postKey(channelId, callId));
      // The conversation may already be waiting for its parent message.
      if (post.threadId && this.conversations.has(post.threadId)) this.enqueue(channelId, `conv:${callId}`);
    } else if (post.shownHash === shown) {
      // The channel already shows exactly this (its compact line did not change): nothing to write.
      await this.state.updatePost(channelId, callId, (cur) => ({ ...cur, deliveredFp: fp }));
    } else {
      const write = { channelId, ts: post.ts, msg: { ...msg, metadata }, message, item: `call:${callId}` };
      const recorded = (cur: PostRecord): PostRecord => ({ ...cur, deliveredFp: fp, shownHash: shown });
      if (!(await this.updateAndRecord(write, (fn) => this.state.updatePost(channelId, callId, fn), recorded))) {
        return 'done';
      }
      this.stats.callUpdates++;
    }
    if (final) {
      this.closeOpen(key);
      this.noteShown(call, via);
    }
    const latest = await this.state.call(post.campaignId, callId);
    return latest && latest.fp !== fp ? 'again' : 'done';
  }

  private async deliverDigest(digestId: string): Promise<Outcome> {
    let d = await this.state.digests.get(digestId);
    if (!d || d.fp === d.deliveredFp) return 'done';
    let latest: DigestRecord | undefined;
    const first = !d.ts;
    if (!d.ts) {
      if (!this.storeDurable()) return 'done';
      // A channel's digests follow each other at most once per digest gap, each with what came meanwhile; a full one
      // (a burst of its own) after the update gap only.
      const gap = d.lines.length >= DIGEST_CAPACITY ? this.opts.updateGapMs : this.digestGap();
      if (this.heldBack(this.digestPostedAt.get(d.channelId), gap, d.channelId, `digest:${digestId}`) > 0) {
        return 'done';
      }
      // From now on new calls go into the next digest (addToDigest); what was added until now is posted.
      this.closedDigests.add(digestId);
      try {
        d = (await this.state.digests.get(digestId)) ?? d;
        latest = await this.postDigest(d);
      } finally {
        this.closedDigests.delete(digestId);
      }
    } else {
      // Lines change with every call of a burst: the digest is written at most once per gap, with all of them.
      const item = `digest:${digestId}`;
      const write = { channelId: d.channelId, ts: d.ts, msg: await this.digestMessage(d), message: item, item };
      const fp = d.fp;
      const recorded = await this.updateAndRecord<DigestRecord>(
        write,
        (fn) => this.state.updateDigest(digestId, fn),
        (cur) => ({ ...cur, deliveredFp: fp }),
      );
      if (!recorded) return 'done';
      this.stats.digestUpdates++;
      latest = recorded.latest;
    }
    const now = Date.now();
    for (const l of d.lines) {
      const c = await this.state.call(l.campaignId, l.callId);
      if (c && first) this.hooks.callPosted?.(c, now);
      if (c?.final && l.status === c.status) this.noteShown(c, 'digest', now);
    }
    return !latest || latest.fp === d.fp ? 'done' : 'again';
  }

  private async digestMessage(d: DigestRecord): Promise<OutgoingMessage> {
    const msg = callDigestMessage(d.lines, { part: d.seq }, await this.hooks.translator({ channelId: d.channelId }));
    const metadata = {
      event_type: 'outreach_call_digest',
      event_payload: {
        digest_id: d.id,
        call_ids: d.lines
          .map((l) => l.callId)
          .join(',')
          .slice(0, 3000),
      },
    };
    return { ...msg, metadata };
  }

  /** Posts a digest's message (once: postOnce); returns the record after. */
  private async postDigest(d: DigestRecord): Promise<DigestRecord | undefined> {
    const digestId = d.id;
    const fp = d.fp;
    const record: RecordOf<DigestRecord> = {
      current: d,
      update: (fn) => this.state.updateDigest(digestId, fn),
      put: (rec) => this.state.putDigest(rec),
    };
    const latest = await this.postAndRecord(
      d.channelId,
      await this.digestMessage(d),
      `digest:${digestId}`,
      record,
      (cur, ts) => ({ ...cur, ts, deliveredFp: fp }),
      // Its lines (and so call_ids) may have grown since the earlier attempt.
      { digest_id: digestId },
    );
    this.digestPostedAt.set(d.channelId, Date.now());
    this.stats.digestPosts++;
    return latest;
  }

  /**
   * Posts a new message once and records it: the mark before the post (`postingSince`, so whoever finds it looks the
   * post up before posting again), the post, then the record (`posted`, with its ts, the mark gone). A record let go
   * meanwhile (it should not be) is written back, so the message is never posted twice. Resolves to the record after.
   */
  private async postAndRecord<R extends { postingSince?: number }>(
    channelId: string,
    msg: OutgoingMessage,
    message: string,
    record: RecordOf<R>,
    posted: (cur: R, ts: string) => R,
    match?: Record<string, string>,
  ): Promise<R> {
    const mark = async (since: number) => void (await writeBack(record, (cur) => ({ ...cur, postingSince: since })));
    const ts = await this.postOnce(channelId, msg, record.current.postingSince, mark, match);
    this.wrote(message);
    return writeBack(record, (cur) => {
      const { postingSince: _marked, ...rest } = cur;
      return posted(rest as R, ts);
    });
  }

  /**
   * Updates a message in place unless its update gap holds it (then it is queued again for the gap's end: false) and
   * records what it shows. Resolves to the record after.
   */
  private async updateAndRecord<R>(
    write: { channelId: string; ts: string; msg: OutgoingMessage; message: string; item: string },
    update: (fn: (cur: R) => R) => Promise<R | undefined>,
    recorded: (cur: R) => R,
  ): Promise<{ latest: R | undefined } | false> {
    if (this.gapLeft(write.message, write.channelId, write.item) > 0) return false;
    this.slackWrites++;
    await this.poster.update(write.channelId, write.ts, write.msg);
    this.wrote(write.message);
    this.updated();
    return { latest: await update(recorded) };
  }

  /** Posts a new message once (poster.ts `postOnce`); every mark of delivery goes on. Resolves to its `ts`. */
  private async postOnce(
    channelId: string,
    msg: OutgoingMessage,
    pendingSince: number | undefined,
    mark: (since: number) => Promise<void>,
    match?: Record<string, string>,
  ): Promise<string> {
    const goOn = async (since: number) => {
      await mark(since);
      return true;
    };
    this.slackWrites++;
    const posted = await postOnce(this.poster, channelId, msg, pendingSince, goOn, match);
    if (!posted) throw new Error('a delivery post was called off by its own mark'); // never: goOn goes on
    if (posted.recovered) this.stats.recoveredPosts++;
    return posted.ts;
  }

  /** Remembers when a call's final state reached Slack (`stats.finalShown`). */
  private noteShown(call: CallRecord, via: FinalShown['via'], at = Date.now()): void {
    const m = this.stats.finalShown;
    if (!m.has(call.callId)) {
      m.set(call.callId, { at, seenAt: call.finalAt ?? at, via });
      this.hooks.finalShown?.(call, at);
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Conversations

  /** New messages of a service thread were fetched: every Slack thread mirroring it gets to post them. */
  async conversationFetched(threadId: string, messages: Message[]): Promise<void> {
    this.conversations.set(threadId, messages);
    const moves = (conv: ConversationCursor) => ['skip', 'post'].includes(nextStep(messages, conv).kind);
    for (const p of await this.state.postsOfServiceThread(threadId)) {
      if (p.rebuilt || !p.conv) continue;
      if (moves(p.conv)) this.enqueue(p.channelId, `conv:${p.callId}`);
    }
    for (const t of await this.state.triesOfServiceThread(threadId)) {
      if (!t.dmChannelId || !t.conv) continue;
      if (moves(t.conv)) this.enqueue(t.dmChannelId, `try:${t.userId}`);
    }
  }

  private async deliverConversation(channelId: string, callId: string): Promise<Outcome> {
    const post = await this.state.post(channelId, callId);
    // A rebuilt mapping gets its cursor from the relay first (its history is already in Slack).
    if (!post?.ts || !post.threadId || post.rebuilt || !post.conv) return 'done';
    const all = this.conversations.get(post.threadId);
    if (!all) return 'done';
    return this.conversationStep(all, post.conv, postRef(post), {
      channelId,
      threadTs: post.ts,
      threadId: post.threadId,
      endUserName: post.endUserName,
      intro: true,
      words: await this.hooks.translator({ channelId }),
      post,
    });
  }

  private async deliverTry(userId: string): Promise<Outcome> {
    const t = await this.state.tries.get(userId);
    if (!t?.dmChannelId || !t.threadId || !t.conv) return 'done';
    const all = this.conversations.get(t.threadId);
    if (!all) return 'done';
    return this.conversationStep(all, t.conv, tryRef(userId, t.threadId), {
      channelId: t.dmChannelId,
      threadId: t.threadId,
      self: true,
      intro: false,
      words: await this.hooks.translator({ userId }),
    });
  }

  /**
   * Posts (or skips) the next message of a conversation and records it in the ledger. A message that may be the echo
   * of a reply being sent from Slack waits: the send's answer (or its recovery) queues the thread again.
   */
  private async conversationStep(
    all: Message[],
    conv: ConversationCursor,
    ref: ConversationRef,
    where: {
      channelId: string;
      threadTs?: string;
      threadId: string;
      endUserName?: string;
      /** The end user is the reader (their try DM): their lines read "You". */
      self?: boolean;
      intro: boolean;
      /** The reader's language (the channel's, or the person's in a try DM). */
      words: Translator;
      /** The call whose thread it is (not for a try DM): its messages may call people in. */
      post?: PostRecord;
    },
  ): Promise<Outcome> {
    let step = nextStep(all, conv);
    if (needsMirrors(step) && where.post) step = nextStep(all, conv, await this.mirrorsOf(where.post));
    if (step.kind === 'none' || step.kind === 'wait') return 'done';
    if (!this.storeDurable()) return 'done';
    const { ledger } = this;
    const pendingSince = (key: string) => (conv.posting?.key === key ? conv.posting.since : undefined);
    const mark = (key: string) => (since: number) => ledger.posting(ref, key, since);
    if (where.intro && !conv.introPosted) {
      await this.postOnce(
        where.channelId,
        {
          ...conversationIntro(where.words),
          ...(where.threadTs ? { threadTs: where.threadTs } : {}),
          metadata: { event_type: 'outreach_thread_intro', event_payload: { thread_id: where.threadId } },
        },
        pendingSince('intro'),
        mark('intro'),
      );
      await ledger.introShown(ref);
      return 'again';
    }
    if (step.kind === 'skip') {
      await ledger.shown(ref, step);
      return 'again';
    }
    const m = step.message;
    // A person's reply from another channel's thread of this call: not the end user's words, and nobody waits.
    const sentFrom = step.kind === 'elsewhere' ? step.channelId : undefined;
    const byPerson = sentFrom !== undefined;
    const who = {
      ...(where.endUserName ? { endUserName: where.endUserName } : {}),
      self: where.self ?? false,
      ...(sentFrom ? { sentFrom } : {}),
    };
    let reply = conversationReply(m, who, where.words);
    const attention = where.post ? this.hooks.attention : undefined;
    let mentioned = false;
    if (attention && where.post && !byPerson) {
      // The post as stored now (a person may have written in the thread since the worker read it).
      const current = (await this.state.post(where.post.channelId, where.post.callId)) ?? where.post;
      ({ reply, mentioned } = await attention.beforePost(current, m, reply, where.words));
    }
    const key = messageKey(m);
    await this.postOnce(
      where.channelId,
      {
        ...reply,
        ...(where.threadTs ? { threadTs: where.threadTs } : {}),
        metadata: { event_type: 'outreach_message', event_payload: { thread_id: where.threadId, key } },
      },
      pendingSince(key),
      mark(key),
    );
    this.stats.conversationPosts++;
    await ledger.shown(ref, step, Date.now());
    if (attention && where.post) {
      const current = (await this.state.post(where.post.channelId, where.post.callId)) ?? where.post;
      await attention.afterPost(current, m, mentioned, byPerson);
    }
    return 'again';
  }

  /** The other Slack threads mirroring `post`'s service conversation (the call watched in other channels). */
  private async mirrorsOf(post: PostRecord): Promise<Mirror[]> {
    if (!post.threadId) return [];
    const others = await this.state.postsOfServiceThread(post.threadId);
    return others.flatMap((p) =>
      p.conv && !(p.channelId === post.channelId && p.callId === post.callId)
        ? [{ channelId: p.channelId, conv: p.conv }]
        : [],
    );
  }

  // ---------------------------------------------------------------------------------------------------------------
  // WhatsApp

  private async deliverWhatsApp(key: string): Promise<Outcome> {
    const rec = await this.state.waPosts.get(key);
    if (!rec || rec.fp === rec.deliveredFp) return 'done';
    const msg = await this.hooks.renderWhatsApp(key);
    if (!msg) return 'done';
    const fp = rec.fp;
    const metadata = {
      event_type: 'outreach_whatsapp',
      event_payload: { campaign_id: rec.campaignId, key: key.slice(rec.channelId.length + 1) },
    };
    const update = (fn: (cur: WhatsAppPost) => WhatsAppPost) => this.state.updateWaPost(key, fn);
    let latest: WhatsAppPost | undefined;
    if (!rec.ts) {
      if (!this.storeDurable()) return 'done';
      const record: RecordOf<WhatsAppPost> = { current: rec, update, put: (r) => this.state.putWaPost(key, r) };
      const posted = (cur: WhatsAppPost, ts: string): WhatsAppPost => ({ ...cur, ts, deliveredFp: fp });
      latest = await this.postAndRecord(rec.channelId, { ...msg, metadata }, `wa:${key}`, record, posted);
    } else {
      const item = `wa:${key}`;
      const write = { channelId: rec.channelId, ts: rec.ts, msg: { ...msg, metadata }, message: item, item };
      const recorded = await this.updateAndRecord(write, update, (cur) => ({
        ...cur,
        deliveredFp: fp,
      }));
      if (!recorded) return 'done';
      latest = recorded.latest;
    }
    return !latest || latest.fp === fp ? 'done' : 'again';
  }
}

const done = (): Promise<Outcome> => Promise.resolve('done');

/** A record of what a channel shows (a call's post, a digest, a WhatsApp message) as read, and how to write it. */
interface RecordOf<R> {
  current: R;
  update(fn: (cur: R) => R): Promise<R | undefined>;
  put(rec: R): Promise<void>;
}

/** Writes `fn` of the stored record, or of the one read when it was let go meanwhile (put back). */
async function writeBack<R>(record: RecordOf<R>, fn: (cur: R) => R): Promise<R> {
  const latest = await record.update(fn);
  if (latest) return latest;
  const rec = fn(record.current);
  await record.put(rec);
  return rec;
}

/**
 * The channel's next item: calls, digests and WhatsApp messages before conversation lines. When Slack's workspace
 * allowance for posts is the limit (hundreds a minute for every channel together), what each call came to is shown
 * first and its thread catches up after; a thread's own lines keep their order (one item per thread).
 */
function nextItem(q: Set<string>): string {
  let first: string | undefined;
  for (const item of q) {
    if (!isThreadItem(item)) return item;
    first ??= item;
  }
  return first as string;
}

/** A conversation's next line (a call thread's or a try DM's), as opposed to what a call came to. */
function isThreadItem(item: string): boolean {
  return item.startsWith('conv:') || item.startsWith('try:');
}

function digestFp(lines: DigestLine[]): string {
  return hashText(JSON.stringify(lines));
}
