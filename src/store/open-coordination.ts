/**
 * The coordination of the store's mode: the embedded store's one process leads and keeps its rate windows in memory;
 * on PostgreSQL, the leader lease and the shared rate windows live in the database every replica uses.
 */
import type pg from 'pg';
import type { Leadership, RateWindows } from './coordination.js';
import { LocalLeadership, LocalRateWindows } from './local-coordination.js';
import { PgLeadership, PgRateWindows, type LeadershipLogger, type SqlRunner } from './pg-coordination.js';

export interface Coordination {
  leadership: Leadership;
  windows: RateWindows;
  /** Gives the lease up (another replica takes over at once) and closes the lease's connection. */
  close(): Promise<void>;
}

export type CoordinationOptions =
  | { kind: 'embedded' }
  | {
      kind: 'postgres';
      /** Runs the windows' statements: the PostgreSQL store (its `query` counts them) or its pool. */
      sql: SqlRunner | pg.Pool;
      /** DATABASE_URL: the leader lease opens a dedicated connection of its own (never the pool's). */
      url: string;
      /** How often a follower tries to take the lease, ms (default 2000). */
      leaderRetryMs?: number;
      logger?: LeadershipLogger;
    };

export function openCoordination(opts: CoordinationOptions): Coordination {
  if (opts.kind === 'embedded') {
    const leadership = new LocalLeadership();
    return { leadership, windows: new LocalRateWindows(), close: () => leadership.stop() };
  }
  const leadership = new PgLeadership({
    connectionString: opts.url,
    ...(opts.leaderRetryMs !== undefined ? { retryMs: opts.leaderRetryMs } : {}),
    ...(opts.logger ? { logger: opts.logger } : {}),
  });
  return { leadership, windows: new PgRateWindows(opts.sql), close: () => leadership.stop() };
}
