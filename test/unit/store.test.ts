import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  openLowdbStore,
  SCHEMA_VERSION,
  StoreClosedError,
  StoreCorruptError,
  type LowdbStore,
} from '../../src/store/lowdb-store.js';
import { createMemoryStore } from '../../src/store/memory-store.js';

let dir: string;
let file: string;
const opened: LowdbStore[] = [];

async function open(opts?: { coalesceMs?: number }, path = file): Promise<LowdbStore> {
  const s = await openLowdbStore(path, opts);
  opened.push(s);
  return s;
}

async function onDisk(
  path = file,
): Promise<{ schemaVersion: number; collections: Record<string, Record<string, unknown>> }> {
  return JSON.parse(await readFile(path, 'utf-8'));
}

const nextTurn = () => new Promise<void>((r) => setImmediate(r));

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'store-test-'));
  file = join(dir, 'state.json');
});

afterEach(async () => {
  for (const s of opened.splice(0)) await s.close().catch(() => {});
  await rm(dir, { recursive: true, force: true });
});

describe('lowdb store', () => {
  it('writes 1,000 sets made in a loop once or twice, all durable once awaited', async () => {
    const store = await open();
    const c = store.collection<{ n: number }>('items');
    const promises: Promise<void>[] = [];
    for (let i = 0; i < 1000; i++) promises.push(c.set(`k${i}`, { n: i }));
    await Promise.all(promises);
    expect(store.writes).toBeGreaterThanOrEqual(1);
    expect(store.writes).toBeLessThanOrEqual(2);
    const items = (await onDisk()).collections.items ?? {};
    expect(Object.keys(items)).toHaveLength(1000);
    expect(items.k999).toEqual({ n: 999 });
  });

  it('starts empty without a file, creating missing directories, and writes the schema version', async () => {
    const nested = join(dir, 'a', 'b', 'state.json');
    const store = await open({}, nested);
    expect(store.collection('x').size()).toBe(0);
    expect(existsSync(nested)).toBe(false);
    await store.collection('x').set('k', 1);
    expect(await onDisk(nested)).toEqual({ schemaVersion: SCHEMA_VERSION, collections: { x: { k: 1 } } });
    expect(SCHEMA_VERSION).toBe(1);
  });

  it('reads back after reopening, in the same key order', async () => {
    const store = await open();
    const subs = store.collection<{ channel: string }>('subs');
    await subs.set('b', { channel: 'C2' });
    await subs.set('42', { channel: 'C42' });
    await subs.set('a', { channel: 'C1' });
    await subs.set('7', { channel: 'C7' });
    await subs.set('__proto__', { channel: 'C0' });
    await store.collection('cursors').set('camp-1', '2026-01-01T00:00:00Z');
    await subs.delete('a');
    const before = subs.entries();
    await store.close();

    const again = await open();
    const subs2 = again.collection<{ channel: string }>('subs');
    expect(subs2.entries()).toEqual(before);
    expect(subs2.get('__proto__')).toEqual({ channel: 'C0' });
    expect(subs2.has('a')).toBe(false);
    expect(subs2.size()).toBe(4);
    expect(again.collection('cursors').get('camp-1')).toBe('2026-01-01T00:00:00Z');
    expect(Object.getPrototypeOf(subs2.values()[0])).toBe(Object.prototype);
  });

  it('keeps a copy of what was set, as a restart would read it back', async () => {
    const store = await open();
    const c = store.collection<{ at: unknown; list: number[] }>('c');
    const value = { at: new Date('2026-02-03T04:05:06Z'), list: [1] };
    await c.set('k', value);
    value.list.push(2);
    expect(c.get('k')).toEqual({ at: '2026-02-03T04:05:06.000Z', list: [1] });
    await expect(c.set('u', undefined as never)).rejects.toThrow(/not a JSON value/);
    expect(c.has('u')).toBe(false);
  });

  it.each([
    ['invalid JSON', '{"schemaVersion": 1, "collections": {'],
    ['an empty file', ''],
    ['JSON null', 'null'],
    ['an array', '[]'],
    ['no schema version', '{"collections": {}}'],
    ['collections that are not objects', '{"schemaVersion": 1, "collections": {"subs": [1, 2]}}'],
  ])('refuses %s and leaves the file untouched', async (_what, content) => {
    await writeFile(file, content);
    const before = await stat(file);
    const err = await openLowdbStore(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreCorruptError);
    expect((err as Error).message).toContain(file);
    expect((err as Error).message).toMatch(/Restore it from a backup, or move it away/);
    expect(await readFile(file, 'utf-8')).toBe(content);
    expect((await stat(file)).mtimeMs).toBe(before.mtimeMs);
    expect(existsSync(join(dir, '.state.json.tmp'))).toBe(false);
  });

  it('refuses a file written by a newer version, saying so, and leaves it untouched', async () => {
    const content = JSON.stringify({ schemaVersion: 2, collections: { subs: { a: 1 } }, extra: true });
    await writeFile(file, content);
    const err = await openLowdbStore(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreCorruptError);
    expect((err as Error).message).toMatch(/newer version .*schemaVersion 2; this version reads 1/);
    expect((err as Error).message).toMatch(/restore a backup/);
    expect(await readFile(file, 'utf-8')).toBe(content);
  });

  it('puts a change made during a write into the next write', async () => {
    const store = await open();
    const c = store.collection<number>('c');
    const first = c.set('a', 1);
    await nextTurn(); // the store's write starts on this turn
    expect(store.writes).toBe(1);
    const second = c.set('b', 2);
    expect(second).not.toBe(first);
    await first;
    // The first write carried only what existed when it started.
    expect((await onDisk()).collections.c).toEqual({ a: 1 });
    await second;
    expect(store.writes).toBe(2);
    expect((await onDisk()).collections.c).toEqual({ a: 1, b: 2 });
  });

  it('gives every change made before a write starts the same write', async () => {
    const store = await open();
    const c = store.collection<number>('c');
    const p1 = c.set('a', 1);
    const p2 = store.collection<number>('other').set('b', 2);
    const p3 = c.delete('zzz');
    expect(p2).toBe(p1);
    expect(p3).toBe(p1);
    await p1;
    expect(store.writes).toBe(1);
  });

  it('rejects the changes of a failed write, keeps them in memory and saves them on the next attempt', async () => {
    const store = await open();
    const c = store.collection<number>('c');
    await c.set('a', 1);
    // steno writes to ".state.json.tmp" and renames it; a directory in its place makes the write fail.
    const temp = join(dir, '.state.json.tmp');
    await mkdir(temp);
    await expect(c.set('b', 2)).rejects.toThrow(/Could not save the state file .*state\.json/);
    expect(c.get('b')).toBe(2);
    expect((await onDisk()).collections.c).toEqual({ a: 1 });
    await rm(temp, { recursive: true });
    await store.flush();
    expect((await onDisk()).collections.c).toEqual({ a: 1, b: 2 });
  });

  it('flush() writes at once even with a long coalescing delay', async () => {
    const store = await open({ coalesceMs: 60_000 });
    const p = store.collection<number>('c').set('a', 1);
    await store.flush();
    await p;
    expect((await onDisk()).collections.c).toEqual({ a: 1 });
    await store.flush(); // nothing pending: resolves at once
    expect(store.writes).toBe(1);
  });

  it('close() saves what is pending, then refuses changes without touching memory', async () => {
    const store = await open({ coalesceMs: 60_000 });
    const c = store.collection<number>('c');
    void c.set('a', 1);
    await store.close();
    expect((await onDisk()).collections.c).toEqual({ a: 1 });
    await expect(c.set('b', 2)).rejects.toBeInstanceOf(StoreClosedError);
    await expect(c.set('b', 2)).rejects.toThrow(/store is closed.*c\/b was not saved/);
    await expect(c.delete('a')).rejects.toBeInstanceOf(StoreClosedError);
    expect(c.has('b')).toBe(false);
    expect(c.get('a')).toBe(1);
    expect((await onDisk()).collections.c).toEqual({ a: 1 });
  });

  it('refuses to open a file that is already open in this process', async () => {
    const store = await open();
    await expect(openLowdbStore(file)).rejects.toThrow(/already open/);
    await store.close();
    await open();
  });
});

describe('memory store', () => {
  it('stores copies, keeps the same key order and refuses changes after close', async () => {
    const store = createMemoryStore();
    const c = store.collection<{ list: number[] }>('c');
    const v = { list: [1] };
    await c.set('b', v);
    await c.set('10', { list: [] });
    v.list.push(2);
    expect(c.entries()).toEqual([
      ['10', { list: [] }],
      ['b', { list: [1] }],
    ]);
    await c.delete('10');
    expect(c.size()).toBe(1);
    await store.close();
    await expect(c.set('x', { list: [] })).rejects.toBeInstanceOf(StoreClosedError);
  });
});
