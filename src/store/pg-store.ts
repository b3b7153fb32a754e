/**
 * The PostgreSQL store (DATABASE_URL): every replica of the app on one database, through a `pg.Pool`.
 *
 * All records live in one table `records` (collection, key, value JSONB, version, expires_at; see migrations.ts):
 * - keys are `COLLATE "C"`, so a prefix listing (`key LIKE 'prefix%'`, wildcards escaped) uses the primary key's
 *   btree and lists in code-point order like the other stores;
 * - `where` on indexed fields compares `idx -> 'field'`, where `idx` holds only the fields the collection declares in
 *   `indexes` (written with every value; backfilled when a spec names a new field). Each field has a B-tree index
 *   `(collection, idx -> 'field') WHERE idx ? 'field'`, created at the first `where` on it (fieldIndexSql). Not a GIN
 *   index: GIN never removes an entry from its entry tree, so with values that are mostly unique (a post's ts) and
 *   records expiring every day it grew without bound (the retention bench: 127 MB at day 7, 397 MB at day 30);
 * - versions come from one sequence: compare-and-set is `UPDATE … WHERE version = expected`, insert-if-absent is
 *   `INSERT … ON CONFLICT DO UPDATE … WHERE the row expired`, both atomic between processes (row locks);
 * - expiry is checked in every query against the app's clock, so an expired row is invisible at once; `sweep`
 *   deletes them.
 *
 * Durability: every write is one committed statement, so its promise resolves once it is durable. When a query fails
 * because the database cannot be reached or cannot write (refused, lost connection, dropped database, disk full,
 * read-only), `status()` turns not durable with an operator's explanation (host:port/db, never credentials) and the
 * call rejects with StoreUnavailableError; the next successful write or `probe()` makes it durable again.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { byKey, toJson } from './memory-store.js';
import { migrate, type Migration, MIGRATIONS } from './migrations.js';
import {
  StoreClosedError,
  StoreUnavailableError,
  assertIndexed,
  specOf,
  type Collection,
  type CollectionSpec,
  type ExportableStore,
  type ExportedRecord,
  type ListOptions,
  type StoreStatus,
  type Versioned,
  type WriteOptions,
} from './store.js';

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

/** Why the database cannot take writes, in words for an operator; undefined when the error is not about that. */
function unavailability(err: unknown, where: string): string | undefined {
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

/** The row is unexpired at the time given in parameter $n. */
const live = (n: number) => `(expires_at IS NULL OR expires_at > $${n})`;

/** A LIKE pattern matching keys that start with `prefix` (its own `%`, `_` and `\` taken literally). */
export function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/**
 * The `idx` column of a value (JSON text): its top-level fields among `fields`, as JSON text. Parsed back from the
 * stored text so it holds exactly what `value` holds (toJSON applied, undefined dropped).
 */
function indexedJson(json: string, fields: readonly string[]): string {
  if (!fields.length) return '{}';
  const value: unknown = JSON.parse(json);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return '{}';
  const idx: Record<string, unknown> = {};
  for (const f of fields) if (Object.hasOwn(value, f)) idx[f] = (value as Record<string, unknown>)[f];
  return JSON.stringify(idx);
}

/**
 * The statement creating the B-tree index of one indexed field (shared by every collection naming it), if missing.
 * A field name is any text: it goes into the SQL quoted, and a long one names its index by a hash.
 */
function fieldIndexSql(field: string): string {
  const plain = `records_by_${field}`;
  const name = /^[A-Za-z0-9_]+$/.test(field) && plain.length <= 63 ? plain : `records_by_${hash(field)}`;
  const lit = pg.escapeLiteral(field);
  return (
    `CREATE INDEX IF NOT EXISTS ${pg.escapeIdentifier(name)} ON records (collection, (idx -> ${lit})) ` +
    `WHERE idx ? ${lit}`
  );
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 24);
}

/**
 * The advisory lock key held while a field's index is created: replicas starting together create it once (the
 * others wait, then find it). "outreach-slack field index" as bytes, shortened to 63 bits.
 */
const FIELD_INDEX_LOCK_KEY = 0x6669_656c_6469_6478n;

/**
 * What every view of one collection shares: the indexed fields named so far by any view (writes put them all in
 * `idx`), and those whose `idx` entries are known complete for records written before (backfilled).
 */
interface IndexedFields {
  fields: string[];
  complete: Set<string>;
  backfill?: Promise<void>;
}

/** Opens the store: connects, migrates the schema (refusing one from a newer app version) and returns it. */
export async function openPostgresStore(url: string, opts: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const where = databaseWhere(url);
  const now = opts.now ?? Date.now;
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

  let queries = 0;
  let closed = false;
  let status: StoreStatus = { durable: true };
  const listeners = new Set<(s: StoreStatus) => void>();

  // While not durable, a probe every retryMs (besides the app's own) turns the store durable once writes succeed.
  let retryTimer: NodeJS.Timeout | undefined;
  const setStatus = (next: StoreStatus) => {
    const changed = next.durable !== status.durable;
    status = next;
    if (!status.durable && !retryTimer && !closed) {
      retryTimer = setInterval(() => void store.probe().catch(() => undefined), opts.retryMs ?? 5000);
      retryTimer.unref();
    } else if (status.durable && retryTimer) {
      clearInterval(retryTimer);
      retryTimer = undefined;
    }
    if (changed) for (const l of [...listeners]) l({ ...status });
  };
  const markDurable = () => {
    if (!status.durable) setStatus({ durable: true });
  };
  const markDown = (problem: string) => {
    setStatus({ durable: false, problem, since: status.durable ? now() : (status.since ?? now()) });
  };

  /** Runs a statement; `what` says in words what it was for (in errors). Writes that succeed prove durability. */
  async function run<R extends pg.QueryResultRow>(
    what: string,
    write: boolean,
    text: string,
    params: readonly unknown[] = [],
  ): Promise<pg.QueryResult<R>> {
    if (closed) {
      const err = new StoreClosedError(what);
      if (!write) err.message = `The store is closed (the app is shutting down), so ${what} could not be done.`;
      throw err;
    }
    queries++;
    try {
      const result = await pool.query<R>(text, params as unknown[]);
      if (write) markDurable();
      return result;
    } catch (err) {
      const why = unavailability(err, where);
      if (!why) throw err;
      markDown(why);
      throw new StoreUnavailableError(`${why}, so ${what} did not happen.`, { cause: err });
    }
  }

  const at = () => new Date(now());
  const expiry = (o?: WriteOptions) => (o?.expiresAt === undefined ? null : new Date(o.expiresAt));

  /** The WHERE clause and parameters of a listing ($1 collection, $2 now, then prefix and where). */
  function filter(name: string, o: ListOptions): { sql: string; params: unknown[] } {
    const params: unknown[] = [name, at()];
    let sql = `collection = $1 AND ${live(2)}`;
    if (o.prefix !== undefined && o.prefix !== '') {
      params.push(likePrefix(o.prefix));
      sql += ` AND key LIKE $${params.length}`;
    }
    for (const [field, value] of Object.entries(o.where ?? {})) {
      // `idx ? 'field'` as literal text, as in the field's partial index, so the planner can use that index.
      const lit = pg.escapeLiteral(field);
      params.push(JSON.stringify(value));
      sql += ` AND idx ? ${lit} AND idx -> ${lit} = $${params.length}::jsonb`;
    }
    return { sql, params };
  }

  /** Fields whose B-tree index exists (or is being created) in this process. */
  const fieldIndexes = new Map<string, Promise<void>>();

  /** Makes sure the field's index exists (once per process; a failure is tried again at the next `where`). */
  function fieldIndex(field: string): Promise<void> {
    let done = fieldIndexes.get(field);
    if (!done) {
      done = (async () => {
        if (closed) throw new StoreClosedError(`indexing ${field}`);
        queries++;
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          await client.query('SELECT pg_advisory_xact_lock($1)', [FIELD_INDEX_LOCK_KEY.toString()]);
          await client.query(fieldIndexSql(field));
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw err;
        } finally {
          client.release();
        }
      })().catch((err: unknown) => {
        fieldIndexes.delete(field);
        const why = unavailability(err, where);
        if (!why) throw err;
        markDown(why);
        throw new StoreUnavailableError(`${why}, so the index of ${field} could not be created.`, { cause: err });
      });
      fieldIndexes.set(field, done);
    }
    return done;
  }

  /**
   * Before a `where` on fields not yet known complete: rewrites `idx` of this collection's records that lack one of
   * the indexed fields their value has (records written before a spec named it, by this or an earlier run).
   */
  async function completeIndex(name: string, shared: IndexedFields, where: ListOptions['where']): Promise<void> {
    for (const field of Object.keys(where ?? {})) await fieldIndex(field);
    while (Object.keys(where ?? {}).some((f) => !shared.complete.has(f))) {
      if (shared.backfill) {
        await shared.backfill;
        continue;
      }
      const fields = [...shared.fields];
      shared.backfill = run(
        `completing the index of ${name}`,
        true,
        `UPDATE records SET idx = (SELECT coalesce(jsonb_object_agg(f, value -> f), '{}') FROM unnest($2::text[]) f
                                   WHERE value ? f)
         WHERE collection = $1 AND jsonb_typeof(value) = 'object'
           AND EXISTS (SELECT 1 FROM unnest($2::text[]) f WHERE value ? f AND NOT idx ? f)`,
        [name, fields],
      )
        .then(() => fields.forEach((f) => shared.complete.add(f)))
        .finally(() => (shared.backfill = undefined));
      await shared.backfill;
    }
  }

  function makeCollection<T>(spec: CollectionSpec, shared: IndexedFields): Collection<T> {
    const name = spec.name;
    const idxOf = (json: string) => indexedJson(json, shared.fields);
    const getVersioned = async (key: string): Promise<Versioned<T> | undefined> => {
      const r = await run<{ value: T; version: string }>(
        `reading ${name}/${key}`,
        false,
        `SELECT value, version FROM records WHERE collection = $1 AND key = $2 AND ${live(3)}`,
        [name, key, at()],
      );
      const row = r.rows[0];
      return row ? { value: row.value, version: Number(row.version) } : undefined;
    };
    return {
      name,
      getVersioned,
      get: async (key) => (await getVersioned(key))?.value,
      list: async (o = {}) => {
        assertIndexed(spec, o.where);
        await completeIndex(name, shared, o.where);
        const f = filter(name, o);
        let sql = `SELECT key, value FROM records WHERE ${f.sql} ORDER BY key`;
        if (o.limit !== undefined) {
          f.params.push(Math.max(0, Math.floor(o.limit)));
          sql += ` LIMIT $${f.params.length}`;
        }
        const r = await run<{ key: string; value: T }>(`listing ${name}`, false, sql, f.params);
        return r.rows.map((row) => [row.key, row.value] as [string, T]);
      },
      count: async (o = {}) => {
        assertIndexed(spec, o.where);
        await completeIndex(name, shared, o.where);
        const f = filter(name, o);
        let sql = `SELECT count(*) AS n FROM records WHERE ${f.sql}`;
        if (o.limit !== undefined) {
          f.params.push(Math.max(0, Math.floor(o.limit)));
          sql = `SELECT count(*) AS n FROM (SELECT 1 FROM records WHERE ${f.sql} LIMIT $${f.params.length}) s`;
        }
        const r = await run<{ n: string }>(`counting ${name}`, false, sql, f.params);
        return Number(r.rows[0]?.n ?? 0);
      },
      put: async (key, value, o) => {
        const json = toJson(name, key, value);
        await run(
          `the change to ${name}/${key}`,
          true,
          `INSERT INTO records (collection, key, value, expires_at, idx) VALUES ($1, $2, $3::jsonb, $4, $5::jsonb)
           ON CONFLICT (collection, key) DO UPDATE
             SET value = EXCLUDED.value, idx = EXCLUDED.idx, expires_at = EXCLUDED.expires_at,
                 version = nextval('record_versions')`,
          [name, key, json, expiry(o), idxOf(json)],
        );
      },
      insertIfAbsent: async (key, value, o) => {
        const json = toJson(name, key, value);
        // A conflicting row is locked by ON CONFLICT; it is replaced only if it has expired, so of two concurrent
        // inserts exactly one writes (the other waits for its commit, then sees a live row).
        const r = await run(
          `the insertion of ${name}/${key}`,
          true,
          `INSERT INTO records (collection, key, value, expires_at, idx) VALUES ($1, $2, $3::jsonb, $4, $6::jsonb)
           ON CONFLICT (collection, key) DO UPDATE
             SET value = EXCLUDED.value, idx = EXCLUDED.idx, expires_at = EXCLUDED.expires_at,
                 version = nextval('record_versions')
             WHERE records.expires_at IS NOT NULL AND records.expires_at <= $5`,
          [name, key, json, expiry(o), at(), idxOf(json)],
        );
        return r.rowCount === 1;
      },
      compareAndSet: async (key, expectedVersion, value, o) => {
        const json = toJson(name, key, value);
        const r = await run(
          `the change to ${name}/${key}`,
          true,
          `UPDATE records SET value = $4::jsonb, idx = $7::jsonb, expires_at = $5, version = nextval('record_versions')
           WHERE collection = $1 AND key = $2 AND ${live(3)} AND version = $6`,
          [name, key, at(), json, expiry(o), expectedVersion, idxOf(json)],
        );
        return r.rowCount === 1;
      },
      delete: async (key) => {
        await run(`the deletion of ${name}/${key}`, true, 'DELETE FROM records WHERE collection = $1 AND key = $2', [
          name,
          key,
        ]);
      },
      deletePrefix: async (prefix) => {
        const r =
          prefix === ''
            ? await run(`the deletion of ${name}/*`, true, 'DELETE FROM records WHERE collection = $1', [name])
            : await run(
                `the deletion of ${name}/${prefix}*`,
                true,
                'DELETE FROM records WHERE collection = $1 AND key LIKE $2',
                [name, likePrefix(prefix)],
              );
        return r.rowCount ?? 0;
      },
    };
  }

  const views = new Map<string, { spec: CollectionSpec; view: Collection<unknown>; shared: IndexedFields }>();

  const store: PostgresStore = {
    kind: 'postgres',
    where,
    pool,
    query: (text, params) => run('a coordination query', true, text, params),
    stats: () => ({ queries }),
    collection<T>(s: CollectionSpec | string): Collection<T> {
      const spec = specOf(s);
      const known = views.get(spec.name);
      // Opened again naming more indexed fields: the view allows every field named so far, and every view's writes
      // (the shared field list) put them all in `idx`; a where on a new one first completes older records' idx.
      const missing = (spec.indexes ?? []).filter((f) => !known?.spec.indexes?.includes(f));
      if (known && !missing.length) return known.view as Collection<T>;
      const merged = { name: spec.name, indexes: [...(known?.spec.indexes ?? []), ...missing] };
      const shared = known?.shared ?? { fields: [], complete: new Set<string>() };
      shared.fields = merged.indexes;
      const view = makeCollection<unknown>(merged, shared);
      views.set(spec.name, { spec: merged, view, shared });
      return view as Collection<T>;
    },
    sweep: async (when = now()) => {
      const r = await run('removing expired records', true, 'DELETE FROM records WHERE expires_at <= $1', [
        new Date(when),
      ]);
      return r.rowCount ?? 0;
    },
    status: () => ({ ...status }),
    probe: async () => {
      try {
        await run(
          'a test write',
          true,
          `INSERT INTO store_probe (id, probed_at) VALUES (1, now())
           ON CONFLICT (id) DO UPDATE SET probed_at = EXCLUDED.probed_at`,
        );
      } catch (err) {
        if (!(err instanceof StoreUnavailableError) || closed) throw err;
      }
      return { ...status };
    },
    onStatus: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    // Each write is committed before its promise resolves: nothing is ever waiting to be made durable.
    flush: async () => {},
    close: async () => {
      if (closed) return;
      closed = true;
      clearInterval(retryTimer);
      await pool.end();
    },
    collectionNames: async () => {
      const r = await run<{ collection: string }>(
        'listing the collections',
        false,
        `SELECT DISTINCT collection FROM records WHERE expires_at IS NULL OR expires_at > $1`,
        [at()],
      );
      return r.rows.map((row) => row.collection).sort(byKey);
    },
    exportRecords: async function* (name) {
      // Pages by key so a large collection is never held whole in memory.
      let after: string | null = null;
      for (;;) {
        const r: pg.QueryResult<{ key: string; value: unknown; expires_at: Date | null }> = await run(
          `reading ${name}`,
          false,
          `SELECT key, value, expires_at FROM records
           WHERE collection = $1 AND ($2::text IS NULL OR key > $2) AND ${live(3)}
           ORDER BY key LIMIT 1000`,
          [name, after, at()],
        );
        for (const row of r.rows) {
          const rec: ExportedRecord = { key: row.key, value: row.value };
          if (row.expires_at) rec.expiresAt = row.expires_at.getTime();
          yield rec;
        }
        if (r.rows.length < 1000) return;
        after = r.rows.at(-1)!.key;
      }
    },
  };
  return store;
}
