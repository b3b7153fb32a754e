/**
 * What only the embedded store does: files per collection and key head (a change rewrites only its own; with the
 * journal, a change appends only itself), the previous generation used when the newest file does not parse, corrupt files refused untouched, a full disk turning the store
 * not durable until a probe succeeds, one process per STATE_DIR, and the conversion of the legacy STATE_FILE.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat, writeFile, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertStateFile } from '../../src/store/convert-state-file.js';
import { StoreCorruptError } from '../../src/store/embedded/durable-file.js';
import { nodeStoreFs } from '../../src/store/embedded/fs.js';
import { safeName } from '../../src/store/embedded/layout.js';
import { StoreLockedError } from '../../src/store/embedded/lock.js';
import { openEmbeddedStore, type EmbeddedStore, type EmbeddedStoreOptions } from '../../src/store/embedded/store.js';
import { openStore } from '../../src/store/open.js';
import { StoreUnavailableError, type StoreLogger, type StoreStatus } from '../../src/store/store.js';

let dir: string;
const opened: EmbeddedStore[] = [];

async function open(opts?: EmbeddedStoreOptions, at = dir): Promise<EmbeddedStore> {
  const s = await openEmbeddedStore(at, opts);
  opened.push(s);
  return s;
}

function recordingLogger(): StoreLogger & { lines: Array<{ level: string; obj: object; msg?: string }> } {
  const lines: Array<{ level: string; obj: object; msg?: string }> = [];
  const at =
    (level: string) =>
    (obj: object, msg?: string): void => {
      lines.push({ level, obj, ...(msg !== undefined ? { msg } : {}) });
    };
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

const enospc = (): NodeJS.ErrnoException =>
  Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'embedded-store-'));
});

afterEach(async () => {
  for (const s of opened.splice(0)) await s.close().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

describe('files per collection and key head', () => {
  it('keeps each head in its own safely named file and rewrites only the changed one', async () => {
    // Whole files only (no journal): what a compaction does every time.
    const store = await open({ journal: false });
    const calls = store.collection<{ n: number }>('watch_calls');
    for (let campaign = 1; campaign <= 200; campaign++) {
      await Promise.all(Array.from({ length: 5 }, (_, i) => calls.put(`${campaign}/call-${i}`, { n: i })));
    }
    await store.collection<string>('home_prefs').put('U1', 'x');
    await store.collection<string>('odd').put('../../escape/1', 'y');
    expect((await readdir(join(dir, 'collections', 'watch_calls'))).filter((f) => f.endsWith('.json'))).toHaveLength(
      200,
    );
    expect(existsSync(join(dir, 'collections', 'home_prefs', '@keys.json'))).toBe(true);
    expect(existsSync(join(dir, 'collections', 'odd', `${safeName('..')}.json`))).toBe(true);
    expect(safeName('../..')).toBe('%2E%2E%2F%2E%2E');
    expect(safeName('')).toBe('%');

    const file7 = join(dir, 'collections', 'watch_calls', '7.json');
    const file8 = join(dir, 'collections', 'watch_calls', '8.json');
    const before8 = (await stat(file8)).mtimeMs;
    const size7 = (await stat(file7)).size;
    const stats = store.stats();
    await calls.put('7/call-9', { n: 9 });
    const after = store.stats();
    expect(after.filesWritten - stats.filesWritten).toBe(1);
    expect(after.bytesWritten - stats.bytesWritten).toBeLessThan(size7 + 100);
    expect((await stat(file8)).mtimeMs).toBe(before8);
    // The previous generation of the changed file is kept beside it.
    const prev = JSON.parse(await readFile(`${file7}.prev`, 'utf8')) as { records: Record<string, unknown> };
    expect(Object.keys(prev.records)).toHaveLength(5);
    const now = JSON.parse(await readFile(file7, 'utf8')) as { records: Record<string, unknown> };
    expect(Object.keys(now.records)).toHaveLength(6);

    // Listing one campaign among 200 touches that campaign's keys only.
    expect((await calls.list({ prefix: '7/' })).map(([k]) => k)).toEqual([
      '7/call-0',
      '7/call-1',
      '7/call-2',
      '7/call-3',
      '7/call-4',
      '7/call-9',
    ]);
  });

  it('writes changes made before a file write starts once, and a change made during it in the next', async () => {
    const store = await open({ journal: false });
    const c = store.collection<number>('c');
    const base = store.stats().filesWritten;
    await Promise.all(Array.from({ length: 500 }, (_, i) => c.put(`h/${i}`, i)));
    expect(store.stats().filesWritten - base).toBeLessThanOrEqual(2);
    const first = c.put('h/a', 1);
    await new Promise<void>((r) => setImmediate(r)); // the write of h has started
    const second = c.put('h/b', 2);
    await Promise.all([first, second]);
    const onDisk = JSON.parse(await readFile(join(dir, 'collections', 'c', 'h.json'), 'utf8')) as { records: object };
    expect(Object.keys(onDisk.records)).toHaveLength(502);
  });

  it('sweeps expired records, rewriting only the files that held them', async () => {
    const store = await open({ journal: false });
    const c = store.collection<number>('c');
    await c.put('a/1', 1, { expiresAt: Date.now() + 60_000 });
    await c.put('b/1', 1);
    const bBefore = (await stat(join(dir, 'collections', 'c', 'b.json'))).mtimeMs;
    const before = store.stats().filesWritten;
    expect(await store.sweep(Date.now() + 120_000)).toBe(1);
    expect(store.stats().filesWritten - before).toBe(1);
    expect((await stat(join(dir, 'collections', 'c', 'b.json'))).mtimeMs).toBe(bBefore);
    const a = JSON.parse(await readFile(join(dir, 'collections', 'c', 'a.json'), 'utf8')) as { records: object };
    expect(a.records).toEqual({});
  });
});

describe('the journal', () => {
  const cDir = () => join(dir, 'collections', 'watch_calls');

  it('appends only what changed: a write costs the size of the change, not of the file', async () => {
    const store = await open();
    const calls = store.collection<{ n: number; pad: string }>('watch_calls');
    // A campaign with many calls kept (its retention days).
    await Promise.all(Array.from({ length: 2000 }, (_, i) => calls.put(`7/call-${i}`, { n: i, pad: 'x'.repeat(100) })));
    const size7 = (await stat(join(cDir(), '7.json'))).size;
    expect(size7).toBeGreaterThan(200_000);
    const before = store.stats();
    for (let i = 0; i < 50; i++) await calls.put(`7/call-${i}`, { n: -i, pad: 'y' });
    const after = store.stats();
    expect(after.filesWritten - before.filesWritten).toBe(50);
    expect(after.appends - before.appends).toBe(50);
    // 50 small records, not 50 rewrites of a 200 KB file.
    expect(after.bytesWritten - before.bytesWritten).toBeLessThan(50 * 100);
    expect((await stat(join(cDir(), '7.json'))).size).toBe(size7);
    const journal = await readFile(join(cDir(), '7.json.j1'), 'utf8');
    expect(journal.trim().split('\n')).toHaveLength(50);
    await calls.delete('7/call-1999');
    await store.close();

    const again = await open();
    const c2 = again.collection<{ n: number; pad: string }>('watch_calls');
    expect(await c2.get('7/call-3')).toEqual({ n: -3, pad: 'y' });
    expect(await c2.get('7/call-1999')).toBeUndefined();
    expect(await c2.count({ prefix: '7/' })).toBe(1999);
  });

  it('compacts a journal grown past its file into the file, and deletes the journals no generation needs', async () => {
    const store = await open();
    const c = store.collection<{ pad: string }>('watch_calls');
    await c.put('5/a', { pad: 'a' });
    const base = store.stats();
    // Appends of ~1 KB: past 64 to 128 KB the journal is folded into a new generation of the file.
    for (let i = 0; i < 400; i++) await c.put(`5/k${i % 10}`, { pad: String(i).repeat(1000 / String(i).length) });
    const s = store.stats();
    const wholeFiles = s.filesWritten - s.appends - (base.filesWritten - base.appends);
    expect(wholeFiles).toBeGreaterThanOrEqual(2);
    // Every byte written two to three times at most (appended, compacted), plus the small file's rewrites.
    expect(s.bytesWritten - base.bytesWritten).toBeLessThan(3.2 * 400 * 1050);
    const files = (await readdir(cDir())).sort();
    const journals = files.filter((f) => /^5\.json\.j\d+$/.test(f));
    // The newest file's journal and the one `.prev` needs, no older.
    expect(journals.length).toBeLessThanOrEqual(2);
    const head = JSON.parse(await readFile(join(cDir(), '5.json'), 'utf8')) as { journal: number; prev: number };
    expect(head.prev).toBe(head.journal - 1);
    for (const j of journals) expect(Number(/\.j(\d+)$/.exec(j)![1])).toBeGreaterThanOrEqual(head.prev);
    await store.close();
    const again = await open();
    const c2 = again.collection<{ pad: string }>('watch_calls');
    expect(await c2.count({ prefix: '5/' })).toBe(11);
    expect(await c2.get('5/k9')).toEqual({ pad: String(399).repeat(1000 / 3) });
  });

  it('spreads the compactions of files that grow alike over many writes, not all in the same one', async () => {
    const store = await open();
    const c = store.collection<{ pad: string }>('watch_calls');
    const heads = 20;
    let compacted = 0;
    let most = 0;
    // A round is what a poll cycle does: each campaign's file gets the same ~1 KB.
    for (let round = 0; round < 200; round++) {
      const before = store.stats();
      await Promise.all(
        Array.from({ length: heads }, (_, h) => c.put(`${h + 1}/k${round % 5}`, { pad: String(round).padEnd(1000) })),
      );
      const after = store.stats();
      const whole = after.filesWritten - after.appends - (before.filesWritten - before.appends);
      // Round 0 writes each new file whole (there is nothing to append to yet).
      if (round === 0) continue;
      compacted += whole;
      most = Math.max(most, whole);
    }
    // Every file compacted at least once, never all in the same round (without the spread all 20 would be).
    expect(compacted).toBeGreaterThanOrEqual(heads);
    expect(most).toBeLessThanOrEqual(heads / 4);
    await store.close();
  });

  it('keeps a big file with records coming and going within four times its records on disk', async () => {
    const store = await open();
    const c = store.collection<{ pad: string }>('watch_calls');
    const live = 300;
    const record = (n: number) => ({ pad: `${n}:`.padEnd(1000, 'x') });
    // A campaign's calls over the retention days: each round (a day) adds some, and the sweep deletes as many.
    for (let n = 0; n < live; n++) await c.put(`7/k${n}`, record(n));
    const fileBytes = async () => {
      let total = 0;
      let snapshot = 0;
      const files = await readdir(join(dir, 'collections', 'watch_calls'));
      for (const f of files.filter((name) => name.startsWith('7.json'))) {
        const size = (await stat(join(dir, 'collections', 'watch_calls', f))).size;
        total += size;
        if (f === '7.json') snapshot = size;
      }
      return { total, snapshot };
    };
    let worst = 0;
    for (let round = 0; round < 120; round++) {
      const from = live + round * 20;
      await Promise.all(Array.from({ length: 20 }, (_, i) => c.put(`7/k${from + i}`, record(from + i))));
      await Promise.all(Array.from({ length: 20 }, (_, i) => c.delete(`7/k${from + i - live}`)));
      const { total, snapshot } = await fileBytes();
      worst = Math.max(worst, total / snapshot);
    }
    expect(await c.count({ prefix: '7/' })).toBe(live);
    // Snapshot + journal (≤ 1 snapshot) + previous generation + its journal; with journals of up to twice the
    // snapshot this reached about six.
    expect(worst).toBeLessThan(4.2);
    expect(worst).toBeGreaterThan(2);
    await store.close();
  });

  it('ignores a last line cut short (never acknowledged), uses the lines before it, and writes the whole file next', async () => {
    const store = await open();
    const c = store.collection<number>('c');
    await c.put('h/1', 1);
    await c.put('h/2', 2);
    await c.put('h/3', 3);
    await store.close();
    const journal = join(dir, 'collections', 'c', 'h.json.j1');
    const text = await readFile(journal, 'utf8');
    await truncate(journal, text.length - 4);

    const logger = recordingLogger();
    const again = await open({ logger });
    const c2 = again.collection<number>('c');
    expect(await c2.list()).toEqual([
      ['h/1', 1],
      ['h/2', 2],
    ]);
    expect(logger.lines.find((l) => l.level === 'warn')?.msg).toMatch(/h\.json\.j1 ends with a line cut short/);
    const before = again.stats();
    await c2.put('h/4', 4);
    expect(again.stats().appends - before.appends).toBe(0);
    await again.close();
    const third = await open();
    expect((await third.collection<number>('c').list()).map(([k]) => k)).toEqual(['h/1', 'h/2', 'h/4']);
  });

  it('falls back to the previous generation and replays its journals when the newest file was cut short', async () => {
    const store = await open();
    const c = store.collection<{ pad: string }>('watch_cursors');
    // Three generations: appends then compactions (1 KB records, 64 KB journals).
    for (let i = 0; i < 600; i++) await c.put(`42/k${i}`, { pad: 'z'.repeat(1000) });
    await c.put('42/last', { pad: 'after the last compaction' });
    await store.close();
    const file = join(dir, 'collections', 'watch_cursors', '42.json');
    const head = JSON.parse(await readFile(file, 'utf8')) as { journal: number; prev: number };
    expect(head.journal).toBeGreaterThanOrEqual(2);
    await truncate(file, 10);

    const logger = recordingLogger();
    const again = await open({ logger });
    const c2 = again.collection<{ pad: string }>('watch_cursors');
    // Only what the cut-short compaction itself carried could be lost; here every change had been appended first.
    expect(await c2.count({ prefix: '42/' })).toBeGreaterThanOrEqual(599);
    expect(await c2.get('42/last')).toEqual({ pad: 'after the last compaction' });
    expect(logger.lines.find((l) => l.level === 'warn')?.msg).toMatch(/using the previous generation/);
  });
});

describe('reading after a power loss', () => {
  it('uses the previous generation when the newest file was cut short, and says so', async () => {
    const store = await open({ journal: false });
    const c = store.collection<{ n: number }>('watch_cursors');
    await c.put('42/cursor', { n: 1 });
    await c.put('42/cursor', { n: 2 });
    await store.close();
    await truncate(join(dir, 'collections', 'watch_cursors', '42.json'), 10);

    const logger = recordingLogger();
    const again = await open({ logger });
    expect(await again.collection<{ n: number }>('watch_cursors').get('42/cursor')).toEqual({ n: 1 });
    const warning = logger.lines.find((l) => l.level === 'warn');
    expect(warning?.msg).toMatch(/42\.json is not valid JSON .*using the previous generation .*42\.json\.prev/);
    // The next write replaces the damaged file and keeps the good previous generation.
    await again.collection<{ n: number }>('watch_cursors').put('42/cursor', { n: 3 });
    const prev = JSON.parse(await readFile(join(dir, 'collections', 'watch_cursors', '42.json.prev'), 'utf8')) as {
      records: Record<string, { value: unknown }>;
    };
    expect(prev.records['42/cursor']!.value).toEqual({ n: 1 });
  });

  it.each([
    ['both cut short', '{"format":1,"coll', '{"format":1,"collection":"c","records":{"5/a":'],
    ['an empty newest file and no previous one', '', undefined],
    ['a record without a version', '{"format":1,"collection":"c","records":{"5/a":{"value":1}}}', 'null'],
  ])('refuses %s with StoreCorruptError naming the file, leaving both untouched', async (_what, newest, prev) => {
    await open().then(async (s) => {
      await s.collection<number>('c').put('5/a', 1);
      await s.close();
    });
    const file = join(dir, 'collections', 'c', '5.json');
    await writeFile(file, newest);
    if (prev === undefined) await rm(`${file}.prev`, { force: true });
    else await writeFile(`${file}.prev`, prev);
    const mtime = (await stat(file)).mtimeMs;

    const err = await openEmbeddedStore(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreCorruptError);
    expect((err as Error).message).toContain(file);
    expect((err as Error).message).toMatch(/It has not been changed\. Restore it/);
    expect(await readFile(file, 'utf8')).toBe(newest);
    if (prev !== undefined) expect(await readFile(`${file}.prev`, 'utf8')).toBe(prev);
    expect((await stat(file)).mtimeMs).toBe(mtime);
    // The failed open left the directory free.
    await writeFile(file, '{"format":1,"collection":"c","records":{}}');
    await open();
  });
});

describe('a full disk', () => {
  it('refuses writes while nothing is durable and resumes, with the pending change on disk, once a probe succeeds', async () => {
    let full = false;
    const store = await open({
      retryMs: 60_000,
      fs: {
        writeFileSynced: async (path, text) => {
          if (full) throw enospc();
          return nodeStoreFs.writeFileSynced(path, text);
        },
        appendFileSynced: async (path, text) => {
          if (full) throw enospc();
          return nodeStoreFs.appendFileSynced(path, text);
        },
      },
    });
    const seen: StoreStatus[] = [];
    store.onStatus((s) => seen.push(s));
    const posts = store.collection<{ ts: string }>('watch_posts');
    await posts.put('C1/call-1', { ts: '1.1' });

    full = true;
    const failed = posts.put('C1/call-2', { ts: '1.2' });
    await expect(failed).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(failed).rejects.toThrow(/cannot write the state in .*: disk full \(ENOSPC\)/);
    expect(store.status()).toMatchObject({
      durable: false,
      problem: `cannot write the state in ${dir}: disk full (ENOSPC)`,
    });
    expect(seen).toEqual([expect.objectContaining({ durable: false, problem: expect.stringMatching(/ENOSPC/) })]);
    // Kept in memory; further changes are refused before they are made.
    expect(await posts.get('C1/call-2')).toEqual({ ts: '1.2' });
    await expect(posts.put('C1/call-3', { ts: '1.3' })).rejects.toThrow(/C1\/call-3 was not saved: cannot write/);
    await expect(posts.insertIfAbsent('C2/x', { ts: '2' })).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(await posts.get('C1/call-3')).toBeUndefined();
    expect(await posts.get('C2/x')).toBeUndefined();
    expect((await store.probe()).durable).toBe(false);
    await expect(store.flush()).rejects.toBeInstanceOf(StoreUnavailableError);

    full = false;
    expect(await store.probe()).toEqual({ durable: true });
    expect(seen.map((s) => s.durable)).toEqual([false, true]);
    // The change that failed was written whole (a failed append may have left part of a line: never append after it).
    const onDisk = JSON.parse(await readFile(join(dir, 'collections', 'watch_posts', 'C1.json'), 'utf8')) as {
      records: Record<string, { value: unknown }>;
    };
    expect(onDisk.records['C1/call-2']!.value).toEqual({ ts: '1.2' });
    await posts.put('C1/call-3', { ts: '1.3' });
    await store.close();
    const again = await open();
    expect(await again.collection<{ ts: string }>('watch_posts').list()).toEqual([
      ['C1/call-1', { ts: '1.1' }],
      ['C1/call-2', { ts: '1.2' }],
      ['C1/call-3', { ts: '1.3' }],
    ]);
  });

  it('a journal append that fails part-way is never appended after: the next write is the whole file', async () => {
    let full = false;
    const store = await open({
      retryMs: 60_000,
      fs: {
        appendFileSynced: async (path, text) => {
          if (!full) return nodeStoreFs.appendFileSynced(path, text);
          // Half the line reaches the disk, then it is full.
          await nodeStoreFs.appendFileSynced(path, text.slice(0, Math.floor(text.length / 2)));
          throw enospc();
        },
      },
    });
    const c = store.collection<number>('c');
    await c.put('h/1', 1);
    await c.put('h/2', 2);
    full = true;
    await expect(c.put('h/3', 3)).rejects.toThrow(/ENOSPC/);
    full = false;
    expect((await store.probe()).durable).toBe(true);
    await c.put('h/4', 4);
    await store.close();
    const again = await open();
    expect(await again.collection<number>('c').list()).toEqual([
      ['h/1', 1],
      ['h/2', 2],
      ['h/3', 3],
      ['h/4', 4],
    ]);
  });

  it('retries by itself every retryMs', async () => {
    let full = true;
    const store = await open({
      retryMs: 50,
      fs: {
        writeFileSynced: async (path, text) => {
          if (full) throw enospc();
          return nodeStoreFs.writeFileSynced(path, text);
        },
      },
    });
    await expect(store.collection<number>('c').put('a/1', 1)).rejects.toThrow(/ENOSPC/);
    full = false;
    const durable = new Promise<StoreStatus>((r) => store.onStatus(r));
    expect((await durable).durable).toBe(true);
    expect(existsSync(join(dir, 'collections', 'c', 'a.json'))).toBe(true);
  });
});

describe('one process per STATE_DIR', () => {
  it('refuses a second open of the same directory, naming it, and allows it after close', async () => {
    const first = await open();
    const err = await openEmbeddedStore(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreLockedError);
    expect((err as Error).message).toContain(dir);
    await first.close();
    await open();
  });

  it('refuses a directory locked by another live process, and takes over a dead one', async () => {
    const lock = join(dir, '.lock');
    // The parent of this process (jest's runner) is alive and is not us.
    await writeFile(
      lock,
      JSON.stringify({ pid: process.ppid, host: (await import('node:os')).hostname(), since: 'x' }),
    );
    const err = await openEmbeddedStore(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreLockedError);
    expect((err as Error).message).toMatch(
      new RegExp(
        `STATE_DIR ${dir} is in use by another instance of the app \\(pid ${process.ppid} on .*give this one its own STATE_DIR`,
      ),
    );
    // A pid that no longer runs: taken over.
    await writeFile(lock, JSON.stringify({ pid: 2 ** 22 + 1, host: (await import('node:os')).hostname(), since: 'x' }));
    const store = await open();
    expect(JSON.parse(await readFile(lock, 'utf8'))).toMatchObject({ pid: process.pid });
    await store.close();
    expect(existsSync(lock)).toBe(false);
  });

  it('shares nothing between two directories', async () => {
    const other = await mkdtemp(join(tmpdir(), 'embedded-store-other-'));
    try {
      const a = await open();
      const b = await open({}, other);
      await a.collection<number>('c').put('k', 1);
      expect(await b.collection<number>('c').get('k')).toBeUndefined();
    } finally {
      for (const s of opened.splice(0)) await s.close();
      await rm(other, { recursive: true, force: true });
    }
  });
});

/** A state file of today's format (the one-file lowdb store before issue 14), with every kind of record. */
const LEGACY = {
  schemaVersion: 1,
  collections: {
    watch_subscriptions: {
      '12/C111': { campaignId: 12, channelId: 'C111', by: 'U1', at: '2026-11-01T10:00:00.000Z' },
      '13/C222': { campaignId: 13, channelId: 'C222', by: 'U2', at: '2026-11-02T10:00:00.000Z' },
    },
    watch_cursors: { '12': { since: '2026-11-20T08:00:00Z', seen: ['c-1'] }, '13': { since: null, seen: [] } },
    watch_calls: {
      '12/c-1': { campaignId: 12, callId: 'c-1', status: 'completed', finalAt: '2026-11-20T08:05:00Z' },
      '12/c-2': { campaignId: 12, callId: 'c-2', status: 'in_progress' },
    },
    watch_posts: { 'C111/c-1': { channelId: 'C111', callId: 'c-1', ts: '1700000000.000100', state: 'final' } },
    watch_channels: { C111: { lastPostAt: 1700000000000 } },
    watch_events: { Ev123: 1700000000000 },
    watch_whatsapp_posts: { 'C111/wa/12': { ts: '1700000000.000200' } },
    upload_jobs: {
      'job-1': {
        id: 'job-1',
        campaignId: 12,
        state: 'running',
        batchesDone: 3,
        failures: [{ row: 7, reason: 'invalid phone "+1 555"' }],
      },
    },
    home_prefs: { U1: { tab: 'campaigns' } },
    form_submissions: { 'U1/view-9': { campaignId: 12, at: 1700000000000 } },
    weird: { '': 'empty key', 'a/b/c': [1, 2] },
  },
};

describe('conversion of the legacy STATE_FILE', () => {
  const legacyText = () =>
    // Built by hand so that "__proto__" is an ordinary key, as JSON.parse reads it.
    JSON.stringify(LEGACY).replace('"weird":{', '"weird":{"__proto__":{"a":1},');

  it('copies every record of every collection, durably, then keeps the old file as a backup', async () => {
    const stateFile = join(dir, 'state.json');
    const text = legacyText();
    await writeFile(stateFile, text);
    const logger = recordingLogger();
    const store = (await openStore({ stateDir: dir, stateFile }, logger)) as EmbeddedStore;
    opened.push(store);

    const expected = JSON.parse(text) as typeof LEGACY;
    const names = Object.keys(expected.collections).sort();
    expect((await store.collectionNames()).sort()).toEqual(names);
    for (const name of names) {
      const records = (expected.collections as Record<string, Record<string, unknown>>)[name]!;
      const listed = await store.collection(name).list();
      expect(Object.fromEntries(listed)).toEqual(Object.fromEntries(Object.entries(records)));
      expect(listed).toHaveLength(Object.keys(records).length);
    }
    expect(await store.collection('weird').get('__proto__')).toEqual({ a: 1 });

    expect(existsSync(stateFile)).toBe(false);
    const backups = (await readdir(dir)).filter((f) =>
      /^state\.json\.converted-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.bak$/.test(f),
    );
    expect(backups).toHaveLength(1);
    expect(await readFile(join(dir, backups[0]!), 'utf8')).toBe(text);
    const info = logger.lines.find((l) => l.level === 'info' && /converted the old state file/.test(l.msg ?? ''));
    expect(info?.obj).toMatchObject({ counts: { watch_calls: 2, watch_subscriptions: 2, upload_jobs: 1, weird: 3 } });

    // Durable: a crash right after the start loses nothing; and nothing is converted twice.
    await store.crash();
    // Another old file put where STATE_FILE points: STATE_DIR already holds state, so it is left alone.
    await writeFile(stateFile, text.replace('campaigns', 'settings'));
    const again = (await openStore({ stateDir: dir, stateFile }, logger)) as EmbeddedStore;
    opened.push(again);
    expect(await again.collection('upload_jobs').get('job-1')).toEqual(expected.collections.upload_jobs['job-1']);
    expect(existsSync(stateFile)).toBe(true);
    expect(logger.lines.some((l) => l.level === 'warn' && /was not converted/.test(l.msg ?? ''))).toBe(true);
  });

  it('finishes a conversion interrupted before the rename, without converting twice', async () => {
    const stateFile = join(dir, 'old', 'state.json');
    await (await import('node:fs/promises')).mkdir(join(dir, 'old'));
    await writeFile(stateFile, legacyText());
    const store = await open();
    // Converted, but the rename "did not happen" (a crash): the file is put back.
    await convertStateFile(store, stateFile);
    const backup = (await readdir(join(dir, 'old'))).find((f) => f.endsWith('.bak'))!;
    await (await import('node:fs/promises')).rename(join(dir, 'old', backup), stateFile);
    await store.collection('watch_calls').delete('12/c-2'); // a change made after the conversion

    const result = await convertStateFile(store, stateFile);
    expect(result.outcome).toBe('finished');
    expect(existsSync(stateFile)).toBe(false);
    expect(await store.collection('watch_calls').get('12/c-2')).toBeUndefined();
  });

  it.each([
    ['invalid JSON', '{"schemaVersion": 1, "collections": {'],
    ['an empty file', ''],
    ['a newer schema', '{"schemaVersion": 2, "collections": {}}'],
    ['collections that are not objects', '{"schemaVersion": 1, "collections": {"subs": [1, 2]}}'],
  ])('refuses %s, stops the start and leaves the file untouched', async (_what, content) => {
    const stateFile = join(dir, 'state.json');
    await writeFile(stateFile, content);
    const mtime = (await stat(stateFile)).mtimeMs;
    const err = await openStore({ stateDir: dir, stateFile }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreCorruptError);
    expect((err as Error).message).toContain(stateFile);
    expect((err as Error).message).toMatch(/It has not been changed\./);
    expect(await readFile(stateFile, 'utf8')).toBe(content);
    expect((await stat(stateFile)).mtimeMs).toBe(mtime);
    expect((await readdir(dir)).filter((f) => f.endsWith('.bak'))).toEqual([]);
    // The store was closed again: the directory can be opened.
    await open();
  });

  it('does nothing without a legacy file', async () => {
    const store = await open();
    expect(await convertStateFile(store, join(dir, 'missing.json'))).toEqual({ outcome: 'none' });
  });
});
