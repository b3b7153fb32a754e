/**
 * The PostgreSQL store's way to its database: every statement through `run` (counted; refused once the store is
 * closed), and whether writes can be made durable now (`status()`). When a statement fails because the database
 * cannot be reached or cannot write (refused, lost connection, dropped database, disk full, read-only), the status
 * turns not durable with an operator's explanation (host:port/db, never credentials) and the call rejects with
 * StoreUnavailableError; the next successful write or `probe()` (tried every `retryMs` meanwhile) makes it durable
 * again.
 */
import type pg from 'pg';
import { StoreClosedError, StoreUnavailableError, type StoreStatus } from './store.js';

/** Why the database cannot take writes, in words for an operator; undefined when the error is not about that. */
export function unavailability(err: unknown, where: string): string | undefined {
  // Not `instanceof Error`: errors of node's own sockets may come from another realm (e.g. under jest's vm).
  if (typeof err !== 'object' || err === null) return undefined;
  const { code, message } = err as { code?: unknown; message?: unknown };
  const c = typeof code === 'string' ? code : '';
  const text = typeof message === 'string' ? message : '';
  const db = `PostgreSQL at ${where}`;
  switch (c) {
    case 'ECONNREFUSED':
      return `${db} refuses connections (is the server running and listening there?)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host of ${db} cannot be found (check DATABASE_URL's host name)`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${db} cannot be reached over the network`;
    case 'ECONNRESET':
    case 'EPIPE':
      return `the connection to ${db} was cut`;
    case '3D000':
      return `the database at ${where} does not exist (was it dropped or renamed?)`;
    case '28P01':
    case '28000':
      return `${db} refused the user name or password in DATABASE_URL`;
    case '53100':
      return `${db} has no disk space left`;
    case '25006':
      return `${db} accepts only reads (is it a standby?)`;
    case '57P01':
    case '57P02':
    case '57P03':
      return `${db} is shutting down or restarting`;
  }
  if (/^(08|53|58)/.test(c)) return `${db} cannot take writes (PostgreSQL error ${c})`;
  if (/^57P0/.test(c)) return `${db} is shutting down or restarting`;
  if (/timeout exceeded when trying to connect|connection timeout/i.test(text)) {
    return `${db} does not answer (timed out connecting)`;
  }
  if (/Connection terminated|not queryable|Query read timeout/i.test(text)) {
    return `the connection to ${db} was lost`;
  }
  return undefined;
}

export class PgDatabase {
  /** Statements sent since the store opened (records, probes, `query()`; the migrations at open excluded). */
  queries = 0;
  private closed = false;
  private current: StoreStatus = { durable: true };
  private readonly listeners = new Set<(s: StoreStatus) => void>();
  /** While not durable, a probe every retryMs (besides the app's own) turns the store durable once writes succeed. */
  private retryTimer: NodeJS.Timeout | undefined;

  /** `where`: host:port/database, safe to show (no credentials). */
  constructor(
    readonly pool: pg.Pool,
    readonly where: string,
    private readonly opts: { now: () => number; retryMs: number },
  ) {}

  /** The app's clock, as a parameter (expiry is judged by it, not the database's). */
  at(): Date {
    return new Date(this.opts.now());
  }

  /** Runs a statement; `what` says in words what it was for (in errors). Writes that succeed prove durability. */
  async run<R extends pg.QueryResultRow>(
    what: string,
    write: boolean,
    text: string,
    params: readonly unknown[] = [],
  ): Promise<pg.QueryResult<R>> {
    if (this.closed) {
      const err = new StoreClosedError(what);
      if (!write) err.message = `The store is closed (the app is shutting down), so ${what} could not be done.`;
      throw err;
    }
    this.queries++;
    try {
      const result = await this.pool.query<R>(text, params as unknown[]);
      if (write) this.markDurable();
      return result;
    } catch (err) {
      throw this.unavailable(err, `${what} did not happen`);
    }
  }

  /** A connection for a transaction of the store's own (counted as one statement); `what` names it in errors. */
  async connect(what: string): Promise<pg.PoolClient> {
    if (this.closed) throw new StoreClosedError(what);
    this.queries++;
    return this.pool.connect();
  }

  /**
   * What a failed statement means: when the database cannot take writes, the status turns not durable and the
   * answer is a StoreUnavailableError saying that, so `consequence` (e.g. "the change to x did not happen"); else the
   * error itself.
   */
  unavailable(err: unknown, consequence: string): unknown {
    const why = unavailability(err, this.where);
    if (!why) return err;
    this.markDown(why);
    return new StoreUnavailableError(`${why}, so ${consequence}.`, { cause: err });
  }

  status(): StoreStatus {
    return { ...this.current };
  }

  onStatus(listener: (s: StoreStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A small write: the status is durable again once one succeeds. */
  async probe(): Promise<StoreStatus> {
    try {
      await this.run(
        'a test write',
        true,
        `INSERT INTO store_probe (id, probed_at) VALUES (1, now())
         ON CONFLICT (id) DO UPDATE SET probed_at = EXCLUDED.probed_at`,
      );
    } catch (err) {
      if (!(err instanceof StoreUnavailableError) || this.closed) throw err;
    }
    return this.status();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.retryTimer);
    await this.pool.end();
  }

  private setStatus(next: StoreStatus): void {
    const changed = next.durable !== this.current.durable;
    this.current = next;
    if (!next.durable && !this.retryTimer && !this.closed) {
      this.retryTimer = setInterval(() => void this.probe().catch(() => undefined), this.opts.retryMs);
      this.retryTimer.unref();
    } else if (next.durable && this.retryTimer) {
      clearInterval(this.retryTimer);
      this.retryTimer = undefined;
    }
    if (changed) for (const l of [...this.listeners]) l(this.status());
  }

  private markDurable(): void {
    if (!this.current.durable) this.setStatus({ durable: true });
  }

  private markDown(problem: string): void {
    const { now } = this.opts;
    this.setStatus({ durable: false, problem, since: this.current.durable ? now() : (this.current.since ?? now()) });
  }
}
