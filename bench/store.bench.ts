/**
 * The lowdb store: how many file writes and how long for bursts of changes, at a few state sizes.
 * `npm run bench -- store`
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLowdbStore } from '../src/store/lowdb-store.js';

const dir = await mkdtemp(join(tmpdir(), 'store-bench-'));
const record = (i: number) => ({
  campaignId: i,
  channel: 'C0123456789',
  cursor: '2026-01-01T00:00:00Z',
  ts: `${i}.0001`,
});

try {
  for (const size of [100, 1_000, 10_000]) {
    const file = join(dir, `state-${size}.json`);
    const store = await openLowdbStore(file);
    const c = store.collection<ReturnType<typeof record>>('bench');

    let t = performance.now();
    await Promise.all(Array.from({ length: size }, (_, i) => c.set(`k${i}`, record(i))));
    const burstMs = performance.now() - t;
    const burstWrites = store.writes;

    // One awaited change after another: each waits for its own write of the whole state.
    const sequential = 50;
    t = performance.now();
    for (let i = 0; i < sequential; i++) await c.set(`k${i}`, record(i + 1));
    const perAwaitedMs = (performance.now() - t) / sequential;

    await store.close();
    const bytes = (await stat(file)).size;
    t = performance.now();
    const reopened = await openLowdbStore(file);
    const openMs = performance.now() - t;
    if (reopened.collection('bench').size() !== size) throw new Error('reopened store lost records');
    await reopened.close();

    console.log(
      `${String(size).padStart(6)} records: burst of ${size} sets ${burstMs.toFixed(1)} ms in ${burstWrites} write(s); ` +
        `awaited set ${perAwaitedMs.toFixed(2)} ms each; file ${(bytes / 1024).toFixed(0)} KiB; open ${openMs.toFixed(1)} ms`,
    );
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
