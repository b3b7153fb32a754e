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

/**
 * Requests held until a test lets them go (`SimControl.hold`): to see what waits behind a request, or to kill a client
 * while its request is in flight, without a timer. `when` 'before' (default): held before it is processed; `drop()`
 * then answers 503 without processing it (as if it never arrived). 'after': processed, its answer held. `once`: only
 * the next matching request is held (later ones pass); otherwise every matching one until `release()` or `drop()`.
 */
export interface RequestHold {
  /** Resolves with the first held request's "METHOD path". */
  arrived: Promise<string>;
  /**
   * Requests waiting at this hold now. A client's retry of a held request (the same path and Idempotency-Key: its
   * client stopped waiting for the first, after its response timeout) counts once with the request it repeats, so a
   * hold longer than the client's timeout still counts the clients waiting, whatever the time.
   */
  held(): number;
  /** Requests that reached this hold so far (waiting now or let go). */
  seen(): number;
  /** Lets the held requests go on, and every later matching one pass. */
  release(): void;
  /** Ends the hold: requests held 'before' are answered 503 unprocessed; those held 'after' get their answer. */
  drop(): void;
}

export interface HoldOptions {
  when?: 'before' | 'after';
  once?: boolean;
}

interface ActiveHold {
  match: RegExp;
  when: 'before' | 'after';
  once: boolean;
  /** The requests waiting, by what they are (their path and Idempotency-Key), with how many copies of each. */
  waiting: Map<string, number>;
  seen: number;
  arrived: (target: string) => void;
  /** Resolves true to go on, false to drop. */
  gate: Promise<boolean>;
}

export class FaultBook {
  private faults: ActiveFault[] = [];
  private latency = new Map<string, { ms: number; match: RegExp | null }>();
  private holds: ActiveHold[] = [];
  /** How each hold not yet ended is ended (a `once` hold leaves `holds` when it catches its request). */
  private readonly opens = new Map<ActiveHold, (go: boolean) => void>();
  /** Numbers requests without an Idempotency-Key: each one is a request of its own. */
  private unkeyed = 0;

  /** Holds requests matching `match` (see RequestHold). */
  hold(match: RegExp, opts: HoldOptions = {}): RequestHold {
    let arrived!: (target: string) => void;
    let open!: (go: boolean) => void;
    const seen = new Promise<string>((r) => (arrived = r));
    const gate = new Promise<boolean>((r) => (open = r));
    const h: ActiveHold = {
      match,
      when: opts.when ?? 'before',
      once: opts.once ?? false,
      waiting: new Map(),
      seen: 0,
      arrived,
      gate,
    };
    const end = (go: boolean) => {
      this.holds = this.holds.filter((x) => x !== h);
      this.opens.delete(h);
      open(go);
    };
    this.holds.push(h);
    this.opens.set(h, end);
    return {
      arrived: seen,
      held: () => h.waiting.size,
      seen: () => h.seen,
      release: () => end(true),
      drop: () => end(false),
    };
  }

  /** Waits while the request is held at this phase; false when the hold dropped it. */
  async passHold(target: string, phase: 'before' | 'after', idempotencyKey?: string): Promise<boolean> {
    const h = this.holds.find((x) => x.when === phase && matches(x.match, target));
    if (!h) return true;
    if (h.once) this.holds = this.holds.filter((x) => x !== h);
    const request = idempotencyKey ? `${target}\n${idempotencyKey}` : `#${++this.unkeyed}`;
    h.waiting.set(request, (h.waiting.get(request) ?? 0) + 1);
    h.seen += 1;
    h.arrived(target);
    const go = await h.gate;
    const left = (h.waiting.get(request) ?? 1) - 1;
    if (left > 0) h.waiting.set(request, left);
    else h.waiting.delete(request);
    return go;
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
    for (const end of [...this.opens.values()]) end(true);
  }
}
