import { describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { MIGRATIONS, SchemaTooNewError, migrate, type Migration } from '../../src/store/migrations.js';
import { freshDatabase } from '../support/postgres.js';

const latest = MIGRATIONS.at(-1)!.version;

async function withPool<T>(url: string, fn: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    return await fn(pool);
  } finally {
    await pool.end();
  }
}

describe('PostgreSQL schema migrations', () => {
  it('applies every migration once, records them, and does nothing on the next start', async () => {
    const url = await freshDatabase('mig');
    await withPool(url, async (pool) => {
      const first = await migrate(pool, 'test-db');
      expect(first).toEqual({ applied: MIGRATIONS.map((m) => m.version), version: latest });
      const again = await migrate(pool, 'test-db');
      expect(again).toEqual({ applied: [], version: latest });
      const rows = (await pool.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations'))
        .rows;
      expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
      // The records table exists with its collation (prefix LIKE on the btree, code-point order).
      const coll = await pool.query<{ collation_name: string }>(
        "SELECT collation_name FROM information_schema.columns WHERE table_name = 'records' AND column_name = 'key'",
      );
      expect(coll.rows[0]?.collation_name).toBe('C');
    });
  });

  it('lets replicas that start together migrate at once: each migration applied exactly once', async () => {
    const url = await freshDatabase('mig');
    const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: url, max: 1 }));
    try {
      const results = await Promise.all(pools.map((p) => migrate(p, 'test-db')));
      const applied = results.flatMap((r) => r.applied).sort((a, b) => a - b);
      expect(applied).toEqual(MIGRATIONS.map((m) => m.version));
      expect(results.every((r) => r.version === latest)).toBe(true);
      const n = await pools[0]!.query<{ n: string }>('SELECT count(*) AS n FROM schema_migrations');
      expect(Number(n.rows[0]!.n)).toBe(MIGRATIONS.length);
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
  });

  it('applies only the migrations appended since the last start', async () => {
    const url = await freshDatabase('mig');
    await withPool(url, async (pool) => {
      await migrate(pool, 'test-db');
      const more: Migration[] = [
        ...MIGRATIONS,
        { version: latest + 1, name: 'a test table', sql: 'CREATE TABLE later_one (id int)' },
      ];
      expect(await migrate(pool, 'test-db', more)).toEqual({ applied: [latest + 1], version: latest + 1 });
      await pool.query('INSERT INTO later_one VALUES (1)');
    });
  });

  it('rolls a failing migration back whole and names the database, leaving the version where it was', async () => {
    const url = await freshDatabase('mig');
    await withPool(url, async (pool) => {
      await migrate(pool, 'db.example:5432/outreach');
      const broken: Migration[] = [
        ...MIGRATIONS,
        { version: latest + 1, name: 'half', sql: 'CREATE TABLE half_done (id int); SELECT no_such_function()' },
      ];
      await expect(migrate(pool, 'db.example:5432/outreach', broken)).rejects.toThrow(
        /Could not migrate the database at db\.example:5432\/outreach: .*no_such_function/,
      );
      const t = await pool.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'");
      expect(t.rowCount).toBe(0);
      expect((await migrate(pool, 'x')).version).toBe(latest);
    });
  });

  it('refuses a database migrated by a newer app version, saying so plainly', async () => {
    const url = await freshDatabase('mig');
    await withPool(url, async (pool) => {
      await migrate(pool, 'test-db');
      await pool.query("INSERT INTO schema_migrations (version, name) VALUES ($1, 'from the future')", [latest + 1]);
      const err = await migrate(pool, 'db.example:5432/outreach').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SchemaTooNewError);
      expect((err as Error).message).toContain(`schema version ${latest + 1}`);
      expect((err as Error).message).toContain('migrated by a newer version of outreach-slack');
      expect((err as Error).message).toContain('db.example:5432/outreach');
    });
  });

  it('refuses a list with a gap in its versions', async () => {
    const url = await freshDatabase('mig');
    await withPool(url, async (pool) => {
      await expect(
        migrate(pool, 'x', [...MIGRATIONS, { version: latest + 2, name: 'skipped one', sql: 'SELECT 1' }]),
      ).rejects.toThrow(/expected/);
    });
  });
});
