/**
 * Token buckets: `burst` at once, refilled at `perMinute` (a person's share of commands and clicks). The interface,
 * and its in-process implementation; the one shared by every replica on PostgreSQL is pg-token-buckets.ts, with the
 * same answers.
 */

/** A bucket's size and refill. */
export interface BucketRate {
  burst: number;
  perMinute: number;
}

export type Taken = { ok: true } | { ok: false; waitMs: number };

export interface TokenBuckets {
  /** Takes `cost` (at most the burst) from the bucket at once, or nothing, saying how long until it could. */
  take(bucket: string, cost: number, rate: BucketRate): Promise<Taken>;
  /**
   * Notes that the bucket's current streak of refusals was told: true the first time since its last accepted take,
   * false after.
   */
  markTold(bucket: string, rate: BucketRate): Promise<boolean>;
}

interface Bucket {
  tokens: number;
  /** When `tokens` was counted (clock ms). */
  at: number;
  /** A refusal was told since the last accepted take. */
  told: boolean;
}

/** Buckets in this process's memory. Full ones are forgotten past `keep` buckets (they hold nothing). */
export class LocalTokenBuckets implements TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly now: () => number;

  constructor(opts: { now?: () => number; keep?: number } = {}) {
    this.now = opts.now ?? Date.now;
    this.keep = opts.keep ?? 1000;
  }

  private readonly keep: number;

  async take(bucket: string, cost: number, rate: BucketRate): Promise<Taken> {
    const b = this.refilled(bucket, rate);
    if (b.tokens >= cost) {
      b.tokens -= cost;
      b.told = false;
      return { ok: true };
    }
    return { ok: false, waitMs: Math.ceil(((cost - b.tokens) * 60_000) / rate.perMinute) };
  }

  /** Gives back what a take took (capped at the burst). */
  async refund(bucket: string, cost: number, rate: BucketRate): Promise<void> {
    const b = this.refilled(bucket, rate);
    b.tokens = Math.min(rate.burst, b.tokens + cost);
  }

  async markTold(bucket: string, rate: BucketRate): Promise<boolean> {
    const b = this.refilled(bucket, rate);
    if (b.told) return false;
    b.told = true;
    return true;
  }

  private refilled(key: string, rate: BucketRate): Bucket {
    const now = this.now();
    const perMs = rate.perMinute / 60_000;
    if (this.buckets.size > this.keep) {
      for (const [k, x] of this.buckets) if (x.tokens + (now - x.at) * perMs >= rate.burst) this.buckets.delete(k);
    }
    let b = this.buckets.get(key);
    if (!b) {
      b = { tokens: rate.burst, at: now, told: false };
      this.buckets.set(key, b);
    }
    b.tokens = Math.min(rate.burst, b.tokens + Math.max(0, now - b.at) * perMs);
    b.at = Math.max(b.at, now);
    return b;
  }
}
