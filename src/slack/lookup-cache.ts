/**
 * Answers of a Slack lookup (users.info, users.conversations) kept for a while, so a person's clicks do not each cost
 * a call: an answer is trusted while younger than `ttlMs` (read at each use: it may be a setting), at most `max`
 * answers are kept (the oldest forgotten first), and lookups of one key under way at once are made once.
 */
export interface LookupCacheOptions {
  /** How long an answer is trusted, ms. */
  ttlMs: number | (() => number);
  /** Answers kept at most. */
  max: number;
  now?: () => number;
}

export class LookupCache<V> {
  private readonly answers = new Map<string, { value: V; at: number }>();
  private readonly inFlight = new Map<string, Promise<V>>();
  private readonly now: () => number;

  constructor(private readonly opts: LookupCacheOptions) {
    this.now = opts.now ?? Date.now;
  }

  /** The kept answer for `key` while trusted, else `load()`'s (kept from then on). */
  get(key: string, load: () => Promise<V>): Promise<V> {
    const kept = this.answers.get(key);
    const ttl = typeof this.opts.ttlMs === 'function' ? this.opts.ttlMs() : this.opts.ttlMs;
    if (kept && this.now() - kept.at < ttl) return Promise.resolve(kept.value);
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = load()
        .then((value) => {
          this.set(key, value);
          return value;
        })
        .finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  /** Keeps `value` as the answer for `key` from now on (also a fresher lookup made by the caller). */
  set(key: string, value: V): void {
    this.answers.delete(key);
    this.answers.set(key, { value, at: this.now() });
    for (const oldest of this.answers.keys()) {
      if (this.answers.size <= this.opts.max) break;
      this.answers.delete(oldest);
    }
  }
}
