/**
 * Delivery: one worker per channel turns recorded state into Slack messages, one write at a time (paced by the
 * poster), persisting each result before the next write. The poller and the relay only record what should be shown
 * and enqueue a work item; so Slack's pace never holds up polling, and after a restart everything that was recorded
 * but not yet shown is simply enqueued again.
 *
 * Work items of a channel: `call:<callId>` (the call's own message), `digest:<id>` (a burst digest), `conv:<callId>`
 * (the conversation in the call's thread), `try:<userId>` (a `/campaign try` conversation in a DM), `wa:<key>`
 * (WhatsApp digest or contact message).
 *
 * Bursts: when more new calls wait for a channel than it can take before the next poll (`burstThreshold`), the
 * channel switches to digest mode: waiting and further new calls go into a digest message updated in place (every
 * call listed, none dropped) until calls have been calm for `calmMs`.
 */
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
import { advance, hashText, messageKey, newCursor, nextStep } from './conversation.js';
import { PermanentSlackError, RejectedSlackError, type Poster } from './poster.js';
import {
  callKey,
  postKey,
  type CallRecord,
  type ConversationCursor,
  type DigestRecord,
  type PostRecord,
  type WatchState,
} from './state.js';

export interface DeliveryOptions {
  /** New calls waiting in one channel beyond which it switches to a digest. */
  burstThreshold: number;
  /** A digest channel returns to one message per call after this long without new calls. */
  calmMs: number;
  /** Delay before an item that failed for now is tried again. */
  retryDelayMs: number;
}

export interface DeliveryHooks {
  renderCall(call: CallRecord): SlackMessage | undefined;
  renderWhatsApp(key: string): SlackMessage | undefined;
  /**
   * Slack refused a channel or the token. 'stopped': the channel's watches (or, for the token, everything) stopped,
   * drop what waits; 'retry': it was not confirmed (a spurious token error), try the item again later.
   */
  onPermanentError(err: PermanentSlackError): Promise<'stopped' | 'retry'>;
  /** Whether anything should still be written into this channel (not suspended, still watched, or a try DM). */
  channelActive(channelId: string): boolean;
  /** A call's final state reached Slack for the first time (metrics: call end to Slack). */
  finalShown?(call: CallRecord, at: number): void;
}

export interface DeliveryStats {
  callPosts: number;
  callUpdates: number;
  digestPosts: number;
  digestUpdates: number;
  conversationPosts: number;
  failures: number;
  /** Our clock (ms) when each call's final state reached Slack, for the benchmark. */
  finalShownAt: Map<string, number>;
}

type Outcome = 'done' | 'again';

export class Delivery {
  readonly stats: DeliveryStats = {
    callPosts: 0,
    callUpdates: 0,
    digestPosts: 0,
    digestUpdates: 0,
    conversationPosts: 0,
    failures: 0,
    finalShownAt: new Map(),
  };
  /** Latest GET /message result per service thread (not persisted: fetched again after a restart). */
  readonly conversations = new Map<string, Message[]>();
  private readonly queues = new Map<string, Set<string>>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private idleWaiters: Array<() => void> = [];
  private stopped = false;

  constructor(
    private readonly state: WatchState,
    private readonly poster: Poster,
    private readonly hooks: DeliveryHooks,
    private readonly opts: DeliveryOptions,
    private readonly logger: Logger,
  ) {}

  // ---------------------------------------------------------------------------------------------------------------
  // Queueing

  enqueue(channelId: string, item: string): void {
    if (this.stopped || !this.hooks.channelActive(channelId)) return;
    let q = this.queues.get(channelId);
    if (!q) this.queues.set(channelId, (q = new Set()));
    q.add(item);
    if (!this.running.has(channelId)) {
      const p = this.run(channelId).finally(() => {
        this.running.delete(channelId);
        if (this.pending() === 0 && this.running.size === 0) this.notifyIdle();
      });
      this.running.set(channelId, p);
    }
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

  /** Resolves when nothing is waiting or being written (retries scheduled for later do not count). */
  idle(): Promise<void> {
    if (this.pending() === 0 && this.running.size === 0) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  private notifyIdle(): void {
    const w = this.idleWaiters;
    this.idleWaiters = [];
    for (const r of w) r();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const q of this.queues.values()) q.clear();
    await Promise.allSettled([...this.running.values()]);
    this.notifyIdle();
  }

  private retryLater(channelId: string, item: string): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.enqueue(channelId, item);
    }, this.opts.retryDelayMs);
    t.unref?.();
    this.timers.add(t);
  }

  private async run(channelId: string): Promise<void> {
    const q = this.queues.get(channelId)!;
    while (q.size > 0 && !this.stopped) {
      const item = q.values().next().value as string;
      q.delete(item);
      try {
        const outcome = await this.handle(channelId, item);
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
          return;
        }
        if (err instanceof RejectedSlackError) {
          // Sending it again would fail the same way; it is logged and left as is.
          this.stats.failures++;
          this.logger.error({ channel: channelId, item, err: err.message }, 'Slack refused a message; skipped');
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
      default:
        return Promise.resolve('done');
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Calls

  /**
   * A call newly shown in a channel: its own message, or a line in the channel's digest during a burst. Memory is
   * changed at once (so calls placed one after another see each other); the promise resolves once it is on disk.
   */
  placeNewCall(post: PostRecord, call: CallRecord): Promise<void> {
    const writes: Promise<void>[] = [];
    const ch = this.state.channel(post.channelId);
    if (ch.mode === 'digest') {
      const calm = Date.now() - (ch.lastDigestAt ?? 0) > this.opts.calmMs && this.waitingNewCalls(post.channelId) === 0;
      if (!calm) {
        this.addToDigest(post, call, writes);
        return settle(writes);
      }
      writes.push(this.state.channels.set(post.channelId, { ...ch, mode: 'normal' }));
    }
    writes.push(this.state.putPost(post));
    this.enqueue(post.channelId, `call:${post.callId}`);
    if (this.waitingNewCalls(post.channelId) > this.opts.burstThreshold) this.switchToDigest(post.channelId, writes);
    return settle(writes);
  }

  /** A known call changed: its message (or digest line) needs an update. */
  callChanged(post: PostRecord, call: CallRecord): Promise<void> {
    if (post.digestId) {
      const d = this.state.digests.get(post.digestId);
      const line = this.lineOf(call);
      if (!d || !line) return Promise.resolve();
      const lines = d.lines.map((l) => (l.callId === call.callId ? line : l));
      const write = this.state.digests.set(d.id, { ...d, lines, fp: digestFp(lines) });
      this.enqueue(post.channelId, `digest:${d.id}`);
      return write;
    }
    this.enqueue(post.channelId, `call:${post.callId}`);
    return Promise.resolve();
  }

  private waitingNewCalls(channelId: string): number {
    let n = 0;
    for (const item of this.queues.get(channelId) ?? []) {
      if (!item.startsWith('call:')) continue;
      const p = this.state.posts.get(postKey(channelId, item.slice(5)));
      if (p && !p.ts && !p.digestId) n++;
    }
    return n;
  }

  private lineOf(call: CallRecord): DigestLine | undefined {
    return call.snapshot ? digestLine(call.snapshot, call.campaignId) : undefined;
  }

  private switchToDigest(channelId: string, writes: Promise<void>[]): void {
    const ch = this.state.channel(channelId);
    this.logger.info(
      { channel: channelId },
      'calls arrive faster than Slack allows: switching the channel to a digest',
    );
    writes.push(this.state.channels.set(channelId, { ...ch, mode: 'digest', lastDigestAt: Date.now() }));
    const q = this.queues.get(channelId);
    for (const item of [...(q ?? [])]) {
      if (!item.startsWith('call:')) continue;
      const post = this.state.posts.get(postKey(channelId, item.slice(5)));
      if (!post || post.ts || post.digestId) continue;
      const call = this.state.calls.get(callKey(post.campaignId, post.callId));
      if (!call) continue;
      q?.delete(item);
      this.addToDigest(post, call, writes);
    }
  }

  private addToDigest(post: PostRecord, call: CallRecord, writes: Promise<void>[]): void {
    const ch = this.state.channel(post.channelId);
    let digest = ch.currentDigestId ? this.state.digests.get(ch.currentDigestId) : undefined;
    let seq = ch.digestSeq;
    if (!digest || digest.lines.length >= DIGEST_CAPACITY) {
      seq = ch.digestSeq + 1;
      digest = { channelId: post.channelId, id: `${post.channelId}/${seq}`, seq, lines: [], fp: '' };
    }
    const line = this.lineOf(call);
    if (!line) return;
    const lines = [...digest.lines.filter((l) => l.callId !== call.callId), line];
    const next: DigestRecord = { ...digest, lines, fp: digestFp(lines) };
    // One store write carries all three (they are set in the same turn), so the call is never left unlisted.
    writes.push(this.state.digests.set(next.id, next));
    writes.push(this.state.putPost({ ...post, digestId: next.id }));
    writes.push(
      this.state.channels.set(post.channelId, {
        ...this.state.channel(post.channelId),
        mode: 'digest',
        currentDigestId: next.id,
        digestSeq: seq,
        lastDigestAt: Date.now(),
      }),
    );
    this.enqueue(post.channelId, `digest:${next.id}`);
  }

  private async deliverCall(channelId: string, callId: string): Promise<Outcome> {
    const key = postKey(channelId, callId);
    const post = this.state.posts.get(key);
    if (!post || post.digestId) return 'done';
    const call = this.state.calls.get(callKey(post.campaignId, callId));
    if (!call || post.deliveredFp === call.fp) return 'done';
    const msg = this.hooks.renderCall(call);
    if (!msg) return 'done';
    const fp = call.fp;
    const final = call.final;
    const metadata = callMetadata(post.campaignId, callId, post.threadId);
    if (!post.ts) {
      const { ts } = await this.poster.post(channelId, { ...msg, metadata });
      this.stats.callPosts++;
      const cur = this.state.posts.get(key) ?? post;
      await this.state.putPost({ ...cur, ts, deliveredFp: fp, conv: cur.conv ?? newCursor(Date.now()) });
      // The conversation may already be waiting for its parent message.
      if (post.threadId && this.conversations.has(post.threadId)) this.enqueue(channelId, `conv:${callId}`);
    } else {
      await this.poster.update(channelId, post.ts, { ...msg, metadata });
      this.stats.callUpdates++;
      const cur = this.state.posts.get(key) ?? post;
      await this.state.putPost({ ...cur, deliveredFp: fp });
    }
    if (final) this.noteShown(call);
    const latest = this.state.calls.get(callKey(post.campaignId, callId));
    return latest && latest.fp !== fp ? 'again' : 'done';
  }

  private async deliverDigest(digestId: string): Promise<Outcome> {
    const d = this.state.digests.get(digestId);
    if (!d || d.fp === d.deliveredFp) return 'done';
    const fp = d.fp;
    const msg = callDigestMessage(d.lines, { part: d.seq });
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
    if (!d.ts) {
      const { ts } = await this.poster.post(d.channelId, { ...msg, metadata });
      this.stats.digestPosts++;
      const cur = this.state.digests.get(digestId) ?? d;
      await this.state.digests.set(digestId, { ...cur, ts, deliveredFp: fp });
    } else {
      await this.poster.update(d.channelId, d.ts, { ...msg, metadata });
      this.stats.digestUpdates++;
      const cur = this.state.digests.get(digestId) ?? d;
      await this.state.digests.set(digestId, { ...cur, deliveredFp: fp });
    }
    const now = Date.now();
    for (const l of d.lines) {
      const c = this.state.calls.get(callKey(l.campaignId, l.callId));
      if (c?.final && l.status === c.status) this.noteShown(c, now);
    }
    return this.state.digests.get(digestId)?.fp === fp ? 'done' : 'again';
  }

  /** Remembers when a call's final state reached Slack (the most recent 20,000, for the benchmark). */
  private noteShown(call: CallRecord, at = Date.now()): void {
    const m = this.stats.finalShownAt;
    if (!m.has(call.callId)) {
      m.set(call.callId, at);
      this.hooks.finalShown?.(call, at);
    }
    if (m.size > 20_000) m.delete(m.keys().next().value as string);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Conversations

  /** New messages of a service thread were fetched: every Slack thread mirroring it gets to post them. */
  conversationFetched(threadId: string, messages: Message[]): void {
    this.conversations.set(threadId, messages);
    for (const p of this.state.postsOfServiceThread(threadId)) {
      if (p.rebuilt || !p.conv) continue;
      if (nextStep(messages, p.conv).kind !== 'none') this.enqueue(p.channelId, `conv:${p.callId}`);
    }
    for (const t of this.state.tries.values()) {
      if (t.threadId !== threadId || !t.dmChannelId || !t.conv) continue;
      if (nextStep(messages, t.conv).kind !== 'none') this.enqueue(t.dmChannelId, `try:${t.userId}`);
    }
  }

  private async deliverConversation(channelId: string, callId: string): Promise<Outcome> {
    const key = postKey(channelId, callId);
    const post = this.state.posts.get(key);
    // A rebuilt mapping gets its cursor from the relay first (its history is already in Slack).
    if (!post?.ts || !post.threadId || post.rebuilt || !post.conv) return 'done';
    const all = this.conversations.get(post.threadId);
    if (!all) return 'done';
    const threadTs = post.ts;
    const threadId = post.threadId;
    return this.conversationStep(
      all,
      post.conv,
      { channelId, threadTs, threadId, endUserName: post.endUserName, intro: true },
      async (fn) => {
        const cur = this.state.posts.get(key);
        if (!cur) return;
        await this.state.putPost({ ...cur, conv: fn(cur.conv ?? newCursor(Date.now())) });
      },
    );
  }

  private async deliverTry(userId: string): Promise<Outcome> {
    const t = this.state.tries.get(userId);
    if (!t?.dmChannelId || !t.threadId || !t.conv) return 'done';
    const all = this.conversations.get(t.threadId);
    if (!all) return 'done';
    const threadId = t.threadId;
    return this.conversationStep(
      all,
      t.conv,
      { channelId: t.dmChannelId, threadId, endUserName: 'You', intro: false },
      async (fn) => {
        const cur = this.state.tries.get(userId);
        if (!cur || cur.threadId !== threadId) return;
        await this.state.tries.set(userId, { ...cur, conv: fn(cur.conv ?? newCursor(Date.now())) });
      },
    );
  }

  /** Posts (or skips) the next message of a conversation, then saves the cursor through `save`. */
  private async conversationStep(
    all: Message[],
    conv: ConversationCursor,
    where: { channelId: string; threadTs?: string; threadId: string; endUserName?: string; intro: boolean },
    save: (fn: (c: ConversationCursor) => ConversationCursor) => Promise<void>,
  ): Promise<Outcome> {
    const step = nextStep(all, conv);
    if (step.kind === 'none') return 'done';
    if (where.intro && !conv.introPosted) {
      await this.poster.post(where.channelId, {
        ...conversationIntro(),
        ...(where.threadTs ? { threadTs: where.threadTs } : {}),
        metadata: { event_type: 'outreach_thread_intro', event_payload: { thread_id: where.threadId } },
      });
      await save((c) => ({ ...c, introPosted: true }));
      return 'again';
    }
    if (step.kind === 'skip') {
      await save((c) => advance(c, step.index, step.message, step.marker));
      return 'again';
    }
    const m = step.message;
    const reply = conversationReply(m, where.endUserName ? { endUserName: where.endUserName } : {});
    await this.poster.post(where.channelId, {
      ...reply,
      ...(where.threadTs ? { threadTs: where.threadTs } : {}),
      metadata: { event_type: 'outreach_message', event_payload: { thread_id: where.threadId, key: messageKey(m) } },
    });
    this.stats.conversationPosts++;
    await save((c) => ({ ...advance(c, step.index, m), lastActivityAt: Date.now() }));
    return 'again';
  }

  // ---------------------------------------------------------------------------------------------------------------
  // WhatsApp

  private async deliverWhatsApp(key: string): Promise<Outcome> {
    const rec = this.state.waPosts.get(key);
    if (!rec || rec.fp === rec.deliveredFp) return 'done';
    const msg = this.hooks.renderWhatsApp(key);
    if (!msg) return 'done';
    const fp = rec.fp;
    const metadata = {
      event_type: 'outreach_whatsapp',
      event_payload: { campaign_id: rec.campaignId, key: key.slice(rec.channelId.length + 1) },
    };
    if (!rec.ts) {
      const { ts } = await this.poster.post(rec.channelId, { ...msg, metadata });
      const cur = this.state.waPosts.get(key) ?? rec;
      await this.state.waPosts.set(key, { ...cur, ts, deliveredFp: fp });
    } else {
      await this.poster.update(rec.channelId, rec.ts, { ...msg, metadata });
      const cur = this.state.waPosts.get(key) ?? rec;
      await this.state.waPosts.set(key, { ...cur, deliveredFp: fp });
    }
    return this.state.waPosts.get(key)?.fp === fp ? 'done' : 'again';
  }
}

function settle(writes: Promise<void>[]): Promise<void> {
  return Promise.all(writes).then(() => undefined);
}

function digestFp(lines: DigestLine[]): string {
  return hashText(JSON.stringify(lines));
}
