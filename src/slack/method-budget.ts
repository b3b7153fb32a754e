/**
 * Slack's own limits, kept as one budget per Web API method for the workspace and shared by every replica: Slack
 * counts "per API method per app per workspace" (docs/slack-platform-notes.md §4), so two replicas posting at once
 * spend one allowance. The budgets are RateWindows (src/store/coordination.ts): in memory with the embedded store,
 * in PostgreSQL with several replicas on one DATABASE_URL.
 *
 * Every Web API call of the app passes `budgetedFetch` (the `fetch` of its WebClients, so Bolt's per-request clients
 * are covered too): before the request it takes a slot of `slack:<method>` (and, for chat.postMessage, of
 * `slack:chat.postMessage:<channel>`), waiting while none is free; after the answer it releases them (each slot
 * counts for a window after the answer). A 429 pauses the bucket for Retry-After on every replica.
 *
 * People first: background work (the watch's client) leaves a tenth of each budget (at least one slot) to people's
 * calls (answers to commands, views.open within its trigger's 3 s), so those never queue behind the poller's backlog.
 */
import type { FetchFunction } from '@slack/web-api';
import type { Logger } from '../log.js';
import type { RateWindow, RateWindows, SlotTicket } from '../store/coordination.js';

/**
 * Calls per minute per method for the workspace: Slack's tiers at their floor (Tier 2 "20+", Tier 3 "50+", Tier 4
 * "100+"). The app's copy; the fake Slack keeps its own (src/emulator/fake-slack.ts). A method not listed is not
 * budgeted.
 */
const SLACK_METHOD_PER_MINUTE: Readonly<Record<string, number>> = Object.freeze({
  // Special: ~1/s per channel (below) and a workspace-wide cap of "several hundred" a minute (no number published:
  // the smallest reading is taken).
  'chat.postMessage': 300,
  'chat.update': 50,
  'chat.delete': 50,
  'chat.postEphemeral': 100,
  'chat.getPermalink': 300,
  'auth.test': 300,
  'views.open': 100,
  'views.update': 100,
  'views.push': 100,
  'views.publish': 100,
  'conversations.history': 50,
  'conversations.replies': 50,
  'conversations.info': 50,
  'conversations.members': 100,
  'users.info': 100,
  'users.conversations': 50,
  'users.lookupByEmail': 50,
  'files.getUploadURLExternal': 100,
  'files.completeUploadExternal': 100,
  'files.info': 100,
  'files.list': 50,
  'files.delete': 50,
  'reactions.add': 50,
  'reactions.remove': 50,
  'conversations.join': 50,
  'conversations.open': 50,
  'usergroups.users.list': 20,
});

/** chat.postMessage per channel: "about one message per second, short bursts allowed": 3 in any 3 s. */
const POST_PER_CHANNEL = Object.freeze({ limit: 3, windowMs: 3_000 });

export type SlackCallPriority = 'person' | 'background';

export interface MethodBudgetOptions {
  windows: RateWindows;
  /** Time runs this many times faster (benches): every window is divided by it. Default 1. */
  timeScale?: number;
  /** Calls per minute per method. Default SLACK_METHOD_PER_MINUTE. */
  perMinute?: Readonly<Record<string, number>>;
  /**
   * The longest a request is assumed to take: a slot whose holder never releases it (the process died) is free
   * again a window plus this after it was taken. Default 30 s.
   */
  maxRequestMs?: number;
  /** Share of each budget background calls leave free for people's. Default 0.1 (at least one slot). */
  reserveShare?: number;
  logger?: Logger;
}

/** The slots one call holds; released once its answer came back. */
export interface BudgetHold {
  tickets: Array<{ ticket: SlotTicket; windowMs: number }>;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class SlackMethodBudget {
  private readonly windows: RateWindows;
  private readonly scale: number;
  private readonly perMinute: Readonly<Record<string, number>>;
  private readonly maxRequestMs: number;
  private readonly reserveShare: number;
  private lastWarnAt = 0;
  /** The last caller in line per `<method> <priority>` in this process (acquire). */
  private readonly turns = new Map<string, Promise<void>>();

  constructor(private readonly opts: MethodBudgetOptions) {
    this.windows = opts.windows;
    this.scale = opts.timeScale ?? 1;
    this.perMinute = opts.perMinute ?? SLACK_METHOD_PER_MINUTE;
    this.maxRequestMs = opts.maxRequestMs ?? 30_000;
    this.reserveShare = opts.reserveShare ?? 0.1;
  }

  /** The buckets a call of `method` (into `channel`) is counted in; none for a method Slack does not limit here. */
  windowsFor(method: string, channel?: string): RateWindow[] {
    const perMinute = this.perMinute[method];
    if (perMinute === undefined) return [];
    const out: RateWindow[] = [];
    if (method === 'chat.postMessage' && channel) {
      out.push({
        bucket: `slack:chat.postMessage:${channel}`,
        limit: POST_PER_CHANNEL.limit,
        windowMs: POST_PER_CHANNEL.windowMs / this.scale,
      });
    }
    out.push({ bucket: `slack:${method}`, limit: perMinute, windowMs: 60_000 / this.scale });
    return out;
  }

  /**
   * Calls of `method` background work may make in `intervalMs` of real time, over the workspace: the method's
   * budget less the share kept for people, at the budget's time scale. Undefined for a method not budgeted.
   */
  backgroundPerInterval(method: string, intervalMs: number): number | undefined {
    const perMinute = this.perMinute[method];
    if (perMinute === undefined) return undefined;
    const share = perMinute - this.reserveOf(perMinute, 'background');
    return Math.max(1, Math.floor((share * this.scale * intervalMs) / 60_000));
  }

  /** Slots left free by a background call: a tenth of the budget, at least one (none when the limit is 1). */
  reserveOf(limit: number, priority: SlackCallPriority): number {
    if (priority === 'person' || limit < 2) return 0;
    return Math.min(limit - 1, Math.max(1, Math.ceil(limit * this.reserveShare)));
  }

  /**
   * Waits until every bucket of the call has a slot for it and takes them all at once: a bucket without room gives
   * back the slots already taken (unused, so at once) and the call waits for it, so no slot is held while waiting.
   * If the shared windows cannot be reached (database down), the call goes ahead unbudgeted: Slack's own 429 is the
   * limit then.
   */
  async acquire(method: string, channel: string | undefined, priority: SlackCallPriority): Promise<BudgetHold> {
    // The method's bucket first: the call's own channel bucket is asked only once the contended one gave a slot.
    const wanted = this.windowsFor(method, channel).reverse();
    if (wanted.length === 0) return { tickets: [] };
    const turn = `${method} ${priority}`;
    for (;;) {
      const got = await this.inTurn(turn, () => this.take(wanted, priority));
      if ('tickets' in got) return got;
      // Its channel is full: it waits out of the line, so the other channels' calls go on meanwhile.
      await sleep(got.waitMs + Math.random() * Math.min(50, got.waitMs / 10));
    }
  }

  /**
   * The calls of this process take turns per method and priority: only the first asks the shared windows, the others
   * wait behind it. Without turns, every waiter (say 200 channels' posts) asks again each time a slot may be free, one
   * gets it and the rest ask for nothing: thousands of statements a minute on PostgreSQL.
   */
  private async inTurn<T>(turn: string, fn: () => Promise<T>): Promise<T> {
    const before = this.turns.get(turn) ?? Promise.resolve();
    let done!: () => void;
    const mine = new Promise<void>((r) => (done = r));
    this.turns.set(turn, mine);
    await before;
    try {
      return await fn();
    } finally {
      done();
      if (this.turns.get(turn) === mine) this.turns.delete(turn);
    }
  }

  /**
   * Takes a slot in each bucket (the method's first). While the method's bucket is full it waits (first in line);
   * when another bucket (the call's channel) is full it gives back what it took and says how long to wait.
   */
  private async take(wanted: RateWindow[], priority: SlackCallPriority): Promise<BudgetHold | { waitMs: number }> {
    const hold: BudgetHold = { tickets: [] };
    for (;;) {
      let waitMs = 0;
      let own = false;
      try {
        for (const [i, w] of wanted.entries()) {
          const got = await this.windows.tryAcquire(w, {
            holdMs: w.windowMs + this.maxRequestMs / this.scale,
            reserve: this.reserveOf(w.limit, priority),
          });
          if (!got.ok) {
            // A slot still in flight is reported free only when its hold ends (its answer may come much sooner, and
            // it then frees a window later): asking again after one window at most catches that.
            waitMs = Math.max(1, Math.min(got.waitMs, w.windowMs));
            own = i > 0;
            break;
          }
          hold.tickets.push({ ticket: got.ticket, windowMs: w.windowMs });
        }
      } catch (err) {
        this.warn(err, 'the shared Slack budgets could not be reached; calling Slack unbudgeted');
        await this.giveBack(hold);
        return { tickets: [] };
      }
      if (waitMs === 0) return hold;
      await this.giveBack(hold);
      if (own) return { waitMs };
      // A little jitter, so replicas waiting for the same bucket do not all ask again in the same millisecond.
      await sleep(waitMs + Math.random() * Math.min(50, waitMs / 10));
    }
  }

  /** The call's answer came back: each slot counts for a window from now. */
  async release(hold: BudgetHold): Promise<void> {
    const tickets = hold.tickets.splice(0);
    await Promise.all(
      tickets.map((t) =>
        this.windows.release(t.ticket, t.windowMs).catch((err: unknown) => this.warn(err, 'releasing a slot failed')),
      ),
    );
  }

  /**
   * Slack answered 429 with Retry-After: nothing more of that bucket goes out before then, from any replica. For
   * chat.postMessage the channel's bucket is paused (Slack's limit is mostly per channel); otherwise the method's.
   */
  async rateLimited(method: string, channel: string | undefined, retryAfterSec: number): Promise<void> {
    const wanted = this.windowsFor(method, channel);
    const bucket = wanted[0]?.bucket;
    if (!bucket) return;
    await this.windows
      .pause(bucket, Date.now() + retryAfterSec * 1000)
      .catch((err: unknown) => this.warn(err, 'pausing a Slack budget failed'));
  }

  /** Gives back slots taken for a call that was not sent: free again at once. */
  private async giveBack(hold: BudgetHold): Promise<void> {
    const tickets = hold.tickets.splice(0);
    await Promise.all(tickets.map((t) => this.windows.release(t.ticket, 0).catch(() => undefined)));
  }

  /** At most one warning a minute (a database outage would otherwise log every call). */
  private warn(err: unknown, msg: string): void {
    const now = Date.now();
    if (now - this.lastWarnAt < 60_000) return;
    this.lastWarnAt = now;
    this.opts.logger?.warn({ err: String(err) }, msg);
  }
}

/** The Web API method of a request URL under `slackApiUrl` (e.g. `chat.postMessage`), else undefined. */
function methodOf(url: string, slackApiUrl: string): string | undefined {
  if (!url.startsWith(slackApiUrl)) return undefined;
  return url.slice(slackApiUrl.length).split(/[?#]/, 1)[0] || undefined;
}

/** The `channel` argument of a form-encoded Web API request body (how @slack/web-api sends chat.postMessage). */
function channelOf(body: unknown): string | undefined {
  if (typeof body !== 'string') return undefined;
  return new URLSearchParams(body).get('channel') ?? undefined;
}

export interface BudgetedFetchOptions {
  /** The Web API base URL (ends with `/`): the method is the rest of the URL. */
  slackApiUrl: string;
  priority: SlackCallPriority;
  /** Default: the global fetch. */
  fetch?: FetchFunction;
}

/** A `fetch` for WebClient options that spends `budget` on every Web API request (see the top of the file). */
export function budgetedFetch(budget: SlackMethodBudget, opts: BudgetedFetchOptions): FetchFunction {
  const inner = opts.fetch ?? (globalThis.fetch as unknown as FetchFunction);
  return async (url, init) => {
    const method = methodOf(String(url), opts.slackApiUrl);
    if (!method) return inner(url, init);
    const channel = method === 'chat.postMessage' ? channelOf(init?.body) : undefined;
    const hold = await budget.acquire(method, channel, opts.priority);
    try {
      const res = await inner(url, init);
      if (res.status === 429) {
        const sec = Number(res.headers.get('retry-after'));
        if (Number.isFinite(sec) && sec > 0) await budget.rateLimited(method, channel, sec);
      }
      return res;
    } finally {
      await budget.release(hold);
    }
  };
}
