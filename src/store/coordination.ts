/**
 * What replicas must agree on besides records, with an in-process implementation (embedded state: one process) and
 * a PostgreSQL one (several replicas on one DATABASE_URL).
 *
 * - Leadership: exactly one replica polls the service and delivers to Slack at a time.
 * - RateWindows: "at most N starts in any window of W ms" budgets shared by every replica: the service's
 *   12 requests/s per API key, and Slack's per-method limits for the workspace.
 */

/** Who polls. The embedded store's process always leads; with PostgreSQL, one replica holds the lease. */
export interface Leadership {
  /** True while this process holds the lease (checked before every poll cycle and every delivery). */
  isLeader(): boolean;
  /** Called with true when this process becomes leader and false when it loses the lease. */
  onChange(listener: (leader: boolean) => void): () => void;
  /** Gives the lease up (shutdown), so another replica takes over at once. */
  stop(): Promise<void>;
}

/** One shared budget: at most `limit` starts in any window of `windowMs`. */
export interface RateWindow {
  /** e.g. `outreach:<hash of the API key>`, `slack:chat.update`, `slack:chat.postMessage:C123`. */
  bucket: string;
  limit: number;
  windowMs: number;
}

/** A slot taken in a bucket; given back with `release` when the request's answer came back. */
export interface SlotTicket {
  bucket: string;
  slot: number;
  /** Identifies this holding (a slot is reused once free). */
  token: string;
}

export type Acquired = { ok: true; ticket: SlotTicket } | { ok: false; waitMs: number };

export interface AcquireOptions {
  /**
   * Longest a slot stays held if `release` never comes (the holder died): the window plus the assumed worst delay
   * of a request on its way. A slot is free again at most `holdMs` after it was taken.
   */
  holdMs: number;
  /** Leave this many slots free (for people's requests): a background caller passes e.g. 2. */
  reserve?: number;
}

export interface RateWindows {
  /** Takes a free slot of the bucket, or says how long until one frees (ms). Never waits itself. */
  tryAcquire(window: RateWindow, opts: AcquireOptions): Promise<Acquired>;
  /** The answer came back: the slot frees `windowMs` from now (or sooner if its hold ends sooner). */
  release(ticket: SlotTicket, windowMs: number): Promise<void>;
  /** A 429: no slot of the bucket is given before `untilMs` (ms since the epoch) on any replica. */
  pause(bucket: string, untilMs: number): Promise<void>;
}
