/**
 * Coordination for the embedded store, whose one process is the only replica: it always leads, and its shared rate
 * windows live in memory with the same semantics as the PostgreSQL ones (pg-coordination.ts), so code written against
 * RateWindows behaves the same in both modes.
 *
 * A bucket has `limit` slots. A slot is held from `tryAcquire` until `windowMs` after its `release`, and at most
 * `holdMs` after it was taken (a holder that never releases). Since each start holds one of `limit` slots until a
 * window after it can have been counted, no window of `windowMs` ever holds more than `limit` starts.
 */
import { randomUUID } from 'node:crypto';
import type { AcquireOptions, Acquired, Leadership, RateWindow, RateWindows, SlotTicket } from './coordination.js';

/** Checks what every RateWindows implementation refuses (a reserve that leaves no slot, a non-positive hold). */
export function checkAcquire(window: RateWindow, opts: AcquireOptions): number {
  const reserve = opts.reserve ?? 0;
  if (!Number.isInteger(window.limit) || window.limit < 1) {
    throw new RangeError(`Rate window "${window.bucket}": limit must be an integer >= 1 (got ${window.limit}).`);
  }
  if (!(window.windowMs > 0) || !(opts.holdMs >= window.windowMs)) {
    throw new RangeError(`Rate window "${window.bucket}": windowMs must be > 0 and holdMs >= windowMs.`);
  }
  if (!Number.isInteger(reserve) || reserve < 0 || reserve >= window.limit) {
    throw new RangeError(
      `Rate window "${window.bucket}": reserve must be an integer from 0 to limit - 1 (got ${reserve}).`,
    );
  }
  return reserve;
}

interface Slot {
  /** When the slot is free again (clock ms). */
  freeAt: number;
  /** The current holding; undefined when never taken. */
  token?: string;
}

interface Bucket {
  slots: Slot[];
  /** No slot is given before this (clock ms). */
  pausedUntil: number;
}

export interface LocalRateWindowsOptions {
  /**
   * Milliseconds since the epoch, monotonic. Default: the high-resolution clock (performance.now) anchored at the
   * process's start, so holds are timed to sub-millisecond precision and a wall-clock step cannot shorten one.
   */
  now?: () => number;
}

const highResNow = (): number => performance.timeOrigin + performance.now();

/**
 * Buckets beyond which those with every slot free (and no pause) are let go: such a bucket is the same as a new one,
 * and there is one per Slack channel the app posts to.
 */
const FREE_BUCKETS_KEPT = 1000;

export class LocalRateWindows implements RateWindows {
  private readonly buckets = new Map<string, Bucket>();
  private readonly now: () => number;

  constructor(opts: LocalRateWindowsOptions = {}) {
    this.now = opts.now ?? highResNow;
  }

  tryAcquire(window: RateWindow, opts: AcquireOptions): Promise<Acquired> {
    try {
      return Promise.resolve(this.acquire(window, opts));
    } catch (e) {
      return Promise.reject(e);
    }
  }

  private acquire(window: RateWindow, opts: AcquireOptions): Acquired {
    const reserve = checkAcquire(window, opts);
    const now = this.now();
    const b = this.bucket(window.bucket);
    // The bucket's slots are created on first use; a larger limit later adds slots (a smaller one uses the first).
    while (b.slots.length < window.limit) b.slots.push({ freeAt: 0 });
    if (b.pausedUntil > now) return { ok: false, waitMs: b.pausedUntil - now };
    const slots = b.slots.slice(0, window.limit);
    const free = slots.filter((s) => s.freeAt <= now);
    const first = free[0];
    if (first && free.length > reserve) {
      first.freeAt = now + opts.holdMs;
      first.token = randomUUID();
      return { ok: true, ticket: { bucket: window.bucket, slot: b.slots.indexOf(first), token: first.token } };
    }
    // reserve + 1 slots must be free: wait for the (reserve + 1)-th earliest to free.
    const freeTimes = slots.map((s) => s.freeAt).sort((x, y) => x - y);
    return { ok: false, waitMs: Math.max(0, (freeTimes[reserve] as number) - now) };
  }

  release(ticket: SlotTicket, windowMs: number): Promise<void> {
    const slot = this.buckets.get(ticket.bucket)?.slots[ticket.slot];
    // A slot already taken by someone else (its hold ended) is not ours to shorten.
    if (slot && slot.token === ticket.token) slot.freeAt = Math.min(slot.freeAt, this.now() + windowMs);
    return Promise.resolve();
  }

  pause(bucket: string, untilMs: number): Promise<void> {
    const b = this.bucket(bucket);
    b.pausedUntil = Math.max(b.pausedUntil, untilMs);
    return Promise.resolve();
  }

  private bucket(name: string): Bucket {
    let b = this.buckets.get(name);
    if (!b) {
      if (this.buckets.size >= FREE_BUCKETS_KEPT) this.forgetFreeBuckets();
      b = { slots: [], pausedUntil: 0 };
      this.buckets.set(name, b);
    }
    return b;
  }

  private forgetFreeBuckets(): void {
    const now = this.now();
    for (const [name, b] of this.buckets) {
      if (b.pausedUntil <= now && b.slots.every((s) => s.freeAt <= now)) this.buckets.delete(name);
    }
  }
}

/**
 * The embedded store's leadership: its one process leads from the start (`isLeader()` is true at once; `onChange`
 * is not called for that initial state) until `stop()`, which tells listeners false.
 */
export class LocalLeadership implements Leadership {
  private leader = true;
  private readonly listeners = new Set<(leader: boolean) => void>();

  isLeader(): boolean {
    return this.leader;
  }

  /** The one process's one term: leadership never changes hands here. */
  epoch(): number | undefined {
    return this.leader ? 1 : undefined;
  }

  onChange(listener: (leader: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stop(): Promise<void> {
    if (this.leader) {
      this.leader = false;
      for (const l of [...this.listeners]) l(false);
    }
    return Promise.resolve();
  }
}
