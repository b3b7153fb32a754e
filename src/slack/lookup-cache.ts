/**
 * Answers of a Slack lookup (users.info, users.conversations) kept for a while, so a person's clicks do not each cost
 * a call: each answer is trusted for its own time, at most `max` answers are kept (the oldest forgotten first), and
 * lookups of one key under way at once are made once.
 */
export interface LookupCacheOptions {
  /** How long an answer is trusted, ms. */
  ttlMs: number;
  /** Answers kept at most. */
  max: number;
  now?: () => number;
}

export class LookupCache<V> {
  private readonly answers = new Map<string, { value: V; until: number }>();
  private readonly inFlight = new Map<string, Promise<V>>();
  private readonly now: () => number;

  constructor(private readonly opts: LookupCacheOptions) {
    this.now = opts.now ?? Date.now;
  }

  /** The kept answer for `key` while trusted, else `load()`'s (kept `ttlMs`, or `ttlFor(value)` when given). */
  get(key: string, load: () => Promise<V>, ttlFor?: (value: V) => number): Promise<V> {
    const kept = this.answers.get(key);
    if (kept && kept.until > this.now()) return Promise.resolve(kept.value);
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = load()
        .then((value) => {
          this.keep(key, value, ttlFor ? ttlFor(value) : this.opts.ttlMs);
          return value;
        })
        .finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  /** How many answers are kept now. */
  get size(): number {
    return this.answers.size;
  }

  private keep(key: string, value: V, ttlMs: number): void {
    this.answers.delete(key);
    this.answers.set(key, { value, until: this.now() + ttlMs });
    for (const oldest of this.answers.keys()) {
      if (this.answers.size <= this.opts.max) break;
      this.answers.delete(oldest);
    }
  }
}
