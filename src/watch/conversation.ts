/**
 * The conversation ledger: the one module that changes what a Slack thread (or a `/campaign try` DM) has shown of a
 * service conversation, and what was sent from it to the service and awaits its echo. Delivery (posting the
 * conversation) and the relay (sending replies from Slack) both go through it; its state is the cursor stored with
 * the call's post or the try session (state.ts `ConversationCursor`), changed with compare-and-set.
 *
 * Where a thread stands, without message ids (the service gives none): GET /message/{thread_id} returns the whole
 * conversation oldest first. We count how many messages are accounted for (posted, or known to be in Slack already)
 * and remember the key of the last one (sent_at, sender, content hash). If the message at the counted position still
 * has that key, the new ones are those after it; if the list ever changes shape, we find our last key again, and
 * failing that take what was sent after it. Nothing is posted twice and nothing is skipped, in order.
 *
 * A reply sent from Slack (relay.ts, reply-send.ts) is already in Slack, and the service records its text as an
 * end-user (`EU`) message. So it is marked before POST /message (`markSend`); once the service answers, the key of
 * the message it made (`in_response_to`) is what the thread skips (`accounted`), and the mark goes. While a send is
 * unanswered, the thread's next message waits if it may be its echo: an `EU` message with the same text sent about
 * the time of the send (ECHO_WINDOW). A customer writing the same words ("Gracias", "ok") at any other time, or after
 * the send was answered or failed, is posted like any other message.
 */
import { createHash } from 'node:crypto';
import type { Message } from '../outreach/schemas.js';
import type { ConversationCursor, PendingSend, PostRecord, RelayedReply, TrySession, WatchState } from './state.js';

export function hashText(s: string): string {
  return createHash('sha1').update(s).digest('base64url').slice(0, 12);
}

export function messageKey(m: Pick<Message, 'sent_at' | 'sent_by' | 'content' | 'media'>): string {
  return `${m.sent_at}|${m.sent_by}|${hashText(`${m.content ?? ''}\u0000${m.media ?? ''}`)}`;
}

export function newCursor(now: number): ConversationCursor {
  return { count: 0, accounted: [], lastActivityAt: now };
}

/**
 * How far from a send's mark (our clock) its echo's `sent_at` (the service's clock) may be: clocks differ a little,
 * and the request leaves after the mark (the limiter's queue, then at most the send's deadline, reply-send.ts).
 */
export const ECHO_WINDOW = { beforeMs: 60_000, afterMs: 120_000 } as const;
/** Keys kept in `accounted` and replies in `relayed`, at most (oldest dropped). */
const MAX_ACCOUNTED = 50;
const MAX_RELAYED = 20;

/** Index of the first message not yet accounted for. */
function startIndex(all: readonly Message[], cur: ConversationCursor): number {
  if (cur.count === 0 || !cur.lastKey) return Math.min(cur.count, all.length);
  const at = all[cur.count - 1];
  if (at && messageKey(at) === cur.lastKey) return cur.count;
  for (let i = all.length - 1; i >= 0; i--) if (messageKey(all[i]!) === cur.lastKey) return i + 1;
  // Our last message is gone from the list: continue with what was sent after it.
  const lastSentAt = Date.parse(cur.lastKey.split('|')[0] ?? '');
  if (Number.isNaN(lastSentAt)) return Math.min(cur.count, all.length);
  const i = all.findIndex((m) => Date.parse(m.sent_at) > lastSentAt);
  return i < 0 ? all.length : i;
}

/** Whether `m` may be what the service made of `send`: an end-user message with its text, sent about its time. */
function mayBeEcho(m: Message, send: PendingSend): boolean {
  if (m.sent_by !== 'EU' || (m.content ?? '').trim() !== send.content.trim()) return false;
  const at = Date.parse(m.sent_at);
  return !Number.isNaN(at) && at >= send.at - ECHO_WINDOW.beforeMs && at <= send.at + ECHO_WINDOW.afterMs;
}

export type NextStep =
  | { kind: 'none' }
  /** The next message may be the echo of a reply being sent from Slack: nothing moves until that send is answered. */
  | { kind: 'wait'; ts: string }
  /** Already in Slack: just move the cursor. */
  | { kind: 'skip'; index: number; message: Message }
  /** A reply a person sent from another Slack thread mirroring the same conversation (`channelId`'s): shown as such. */
  | { kind: 'elsewhere'; index: number; message: Message; channelId: string }
  | { kind: 'post'; index: number; message: Message };

/** Another Slack thread (another channel watching the same campaign) that mirrors the same service conversation. */
export interface Mirror {
  channelId: string;
  conv: ConversationCursor;
}

/**
 * What to do next for this thread: nothing, wait, skip one message, or post one (as the service has it, or as a
 * reply sent from one of the `mirrors`). Pure.
 */
export function nextStep(all: readonly Message[], cur: ConversationCursor, mirrors: readonly Mirror[] = []): NextStep {
  const i = startIndex(all, cur);
  const m = all[i];
  if (!m) return { kind: 'none' };
  const key = messageKey(m);
  if (cur.accounted.includes(key)) return { kind: 'skip', index: i, message: m };
  for (const c of [cur, ...mirrors.map((o) => o.conv)]) {
    const sending = (c.sends ?? []).find((s) => !s.taken && mayBeEcho(m, s));
    if (sending) return { kind: 'wait', ts: sending.ts };
  }
  const from = mirrors.find((o) => repliesFromSlack(o.conv).includes(key));
  if (from) return { kind: 'elsewhere', index: i, message: m, channelId: from.channelId };
  return { kind: 'post', index: i, message: m };
}

/** Whether the step may depend on other threads mirroring the conversation (only end-user messages can). Pure. */
export function needsMirrors(step: NextStep): boolean {
  return step.kind === 'post' && step.message.sent_by === 'EU';
}

/** The cursor after message `index` is accounted for (posted or skipped). Pure. */
export function advance(cur: ConversationCursor, index: number, message: Message): ConversationCursor {
  const key = messageKey(message);
  const { posting: _done, ...rest } = cur;
  return { ...rest, count: index + 1, lastKey: key, accounted: cur.accounted.filter((k) => k !== key) };
}

/**
 * The echo of `send` in the conversation as read now, if the service made one: the first end-user message with its
 * text, sent about its time, not yet shown here and not already known as another reply's. Pure.
 */
export function findEcho(all: readonly Message[], cur: ConversationCursor, send: PendingSend): Message | undefined {
  const taken = new Set(repliesFromSlack(cur));
  return all.slice(startIndex(all, cur)).find((m) => mayBeEcho(m, send) && !taken.has(messageKey(m)));
}

/** Keys of the service's messages that are replies people sent from Slack here (waiting.ts: they end a wait). */
export function repliesFromSlack(cur: ConversationCursor | undefined): string[] {
  if (!cur) return [];
  return [
    ...cur.accounted,
    ...(cur.relayed ?? []).flatMap((r) => (r.key ? [r.key] : [])),
    ...(cur.sends ?? []).flatMap((s) => (s.taken?.key ? [s.taken.key] : [])),
  ];
}

/** The cursor of a thread whose every message in `all` is already shown (a mapping rebuilt from Slack). Pure. */
function shownUpTo(all: readonly Message[], cur: ConversationCursor | undefined, now: number): ConversationCursor {
  const last = all[all.length - 1];
  return {
    ...newCursor(now),
    ...(cur?.sends ? { sends: cur.sends } : {}),
    ...(cur?.relayed ? { relayed: cur.relayed } : {}),
    count: all.length,
    introPosted: true,
    ...(last ? { lastKey: messageKey(last) } : {}),
  };
}

/** The cursor once the service took send `ts` (`key`: the message it made); undefined when no such send is marked. */
function withTaken(c: ConversationCursor, ts: string, key: string | undefined): ConversationCursor | undefined {
  const sends = c.sends ?? [];
  if (!sends.some((s) => s.ts === ts)) return undefined;
  return {
    ...c,
    accounted: key ? withKey(c.accounted, key) : c.accounted,
    sends: sends.map((s) => (s.ts === ts ? { ...s, taken: key ? { key } : {} } : s)),
    lastActivityAt: Date.now(),
  };
}

function withKey(accounted: readonly string[], key: string): string[] {
  return [...accounted.filter((k) => k !== key), key].slice(-MAX_ACCOUNTED);
}

function withRelayed(cur: ConversationCursor, reply: RelayedReply): RelayedReply[] {
  return [...(cur.relayed ?? []).filter((r) => r.ts !== reply.ts), reply].slice(-MAX_RELAYED);
}

/** A record holding a conversation: a call's post (its Slack thread) or a person's try session (their DM). */
export type ConversationRef =
  { kind: 'post'; channelId: string; callId: string } | { kind: 'try'; userId: string; threadId?: string };

export const postRef = (p: Pick<PostRecord, 'channelId' | 'callId'>): ConversationRef => ({
  kind: 'post',
  channelId: p.channelId,
  callId: p.callId,
});
export const tryRef = (userId: string, threadId?: string): ConversationRef => ({
  kind: 'try',
  userId,
  ...(threadId ? { threadId } : {}),
});

/** What marking a send found: marked now, already marked (its mark), already handled, or no such conversation. */
export type MarkOutcome =
  { kind: 'marked' } | { kind: 'pending'; send: PendingSend } | { kind: 'handled' } | { kind: 'gone' };

/** A send marked and not yet recorded, with the record holding it. */
export interface MarkedSend {
  ref: ConversationRef;
  send: PendingSend;
  post?: PostRecord;
}

type Holder = PostRecord | TrySession;

/** Sets or clears the indexed `sending` flag of the record as its cursor has sends or not. */
function flagged<T extends Holder>(rec: T): T {
  const next = { ...rec };
  if ((rec.conv?.sends ?? []).length > 0) next.sending = true;
  else delete next.sending;
  return next;
}

export class ConversationLedger {
  constructor(private readonly state: WatchState) {}

  /**
   * Changes a conversation's cursor unless someone wrote its record in between (then reads it again). `fn` gets the
   * cursor (a new one when the record has none) and returns undefined to leave it. A try's cursor changes only while
   * the session still talks in `ref.threadId` (when given). Returns the cursor as written or found.
   */
  async update(
    ref: ConversationRef,
    fn: (c: ConversationCursor) => ConversationCursor | undefined,
  ): Promise<ConversationCursor | undefined> {
    const apply = <T extends Holder>(cur: T): T | undefined => {
      const conv = fn(cur.conv ?? newCursor(Date.now()));
      return conv ? flagged({ ...cur, conv }) : undefined;
    };
    if (ref.kind === 'post') return (await this.state.updatePost(ref.channelId, ref.callId, apply))?.conv;
    return (
      await this.state.updateTry(ref.userId, (cur) =>
        ref.threadId !== undefined && cur.threadId !== ref.threadId ? undefined : apply(cur),
      )
    )?.conv;
  }

  async cursor(ref: ConversationRef): Promise<ConversationCursor | undefined> {
    const rec =
      ref.kind === 'post' ? await this.state.post(ref.channelId, ref.callId) : await this.state.tries.get(ref.userId);
    return rec?.conv;
  }

  // ---- what the thread has shown (delivery.ts)

  /** The message of `step` is in Slack now (posted, or skipped as already there). */
  async shown(ref: ConversationRef, step: { index: number; message: Message }, activity?: number): Promise<void> {
    await this.update(ref, (c) => ({
      ...advance(c, step.index, step.message),
      ...(activity !== undefined ? { lastActivityAt: activity } : {}),
    }));
  }

  /** A message of the thread (`key`, or `intro`) is about to be posted (delivery.ts `postOnce`'s mark). */
  async posting(ref: ConversationRef, key: string, since: number): Promise<void> {
    await this.update(ref, (c) => ({ ...c, posting: { key, since } }));
  }

  async introShown(ref: ConversationRef): Promise<void> {
    await this.update(ref, ({ posting: _done, ...c }) => ({ ...c, introPosted: true }));
  }

  /** Something happened in a call's thread (its call changed): it is not idle. Only a cursor that exists moves. */
  async touched(post: Pick<PostRecord, 'channelId' | 'callId'>, at: number): Promise<void> {
    await this.state.updatePost(post.channelId, post.callId, (cur) =>
      cur.conv ? { ...cur, conv: { ...cur.conv, lastActivityAt: at } } : undefined,
    );
  }

  /**
   * A post rebuilt from its Slack message (its mapping was let go): what the conversation holds now was shown before.
   * Unless another writer set its cursor first. The post as it is after.
   */
  async rebuiltShown(post: PostRecord, all: readonly Message[]): Promise<PostRecord> {
    const now = Date.now();
    const fresh = (cur: PostRecord): PostRecord | undefined => {
      if (!cur.rebuilt) return undefined;
      const next: PostRecord = { ...cur, conv: shownUpTo(all, cur.conv, now) };
      delete next.rebuilt;
      return flagged(next);
    };
    return (await this.state.updatePost(post.channelId, post.callId, fresh)) ?? post;
  }

  // ---- what was sent from Slack (relay.ts, reply-send.ts)

  /** Marks a reply before it is sent: once per Slack message (a redelivery finds the mark, or that it was handled). */
  async markSend(ref: ConversationRef, send: PendingSend): Promise<MarkOutcome> {
    let outcome: MarkOutcome = { kind: 'gone' };
    await this.update(ref, (c) => {
      const marked = (c.sends ?? []).find((s) => s.ts === send.ts);
      if (marked) {
        outcome = { kind: 'pending', send: marked };
        return undefined;
      }
      if ((c.relayed ?? []).some((r) => r.ts === send.ts)) {
        outcome = { kind: 'handled' };
        return undefined;
      }
      outcome = { kind: 'marked' };
      return { ...c, sends: [...(c.sends ?? []), send], lastActivityAt: Date.now() };
    });
    return outcome;
  }

  /**
   * The service took the send (its answer, or its echo found by a look-up): the thread skips the message it made
   * (`key`; none when the service did not say), the mark stays until `sendFinished`.
   */
  async sendTaken(ref: ConversationRef, ts: string, key: string | undefined): Promise<void> {
    await this.update(ref, (c) => withTaken(c, ts, key));
  }

  /**
   * A try's send was answered in service thread `threadId`. A thread new to its DM (the first message to this agent):
   * the cursor starts at the person's message (what the thread held before, an earlier try, is not replayed), other
   * sends still marked are kept. True when the thread was new.
   */
  async tryAnswered(userId: string, ts: string, threadId: string, key: string | undefined): Promise<boolean> {
    let fresh = false;
    await this.state.updateTry(userId, (cur) => {
      fresh = cur.threadId !== threadId || !cur.conv;
      if (!fresh) {
        const conv = withTaken(cur.conv!, ts, key);
        return conv ? flagged({ ...cur, conv }) : undefined;
      }
      const old = cur.conv ?? newCursor(Date.now());
      const conv: ConversationCursor = {
        ...newCursor(Date.now()),
        ...(old.sends?.length ? { sends: old.sends } : {}),
        ...(old.relayed ? { relayed: old.relayed } : {}),
      };
      return flagged({ ...cur, threadId, conv: withTaken(conv, ts, key) ?? conv });
    });
    return fresh;
  }

  /** The send is recorded (reaction, audit): its mark goes; the Slack message is remembered as handled. */
  async sendFinished(ref: ConversationRef, ts: string): Promise<void> {
    await this.update(ref, (c) => {
      const send = (c.sends ?? []).find((s) => s.ts === ts);
      if (!send) return undefined;
      const reply: RelayedReply = send.taken?.key ? { ts, key: send.taken.key } : { ts };
      return { ...c, sends: (c.sends ?? []).filter((s) => s.ts !== ts), relayed: withRelayed(c, reply) };
    });
  }

  /** The send failed (the person is told): its mark goes; a redelivery of the same message is not sent either. */
  async sendFailed(ref: ConversationRef, ts: string): Promise<void> {
    await this.update(ref, (c) => {
      if (!(c.sends ?? []).some((s) => s.ts === ts)) return undefined;
      return { ...c, sends: (c.sends ?? []).filter((s) => s.ts !== ts), relayed: withRelayed(c, { ts }) };
    });
  }

  /**
   * Takes over a send marked at least `staleMs` ago (or last taken over then) whose sender seems gone: true for one
   * finder only (compare-and-set), which completes it.
   */
  async takeOver(
    ref: ConversationRef,
    ts: string,
    staleMs: number,
    now = Date.now(),
  ): Promise<PendingSend | undefined> {
    let taken: PendingSend | undefined;
    await this.update(ref, (c) => {
      taken = undefined;
      const send = (c.sends ?? []).find((s) => s.ts === ts);
      if (!send || now - (send.attemptAt ?? send.at) < staleMs) return undefined;
      taken = { ...send, attemptAt: now };
      return { ...c, sends: (c.sends ?? []).map((s) => (s.ts === ts ? taken! : s)) };
    });
    return taken;
  }

  /** Every send marked and not yet recorded (by the indexed `sending` flag: usually none). */
  async marked(): Promise<MarkedSend[]> {
    const found: MarkedSend[] = [];
    for (const [, p] of await this.state.posts.list({ where: { sending: true } })) {
      for (const send of p.conv?.sends ?? []) found.push({ ref: postRef(p), send, post: p });
    }
    for (const [, t] of await this.state.tries.list({ where: { sending: true } })) {
      for (const send of t.conv?.sends ?? []) found.push({ ref: tryRef(t.userId), send });
    }
    return found;
  }
}
