/**
 * The PostgreSQL store's indexed fields. `where` on a field compares `idx -> 'field'`, where `idx` holds only the
 * fields the collection declares in `indexes` (written with every value; backfilled when a spec names a new field).
 * Each field has a B-tree index `(collection, idx -> 'field') WHERE idx ? 'field'`, created at the first `where` on it
 * (fieldIndexSql). Not a GIN index: GIN never removes an entry from its entry tree, so with values that are mostly
 * unique (a post's ts) and records expiring every day it grew without bound (the retention bench: 127 MB at day 7,
 * 397 MB at day 30).
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { PgDatabase } from './pg-database.js';
import type { ListOptions } from './store.js';

/**
 * What every view of one collection shares: the indexed fields named so far by any view (writes put them all in
 * `idx`), and those whose `idx` entries are known complete for records written before (backfilled).
 */
export interface IndexedFields {
  fields: string[];
  complete: Set<string>;
  backfill?: Promise<void>;
}

/**
 * The `idx` column of a value (JSON text): its top-level fields among `fields`, as JSON text. Parsed back from the
 * stored text so it holds exactly what `value` holds (toJSON applied, undefined dropped).
 */
export function indexedJson(json: string, fields: readonly string[]): string {
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

export class FieldIndexes {
  /** Fields whose B-tree index exists (or is being created) in this process. */
  private readonly created = new Map<string, Promise<void>>();

  constructor(private readonly db: PgDatabase) {}

  /**
   * Before a `where` on fields not yet known complete: makes sure their indexes exist, and rewrites `idx` of this
   * collection's records that lack one of the indexed fields their value has (records written before a spec named
   * it, by this or an earlier run).
   */
  async complete(name: string, shared: IndexedFields, where: ListOptions['where']): Promise<void> {
    for (const field of Object.keys(where ?? {})) await this.ensure(field);
    while (Object.keys(where ?? {}).some((f) => !shared.complete.has(f))) {
      if (shared.backfill) {
        await shared.backfill;
        continue;
      }
      const fields = [...shared.fields];
      shared.backfill = this.db
        .run(
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

  /** Makes sure the field's index exists (once per process; a failure is tried again at the next `where`). */
  private ensure(field: string): Promise<void> {
    let done = this.created.get(field);
    if (!done) {
      done = this.create(field).catch((err: unknown) => {
        this.created.delete(field);
        throw this.db.unavailable(err, `the index of ${field} could not be created`);
      });
      this.created.set(field, done);
    }
    return done;
  }

  private async create(field: string): Promise<void> {
    const client = await this.db.connect(`indexing ${field}`);
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
  }
}
