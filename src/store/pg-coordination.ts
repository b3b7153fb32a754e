/**
 * Coordination of replicas on one PostgreSQL database (coordination.ts says what each part promises).
 *
 * Rate windows: a bucket is `limit` rows of `rate_slots` (migration 2 of migrations.ts); a row is held from `tryAcquire` until `windowMs` after its
 * `release`, and at most `holdMs` after it was taken. Every time is the database server's (`clock_timestamp()`), so
 * the replicas' own clocks never matter. Taking a slot is one statement: it locks free rows with FOR UPDATE SKIP
 * LOCKED (two replicas never take the same row; a row taken concurrently is re-checked and skipped) and marks one
 * held. Since a start holds one of `limit` rows until a window after it can have been counted, no window ever holds
 * more than `limit` starts, whatever the number of replicas.
 *
 * Leadership: a session-level advisory lock held on a dedicated connection (a pg.Client of its own, not the pool, so
 * the lock lives exactly as long as that session). See PgLeadership for failover and a stalled leader.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { AcquireOptions, Acquired, Leadership, RateWindow, RateWindows, SlotTicket } from './coordination.js';
import { checkAcquire } from './local-coordination.js';

/**
 * One round trip: takes the lowest free slot below `limit` if at least reserve + 1 are free and the bucket is not
 * paused; otherwise says how long until the bucket's pause ends or the (reserve + 1)-th slot frees. The reserve's
 * rows are locked with the taken one, so a concurrent acquire cannot count them too. `slots` tells the caller the
 * bucket's rows are missing (first use, or a larger limit).
 * $1 bucket, $2 limit, $3 reserve, $4 holdMs, $5 token.
 */
const ACQUIRE_SQL = `
  WITH now AS MATERIALIZED (SELECT clock_timestamp() AS t),
  paused AS (SELECT paused_until FROM rate_buckets, now WHERE bucket = $1 AND paused_until > now.t),
  candidates AS (
    SELECT s.slot FROM rate_slots s, now
    WHERE s.bucket = $1 AND s.slot < $2::integer AND s.free_at <= now.t AND NOT EXISTS (SELECT 1 FROM paused)
    ORDER BY s.slot
    LIMIT $3::integer + 1
    FOR UPDATE OF s SKIP LOCKED
  ),
  pick AS (SELECT min(slot) AS slot FROM candidates HAVING count(*) > $3::integer),
  taken AS (
    UPDATE rate_slots s SET free_at = now.t + $4::float8 * interval '1 millisecond', token = $5::uuid
    FROM pick, now WHERE s.bucket = $1 AND s.slot = pick.slot
    RETURNING s.slot
  )
  SELECT
    (SELECT slot FROM taken) AS slot,
    (SELECT count(*)::integer FROM rate_slots WHERE bucket = $1 AND slot < $2::integer) AS slots,
    1000 * extract(epoch FROM greatest(
      (SELECT paused_until FROM paused),
      (SELECT greatest(free_at, now.t) FROM rate_slots WHERE bucket = $1 AND slot < $2::integer
         ORDER BY free_at OFFSET $3::integer LIMIT 1)
    ) - now.t)::float8 AS wait_ms
  FROM now
`;

/** Creates the bucket's row and its slots 0 … limit-1 (those missing). $1 bucket, $2 limit. */
const ENSURE_SQL = `
  WITH b AS (INSERT INTO rate_buckets (bucket) VALUES ($1) ON CONFLICT (bucket) DO NOTHING)
  INSERT INTO rate_slots (bucket, slot) SELECT $1, g FROM generate_series(0, $2::integer - 1) g
  ON CONFLICT (bucket, slot) DO NOTHING
`;

/** $1 bucket, $2 slot, $3 token, $4 windowMs. */
const RELEASE_SQL = `
  UPDATE rate_slots SET free_at = least(free_at, clock_timestamp() + $4::float8 * interval '1 millisecond')
  WHERE bucket = $1 AND slot = $2::integer AND token = $3::uuid
`;

/** $1 bucket, $2 pause from now, ms. Extends a pause, never shortens it. */
const PAUSE_SQL = `
  INSERT INTO rate_buckets AS b (bucket, paused_until) VALUES ($1, clock_timestamp() + $2::float8 * interval '1 millisecond')
  ON CONFLICT (bucket) DO UPDATE SET paused_until = greatest(b.paused_until, excluded.paused_until)
`;

interface AcquireRow {
  slot: number | null;
  slots: number;
  wait_ms: number | null;
}

/** Runs one statement: a pg.Pool, or the PostgreSQL store's `query` (which counts it and notices a lost database). */
export interface SqlRunner {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, params?: unknown[]): Promise<pg.QueryResult<R>>;
}

/** Rate windows shared by every replica on the database. */
export class PgRateWindows implements RateWindows {
  constructor(private readonly pool: SqlRunner) {}

  async tryAcquire(window: RateWindow, opts: AcquireOptions): Promise<Acquired> {
    const reserve = checkAcquire(window, opts);
    for (let attempt = 0; ; attempt++) {
      const token = randomUUID();
      const { rows } = await this.pool.query<AcquireRow>(ACQUIRE_SQL, [
        window.bucket,
        window.limit,
        reserve,
        opts.holdMs,
        token,
      ]);
      const row = rows[0] as AcquireRow;
      if (row.slot !== null) return { ok: true, ticket: { bucket: window.bucket, slot: row.slot, token } };
      if (row.slots < window.limit && attempt === 0) {
        await this.pool.query(ENSURE_SQL, [window.bucket, window.limit]);
        continue;
      }
      // wait_ms is 0 when free rows were locked by concurrent acquires (they may be free again in a moment).
      return { ok: false, waitMs: Math.max(1, row.wait_ms ?? 0) };
    }
  }

  async release(ticket: SlotTicket, windowMs: number): Promise<void> {
    await this.pool.query(RELEASE_SQL, [ticket.bucket, ticket.slot, ticket.token, windowMs]);
  }

  async pause(bucket: string, untilMs: number): Promise<void> {
    // Sent as a length from now: the server's clock times it, like every slot.
    await this.pool.query(PAUSE_SQL, [bucket, Math.max(0, untilMs - Date.now())]);
  }
}

// ---------------------------------------------------------------------------------------------------------------

/** The advisory lock of the poller's lease: "outrlead" as bytes (the migrations use another key). */
const LEADER_LOCK_KEY = 0x6f75_7472_6c65_6164n;
/** Non-leaders LISTEN here; a leader that steps down NOTIFYs it, so the next one takes over at once. */
const LEADER_CHANNEL = 'outreach_leader_free';

/**
 * One round trip: tries the lock and, only if it was taken, draws the next epoch (sequence `leader_epochs`,
 * migration 4): each term of leadership has a number larger than every earlier one. $1 the lock key.
 */
const TAKE_LEASE_SQL = `
  WITH t AS MATERIALIZED (SELECT pg_try_advisory_lock($1) AS locked)
  SELECT locked, CASE WHEN locked THEN nextval('leader_epochs')::text END AS epoch FROM t
`;

/** The keepalive: the session answers, and says the last epoch drawn (a larger one than ours: someone else leads). */
const KEEPALIVE_SQL = `SELECT last_value::text AS epoch FROM leader_epochs`;

export interface LeadershipLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface PgLeadershipOptions {
  /** Connection of the dedicated session (DATABASE_URL). */
  connectionString: string;
  /** How often a non-leader tries to take the lock, and how soon a lost connection is reopened, ms. Default 2000. */
  retryMs?: number;
  /** How often the session is checked with a query, ms. Default 5000. */
  keepAliveMs?: number;
  /**
   * The server ends the session after this long without a query (`idle_session_timeout`), which frees the lock of
   * a leader that stalled or whose host vanished; this process stops calling itself leader at the same moment. Ms,
   * at least 3 × keepAliveMs. Default 15000.
   */
  leaseMs?: number;
  lockKey?: bigint;
  logger?: LeadershipLogger;
}

/**
 * The poller's lease: a session-level advisory lock on a dedicated connection.
 *
 * - Becoming leader: every `retryMs` (and at once when a leader steps down and NOTIFYs) a non-leader runs
 *   `pg_try_advisory_lock`; the one that gets it leads until its session ends.
 * - A leader that dies, even by SIGKILL: its kernel closes the socket, the server ends the session and frees the
 *   lock, and another replica takes it within `retryMs`.
 * - A leader whose host vanishes, or whose process stalls (stopped, swapped out, an event loop blocked for long) with
 *   its socket still open: the server's `idle_session_timeout` (= `leaseMs`) ends the session when no keepalive
 *   query came for that long, freeing the lock; another takes over within `leaseMs + retryMs`. The stalled process
 *   itself stops calling itself leader at that moment too, before any I/O: `isLeader()` is true only while the last
 *   keepalive that succeeded was SENT less than `leaseMs` ago (on the monotonic clock; the server's idle timer
 *   started no earlier), so code waking after the stall sees false before it can poll or post.
 * - This side's connection fails (error, end, a keepalive unanswered within `keepAliveMs`): leader is false at once,
 *   and the connection is reopened after `retryMs`.
 * - `stop()` unlocks, NOTIFYs the others and ends the session: another takes over at once.
 * - Each term has an epoch (`epoch()`), drawn from a sequence in the database when the lock is taken, so it grows
 *   every time leadership changes hands. The keepalive reads the last one drawn: one larger than ours means another
 *   replica leads, and this one stops at once. Leader-only writes carry their term's epoch and are refused once it is
 *   not current (src/leader-work.ts): `isLeader()` and `epoch()` are local, so that check costs no round trip.
 */
export class PgLeadership implements Leadership {
  private readonly retryMs: number;
  private readonly keepAliveMs: number;
  private readonly leaseMs: number;
  private readonly lockKey: string;
  private readonly listeners = new Set<(leader: boolean) => void>();
  private client: pg.Client | undefined;
  private leader = false;
  /** The epoch of the term this process leads in (drawn when it took the lock). */
  private term: number | undefined;
  /** performance.now() when the last query that succeeded was sent. */
  private confirmedAt = -Infinity;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** The step running now (connect, try, keepalive), so steps never overlap and stop() can wait for it. */
  private step: Promise<void> = Promise.resolve();

  constructor(private readonly opts: PgLeadershipOptions) {
    this.retryMs = opts.retryMs ?? 2000;
    this.keepAliveMs = opts.keepAliveMs ?? 5000;
    this.leaseMs = opts.leaseMs ?? 15_000;
    this.lockKey = (opts.lockKey ?? LEADER_LOCK_KEY).toString();
    if (!(this.leaseMs >= 3 * this.keepAliveMs)) throw new RangeError('leaseMs must be at least 3 × keepAliveMs');
    this.schedule(0);
  }

  isLeader(): boolean {
    if (!this.leader) return false;
    if (performance.now() - this.confirmedAt < this.leaseMs) return true;
    // Stalled past the lease: the server has ended (or is about to end) the session and freed the lock.
    this.lose('the lease ran out (no keepalive confirmed in time: the process stalled)');
    return false;
  }

  epoch(): number | undefined {
    return this.isLeader() ? this.term : undefined;
  }

  onChange(listener: (leader: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.step;
    const client = this.client;
    this.client = undefined;
    const wasLeader = this.leader;
    this.setLeader(false);
    if (!client) return;
    try {
      // One simple query (no parameters: the key is a number of ours), so the unlock and the NOTIFY go together.
      if (wasLeader) await client.query(`SELECT pg_advisory_unlock(${this.lockKey}); NOTIFY ${LEADER_CHANNEL}`);
    } catch {
      // The session ends just below, which frees the lock anyway.
    }
    await client.end().catch(() => undefined);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // Steps run one after the other (a NOTIFY may schedule one while another is running).
      this.step = this.step.then(() => this.tick());
    }, ms);
    this.timer.unref();
  }

  /** One step: connect if needed, then confirm the lease (leader) or try to take it. Never rejects. */
  private async tick(): Promise<void> {
    if (this.stopped) return;
    if (!this.client) {
      try {
        await this.connect();
      } catch (err) {
        this.opts.logger?.warn({ err: errorText(err) }, 'could not open the leader lease connection; retrying');
        this.schedule(this.retryMs);
        return;
      }
    }
    const client = this.client;
    if (!client || this.stopped) return;
    try {
      await this.confirmOrTry(client);
    } catch (err) {
      this.dropped(client, err);
    }
  }

  private async confirmOrTry(client: pg.Client): Promise<void> {
    const sentAt = performance.now();
    if (this.leader) {
      const { rows } = await client.query<{ epoch: string }>(KEEPALIVE_SQL);
      if (client !== this.client) return;
      const last = Number(rows[0]?.epoch);
      if (this.term !== undefined && last > this.term) {
        this.lose(`another replica took the lease (epoch ${last}, this one's ${this.term})`);
        return;
      }
      this.confirmedAt = sentAt;
      this.schedule(this.keepAliveMs);
      return;
    }
    const { rows } = await client.query<{ locked: boolean; epoch: string | null }>(TAKE_LEASE_SQL, [this.lockKey]);
    if (this.stopped || client !== this.client) return;
    this.confirmedAt = sentAt;
    if (rows[0]?.locked) {
      this.term = Number(rows[0].epoch);
      this.opts.logger?.info(
        { epoch: this.term },
        'this replica is now the leader (it polls the service and delivers to Slack)',
      );
      this.setLeader(true);
      this.schedule(this.keepAliveMs);
    } else {
      this.schedule(this.retryMs);
    }
  }

  private async connect(): Promise<void> {
    const client: pg.Client = new pg.Client({
      connectionString: this.opts.connectionString,
      // TCP keepalive notices a peer that vanished from the network; query_timeout a session that stopped answering.
      keepAlive: true,
      keepAliveInitialDelayMillis: this.keepAliveMs,
      query_timeout: this.keepAliveMs,
      connectionTimeoutMillis: this.keepAliveMs,
      application_name: 'outreach-slack leader lease',
    });
    client.on('error', (err) => this.dropped(client, err));
    client.on('end', () => this.dropped(client, new Error('the connection ended')));
    client.on('notification', () => {
      if (!this.leader && client === this.client) this.schedule(0);
    });
    try {
      await client.connect();
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    // The server ends the session after leaseMs without a query: frees a stalled leader's lock (see the class).
    // PostgreSQL < 14 has no idle_session_timeout; the TCP keepalive and the query timeout still apply there.
    await client.query(`SET idle_session_timeout = ${Math.round(this.leaseMs)}`).catch((err: unknown) => {
      this.opts.logger?.warn(
        { err: errorText(err) },
        'idle_session_timeout is not supported by this PostgreSQL (< 14): a stalled leader keeps the lease until its connection ends',
      );
    });
    await client.query(`LISTEN ${LEADER_CHANNEL}`);
  }

  private dropped(client: pg.Client, err: unknown): void {
    if (client !== this.client) return;
    this.client = undefined;
    // Ending our side frees the lock on the server as soon as it notices; we stop leading now either way.
    client.end().catch(() => undefined);
    if (this.leader) this.lose(`the connection failed: ${errorText(err)}`);
    this.schedule(this.retryMs);
  }

  private lose(why: string): void {
    this.opts.logger?.warn({ why }, 'this replica is no longer the leader');
    this.setLeader(false);
    // A stalled leader's session may still be open (the server has not ended it yet): close it, retry later.
    const client = this.client;
    if (client) {
      this.client = undefined;
      client.end().catch(() => undefined);
      this.schedule(this.retryMs);
    }
  }

  private setLeader(leader: boolean): void {
    if (this.leader === leader) return;
    this.leader = leader;
    for (const l of [...this.listeners]) l(leader);
  }
}

/** An error's message only: a connection error may quote its connection string otherwise. */
function errorText(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.replace(/postgres(ql)?:\/\/\S+/gi, 'postgres://…');
}
