/**
 * What watch's core writes into Slack through, and how a write can fail. The core is handed a `Poster`; the Slack layer
 * implements it (src/slack/watch/poster.ts: writes paced per channel, transient failures retried, Slack's errors
 * classified into the three below).
 */
import type { MemoryFigures } from '../bounded.js';
import type { KnownBlock } from '../render/types.js';

export class PermanentSlackError extends Error {
  override name = 'PermanentSlackError';
  constructor(
    readonly scope: 'channel' | 'token',
    readonly code: string,
    readonly channel: string,
    /** missing_scope: the scope(s) Slack said the call needs (its `needed` field). */
    readonly needed?: string,
  ) {
    super(`Slack refused ${scope === 'token' ? 'the app token' : `channel ${channel}`}: ${code}`);
  }
}

export class RejectedSlackError extends Error {
  override name = 'RejectedSlackError';
  constructor(
    readonly code: string,
    readonly channel: string,
  ) {
    super(`Slack refused a message in ${channel}: ${code}`);
  }
}

export class TransientSlackError extends Error {
  override name = 'TransientSlackError';
  constructor(
    message: string,
    readonly channel: string,
  ) {
    super(message);
  }
}

export interface OutgoingMessage {
  text: string;
  blocks?: KnownBlock[];
  threadTs?: string;
  metadata?: { event_type: string; event_payload: Record<string, string | number | boolean> };
}

export interface PosterStats {
  posts: number;
  updates: number;
  reactions: number;
  rateLimited: number;
  retries: number;
}

export interface Poster {
  readonly stats: PosterStats;
  /** Posts a message (paced per channel); resolves to its `ts` and channel (a DM's channel id for a user id). */
  post(channel: string, msg: OutgoingMessage): Promise<{ ts: string; channel: string }>;
  /**
   * Our message with `msg`'s metadata posted since `sinceMs` (epoch ms) in the channel (or `msg.threadTs`'s thread),
   * if Slack shows one: an earlier attempt, whose answer was never recorded, may have gone through. Undefined when it
   * is not there or Slack cannot tell.
   */
  find(channel: string, msg: OutgoingMessage, sinceMs: number): Promise<{ ts: string; channel: string } | undefined>;
  /** Updates a message in place (paced like a post). */
  update(channel: string, ts: string, msg: OutgoingMessage): Promise<void>;
  /** Adds a reaction (`already_reacted` counts as done). */
  react(channel: string, ts: string, name: string): Promise<void>;
  /** A message only `user` sees in the channel (or thread). */
  ephemeral(channel: string, user: string, text: string, threadTs?: string): Promise<void>;
  /** No more writes: what is still waiting fails as transient. */
  stop(): void;
  /** The size of what it keeps in memory per channel. */
  memoryFigures?(): MemoryFigures;
}

/** What `postOnce` needs of a poster: posting, and finding a post again by its metadata. */
export type OncePoster = Pick<Poster, 'post' | 'find'>;

/**
 * Posts a new message once, even across a death between Slack's answer and the write that records it: `mark`
 * stores (durably) that the post is under way before it goes out, and answers false when the post is no longer
 * wanted (someone else posted or recorded it meanwhile): nothing is posted then and the result is undefined. An
 * attempt that finds such a mark left from before (`pendingSince`: a leader killed in that gap, an upload taken over
 * by another replica, or an earlier attempt whose outcome was unknown) first looks for the message in Slack by its
 * metadata (or by `match`, the part of it that does not change between attempts) and takes its `ts` instead of
 * posting again (`recovered`). The watch's delivery and reminders use it, and the upload's progress message
 * (src/slack/upload/runner.ts, with a poster of its own that falls back to the uploader's DM: hence `channel`).
 */
export async function postOnce(
  poster: OncePoster,
  channel: string,
  msg: OutgoingMessage,
  pendingSince: number | undefined,
  mark: (since: number) => Promise<boolean>,
  match?: Record<string, string>,
): Promise<{ ts: string; channel: string; recovered: boolean } | undefined> {
  if (pendingSince !== undefined && msg.metadata) {
    const probe = match ? { ...msg, metadata: { ...msg.metadata, event_payload: match } } : msg;
    const found = await poster.find(channel, probe, pendingSince);
    if (found) return { ...found, recovered: true };
  }
  if (!(await mark(Date.now()))) return undefined;
  return { ...(await poster.post(channel, msg)), recovered: false };
}
