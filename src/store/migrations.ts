/**
 * The PostgreSQL schema, as versioned migrations run at start by every replica.
 *
 * Each migration runs in its own transaction that first takes a transaction-level advisory lock, so replicas that
 * start together apply each migration exactly once (the others wait, then see it applied). `schema_migrations`
 * records what was applied; a database migrated by a newer app version (a version this code does not know) is
 * refused rather than used with a schema it does not understand.
 *
 * To change the schema, APPEND an entry with the next version number; never edit or reorder an applied one (a
 * database that already ran it would not run the new text).
 */
import type pg from 'pg';

export interface Migration {
  /** 1, 2, 3, … in order, without gaps. */
  version: number;
  /** What it does, in a few words (kept in schema_migrations for operators). */
  name: string;
  /** The statements (several may be separated by `;`); run inside the migration's transaction. */
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'records table',
    // key COLLATE "C": the primary key's btree then serves `key LIKE 'prefix%'` and sorts keys in code-point order
    // (as the other stores list them). One sequence versions every write, so a key deleted and written again never
    // gets a version a compare-and-set could still hold.
    sql: `
      CREATE SEQUENCE record_versions AS bigint;
      CREATE TABLE records (
        collection text COLLATE "C" NOT NULL,
        key text COLLATE "C" NOT NULL,
        value jsonb NOT NULL,
        -- Only the value's top-level fields its collection declares in \`indexes\` (pg-store.ts writes it), so the GIN
        -- index holds what \`where\` can ask for, not every distinct value of every record (ts, ids, ...).
        idx jsonb NOT NULL DEFAULT '{}',
        version bigint NOT NULL DEFAULT nextval('record_versions'),
        expires_at timestamptz,
        PRIMARY KEY (collection, key)
      );
      CREATE INDEX records_idx ON records USING gin (idx jsonb_path_ops);
      CREATE INDEX records_expires_at ON records (expires_at) WHERE expires_at IS NOT NULL;
      -- One row rewritten by Store.probe(): a real committed write, outside the records.
      CREATE TABLE store_probe (id integer PRIMARY KEY, probed_at timestamptz NOT NULL);
    `,
  },
  {
    version: 2,
    name: 'shared rate windows',
    // pg-coordination.ts: a bucket (e.g. the service's 12 requests/s of one API key) is `limit` slot rows, created on
    // first use. `free_at` is when a slot may be taken again; `token` names the current holding, so a late release of
    // an expired holding never touches the next holder's.
    sql: `
      CREATE TABLE rate_buckets (
        bucket text COLLATE "C" PRIMARY KEY,
        paused_until timestamptz NOT NULL DEFAULT '-infinity'
      );
      CREATE TABLE rate_slots (
        bucket text COLLATE "C" NOT NULL REFERENCES rate_buckets ON DELETE CASCADE,
        slot integer NOT NULL,
        free_at timestamptz NOT NULL DEFAULT '-infinity',
        token uuid,
        PRIMARY KEY (bucket, slot)
      );
    `,
  },
  {
    version: 3,
    name: 'indexed fields in B-trees',
    // The GIN index of `idx` never removes an entry from its entry tree: with mostly unique values (a post's ts, a
    // thread id) and records expiring every day it grew without bound. Each indexed field gets a B-tree index
    // instead, created by the store at the first `where` on it (pg-store.ts fieldIndexSql), for any field a
    // collection names; a B-tree gives back the pages of deleted entries.
    sql: `DROP INDEX IF EXISTS records_idx;`,
  },
  {
    version: 4,
    name: 'leader lease epochs',
    // The leader lease's epoch (pg-coordination.ts PgLeadership): each replica that takes the lease draws the next
    // value, so a term's number grows each time leadership changes hands and a stalled leader's writes, carrying
    // an older one, are refused (src/leader-work.ts).
    sql: `CREATE SEQUENCE leader_epochs AS bigint;`,
  },
  {
    version: 5,
    name: 'shared token buckets',
    // pg-token-buckets.ts: one row per bucket (a person's share of commands and clicks, for every replica). `taken`
    // says whether the statement that last wrote the row took what it asked for.
    sql: `
      CREATE TABLE token_buckets (
        bucket text COLLATE "C" PRIMARY KEY,
        tokens float8 NOT NULL,
        counted_at timestamptz NOT NULL,
        told boolean NOT NULL DEFAULT false,
        taken boolean NOT NULL DEFAULT true
      );
    `,
  },
];

/**
 * The advisory lock key of schema migrations (any bigint; other advisory locks of the app must use other keys).
 * "outreach-slack migrations" as bytes, shortened to 63 bits.
 */
const MIGRATION_LOCK_KEY = 0x6f75_7472_6d69_67n;

/** The database holds migrations this app version does not know: it was migrated by a newer version. */
export class SchemaTooNewError extends Error {
  override name = 'SchemaTooNewError';
}

export interface MigrateResult {
  /** Versions this call applied (empty when the schema was already current). */
  applied: number[];
  /** The schema version afterwards. */
  version: number;
}

interface AppliedRow {
  version: number;
  name: string;
}

/**
 * Brings the database's schema to the latest of `migrations`. `where` names the database in errors (host:port/db,
 * never credentials). Safe to call from several processes at once.
 */
export async function migrate(
  pool: pg.Pool,
  where: string,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<MigrateResult> {
  checkList(migrations);
  const latest = migrations.at(-1)?.version ?? 0;
  const applied: number[] = [];
  const client = await pool.connect();
  try {
    for (;;) {
      await client.query('BEGIN');
      try {
        // Held until COMMIT/ROLLBACK: one process at a time reads the applied versions and applies the next.
        await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
        await client.query(
          `CREATE TABLE IF NOT EXISTS schema_migrations (
             version integer PRIMARY KEY,
             name text NOT NULL,
             applied_at timestamptz NOT NULL DEFAULT now()
           )`,
        );
        const rows = (await client.query<AppliedRow>('SELECT version, name FROM schema_migrations ORDER BY version'))
          .rows;
        const current = rows.at(-1)?.version ?? 0;
        if (current > latest) {
          const unknown = rows
            .filter((r) => r.version > latest)
            .map((r) => `${r.version} "${r.name}"`)
            .join(', ');
          throw new SchemaTooNewError(
            `The database at ${where} has schema version ${current}, but this version of the app knows only up to ` +
              `${latest} (unknown migrations: ${unknown}). It was migrated by a newer version of outreach-slack: ` +
              `run that version (or newer) against it, or point DATABASE_URL at another database.`,
          );
        }
        const next = migrations.find((m) => m.version === current + 1);
        if (!next) {
          await client.query('COMMIT');
          return { applied, version: current };
        }
        await client.query(next.sql);
        await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [next.version, next.name]);
        await client.query('COMMIT');
        applied.push(next.version);
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        if (err instanceof SchemaTooNewError) throw err;
        throw new Error(
          `Could not migrate the database at ${where}: ${err instanceof Error ? err.message : String(err)}`,
          { cause: err },
        );
      }
    }
  } finally {
    client.release();
  }
}

function checkList(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw new Error(`Migration "${m.name}" has version ${m.version}; expected ${i + 1} (versions go 1, 2, 3, …).`);
    }
  });
}
