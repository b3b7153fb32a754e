/**
 * The store contract (src/store/store.ts), one suite for every implementation: test/contract/store-contract.test.ts
 * runs it for the memory, embedded and PostgreSQL stores. What a caller can observe must be the same everywhere.
 *
 * A factory opens stores on fresh state. Where the implementation allows it, it opens a second instance on the same
 * state (two processes / replicas) so that conditional writes race across instances; otherwise the races are
 * concurrent calls on one instance. Where state survives a crash, it simulates one (no flush, no close) and opens the
 * same state again.
 */
import { describe, expect, it, afterEach } from '@jest/globals';
import { StoreClosedError, type Collection, type Store } from '../../src/store/store.js';

export interface StoreContractFactory {
  /** Opens a store on fresh, empty state (its own directory or database). */
  open(): Promise<Store>;
  /** Opens another instance on the same state as `first` while it stays open; absent where only one may be open. */
  openSecond?(first: Store): Promise<Store>;
  /**
   * Simulates a crash of `store` (the process dies: no flush, no close, nothing more runs in it) and opens the same
   * state again; absent where nothing survives a crash (memory).
   */
  crashAndReopen?(store: Store): Promise<Store>;
  /** Closes and removes whatever the factory opened (after each test). */
  cleanup(): Promise<void>;
}

/** Code-point order, computed independently of the stores' own comparator. */
function codePointOrder(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

interface Call {
  campaignId: number | string;
  status: string;
  n?: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function describeStoreContract(label: string, makeFactory: () => StoreContractFactory): void {
  describe(`store contract: ${label}`, () => {
    const factory = makeFactory();
    afterEach(async () => factory.cleanup());

    const calls = (s: Store): Collection<Call> =>
      s.collection<Call>({ name: 'contract_calls', indexes: ['status', 'campaignId'] });

    it('gets, puts, replaces and deletes records; a missing key is undefined', async () => {
      const s = await factory.open();
      const c = s.collection<{ a: number }>('contract_basic');
      expect(await c.get('k')).toBeUndefined();
      expect(await c.getVersioned('k')).toBeUndefined();
      await c.put('k', { a: 1 });
      expect(await c.get('k')).toEqual({ a: 1 });
      const v1 = (await c.getVersioned('k'))!;
      await c.put('k', { a: 2 });
      const v2 = (await c.getVersioned('k'))!;
      expect(v2.value).toEqual({ a: 2 });
      expect(v2.version).toBeGreaterThan(v1.version);
      await c.delete('k');
      expect(await c.get('k')).toBeUndefined();
      await c.delete('k'); // deleting a missing key is fine
      // A key deleted and written again never gets back an old version.
      await c.put('k', { a: 3 });
      expect((await c.getVersioned('k'))!.version).toBeGreaterThan(v2.version);
      // Collections are separate.
      expect(await s.collection('contract_other').get('k')).toBeUndefined();
      // Any JSON value, and keys that are awkward elsewhere.
      const odd = s.collection<unknown>('contract_values');
      for (const [key, value] of [
        ['__proto__', { x: 1 }],
        ['n', 42],
        ['s', 'text with "quotes" and \n newline'],
        ['null', null],
        ['arr', [1, 'two', { three: 3 }]],
        ['../../etc/passwd', true],
        ['a b/c d', 'spaces'],
        ['😀/é', 'unicode'],
        ['/leading-slash', 'empty head'],
      ] as const) {
        await odd.put(key, value);
        expect(await odd.get(key)).toEqual(value);
      }
    });

    it('keeps detached JSON: a copy as a restart would read it back', async () => {
      const s = await factory.open();
      const c = s.collection<{ at: unknown; list: number[]; gone?: unknown }>('contract_detached');
      const value = { at: new Date('2026-02-03T04:05:06Z'), list: [1], gone: undefined };
      await c.put('k', value);
      value.list.push(2);
      const read = (await c.get('k'))!;
      expect(read).toEqual({ at: '2026-02-03T04:05:06.000Z', list: [1] });
      expect('gone' in read).toBe(false);
      read.list.push(3);
      expect((await c.get('k'))!.list).toEqual([1]);
      await expect(c.put('u', undefined as never)).rejects.toThrow(/not a JSON value/);
      expect(await c.get('u')).toBeUndefined();
    });

    it('lists by prefix in code-point order, with limit, and counts', async () => {
      const s = await factory.open();
      const c = s.collection<number>('contract_list');
      const keys = ['b', 'a', 'B', 'a/1', 'a/10', 'a/2', 'a-', 'é', '😀', '\uFFFD', 'a/1/x', 'ab/1', '10', '9'];
      // Written in a shuffled order; the order of writing must not matter.
      for (const [i, k] of [...keys].reverse().entries()) await c.put(k, i);
      const sorted = [...keys].sort(codePointOrder);
      expect((await c.list()).map(([k]) => k)).toEqual(sorted);
      expect((await c.list({ prefix: 'a/' })).map(([k]) => k)).toEqual(['a/1', 'a/1/x', 'a/10', 'a/2']);
      expect((await c.list({ prefix: 'a' })).map(([k]) => k)).toEqual(sorted.filter((k) => k.startsWith('a')));
      expect((await c.list({ prefix: 'a/', limit: 2 })).map(([k]) => k)).toEqual(['a/1', 'a/1/x']);
      expect(await c.list({ prefix: 'zz' })).toEqual([]);
      expect(await c.list({ limit: 0 })).toEqual([]);
      expect(await c.count()).toBe(keys.length);
      expect(await c.count({ prefix: 'a/' })).toBe(4);
      const [first] = await c.list({ prefix: '😀' });
      expect(first).toEqual(['😀', keys.length - 1 - keys.indexOf('😀')]);
    });

    it('lists by indexed fields, with prefix and limit, in key order; refuses unindexed fields', async () => {
      const s = await factory.open();
      const c = calls(s);
      await c.put('2/c', { campaignId: 2, status: 'open' });
      await c.put('1/b', { campaignId: 1, status: 'final' });
      await c.put('1/a', { campaignId: 1, status: 'open' });
      await c.put('1/c', { campaignId: '1', status: 'open' });
      await c.put('3/a', { campaignId: 3, status: 'open' });
      const keysOf = (rows: Array<[string, Call]>) => rows.map(([k]) => k);
      expect(keysOf(await c.list({ where: { status: 'open' } }))).toEqual(['1/a', '1/c', '2/c', '3/a']);
      expect(keysOf(await c.list({ where: { status: 'open' }, limit: 2 }))).toEqual(['1/a', '1/c']);
      expect(keysOf(await c.list({ prefix: '1/', where: { status: 'open' } }))).toEqual(['1/a', '1/c']);
      // Equality keeps JSON types apart: 1 is not "1".
      expect(keysOf(await c.list({ where: { campaignId: 1 } }))).toEqual(['1/a', '1/b']);
      expect(keysOf(await c.list({ where: { campaignId: '1' } }))).toEqual(['1/c']);
      expect(keysOf(await c.list({ where: { campaignId: 1, status: 'open' } }))).toEqual(['1/a']);
      expect(await c.count({ where: { status: 'open' } })).toBe(4);
      expect(await c.count({ prefix: '1/', where: { status: 'final' } })).toBe(1);
      // A change of an indexed field moves the record between index values; a deletion drops it.
      await c.put('1/a', { campaignId: 1, status: 'final' });
      await c.delete('2/c');
      expect(keysOf(await c.list({ where: { status: 'open' } }))).toEqual(['1/c', '3/a']);
      expect(keysOf(await c.list({ where: { status: 'final' } }))).toEqual(['1/a', '1/b']);
      const [, rec] = (await c.list({ where: { status: 'final' }, limit: 1 }))[0]!;
      expect(rec).toEqual({ campaignId: 1, status: 'final' });
      await expect(c.list({ where: { n: 1 } })).rejects.toThrow(/does not index "n"/);
    });

    it('deletes by prefix, returning how many', async () => {
      const s = await factory.open();
      const c = s.collection<number>('contract_prefix');
      for (const k of ['1/a', '1/b', '1/c/d', '10/a', '1', '2/a']) await c.put(k, 1);
      expect(await c.deletePrefix('1/')).toBe(3);
      expect((await c.list()).map(([k]) => k)).toEqual(['1', '10/a', '2/a']);
      expect(await c.deletePrefix('1/')).toBe(0);
      expect(await c.deletePrefix('1')).toBe(2);
      expect((await c.list()).map(([k]) => k)).toEqual(['2/a']);
    });

    it('inserts if absent: of concurrent inserts of one key exactly one wins', async () => {
      const s1 = await factory.open();
      const s2 = factory.openSecond ? await factory.openSecond(s1) : s1;
      const c1 = s1.collection<{ by: number }>('contract_claims');
      const c2 = s2.collection<{ by: number }>('contract_claims');
      for (const key of ['event/1', 'event/2', 'event/3']) {
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) => (i % 2 ? c2 : c1).insertIfAbsent(key, { by: i })),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        const winner = results.indexOf(true);
        expect(await c1.get(key)).toEqual({ by: winner });
        expect(await c2.get(key)).toEqual({ by: winner });
      }
      expect(await c1.insertIfAbsent('event/1', { by: 99 })).toBe(false);
      expect(await c1.get('event/1')).not.toEqual({ by: 99 });
    });

    it('compares and sets: of two writers with the same version exactly one wins; no update is lost', async () => {
      const s1 = await factory.open();
      const s2 = factory.openSecond ? await factory.openSecond(s1) : s1;
      const c1 = s1.collection<{ n: number }>('contract_cas');
      const c2 = s2.collection<{ n: number }>('contract_cas');
      await c1.put('lease', { n: 0 });
      const read = (await c1.getVersioned('lease'))!;
      const [a, b] = await Promise.all([
        c1.compareAndSet('lease', read.version, { n: 1 }),
        c2.compareAndSet('lease', read.version, { n: 2 }),
      ]);
      expect([a, b].filter(Boolean)).toHaveLength(1);
      expect((await c2.get('lease'))!.n).toBe(a ? 1 : 2);
      expect(await c1.compareAndSet('lease', read.version, { n: 3 })).toBe(false);
      expect(await c1.compareAndSet('missing', 1, { n: 3 })).toBe(false);
      expect(await c1.get('missing')).toBeUndefined();

      // Two writers incrementing a counter by read-modify-compare-and-set: every increment counts once.
      await c1.put('counter', { n: 0 });
      const increment = async (c: Collection<{ n: number }>) => {
        for (;;) {
          const cur = (await c.getVersioned('counter'))!;
          if (await c.compareAndSet('counter', cur.version, { n: cur.value.n + 1 })) return;
        }
      };
      await Promise.all(Array.from({ length: 20 }, (_, i) => increment(i % 2 ? c2 : c1)));
      expect(await c1.get('counter')).toEqual({ n: 20 });
    });

    it('hides an expired record at once, lets its key be inserted again, and sweep removes it', async () => {
      const s = await factory.open();
      const c = calls(s);
      const now = Date.now();
      await c.put('1/past', { campaignId: 1, status: 'open' }, { expiresAt: now - 1000 });
      await c.put('1/soon', { campaignId: 1, status: 'open' }, { expiresAt: now + 300 });
      await c.put('1/later', { campaignId: 1, status: 'open' }, { expiresAt: now + 60_000 });
      await c.put('1/kept', { campaignId: 1, status: 'open' });
      expect(await c.get('1/past')).toBeUndefined();
      expect(await c.getVersioned('1/past')).toBeUndefined();
      expect(await c.get('1/soon')).toEqual({ campaignId: 1, status: 'open' });
      await sleep(400);
      expect(await c.get('1/soon')).toBeUndefined();
      expect((await c.list({ prefix: '1/' })).map(([k]) => k)).toEqual(['1/kept', '1/later']);
      expect(await c.count({ where: { status: 'open' } })).toBe(2);
      expect(await c.compareAndSet('1/past', 1, { campaignId: 1, status: 'x' })).toBe(false);

      // An expired key is free again; the new record has no expiry unless given one.
      expect(await c.insertIfAbsent('1/soon', { campaignId: 1, status: 'again' })).toBe(true);
      // Sweeping at a later instant removes what has expired by then (past, later), not what has no expiry.
      expect(await s.sweep(now + 120_000)).toBe(2);
      expect((await c.list()).map(([k]) => k)).toEqual(['1/kept', '1/soon']);
      expect(await s.sweep(now + 120_000)).toBe(0);
      // A put without expiresAt clears an earlier expiry.
      await c.put('1/x', { campaignId: 1, status: 'open' }, { expiresAt: now + 200 });
      await c.put('1/x', { campaignId: 1, status: 'open' });
      expect(await s.sweep(now + 120_000)).toBe(0);
      expect(await c.get('1/x')).toBeDefined();
    });

    // Nothing survives a crash of a store that has no crashAndReopen (memory).
    (factory.crashAndReopen ? it : it.skip)(
      'keeps every resolved write through a crash, with versions and expiries',
      async () => {
        const s = await factory.open();
        const c = calls(s);
        const keys = ['1/a', '1/b', '2/a', 'plain', '../x/y', '😀/1', '/empty-head', 'with space/1', '%41/1'];
        for (const k of keys) await c.put(k, { campaignId: 1, status: 'open' });
        await c.put('1/b', { campaignId: 1, status: 'final', n: 2 });
        await c.delete('2/a');
        await c.put('1/exp', { campaignId: 1, status: 'open' }, { expiresAt: Date.now() + 60_000 });
        const version = (await c.getVersioned('1/b'))!.version;
        // Not awaited: still in flight when the process dies. It may or may not survive, but never half.
        const inFlight = c.put('3/late', { campaignId: 3, status: 'open' }).catch(() => undefined);

        const again = await factory.crashAndReopen!(s);
        await inFlight;
        const c2 = calls(again);
        const late = await c2.get('3/late');
        if (late !== undefined) expect(late).toEqual({ campaignId: 3, status: 'open' });
        expect((await c2.list()).map(([k]) => k).filter((k) => k !== '3/late')).toEqual(
          [...keys.filter((k) => k !== '2/a'), '1/exp'].sort(codePointOrder),
        );
        expect(await c2.get('1/b')).toEqual({ campaignId: 1, status: 'final', n: 2 });
        expect(await c2.list({ where: { status: 'final' } })).toEqual([
          ['1/b', { campaignId: 1, status: 'final', n: 2 }],
        ]);
        expect(await c2.compareAndSet('1/b', version, { campaignId: 1, status: 'open' })).toBe(true);
        expect(await again.sweep(Date.now() + 120_000)).toBe(1);
        expect(await c2.get('1/exp')).toBeUndefined();
      },
    );

    it('refuses changes after close', async () => {
      const s = await factory.open();
      const c = s.collection<number>('contract_closed');
      await c.put('a', 1);
      await s.close();
      await expect(c.put('b', 2)).rejects.toBeInstanceOf(StoreClosedError);
      await expect(c.insertIfAbsent('b', 2)).rejects.toBeInstanceOf(StoreClosedError);
      await expect(c.compareAndSet('a', 1, 2)).rejects.toBeInstanceOf(StoreClosedError);
      await expect(c.delete('a')).rejects.toBeInstanceOf(StoreClosedError);
      await expect(c.deletePrefix('a')).rejects.toBeInstanceOf(StoreClosedError);
      await expect(c.put('b', 2)).rejects.toThrow(/store is closed.*contract_closed\/b was not saved/);
    });

    it('reports itself durable and flushes', async () => {
      const s = await factory.open();
      expect(s.status()).toMatchObject({ durable: true });
      expect((await s.probe()).durable).toBe(true);
      const seen: boolean[] = [];
      const off = s.onStatus((st) => seen.push(st.durable));
      await s.collection<number>('contract_flush').put('a', 1);
      await s.flush();
      off();
      expect(seen).toEqual([]);
    });
  });
}
