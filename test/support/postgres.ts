/** Helpers for suites that need PostgreSQL: the run's server is started once by postgres-global-setup.ts. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PG_URL_ENV } from './postgres-global-setup.js';

/** The admin URL of this run's server; throws with a clear message outside a jest run that started one. */
export function testPostgresUrl(): string {
  const url = process.env[PG_URL_ENV];
  if (!url)
    throw new Error(`${PG_URL_ENV} is not set: the PostgreSQL of the test run was not started (jest globalSetup).`);
  return url;
}

/** Creates an empty database on this run's server and returns its URL. */
export async function freshDatabase(prefix = 't'): Promise<string> {
  const admin = testPostgresUrl();
  const name = `${prefix}_${randomBytes(6).toString('hex')}`.toLowerCase();
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}
