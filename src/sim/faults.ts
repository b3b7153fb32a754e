/**
 * Injected failures and latency, matched against "METHOD /full/path" of each request (e.g.
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

/**
 * One request held (in-process tests: a client killed while its request is in flight). 'before': held before it is
 * processed; `drop()` then answers 503 without processing it (as if it never arrived), `release()` lets it go on.
 * 'after': processed, its answer held until `release()` (or `drop()`, the same: the answer then goes out).
 */
export interface RequestHold {
  /** Resolves with the request's "METHOD path" once one matching request is held. */
  arrived: Promise<string>;
  release(): void;
  drop(): void;
}

interface ActiveHold {
  match: RegExp;
  when: 'before' | 'after';
  arrived: (target: string) => void;
  /** Resolves true to go on, false to drop. */
  gate: Promise<boolean>;
}

export class FaultBook {
  private faults: ActiveFault[] = [];
  private latency = new Map<string, { ms: number; match: RegExp | null }>();
  private holds: ActiveHold[] = [];

  /** Holds the next request matching `match` at `when` (see RequestHold). */
  hold(match: RegExp, when: 'before' | 'after'): RequestHold {
    let arrived!: (target: string) => void;
    let open!: (go: boolean) => void;
    const seen = new Promise<string>((r) => (arrived = r));
    const gate = new Promise<boolean>((r) => (open = r));
    this.holds.push({ match, when, arrived, gate });
    return { arrived: seen, release: () => open(true), drop: () => open(false) };
  }

  /** Waits while the request is held at this phase; false when the hold dropped it. */
  async passHold(target: string, phase: 'before' | 'after'): Promise<boolean> {
    const h = this.holds.find((x) => x.when === phase && matches(x.match, target));
    if (!h) return true;
    this.holds = this.holds.filter((x) => x !== h);
    h.arrived(target);
    return h.gate;
  }

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

  clear(): void {
    this.faults = [];
    this.latency.clear();
    this.holds = [];
  }
}
