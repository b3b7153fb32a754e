/**
 * Where a Slack thread stands in a service conversation, without message ids (the service gives none):
 *
 * GET /message/{thread_id} returns the whole conversation oldest first. We count how many messages are accounted for
 * (posted, or known to be in Slack already) and remember the key of the last one (sent_at, sender, content hash).
 * If the message at the counted position still has that key, the new ones are those after it; if the list ever
 * changes shape, we find our last key again, and failing that take what was sent after it. Nothing is posted twice
 * and nothing is skipped, in order.
 */
import { createHash } from 'node:crypto';
import type { Message } from '../outreach/schemas.js';
import type { ConversationCursor } from './state.js';

export function hashText(s: string): string {
  return createHash('sha1').update(s).digest('base64url').slice(0, 12);
}

export function messageKey(m: Pick<Message, 'sent_at' | 'sent_by' | 'content' | 'media'>): string {
  return `${m.sent_at}|${m.sent_by}|${hashText(`${m.content ?? ''}\u0000${m.media ?? ''}`)}`;
}

/** Marker for a person's reply relayed from Slack, known before the service answers (it is already in Slack). */
export function relayedTextMarker(content: string): string {
  return `text:${hashText(content.trim())}`;
}

export function newCursor(now: number): ConversationCursor {
  return { count: 0, accounted: [], lastActivityAt: now };
}

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

export type NextStep =
  | { kind: 'none' }
  /** Already in Slack: just move the cursor. */
  | { kind: 'skip'; index: number; message: Message; marker: string }
  | { kind: 'post'; index: number; message: Message };

/** What to do next for this thread: nothing, skip one message, or post one. */
export function nextStep(all: readonly Message[], cur: ConversationCursor): NextStep {
  const i = startIndex(all, cur);
  const m = all[i];
  if (!m) return { kind: 'none' };
  const key = messageKey(m);
  if (cur.accounted.includes(key)) return { kind: 'skip', index: i, message: m, marker: key };
  if (m.sent_by === 'EU' && m.content) {
    const marker = relayedTextMarker(m.content);
    if (cur.accounted.includes(marker)) return { kind: 'skip', index: i, message: m, marker };
  }
  return { kind: 'post', index: i, message: m };
}

/** The cursor after message `index` is accounted for (posted or skipped). */
export function advance(cur: ConversationCursor, index: number, message: Message, marker?: string): ConversationCursor {
  const key = messageKey(message);
  const { posting: _done, ...rest } = cur;
  return {
    ...rest,
    count: index + 1,
    lastKey: key,
    accounted: cur.accounted.filter((k) => k !== key && k !== marker),
  };
}

/** Keeps the accounted list short: markers that never matched are dropped after a while (oldest first). */
export function withAccounted(cur: ConversationCursor, key: string, max = 50): ConversationCursor {
  const accounted = [...cur.accounted.filter((k) => k !== key), key];
  return { ...cur, accounted: accounted.slice(-max) };
}
