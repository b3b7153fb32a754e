/**
 * The store check of /healthz (src/health.ts `storeCheck`) on a real embedded store and a clock the test moves: a
 * durable store is probed at most once per interval, checks that come meanwhile share the probe under way; a failing
 * store is not probed by the checks at all (its own retry does that, once per interval), and the check turns ok as
 * soon as a retry succeeds.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Health, storeCheck } from '../../src/health.js';
import { openEmbeddedStore, type EmbeddedStore } from '../../src/store/embedded/store.js';

const INTERVAL = 5_000;
let dir: string;
let store: EmbeddedStore;
let now: number;

beforeEach(async () => {
  dir = join(await mkdtemp(join(tmpdir(), 'health-probes-')), 'state');
  // The store's own retry never fires within the test: only the checks could probe.
  store = await openEmbeddedStore(dir, { retryMs: 3_600_000 });
  now = 1_000_000;
});
afterEach(async () => {
  await mkdir(dir, { recursive: true }).catch(() => undefined);
  await store.close();
});

const probes = () => store.stats().probes;

it('probes a durable store once per interval, however many checks come at once or one after the other', async () => {
  const health = new Health({ store: storeCheck(store, { probeEveryMs: INTERVAL, now: () => now }) });
  const reports = await Promise.all(Array.from({ length: 100 }, () => health.report()));
  expect(reports.every((r) => r.ok)).toBe(true);
  expect(probes()).toBe(1);
  for (let i = 0; i < 100; i++) await health.report();
  expect(probes()).toBe(1);

  now += INTERVAL - 1;
  await health.report();
  expect(probes()).toBe(1);
  now += 1;
  await Promise.all(Array.from({ length: 100 }, () => health.report()));
  expect(probes()).toBe(2);
});

it('makes no probe of its own while the store fails, and is ok again once the store retried', async () => {
  const check = storeCheck(store, { probeEveryMs: INTERVAL, now: () => now });
  expect(await check()).toEqual({ ok: true });
  await rm(dir, { recursive: true, force: true });
  await writeFile(dir, 'not a directory');
  now += INTERVAL;
  // The interval's probe finds the problem.
  expect(await check()).toEqual({ ok: false, detail: expect.stringMatching(/^cannot write the state in /) as unknown });
  const found = probes();

  for (let i = 0; i < 100; i++) expect((await check()).ok).toBe(false);
  now += 10 * INTERVAL;
  await Promise.all(Array.from({ length: 100 }, () => check()));
  expect(probes()).toBe(found);

  await rm(dir, { force: true });
  await mkdir(dir);
  // What the store's retry does every interval.
  await store.probe();
  expect(await check()).toEqual({ ok: true });
});
