/**
 * Injected failures, latency and holds, matched against "METHOD /full/path" of each request (e.g.
 * "POST /api/v1.0/campaigns/3/contacts"; the query string is not part of it).
 */

export interface FaultSpec {
  /**
   * 400 stands for a refusal the simulator's own checks would not make (a real service may be stricter than the
   * spec): give the `body` to answer, e.g. a campaign envelope with `field` or a validation body. 402 answers
   * `BILLING_LIMIT_REACHED` (campaign envelope) where the spec does not say the service would, e.g. on a poll.
   */
  status: 400 | 402 | 500 | 502 | 503 | 429;
  /** How many matching requests fail (default 1). */
  count?: number;
  /** Only requests whose "METHOD path" matches; default: any request to the API. */
  match?: RegExp;
  /** Retry-After header in seconds (429 default 1; 503 only when given). */
  retryAfter?: number;
  /** Replaces the default body (JSON). */
  body?: unknown;
  /**
   * 'before' (default): the request is not processed. 'after': it is processed (state changes, idempotency record
   * kept) and then the response is lost and replaced by the fault — the case retries with Idempotency-Key are for.
   */
  when?: 'before' | 'after';
}

/** RegExp test that ignores a global/sticky regex's lastIndex. */
export function matches(re: RegExp, s: string): boolean {
  re.lastIndex = 0;
  return re.test(s);
}

interface ActiveFault extends FaultSpec {
  remaining: number;
}

/** Requests held until a test lets them go (`SimControl.hold`): to see what waits behind them, without a timer. */
export interface Hold {
  /** Requests waiting at this hold now. */
  held(): number;
  /** Lets the held requests go on, and every later matching one pass. */
  release(): void;
}

interface ActiveHold {
  match: RegExp;
  waiting: number;
  released: Promise<void>;
  release: () => void;
}

export class FaultBook {
  private faults: ActiveFault[] = [];
  private latency = new Map<string, { ms: number; match: RegExp | null }>();
  private holds: ActiveHold[] = [];

  inject(spec: FaultSpec): void {
    this.faults.push({ ...spec, remaining: spec.count ?? 1 });
  }

  /** Consumes and returns the first fault matching this request and phase, if any. */
  take(target: string, phase: 'before' | 'after'): FaultSpec | null {
    const f = this.faults.find(
      (x) => x.remaining > 0 && (x.when ?? 'before') === phase && (!x.match || matches(x.match, target)),
    );
    if (!f) return null;
    f.remaining -= 1;
    this.faults = this.faults.filter((x) => x.remaining > 0);
    return f;
  }

  pending(): number {
    return this.faults.reduce((s, f) => s + f.remaining, 0);
  }

  /** Sets the delay for requests matching `match` (all when absent); 0 removes that rule. */
  setLatency(ms: number, match?: RegExp): void {
    const key = match ? `${match.source}/${match.flags}` : '*';
    if (ms <= 0) this.latency.delete(key);
    else this.latency.set(key, { ms, match: match ?? null });
  }

  /** The longest delay of the rules matching the request. */
  latencyFor(target: string): number {
    let ms = 0;
    for (const r of this.latency.values()) if (!r.match || matches(r.match, target)) ms = Math.max(ms, r.ms);
    return ms;
  }

  /** Holds every request matching `match` (before it is processed) until the hold is released. */
  hold(match: RegExp): Hold {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const h: ActiveHold = { match, waiting: 0, released, release: () => undefined };
    h.release = () => {
      this.holds = this.holds.filter((x) => x !== h);
      release();
    };
    this.holds.push(h);
    return { held: () => h.waiting, release: () => h.release() };
  }

  /** Resolves once no hold matches the request any more. */
  async passHolds(target: string): Promise<void> {
    for (let h = this.holdFor(target); h; h = this.holdFor(target)) {
      h.waiting += 1;
      await h.released;
      h.waiting -= 1;
    }
  }

  private holdFor(target: string): ActiveHold | undefined {
    return this.holds.find((h) => matches(h.match, target));
  }

  clear(): void {
    this.faults = [];
    this.latency.clear();
    for (const h of [...this.holds]) h.release();
  }
}
