/**
 * A person's reply from Slack on its way to the service: mark, act, record.
 *
 * 1. Mark: the reply is written into its conversation's ledger (conversation.ts `markSend`) with the text, who wrote
 *    it, where, and a fresh Idempotency-Key, before anything is sent. Once per Slack message: the same event
 *    delivered again finds the mark, or that the message was handled.
 * 2. Act: POST /message with that key, within a deadline (SEND_DEADLINE_MS, shorter than the time after which a mark
 *    counts as abandoned).
 * 3. Record: the key of what the service made of it (`in_response_to`) goes into the ledger, so the thread skips its
 *    echo; then the wait ends (a reply that reached the customer), ✅, the audit, and the mark goes.
 *
 * Whoever finds a mark whose sender seems gone (the same event delivered again to another replica, or the leader
 * after each poll cycle: `recoverMarked`) takes it over (one finder) and looks the effect up first: the thread's
 * messages read now, and the end-user message with that text sent about the mark's time (conversation.ts
 * `findEcho`). Found: recorded as sent. Not found: sent again with the same Idempotency-Key. A failure that may have
 * reached the service (a 5xx, a broken connection, a timeout) is looked up the same way before the person is told it
 * failed (❌); one that certainly did not (a 4xx, a 429) is told at once.
 */
import type { Translator } from '../i18n/translator.js';
import type { Logger } from '../log.js';
import type { OutreachApi } from '../outreach/api.js';
import { isOutreachError, OutreachInputError } from '../outreach/errors.js';
import type { Message, SendMessageResult } from '../outreach/schemas.js';
import { englishErrorText, serviceErrorText } from '../render/service-error.js';
import { relayFailedSentence } from '../render/watch.js';
import { findEcho, messageKey, newCursor, type ConversationRef, type MarkedSend } from './conversation.js';
import type { Delivery } from './delivery.js';
import type { Poster } from './poster.js';
import type { AuditRecord } from './ports.js';
import type { PendingSend, PostRecord, WatchState } from './state.js';

const REACTION_SENT = 'white_check_mark';
const REACTION_FAILED = 'x';
/** Longest a POST /message may take before it is given up (and looked up). */
const SEND_DEADLINE_MS = 60_000;

export interface ReplySendDeps {
  state: WatchState;
  outreach: OutreachApi;
  delivery: Delivery;
  poster: Poster;
  logger: Logger;
  audit: AuditRecord;
  words(userId: string): Promise<Translator>;
  /** A reply reached the customer of a call's thread: they no longer wait (attention.ts). */
  humanWrote?(post: PostRecord): Promise<void>;
  /** A mark this old (or taken over this long ago) is completed by whoever finds it. */
  abandonedAfterMs: number;
}

/** Where a reply goes: the conversation holding its mark and, in a call's thread, its post (audit, the wait). */
export interface ReplyTarget {
  ref: ConversationRef;
  post?: PostRecord;
}

export type SendOutcome = 'sent' | 'failed' | 'duplicate' | 'pending';

/** The person's Slack message. */
type Written = Pick<PendingSend, 'channelId' | 'ts' | 'userId'>;
/** What the person is told about, and the audit: their message and when it was written. */
type Told = Written & Pick<PendingSend, 'at'>;

/** What is known of how the send went, for recording it. */
interface Taken {
  result?: SendMessageResult;
  /** Completed by a finder of its mark, not by its sender. */
  recovered: boolean;
}

/** Whether a failed POST may still have been applied by the service (then it is looked up before saying it failed). */
function mayHaveBeenApplied(err: unknown): boolean {
  if (err instanceof OutreachInputError) return false;
  // Given up at the deadline (an abort), or anything unforeseen: the request may have gone out.
  if (!isOutreachError(err)) return true;
  if (err.kind === 'service') return (err.status ?? 500) >= 500;
  if (err.kind === 'protocol') return true;
  return err.mayHaveBeenApplied !== false;
}

export class ReplySender {
  private readonly deadlineMs: number;

  constructor(private readonly d: ReplySendDeps) {
    this.deadlineMs = Math.min(SEND_DEADLINE_MS, Math.max(1, Math.floor(d.abandonedAfterMs / 2)));
  }

  private get ledger() {
    return this.d.delivery.ledger;
  }

  /** Marks the reply, sends it, records it (see the top of the file). */
  async send(target: ReplyTarget, send: PendingSend): Promise<SendOutcome> {
    let marked;
    try {
      marked = await this.ledger.markSend(target.ref, send);
    } catch (err) {
      // Nothing was sent: the store did not take the mark.
      return this.notSent(target, send, err);
    }
    if (marked.kind === 'handled') return 'duplicate';
    if (marked.kind === 'gone') return this.notSent(target, send, new Error('the conversation was let go'));
    if (marked.kind === 'pending') {
      const mine = await this.ledger.takeOver(target.ref, send.ts, this.d.abandonedAfterMs);
      return mine ? this.recover(target, mine) : 'duplicate';
    }
    return this.act(target, send, false);
  }

  /** After a poll cycle (the leader): marks whose senders seem gone are completed. */
  async recoverMarked(): Promise<void> {
    for (const m of await this.ledger.marked()) {
      try {
        const mine = await this.ledger.takeOver(m.ref, m.send.ts, this.d.abandonedAfterMs);
        if (mine) await this.recover(targetOf(m), mine);
      } catch (err) {
        this.d.logger.warn({ ts: m.send.ts, err: String(err) }, 'could not complete a reply marked before a restart');
      }
    }
  }

  /** A mark found, its sender gone: what the service already holds is looked up before anything is sent again. */
  private async recover(target: ReplyTarget, send: PendingSend): Promise<SendOutcome> {
    if (send.taken) return this.record(target, send, { recovered: true });
    // A try's first message has no thread yet to look in: sent again with the same key.
    const echo = send.threadId ? await this.lookUp(target, send.threadId, send) : undefined;
    if (echo) return this.taken(target, send, echo, { recovered: true });
    return this.act(target, send, true);
  }

  private async act(target: ReplyTarget, send: PendingSend, recovered: boolean): Promise<SendOutcome> {
    let result: SendMessageResult;
    try {
      result = await this.d.outreach.sendMessage(
        { agent_id: send.agentId, end_user_id: send.endUserId, content: send.content },
        { idempotencyKey: send.idempotencyKey, signal: AbortSignal.timeout(this.deadlineMs) },
      );
    } catch (err) {
      return this.unanswered(target, send, err, recovered);
    }
    // The spec promises `in_response_to`; without it, the thread says which message the send made.
    const echo =
      result.in_response_to ??
      (await this.lookUp(target, result.thread.id, send).catch((err: unknown) => {
        this.d.logger.warn({ ts: send.ts, err: String(err) }, 'could not find what the service made of a reply');
        return undefined;
      }));
    return this.taken(target, send, echo, { result, recovered });
  }

  /** The send failed: if it may have reached the service, the thread says whether it did. */
  private async unanswered(target: ReplyTarget, send: PendingSend, err: unknown, recovered: boolean) {
    if (!mayHaveBeenApplied(err)) return this.failed(target, send, err);
    let echo: Message | undefined;
    try {
      if (!send.threadId) throw new Error('the service thread of this reply is not known yet');
      echo = await this.lookUp(target, send.threadId, send);
    } catch (lookupErr) {
      // The mark stays: the leader looks again once it is old (recoverMarked).
      this.d.logger.warn(
        { ts: send.ts, err: englishErrorText(err), lookup: String(lookupErr) },
        'a reply may or may not have reached the service; it will be looked up again',
      );
      return 'pending';
    }
    if (echo) return this.taken(target, send, echo, { recovered });
    return this.failed(target, send, err);
  }

  /** The echo of the send in its service thread as read now; undefined when it is not there. */
  private async lookUp(target: ReplyTarget, threadId: string, send: PendingSend): Promise<Message | undefined> {
    const all = await this.d.outreach.getMessages(threadId);
    const cur = (await this.ledger.cursor(target.ref)) ?? newCursor(Date.now());
    return findEcho(all, cur, send);
  }

  /** The service took the send (`echo`: the message it made, when known): the ledger first, then the rest. */
  private async taken(target: ReplyTarget, send: PendingSend, echo: Message | undefined, how: Taken) {
    const key = echo ? messageKey(echo) : undefined;
    const { ref } = target;
    const result = how.result;
    if (ref.kind === 'try' && result && (await this.ledger.tryAnswered(ref.userId, send.ts, result.thread.id, key))) {
      await this.record(target, send, how);
      // A conversation new to this DM: it starts at the person's message, which is already here.
      const start = [...(result.in_response_to ? [result.in_response_to] : []), ...result.messages];
      this.d.delivery.conversations.set(result.thread.id, start);
      await this.d.delivery.conversationFetched(result.thread.id, start);
      return 'sent' as const;
    }
    if (ref.kind === 'post' || !result) await this.ledger.sendTaken(ref, send.ts, key);
    await this.record(target, send, how);
    await this.refresh(target, result?.thread.id ?? send.threadId, result);
    return 'sent' as const;
  }

  /** Recorded as sent: the wait ends, ✅, the audit; the mark goes last (a death before it repeats only these). */
  private async record(target: ReplyTarget, send: PendingSend, how: Taken): Promise<SendOutcome> {
    if (target.post) {
      await this.d.humanWrote?.(target.post).catch((err: unknown) => {
        this.d.logger.warn({ channel: send.channelId, err: String(err) }, 'could not record that a person answered');
      });
    }
    await this.tell(target, send, how.recovered ? 'recovered' : 'sent');
    await this.ledger.sendFinished(target.ref, send.ts);
    return 'sent';
  }

  private async failed(target: ReplyTarget, send: PendingSend, err: unknown): Promise<SendOutcome> {
    await this.ledger.sendFailed(target.ref, send.ts);
    await this.tell(target, send, 'failed', err);
    return 'failed';
  }

  /** A reply could not be marked (nothing was sent): the person is told, the failure audited. */
  async notSent(target: ReplyTarget, message: Written, err: unknown): Promise<SendOutcome> {
    await this.tell(target, { ...message, at: Date.now() }, 'failed', err);
    return 'failed';
  }

  /** The reaction on the person's message, the ephemeral reason of a failure, and the audit of a call's reply. */
  private async tell(target: ReplyTarget, send: Told, how: 'sent' | 'recovered' | 'failed', err?: unknown) {
    const { poster } = this.d;
    const threadTs = target.post?.ts;
    if (how === 'failed') {
      this.d.logger.warn({ channel: send.channelId, err: englishErrorText(err) }, 'relaying a reply failed');
      await poster.react(send.channelId, send.ts, REACTION_FAILED).catch(() => undefined);
      const t = await this.d.words(send.userId);
      await poster
        .ephemeral(send.channelId, send.userId, relayFailedSentence(serviceErrorText(err, t), t), threadTs)
        .catch(() => undefined);
    } else {
      await poster.react(send.channelId, send.ts, REACTION_SENT).catch(() => undefined);
    }
    if (!target.post) return;
    const at = `at ${new Date(send.at).toISOString()}, Slack message ${send.ts}`;
    const detail =
      how === 'failed'
        ? `${englishErrorText(err)} (${at})`
        : how === 'recovered'
          ? `${at}; recorded after a restart`
          : at;
    await this.d.audit({
      userId: send.userId,
      action: replyAction(target.post, send.channelId),
      campaignId: target.post.campaignId,
      result: how === 'failed' ? 'failed' : 'ok',
      detail,
    });
  }

  /**
   * After a send: read the conversation again so the answer is posted in order after anything that came before it.
   * If that read fails, and what we hold is exactly what the thread has accounted for, the answer is appended to it.
   */
  private async refresh(target: ReplyTarget, threadId: string | undefined, result: SendMessageResult | undefined) {
    if (!threadId) return;
    const { delivery } = this.d;
    try {
      await delivery.conversationFetched(threadId, await this.d.outreach.getMessages(threadId));
    } catch (err) {
      const held = delivery.conversations.get(threadId) ?? [];
      const c = await this.ledger.cursor(target.ref);
      if (result && c && held.length === c.count) {
        const added: Message[] = [...(result.in_response_to ? [result.in_response_to] : []), ...result.messages];
        await delivery.conversationFetched(threadId, [...held, ...added]);
      } else {
        this.d.logger.warn(
          { threadId, err: String(err) },
          'could not read the conversation; the poller will post the answer',
        );
      }
    }
  }
}

function targetOf(m: MarkedSend): ReplyTarget {
  return { ref: m.ref, ...(m.post ? { post: m.post } : {}) };
}

/** The audit's action for a reply in a call thread: which end user, which call, where. */
export function replyAction(post: PostRecord, channel: string): string {
  const who = post.endUserId ? `end user ${post.endUserId}` : 'the end user';
  return `reply to ${who} (call ${post.callId}) in ${channel}`;
}
