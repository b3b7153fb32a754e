import { describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { freshDatabase } from '../support/postgres.js';

describe('the test run PostgreSQL', () => {
  it('gives each suite a database of its own on a real server', async () => {
    const a = await freshDatabase();
    const b = await freshDatabase();
    expect(a).not.toBe(b);
    const client = new pg.Client({ connectionString: a });
    await client.connect();
    const r = await client.query<{ v: string }>('SELECT current_database() AS v');
    await client.end();
    expect(a.endsWith(`/${r.rows[0]!.v}`)).toBe(true);
  });
});
