/**
 * Every write of the watch feature into Slack goes through here: the Slack layer's `Poster` (src/watch/poster.ts).
 *
 * - Pacing: Slack allows about one message per second per channel (short bursts tolerated). Writes into one channel
 *   are serialized and spaced by `minGapMs`; other channels are not held up.
 * - 429: the WebClient itself pauses its whole queue for `Retry-After` and retries (in production); we also listen
 *   to its `rate_limited` event and push that channel's next slot past the pause, so nothing here spins. With
 *   retries disabled (tests) the client throws after waiting; we then retry after the channel's slot.
 * - Errors are classified: permanent for the channel (archived, not found, not in channel, no permission) or for the
 *   whole token (revoked, invalid auth, missing scope) → `PermanentSlackError` (a token-wide one is only a claim until
 *   `auth.test` confirms it, see src/watch/slack-health.ts); the message itself refused (blocks too long) → `RejectedSlackError`;
 *   the workspace busy for a while (`org_login_required`, `team_added_to_org`) → `TransientSlackError` at once, so
 *   the item waits for the caller's later retry; anything else is transient and retried with a capped backoff, then
 *   reported as `TransientSlackError` so the caller keeps the work and tries again later.
 * - A post whose outcome is unknown (network error or 5xx after the request was sent) is looked up by its message
 *   metadata before being sent again, so a retry does not post twice when Slack did receive it.
 * - Fenced for the leader-only work (`fenced`: delivery and reminders): each write carries the lease's term that
 *   asked for it and goes out only if that term is still current right before it is sent, after the lane's pacing
 *   and before each retry; a stalled leader's queued writes are refused (`FencedWriteError`). The relay and people's
 *   commands, which any replica serves, write unfenced.
 */
import { WebClientEvent, type WebClient } from '@slack/web-api';
import type { MemoryFigures } from '../../bounded.js';
import type { Logger } from '../../log.js';
import type { LeaderFence } from '../../store/coordination.js';
import {
  PermanentSlackError,
  RejectedSlackError,
  TransientSlackError,
  type OutgoingMessage,
  type Poster,
  type PosterStats,
} from '../../watch/poster.js';
import { findPostedMessage, lookupFrom } from '../message-lookup.js';
import { CHANNEL_ERRORS, MESSAGE_ERRORS, platformError, TOKEN_ERRORS, WAIT_ERRORS } from '../platform.js';

export interface SlackPosterOptions {
  /** Gap between two writes into one channel. Default 1100 ms (Slack: ~1 message/s per channel). */
  minGapMs?: number;
  /** Attempts per write before giving up for now. Default 4. */
  maxAttempts?: number;
  /** First retry delay, doubled each time, capped at 30 s. Default 1000 ms. */
  backoffMs?: number;
  /** Lanes (one per channel written to) beyond which the idle ones are let go. Default IDLE_LANES_KEPT. */
  lanesKept?: number;
  logger?: Logger;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * A leader-only write not sent: the term that asked for it is over (this replica's lease lapsed, or changed hands).
 * Transient for the caller: the item stays recorded, and whoever leads now does it.
 */
export class FencedWriteError extends TransientSlackError {
  override name = 'FencedWriteError';
}

/** Checked right before a write goes out; throws when it must not. */
type Guard = () => void;

/** The request may have reached Slack (so a post may exist): network errors and HTTP errors. */
function outcomeUnknown(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  return code === 'slack_webapi_request_error' || code === 'slack_webapi_http_error';
}

function isRateLimit(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  if (code === 'slack_webapi_rate_limited_error') return true;
  const pc = platformError(err);
  if (pc === 'ratelimited' || pc === 'rate_limited') return true;
  return err instanceof Error && /rate limit was exceeded/i.test(err.message);
}

interface Lane {
  chain: Promise<unknown>;
  nextAt: number;
  /** Writes queued or under way in the lane. */
  pending: number;
}

/** Lanes beyond which idle ones (nothing queued, their next slot passed) are let go: they hold nothing. */
const IDLE_LANES_KEPT = 500;

export class SlackPoster implements Poster {
  readonly stats: PosterStats = { posts: 0, updates: 0, reactions: 0, rateLimited: 0, retries: 0 };
  private readonly lanes = new Map<string, Lane>();
  private readonly minGapMs: number;
  private readonly maxAttempts: number;
  private readonly backoffMs: number;
  private stopped = false;
  /** The term of the last write the fence refused (logged once per term). */
  private refusedTerm: number | undefined | null = null;

  constructor(
    readonly client: WebClient,
    private readonly opts: SlackPosterOptions = {},
  ) {
    this.minGapMs = opts.minGapMs ?? 1100;
    this.maxAttempts = opts.maxAttempts ?? 4;
    this.backoffMs = opts.backoffMs ?? 1000;
    client.on(WebClientEvent.RATE_LIMITED, (seconds: number, info: { body?: Record<string, unknown> }) => {
      this.stats.rateLimited++;
      const channel = typeof info?.body?.channel === 'string' ? info.body.channel : undefined;
      const until = Date.now() + seconds * 1000;
      // The client pauses every request for that long; a channel that was refused waits at least as long.
      if (channel) {
        const lane = this.lane(channel);
        lane.nextAt = Math.max(lane.nextAt, until);
      }
    });
  }

  stop(): void {
    this.stopped = true;
  }

  private lane(channel: string): Lane {
    let lane = this.lanes.get(channel);
    if (!lane) {
      if (this.lanes.size >= (this.opts.lanesKept ?? IDLE_LANES_KEPT)) this.forgetIdleLanes();
      this.lanes.set(channel, (lane = { chain: Promise.resolve(), nextAt: 0, pending: 0 }));
    }
    return lane;
  }

  /** An idle lane is the same as a new one: every channel and DM the app ever wrote to need not be remembered. */
  private forgetIdleLanes(): void {
    const now = Date.now();
    for (const [channel, lane] of this.lanes) {
      if (lane.pending === 0 && lane.nextAt <= now) this.lanes.delete(channel);
    }
  }

  /** The size of what the poster keeps in memory (bench/soak.bench.ts). */
  memoryFigures(): MemoryFigures {
    return { 'poster.lanes': this.lanes.size };
  }

  /** Runs `fn` in the channel's lane: after the previous write, and not before the channel's next slot. */
  private paced<T>(channel: string, fn: () => Promise<T>): Promise<T> {
    const lane = this.lane(channel);
    lane.pending++;
    const run = lane.chain.then(async () => {
      const wait = lane.nextAt - Date.now();
      if (wait > 0) await sleep(wait);
      try {
        return await fn();
      } finally {
        lane.nextAt = Math.max(lane.nextAt, Date.now() + this.minGapMs);
        lane.pending--;
      }
    });
    lane.chain = run.catch(() => undefined);
    return run;
  }

  private classify(err: unknown, channel: string): Error {
    const code = platformError(err);
    if (code && TOKEN_ERRORS.has(code)) {
      const needed = (err as { data?: { needed?: unknown } }).data?.needed;
      return new PermanentSlackError('token', code, channel, typeof needed === 'string' ? needed : undefined);
    }
    if (code && WAIT_ERRORS.has(code)) return new TransientSlackError(`Slack asks to wait: ${code}`, channel);
    if (code && CHANNEL_ERRORS.has(code)) return new PermanentSlackError('channel', code, channel);
    if (code && MESSAGE_ERRORS.has(code)) return new RejectedSlackError(code, channel);
    return err instanceof Error ? err : new Error(String(err));
  }

  /** Calls `attempt` in the channel's lane until it succeeds, retrying what is transient. */
  private async withRetries<T>(
    channel: string,
    what: string,
    attempt: (n: number) => Promise<T>,
    onUnknown?: () => Promise<T | undefined>,
    guard?: Guard,
  ): Promise<T> {
    let delay = this.backoffMs;
    let unknown = false;
    for (let n = 1; ; n++) {
      if (this.stopped) throw new TransientSlackError(`${what} in ${channel} not sent: shutting down`, channel);
      try {
        return await this.paced(channel, async () => {
          // The last moment this process can hold a write back: after the lane's wait, before each try.
          guard?.();
          if (unknown && onUnknown) {
            const found = await onUnknown();
            if (found !== undefined) return found;
          }
          return attempt(n);
        });
      } catch (err) {
        const c = this.classify(err, channel);
        if (c instanceof PermanentSlackError || c instanceof RejectedSlackError) throw c;
        // Retrying within seconds would not help: the item waits for the caller's next try.
        if (c instanceof TransientSlackError) throw c;
        if (outcomeUnknown(err)) unknown = true;
        if (n >= this.maxAttempts) {
          throw new TransientSlackError(`${what} in ${channel} failed ${n} times: ${c.message}`, channel);
        }
        this.stats.retries++;
        this.opts.logger?.warn({ channel, attempt: n, err: c.message }, `slack ${what} failed; retrying`);
        // After a 429 the client already waited Retry-After (and the lane's slot moved); otherwise back off.
        if (!isRateLimit(err)) {
          const lane = this.lane(channel);
          lane.nextAt = Math.max(lane.nextAt, Date.now() + delay);
          delay = Math.min(delay * 2, 30_000);
        }
      }
    }
  }

  /**
   * This poster's writes for the leader-only work, in the same lanes: each carries `fence.term()` from the moment it
   * is asked for and is sent only while `fence.holds(term)`, checked right before it goes out (after pacing, before
   * each retry). A refused write fails with FencedWriteError and is logged once per term.
   */
  fenced(fence: LeaderFence): Poster {
    return {
      stats: this.stats,
      post: (channel, msg) => this.postGuarded(channel, msg, this.fence(fence, channel)),
      find: (channel, msg, sinceMs) => this.find(channel, msg, sinceMs),
      update: (channel, ts, msg) => this.updateGuarded(channel, ts, msg, this.fence(fence, channel)),
      react: (channel, ts, name) => this.reactGuarded(channel, ts, name, this.fence(fence, channel)),
      ephemeral: (channel, user, text, threadTs) =>
        this.ephemeralGuarded(channel, user, text, threadTs, this.fence(fence, channel)),
      stop: () => this.stop(),
    };
  }

  /** The guard of one write asked for now: its term is read now, and checked again each time it is about to go out. */
  private fence(fence: LeaderFence, channel: string): Guard {
    const term = fence.term();
    return () => {
      if (term !== undefined && fence.holds(term)) return;
      if (this.refusedTerm !== term) {
        this.refusedTerm = term;
        this.opts.logger?.warn(
          { channel, term: term ?? null },
          "a leader-only Slack write was not sent: this replica's term as leader is over (another one leads, or none)",
        );
      }
      throw new FencedWriteError(`not sent in ${channel}: this replica no longer leads in that term`, channel);
    };
  }

  /** Posts a message (paced); resolves to its `ts`. */
  post(channel: string, msg: OutgoingMessage): Promise<{ ts: string; channel: string }> {
    return this.postGuarded(channel, msg);
  }

  private async postGuarded(
    channel: string,
    msg: OutgoingMessage,
    guard?: Guard,
  ): Promise<{ ts: string; channel: string }> {
    const sentAfter = lookupFrom(Date.now());
    return this.withRetries(
      channel,
      'post',
      async () => {
        const res = await this.client.chat.postMessage({
          channel,
          text: msg.text,
          ...(msg.blocks ? { blocks: msg.blocks } : {}),
          ...(msg.threadTs ? { thread_ts: msg.threadTs } : {}),
          ...(msg.metadata ? { metadata: msg.metadata } : {}),
          unfurl_links: false,
          unfurl_media: false,
        });
        this.stats.posts++;
        if (!res.ts) throw new Error('chat.postMessage answered without a ts');
        return { ts: res.ts, channel: res.channel ?? channel };
      },
      msg.metadata ? () => this.findPosted(channel, msg, sentAfter) : undefined,
      guard,
    );
  }

  find(channel: string, msg: OutgoingMessage, sinceMs: number): Promise<{ ts: string; channel: string } | undefined> {
    return this.findPosted(channel, msg, lookupFrom(sinceMs));
  }

  /** Updates a message in place (paced like a post). */
  update(channel: string, ts: string, msg: OutgoingMessage): Promise<void> {
    return this.updateGuarded(channel, ts, msg);
  }

  private async updateGuarded(channel: string, ts: string, msg: OutgoingMessage, guard?: Guard): Promise<void> {
    await this.withRetries(
      channel,
      'update',
      async () => {
        await this.client.chat.update({
          channel,
          ts,
          text: msg.text,
          ...(msg.blocks ? { blocks: msg.blocks } : {}),
          ...(msg.metadata ? { metadata: msg.metadata } : {}),
        });
        this.stats.updates++;
      },
      undefined,
      guard,
    );
  }

  /** Adds a reaction; `already_reacted` counts as done. Not paced (reactions are not messages). */
  react(channel: string, ts: string, name: string): Promise<void> {
    return this.reactGuarded(channel, ts, name);
  }

  private async reactGuarded(channel: string, ts: string, name: string, guard?: Guard): Promise<void> {
    guard?.();
    try {
      await this.client.reactions.add({ channel, timestamp: ts, name });
      this.stats.reactions++;
    } catch (err) {
      if (platformError(err) === 'already_reacted') return;
      throw this.classify(err, channel);
    }
  }

  ephemeral(channel: string, user: string, text: string, threadTs?: string): Promise<void> {
    return this.ephemeralGuarded(channel, user, text, threadTs);
  }

  private async ephemeralGuarded(
    channel: string,
    user: string,
    text: string,
    threadTs: string | undefined,
    guard?: Guard,
  ): Promise<void> {
    guard?.();
    await this.client.chat.postEphemeral({ channel, user, text, ...(threadTs ? { thread_ts: threadTs } : {}) });
  }

  /**
   * After an unknown outcome: is the message already there? Looks for our metadata among the channel's (or the
   * thread's) recent messages. If Slack cannot tell us, assume it is not (the post is sent again).
   */
  private findPosted(
    channel: string,
    msg: OutgoingMessage,
    sentAfter: number,
  ): Promise<{ ts: string; channel: string } | undefined> {
    return findPostedMessage(this.client, channel, msg, sentAfter, this.opts.logger);
  }
}
