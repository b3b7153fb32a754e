/**
 * The one rate limiter per API key: at most `perSecond` (12) requests start in ANY window of `windowMs` (1 s),
 * people's requests ahead of the poller, the poller ahead of bulk uploads, and a 429 pauses everything.
 *
 * How the sliding window is kept: there are `perSecond` slots, and each request holds its slot for a full window
 * after the latest moment the service can have counted it. The service receives a request somewhere between our
 * send and our receipt of its answer, so the slot is held until `windowMs` after the answer came back; for a slow
 * request, at most until `windowMs + marginMs` after the send (the request runs detached, so a long upload does not
 * block a slot for its whole length). With only `perSecond` slots, the (perSecond+1)-th request cannot reach the service less than a window after the first one did, so no window of
 * `windowMs` at the service ever holds more than `perSecond` requests, however much the network or a busy CPU
 * delays a request on its way (as long as a request slower than `marginMs` to answer was not delayed more than
 * `marginMs` on the way in). The cost: the effective rate is perSecond per (window + response time).
 * (A fixed-window reservoir, like Bottleneck's `reservoirRefreshInterval`, lets 2 x 12 requests through across a
 * window boundary; that is why none is used.)
 *
 * Who gets a freed slot is decided by fair-share.ts: people's requests (interactive) before the poller's before
 * uploads' (bulk), but the poller and uploads keep a floor of the slots while they wait (3 and 1 of 12), and people
 * take turns, one person holding at most half the slots. (Bottleneck, used here before, has priorities but neither
 * floors nor turns; its concurrency limit was all it did here, which is the slot count below.)
 *
 * A 429 pauses the whole limiter: no waiting request gets a slot until the pause ends, and they keep their order.
 *
 * Several replicas (one budget per API key for all of them): given `shared` windows (src/store/pg-coordination.ts),
 * a request that is next in line here must also take a slot of the shared bucket `outreach:<key hash>` (the same
 * rule, `perSecond` slots each held until a window after the answer, kept in PostgreSQL with the database's clock),
 * and gives it back when the answer comes. The poller's and uploads' requests take a shared slot only while
 * `reserve` (2) more stay free, so a person's command on any replica finds one at once; a 429 pauses the shared
 * bucket for every replica. The order within this process (people first, floors, turns) stays as above. While the
 * shared windows cannot be reached, nothing starts (the budget cannot be checked); the limiter retries every second.
 * Embedded mode (one process) passes no shared windows: this process's slots are the whole budget.
 */
import { createHash } from 'node:crypto';
import type { Priority } from './api.js';
import { FairShareQueue, type FairShareOptions } from './fair-share.js';
import type { SharedWindows, SharedTicket } from './shared-windows.js';
import { RATE_LIMIT_PER_SECOND } from './unspecified.js';

/** Extra hold of a slot beyond its window, ms, for timer granularity (see `run`). */
const TIMER_GUARD_MS = 2;

/** Order of the lanes (lower first). */
const PRIORITY_LEVELS: Readonly<Record<Priority, number>> = { interactive: 1, poller: 4, bulk: 7 };

export interface LimiterLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface RateLimiterOptions {
  /** Requests allowed to start in any window of `windowMs`. Default 12 (the service's limit). */
  perSecond?: number;
  /** Length of the sliding window, ms. Default 1000. */
  windowMs?: number;
  /**
   * Longest time a slot stays held waiting for the answer before the window starts counting, ms: the assumed
   * worst delay of a request on its way to the service when the answer takes longer than this. Default 250.
   */
  marginMs?: number;
  /** First pause after a 429 without Retry-After, ms; doubles with each consecutive 429 (with jitter). Default 1000. */
  backoffBaseMs?: number;
  /** Longest pause, whatever Retry-After says, ms. Default 60000. */
  maxPauseMs?: number;
  /** Slots the poller and uploads can count on while they wait (fair-share.ts). Default: 3 and 1 of 12. */
  floors?: FairShareOptions['floors'];
  /** Most slots one person's requests hold at once. Default: half of `perSecond`, rounded up. */
  perPersonSlots?: number;
  /** The budget shared with other replicas (see the top of the file); none in embedded mode. */
  shared?: SharedBudget;
  logger?: LimiterLogger;
}

export interface SharedBudget {
  windows: SharedWindows;
  /** The bucket of the API key: `outreachBucket(apiKey)`. */
  bucket: string;
  /** Shared slots the poller and uploads leave free for people's requests on any replica. Default 2. */
  reserve?: number;
}

/** The shared bucket of an API key: `outreach:` and the first 16 hex digits of its SHA-256 (never the key). */
export function outreachBucket(apiKey: string): string {
  return `outreach:${keyId(apiKey).slice(0, 16)}`;
}

/** Longest wait before asking the shared windows again when none was free, ms (a release may free one sooner). */
const SHARED_RETRY_MS = 50;
/** Wait before asking again when the shared windows could not be reached, ms. */
const SHARED_DOWN_RETRY_MS = 1000;

export class LimiterStoppedError extends Error {
  override readonly name = 'LimiterStoppedError';
  constructor() {
    super('The outreach rate limiter has been stopped; no more requests can be sent through it.');
  }
}

interface Sleeper {
  timer: NodeJS.Timeout;
  wake: () => void;
}

/** A request waiting for a slot. */
interface Waiter {
  readonly priority: Priority;
  readonly person: string | undefined;
  /** Called when it gets a slot (and the shared slot it holds, if shared): sends the request and holds the slot. */
  start(ticket?: SharedTicket): void;
  /** Called when it will never get one (the limiter stopped). */
  drop(reason: unknown): void;
}

export class RateLimiter {
  readonly perSecond: number;
  readonly windowMs: number;
  readonly marginMs: number;
  private readonly backoffBaseMs: number;
  private readonly maxPauseMs: number;
  private readonly logger?: LimiterLogger;
  /** Requests waiting for a slot, and the slots held. */
  private readonly queue: FairShareQueue<Waiter>;
  private pausedUntil = 0;
  private resumeTimer: NodeJS.Timeout | undefined;
  private consecutive429 = 0;
  private readonly sleepers = new Set<Sleeper>();
  private stopped = false;
  private startedCount = 0;
  /** A request was started in this turn of the event loop (see dispatch). */
  private startedThisTurn = false;
  private readonly shared: Required<SharedBudget> | undefined;
  /** A shared slot is being asked for (one at a time). */
  private acquiring = false;
  /** When none was free: the timer that asks again, and the reserve it was refused with. */
  private sharedRetry: { timer: NodeJS.Timeout; reserve: number } | undefined;
  private sharedDownLogged = false;

  constructor(opts: RateLimiterOptions = {}) {
    this.perSecond = opts.perSecond ?? RATE_LIMIT_PER_SECOND;
    this.windowMs = opts.windowMs ?? 1000;
    this.marginMs = opts.marginMs ?? 250;
    this.backoffBaseMs = opts.backoffBaseMs ?? 1000;
    this.maxPauseMs = opts.maxPauseMs ?? 60_000;
    this.logger = opts.logger;
    this.shared = opts.shared ? { reserve: 2, ...opts.shared } : undefined;
    if (this.shared && (!Number.isInteger(this.shared.reserve) || this.shared.reserve < 0)) {
      throw new RangeError('shared.reserve must be an integer >= 0');
    }
    if (!Number.isInteger(this.perSecond) || this.perSecond < 1)
      throw new RangeError('perSecond must be an integer >= 1');
    if (!(this.windowMs > 0) || !(this.marginMs >= 0)) throw new RangeError('windowMs must be > 0 and marginMs >= 0');
    this.queue = new FairShareQueue<Waiter>({
      slots: this.perSecond,
      ...(opts.floors ? { floors: opts.floors } : {}),
      ...(opts.perPersonSlots !== undefined ? { perPersonSlots: opts.perPersonSlots } : {}),
    });
  }

  /**
   * Runs `task` when it gets a slot (see fair-share.ts for the order) and the limiter is not paused; resolves with its
   * result. `person`: the Slack user the request is made for (people take turns; undefined: no one in particular).
   * If `signal` aborts while the task is still queued, it is dropped (rejecting with the signal's reason) and never
   * started; once started, aborting is up to the task.
   */
  schedule<T>(priority: Priority, task: () => Promise<T>, signal?: AbortSignal, person?: string): Promise<T> {
    if (this.stopped) return Promise.reject(new LimiterStoppedError());
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (PRIORITY_LEVELS[priority] === undefined) {
      return Promise.reject(new RangeError(`Unknown priority "${String(priority)}"`));
    }

    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        if (!this.queue.remove(waiter)) return; // already started (or dropped)
        this.refreshTimerRefs();
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        priority,
        person,
        start: (ticket) => {
          signal?.removeEventListener('abort', onAbort);
          void this.run(waiter, task, resolve, reject, ticket);
        },
        drop: (reason) => {
          signal?.removeEventListener('abort', onAbort);
          reject(reason);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
      this.refreshTimerRefs();
      this.dispatch();
    });
  }

  /**
   * Hands a free slot to the next waiting request, unless paused; one per turn of the event loop, the next after
   * I/O has been polled (setImmediate). Starting a dozen at once would let them queue on their way out behind each
   * other's serialising and the process's other work, and a request delayed on its way by more than `marginMs`
   * could reach the service after its slot's window is over (seen with the simulator in the same process). Spacing
   * them costs nothing: the window, not the start, limits the rate.
   */
  private dispatch(): void {
    if (this.stopped || Date.now() < this.pausedUntil) return;
    if (this.startedThisTurn) return; // the setImmediate below dispatches again
    if (this.shared) {
      this.acquireShared(this.shared);
      return;
    }
    const w = this.queue.next();
    if (w) this.begin(w);
  }

  private begin(w: Waiter, ticket?: SharedTicket): void {
    this.startedThisTurn = true;
    setImmediate(() => {
      this.startedThisTurn = false;
      this.dispatch();
    });
    this.startedCount++;
    w.start(ticket);
    this.refreshTimerRefs();
  }

  /**
   * Shared mode: asks the shared windows for a slot for the request that is next here (with the reserve of its
   * lane), then gives the slot to whoever is next by then (a person who came meanwhile goes first, which only
   * leaves more of the reserve). None free: asks again when one should be, or sooner for a person's request.
   */
  private acquireShared(shared: Required<SharedBudget>): void {
    if (this.acquiring) return;
    const first = this.queue.peek();
    if (!first) return;
    const reserve = first.priority === 'interactive' ? 0 : shared.reserve;
    if (this.sharedRetry) {
      if (reserve >= this.sharedRetry.reserve) return; // its timer asks again
      clearTimeout(this.sharedRetry.timer);
      this.sharedRetry = undefined;
    }
    this.acquiring = true;
    const window = { bucket: shared.bucket, limit: this.perSecond, windowMs: this.windowMs };
    // Held at most a window after the margin, like the slots here (run): a holder that died frees it by itself.
    const holdMs = this.windowMs + this.marginMs + TIMER_GUARD_MS;
    shared.windows.tryAcquire(window, { holdMs, reserve: Math.min(reserve, this.perSecond - 1) }).then(
      (got) => {
        this.acquiring = false;
        this.sharedDownLogged = false;
        if (!got.ok) {
          this.retryShared(Math.min(Math.max(1, got.waitMs), SHARED_RETRY_MS), reserve);
          return;
        }
        const w = this.stopped || Date.now() < this.pausedUntil ? undefined : this.queue.next();
        if (!w) {
          // Stopped, paused by a 429 meanwhile, or the request gave up: the slot counts as used for a window.
          this.releaseShared(shared, got.ticket);
          this.dispatch();
          return;
        }
        this.begin(w, got.ticket);
      },
      (err: unknown) => {
        this.acquiring = false;
        if (!this.sharedDownLogged) {
          this.sharedDownLogged = true;
          this.logger?.error(
            { err: err instanceof Error ? err.message : String(err) },
            'the shared rate budget cannot be reached; no request to the outreach service starts until it can',
          );
        }
        this.retryShared(SHARED_DOWN_RETRY_MS, reserve);
      },
    );
  }

  private retryShared(ms: number, reserve: number): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.sharedRetry = undefined;
      this.dispatch();
    }, ms);
    this.sharedRetry = { timer, reserve };
    this.refreshTimerRefs();
  }

  private releaseShared(shared: Required<SharedBudget>, ticket: SharedTicket): void {
    shared.windows.release(ticket, this.windowMs).catch((err: unknown) => {
      // Not given back: it frees by itself when its hold ends.
      this.logger?.warn(
        { err: err instanceof Error ? err.message : String(err) },
        'could not give back a slot of the shared rate budget',
      );
    });
  }

  /** Sends the request of `w`, which holds a slot; gives the slot back one window later (see the top of the file). */
  private async run<T>(
    w: Waiter,
    task: () => Promise<T>,
    resolve: (v: T) => void,
    reject: (e: unknown) => void,
    ticket?: SharedTicket,
  ): Promise<void> {
    const startedAt = performance.now();
    let done: Promise<T>;
    try {
      done = task();
    } catch (e) {
      done = Promise.reject(e);
    }
    // The caller gets the result as soon as it is there; the slot stays held.
    done.then(resolve, reject);
    await this.sleep(this.marginMs, done);
    // The answer came (or the margin passed): the shared slot frees a window from now, on the database's clock.
    if (ticket && this.shared && !this.stopped) this.releaseShared(this.shared, ticket);
    const lag = Math.min(performance.now() - startedAt, this.marginMs);
    // Timed on the monotonic high-resolution clock, plus a guard: Node's timers run on a cached millisecond clock and
    // may fire up to a millisecond early, which would let the next request start just inside the window.
    await this.sleep(startedAt + lag + this.windowMs + TIMER_GUARD_MS - performance.now());
    this.queue.release(w);
    this.dispatch();
  }

  /**
   * Tells the limiter the service answered 429. Pauses every request for `retryAfterMs` (capped at `maxPauseMs`),
   * or, without Retry-After, for an exponential backoff with jitter over consecutive 429s. Returns the pause, ms.
   */
  rateLimited(retryAfterMs?: number): number {
    const hasRetryAfter = retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0;
    // Requests already on the wire when the first 429 came back get theirs during the pause: one event, not many.
    if (!hasRetryAfter && this.pausedForMs() > 0) return this.pausedForMs();
    this.consecutive429++;
    let ms: number;
    if (hasRetryAfter) {
      ms = Math.min(retryAfterMs, this.maxPauseMs);
    } else {
      const exp = Math.min(this.maxPauseMs, this.backoffBaseMs * 2 ** Math.min(this.consecutive429 - 1, 16));
      ms = Math.round(exp / 2 + (Math.random() * exp) / 2);
    }
    this.pauseFor(ms);
    // Every replica pauses too: their requests count against the same budget.
    this.shared?.windows.pause(this.shared.bucket, Date.now() + ms).catch((err: unknown) => {
      this.logger?.warn(
        { err: err instanceof Error ? err.message : String(err) },
        'could not pause the shared rate budget for the other replicas',
      );
    });
    this.logger?.warn(
      { pauseMs: ms, retryAfterMs, consecutive: this.consecutive429 },
      'outreach service rate-limited us; pausing all requests',
    );
    return ms;
  }

  /** Tells the limiter a request got a non-429 answer: the next 429 without Retry-After starts the backoff over. */
  accepted(): void {
    this.consecutive429 = 0;
  }

  /** Holds every request that has not started yet for `ms` (extends a running pause, never shortens it). */
  pauseFor(ms: number): void {
    if (this.stopped) return;
    const until = Date.now() + Math.max(0, ms);
    if (until <= this.pausedUntil) return;
    this.pausedUntil = until;
    if (this.resumeTimer) clearTimeout(this.resumeTimer);
    this.resumeTimer = setTimeout(() => this.resume(), ms);
    this.refreshTimerRefs();
  }

  private resume(): void {
    this.resumeTimer = undefined;
    if (this.stopped) return;
    const left = this.pausedUntil - Date.now();
    if (left > 0) {
      this.resumeTimer = setTimeout(() => this.resume(), left);
      this.refreshTimerRefs();
      return;
    }
    this.dispatch();
  }

  /** Milliseconds left in the current pause (0 when not paused). */
  pausedForMs(): number {
    return Math.max(0, this.pausedUntil - Date.now());
  }

  /** Requests waiting for a slot, by priority (or all). */
  queued(priority?: Priority): number {
    return this.queue.size(priority);
  }

  /** Slots held now (requests started less than a window ago, or still unanswered), by priority (or all). */
  held(priority?: Priority): number {
    return this.queue.held(priority);
  }

  /** Requests started through this limiter since it was created. */
  started(): number {
    return this.startedCount;
  }

  /**
   * Stops the limiter: requests not yet started reject with LimiterStoppedError; started ones finish. Also removes
   * it from the shared registry.
   */
  stop(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.stopped = true;
    for (const [k, v] of registry) if (v === this) registry.delete(k);
    if (this.resumeTimer) clearTimeout(this.resumeTimer);
    this.resumeTimer = undefined;
    if (this.sharedRetry) clearTimeout(this.sharedRetry.timer);
    this.sharedRetry = undefined;
    for (const w of this.queue.drain()) w.drop(new LimiterStoppedError());
    for (const s of [...this.sleepers]) {
      clearTimeout(s.timer);
      s.wake();
    }
    return Promise.resolve();
  }

  /** Resolves after `ms`, or as soon as `orUntil` settles, or when the limiter stops. */
  private sleep(ms: number, orUntil?: Promise<unknown>): Promise<void> {
    if (ms <= 0 || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const s: Sleeper = {
        timer: setTimeout(() => s.wake(), ms),
        wake: () => {
          clearTimeout(s.timer);
          this.sleepers.delete(s);
          resolve();
        },
      };
      this.sleepers.add(s);
      if (this.queue.size() === 0) s.timer.unref();
      orUntil?.then(s.wake, s.wake);
    });
  }

  /**
   * Timers keep the process alive only while someone waits for them: slot holds after the last request must not
   * delay a process's exit, but a queued request must not be abandoned by an event loop that thinks it is done.
   */
  private refreshTimerRefs(): void {
    const keepAlive = this.queue.size() > 0;
    for (const s of this.sleepers) {
      if (keepAlive) s.timer.ref();
      else s.timer.unref();
    }
    for (const t of [this.resumeTimer, this.sharedRetry?.timer]) {
      if (!t) continue;
      if (keepAlive) t.ref();
      else t.unref();
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// One limiter per API key in the process.

const registry = new Map<string, RateLimiter>();

function keyId(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex');
}

/**
 * The process-wide limiter of `apiKey` (created with `opts` on first use; later calls return the same instance and
 * ignore `opts`). The key is kept only as a SHA-256 digest.
 */
export function sharedLimiter(
  apiKey: string,
  opts?: RateLimiterOptions & {
    /** Replicas' shared windows: the limiter then also takes slots of the key's bucket (`outreachBucket`). */
    windows?: SharedWindows;
  },
): RateLimiter {
  const id = keyId(apiKey);
  let limiter = registry.get(id);
  if (!limiter) {
    const { windows, ...rest } = opts ?? {};
    limiter = new RateLimiter(
      windows && !rest.shared ? { ...rest, shared: { windows, bucket: outreachBucket(apiKey) } } : rest,
    );
    registry.set(id, limiter);
  }
  return limiter;
}
