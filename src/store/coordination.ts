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
  /**
   * True while this process holds the lease (checked before every poll cycle and every delivery). Local: no round
   * trip (PostgreSQL: the last keepalive confirmed less than a lease ago).
   */
  isLeader(): boolean;
  /**
   * The epoch of the lease this process holds, undefined while it does not lead: a number that grows each time
   * leadership changes hands (kept in the shared store), so a term is told from a later one of the same process.
   * Local, like `isLeader()`.
   */
  epoch(): number | undefined;
  /** Called with true when this process becomes leader and false when it loses the lease. */
  onChange(listener: (leader: boolean) => void): () => void;
  /** Gives the lease up (shutdown), so another replica takes over at once. */
  stop(): Promise<void>;
}

/**
 * What a leader-only write checks right before it goes out (src/leader-work.ts implements it): a write carries the
 * term (lease epoch) that asked for it, and is sent only while that term is still this process's current one. A
 * leader that stalled past its lease, or lost it and won it again, has a write of its old term refused. Both calls
 * are local (no round trip), so a check per Slack write costs nothing.
 */
export interface LeaderFence {
  /** The term the leader-only work runs in now; undefined when it does not run here. */
  term(): number | undefined;
  /** Whether `term` is still current: the work runs in it, the lease holds, and its epoch is the same. */
  holds(term: number): boolean;
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
