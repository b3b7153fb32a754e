/**
 * The PostgreSQL store (DATABASE_URL): every replica of the app on one database, through a `pg.Pool`.
 *
 * All records live in one table `records` (collection, key, value JSONB, version, expires_at; see migrations.ts):
 * - keys are `COLLATE "C"`, so a prefix listing (`key LIKE 'prefix%'`, wildcards escaped) uses the primary key's
 *   btree and lists in code-point order like the other stores;
 * - `where` on indexed fields compares `idx -> 'field'`, each field with a B-tree index of its own (pg-field-indexes.ts);
 * - versions come from one sequence: compare-and-set is `UPDATE … WHERE version = expected`, insert-if-absent is
 *   `INSERT … ON CONFLICT DO UPDATE … WHERE the row expired`, both atomic between processes (row locks;
 *   pg-collection.ts);
 * - expiry is checked in every query against the app's clock, so an expired row is invisible at once; `sweep`
 *   deletes them.
 *
 * Durability: every write is one committed statement, so its promise resolves once it is durable. A database that
 * cannot be reached or cannot write turns `status()` not durable until a write succeeds again (pg-database.ts).
 */
import pg from 'pg';
import { byKey } from './memory-store.js';
import { migrate, type Migration, MIGRATIONS } from './migrations.js';
import { live, pgCollection } from './pg-collection.js';
import { PgDatabase, unavailability } from './pg-database.js';
import { FieldIndexes, type IndexedFields } from './pg-field-indexes.js';
import { StoreUnavailableError, specOf } from './store.js';
import type { Collection, CollectionSpec, ExportableStore, ExportedRecord } from './store.js';

export interface PostgresStoreOptions {
  /** Connections this process keeps at most (default 10). */
  poolSize?: number;
  /** The clock expiry is judged by (tests inject one); ms since the epoch. */
  now?: () => number;
  /** Longest wait for a connection before the database counts as unreachable (default 5000 ms). */
  connectTimeoutMs?: number;
  /** Longest a statement may take before it is given up (default 30000 ms). */
  queryTimeoutMs?: number;
  /** While not durable, try a write this often (ms), so status recovers by itself. Default 5000. */
  retryMs?: number;
  /** The schema to migrate to (tests only; default: every migration of migrations.ts). */
  migrations?: readonly Migration[];
}

interface PostgresStoreStats {
  /** Statements this store sent since it opened (records, probes, `query()`; the migrations at open excluded). */
  queries: number;
}

export interface PostgresStore extends ExportableStore {
  readonly kind: 'postgres';
  /** host:port/database, safe to show (no credentials). */
  readonly where: string;
  /**
   * The pool, for the PostgreSQL coordination (leader lease, shared rate windows) to share its connections. Prefer
   * `query`, which counts the statement and notices an unreachable database.
   */
  readonly pool: pg.Pool;
  /** Runs one statement on the pool like the store's own: counted, and a lost database marks `status()`. */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string,
    params?: readonly unknown[],
  ): Promise<pg.QueryResult<R>>;
  stats(): PostgresStoreStats;
}

/**
 * host:port/database of a PostgreSQL URL, without user or password (the store imports nothing of the app, so this is
 * config.ts's postgresWhere again). A URL that does not parse is not echoed: it may hold the password.
 */
export function databaseWhere(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error('DATABASE_URL is not a URL such as postgres://user:password@db.example.com:5432/outreach.');
  }
  return `${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
}

/** Opens the store: connects, migrates the schema (refusing one from a newer app version) and returns it. */
export async function openPostgresStore(url: string, opts: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const where = databaseWhere(url);
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.poolSize ?? 10,
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 5000,
    query_timeout: opts.queryTimeoutMs ?? 30_000,
    keepAlive: true,
  });
  // An idle connection that the server closes (restart, pg_terminate_backend) is reported here; without a listener
  // it would crash the process. The pool drops it; the next query finds out whether the database is still there.
  pool.on('error', () => undefined);

  try {
    await migrate(pool, where, opts.migrations ?? MIGRATIONS);
  } catch (err) {
    await pool.end().catch(() => undefined);
    // migrate() wraps what failed inside a migration's transaction; the cause says whether the database went away.
    const why = unavailability(err, where) ?? unavailability((err as { cause?: unknown } | null)?.cause, where);
    if (why) throw new StoreUnavailableError(`Cannot open the state: ${why}.`, { cause: err });
    throw err;
  }
  const now = opts.now ?? Date.now;
  return storeOn(new PgDatabase(pool, where, { now, retryMs: opts.retryMs ?? 5000 }), now);
}

/** The Store over the migrated database. */
function storeOn(db: PgDatabase, now: () => number): PostgresStore {
  const collection = collectionViews(db);
  return {
    kind: 'postgres',
    where: db.where,
    pool: db.pool,
    query: (text, params) => db.run('a coordination query', true, text, params),
    stats: () => ({ queries: db.queries }),
    collection,
    sweep: async (when = now()) => {
      const r = await db.run('removing expired records', true, 'DELETE FROM records WHERE expires_at <= $1', [
        new Date(when),
      ]);
      return r.rowCount ?? 0;
    },
    status: () => db.status(),
    probe: () => db.probe(),
    onStatus: (listener) => db.onStatus(listener),
    // Each write is committed before its promise resolves: nothing is ever waiting to be made durable.
    flush: async () => {},
    close: () => db.close(),
    collectionNames: async () => {
      const r = await db.run<{ collection: string }>(
        'listing the collections',
        false,
        `SELECT DISTINCT collection FROM records WHERE expires_at IS NULL OR expires_at > $1`,
        [db.at()],
      );
      return r.rows.map((row) => row.collection).sort(byKey);
    },
    exportRecords: (name) => exportRecords(db, name),
  };
}

/**
 * The view of each collection by name. Opened again naming more indexed fields: the view allows every field named so
 * far, and every view's writes (the shared field list) put them all in `idx`; a where on a new one first completes
 * older records' idx.
 */
function collectionViews(db: PgDatabase): PostgresStore['collection'] {
  const indexes = new FieldIndexes(db);
  const views = new Map<string, { spec: CollectionSpec; view: Collection<unknown>; shared: IndexedFields }>();
  return <T>(s: CollectionSpec | string): Collection<T> => {
    const spec = specOf(s);
    const known = views.get(spec.name);
    const missing = (spec.indexes ?? []).filter((f) => !known?.spec.indexes?.includes(f));
    if (known && !missing.length) return known.view as Collection<T>;
    const merged = { name: spec.name, indexes: [...(known?.spec.indexes ?? []), ...missing] };
    const shared = known?.shared ?? { fields: [], complete: new Set<string>() };
    shared.fields = merged.indexes;
    const view = pgCollection<unknown>({ spec: merged, shared, db, indexes });
    views.set(spec.name, { spec: merged, view, shared });
    return view as Collection<T>;
  };
}

/** Every unexpired record of a collection, a page by key at a time so a large one is never held whole in memory. */
async function* exportRecords(db: PgDatabase, name: string): AsyncIterable<ExportedRecord> {
  let after: string | null = null;
  for (;;) {
    const r: pg.QueryResult<{ key: string; value: unknown; expires_at: Date | null }> = await db.run(
      `reading ${name}`,
      false,
      `SELECT key, value, expires_at FROM records
       WHERE collection = $1 AND ($2::text IS NULL OR key > $2) AND ${live(3)}
       ORDER BY key LIMIT 1000`,
      [name, after, db.at()],
    );
    for (const row of r.rows) {
      const rec: ExportedRecord = { key: row.key, value: row.value };
      if (row.expires_at) rec.expiresAt = row.expires_at.getTime();
      yield rec;
    }
    if (r.rows.length < 1000) return;
    after = r.rows.at(-1)!.key;
  }
}
