/**
 * Sliding-window rate limit per API key: more than `limit` accepted requests within any `windowMs` makes the next
 * one 429. Only accepted requests count, so a client that waits Retry-After gets through. Time comes from the
 * simulator's clock, so a test can step it instead of sleeping.
 */
export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    public limit: number | false,
    private readonly now: () => number,
    private readonly windowMs = 1000,
  ) {}

  /** Records a request of `key`; returns null when allowed, else the seconds to wait (integer, at least 1). */
  take(key: string): number | null {
    if (this.limit === false) return null;
    const now = this.now();
    const list = (this.hits.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (list.length >= this.limit) {
      this.hits.set(key, list);
      const oldest = list[0] as number;
      return Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
    }
    list.push(now);
    this.hits.set(key, list);
    return null;
  }

  reset(): void {
    this.hits.clear();
  }
}
