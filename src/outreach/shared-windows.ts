/**
 * The budget the limiter shares with other replicas, as far as it uses it: the RateWindows of
 * src/store/coordination.ts (implemented on PostgreSQL in src/store/pg-coordination.ts), restated here because the
 * service client imports nothing else of the app. Any RateWindows is a SharedWindows.
 */

/** A slot taken; given back with `release`. */
export interface SharedTicket {
  bucket: string;
  slot: number;
  token: string;
}

export interface SharedWindows {
  /** Takes a slot of `bucket` (at most `limit` starts in any `windowMs`), or says how long until one frees (ms). */
  tryAcquire(
    window: { bucket: string; limit: number; windowMs: number },
    opts: { holdMs: number; reserve?: number },
  ): Promise<{ ok: true; ticket: SharedTicket } | { ok: false; waitMs: number }>;
  /** The answer came back: the slot frees `windowMs` from now. */
  release(ticket: SharedTicket, windowMs: number): Promise<void>;
  /** A 429: no slot of the bucket is given before `untilMs` (ms since the epoch), on any replica. */
  pause(bucket: string, untilMs: number): Promise<void>;
}
