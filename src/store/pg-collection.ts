/**
 * One collection of the PostgreSQL store, as statements on the `records` table (see pg-store.ts): its reads (a record,
 * a listing, a count) and its writes (put, insert-if-absent, compare-and-set, deletions).
 */
import pg from 'pg';
import { toJson } from './memory-store.js';
import type { PgDatabase } from './pg-database.js';
import { indexedJson, type FieldIndexes, type IndexedFields } from './pg-field-indexes.js';
import { assertIndexed, type Collection, type CollectionSpec, type ListOptions, type WriteOptions } from './store.js';

/** The row is unexpired at the time given in parameter $n. */
export const live = (n: number) => `(expires_at IS NULL OR expires_at > $${n})`;

/** A LIKE pattern matching keys that start with `prefix` (its own `%`, `_` and `\` taken literally). */
export function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

const expiry = (o?: WriteOptions) => (o?.expiresAt === undefined ? null : new Date(o.expiresAt));

/** The WHERE clause and parameters of a listing ($1 collection, $2 now, then prefix and where). */
function filter(db: PgDatabase, name: string, o: ListOptions): { sql: string; params: unknown[] } {
  const params: unknown[] = [name, db.at()];
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

/** What a collection's view is made of: its spec, the fields every view of it shares, the database and indexes. */
export interface PgCollectionParts {
  spec: CollectionSpec;
  shared: IndexedFields;
  db: PgDatabase;
  indexes: FieldIndexes;
}

export function pgCollection<T>(parts: PgCollectionParts): Collection<T> {
  return { name: parts.spec.name, ...reads<T>(parts), ...writes<T>(parts) };
}

type Reads<T> = Pick<Collection<T>, 'get' | 'getVersioned' | 'list' | 'count'>;

function reads<T>({ spec, shared, db, indexes }: PgCollectionParts): Reads<T> {
  const name = spec.name;
  /** The WHERE clause of a listing, once its fields' indexes are complete. */
  const listing = async (o: ListOptions) => {
    assertIndexed(spec, o.where);
    await indexes.complete(name, shared, o.where);
    return filter(db, name, o);
  };
  /** Adds the listing's limit as a parameter; its placeholder. */
  const limit = (params: unknown[], n: number) => `$${params.push(Math.max(0, Math.floor(n)))}`;
  const getVersioned: Reads<T>['getVersioned'] = async (key) => {
    const r = await db.run<{ value: T; version: string }>(
      `reading ${name}/${key}`,
      false,
      `SELECT value, version FROM records WHERE collection = $1 AND key = $2 AND ${live(3)}`,
      [name, key, db.at()],
    );
    const row = r.rows[0];
    return row ? { value: row.value, version: Number(row.version) } : undefined;
  };
  return {
    getVersioned,
    get: async (key) => (await getVersioned(key))?.value,
    list: async (o = {}) => {
      const f = await listing(o);
      let sql = `SELECT key, value FROM records WHERE ${f.sql} ORDER BY key`;
      if (o.limit !== undefined) sql += ` LIMIT ${limit(f.params, o.limit)}`;
      const r = await db.run<{ key: string; value: T }>(`listing ${name}`, false, sql, f.params);
      return r.rows.map((row) => [row.key, row.value] as [string, T]);
    },
    count: async (o = {}) => {
      const f = await listing(o);
      let sql = `SELECT count(*) AS n FROM records WHERE ${f.sql}`;
      if (o.limit !== undefined) {
        sql = `SELECT count(*) AS n FROM (SELECT 1 FROM records WHERE ${f.sql} LIMIT ${limit(f.params, o.limit)}) s`;
      }
      const r = await db.run<{ n: string }>(`counting ${name}`, false, sql, f.params);
      return Number(r.rows[0]?.n ?? 0);
    },
  };
}

type Writes<T> = Omit<Collection<T>, 'name' | keyof Reads<T>>;

function writes<T>({ spec, shared, db }: PgCollectionParts): Writes<T> {
  const name = spec.name;
  const idxOf = (json: string) => indexedJson(json, shared.fields);
  return {
    put: async (key, value, o) => {
      const json = toJson(name, key, value);
      await db.run(
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
      const r = await db.run(
        `the insertion of ${name}/${key}`,
        true,
        `INSERT INTO records (collection, key, value, expires_at, idx) VALUES ($1, $2, $3::jsonb, $4, $6::jsonb)
         ON CONFLICT (collection, key) DO UPDATE
           SET value = EXCLUDED.value, idx = EXCLUDED.idx, expires_at = EXCLUDED.expires_at,
               version = nextval('record_versions')
           WHERE records.expires_at IS NOT NULL AND records.expires_at <= $5`,
        [name, key, json, expiry(o), db.at(), idxOf(json)],
      );
      return r.rowCount === 1;
    },
    compareAndSet: async (key, expectedVersion, value, o) => {
      const json = toJson(name, key, value);
      const r = await db.run(
        `the change to ${name}/${key}`,
        true,
        `UPDATE records SET value = $4::jsonb, idx = $7::jsonb, expires_at = $5, version = nextval('record_versions')
         WHERE collection = $1 AND key = $2 AND ${live(3)} AND version = $6`,
        [name, key, db.at(), json, expiry(o), expectedVersion, idxOf(json)],
      );
      return r.rowCount === 1;
    },
    delete: async (key) => {
      await db.run(`the deletion of ${name}/${key}`, true, 'DELETE FROM records WHERE collection = $1 AND key = $2', [
        name,
        key,
      ]);
    },
    deletePrefix: async (prefix) => {
      const r =
        prefix === ''
          ? await db.run(`the deletion of ${name}/*`, true, 'DELETE FROM records WHERE collection = $1', [name])
          : await db.run(
              `the deletion of ${name}/${prefix}*`,
              true,
              'DELETE FROM records WHERE collection = $1 AND key LIKE $2',
              [name, likePrefix(prefix)],
            );
      return r.rowCount ?? 0;
    },
  };
}
