/**
 * Finding one of our own messages again by its metadata, for a post whose answer was never recorded: the watch
 * poster's retry after an unknown outcome (src/slack/watch/poster.ts) and whoever finds a post's mark without its
 * `ts` (src/watch/poster.ts `postOnce`: the next leader, an upload taken over by another replica). It reads the
 * channel's (or the thread's) messages since a moment, a few pages at most (`conversations.history`/`replies` with
 * `include_all_metadata`: the history scopes, and the bot in the channel). When Slack cannot tell, it says not found,
 * and the caller posts again.
 */
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../log.js';

/** What identifies a message of ours: its metadata's event type and the payload's fields to compare. */
export interface MessageToFind {
  metadata?: { event_type: string; event_payload: Record<string, string | number | boolean> };
  threadTs?: string;
}

/** Pages of 100 messages read at most before the message counts as not found. */
const MAX_PAGES = 5;

/**
 * Where a look-up for a post made at `sinceMs` (our clock, epoch ms) starts, in Slack's seconds: a few seconds
 * earlier, as Slack's `ts` and our clock may differ a little.
 */
export function lookupFrom(sinceMs: number): number {
  return (sinceMs - 5_000) / 1000;
}

/**
 * The first message in `channel` (or `msg.threadTs`'s thread) posted after `sentAfter` (Slack seconds) whose
 * metadata has `msg`'s event type and payload fields; undefined when there is none or Slack cannot tell.
 */
export async function findPostedMessage(
  client: WebClient,
  channel: string,
  msg: MessageToFind,
  sentAfter: number,
  logger?: Logger,
): Promise<{ ts: string; channel: string } | undefined> {
  const meta = msg.metadata;
  if (!meta) return undefined;
  try {
    const args = { channel, oldest: sentAfter.toFixed(6), include_all_metadata: true, limit: 100 };
    // A busy channel may hold more than a page since then: a few pages, then it counts as not found.
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const paged = cursor ? { ...args, cursor } : args;
      const res = msg.threadTs
        ? await client.conversations.replies({ ...paged, ts: msg.threadTs })
        : await client.conversations.history(paged);
      const messages = (res.messages ?? []) as Array<{
        ts?: string;
        metadata?: { event_type?: string; event_payload?: Record<string, unknown> };
      }>;
      const hit = messages.find(
        (m) =>
          m.metadata?.event_type === meta.event_type &&
          Object.entries(meta.event_payload).every(([k, v]) => m.metadata?.event_payload?.[k] === v),
      );
      if (hit?.ts) return { ts: hit.ts, channel };
      cursor = res.response_metadata?.next_cursor || undefined;
      if (!cursor) return undefined;
    }
    return undefined;
  } catch (err) {
    logger?.debug({ channel, err: String(err) }, 'could not check whether a post went through');
    return undefined;
  }
}
