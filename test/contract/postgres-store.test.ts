/**
 * What only the PostgreSQL store has: its SQL against a real server (prefix wildcards, JSONB where, expiry by the
 * app's clock), atomic conditional writes between two processes' pools, and durability status when the database goes
 * away and comes back, never showing the password. The shared store contract runs in store-contract-postgres.test.ts.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { likePrefix } from '../../src/store/pg-collection.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/pg-store.js';
import { StoreClosedError, StoreUnavailableError, type StoreStatus } from '../../src/store/store.js';
import { freshDatabase, testPostgresUrl } from '../support/postgres.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

const opened: PostgresStore[] = [];
const proxies: TcpProxy[] = [];
async function open(url: string, opts: Parameters<typeof openPostgresStore>[1] = {}): Promise<PostgresStore> {
  const store = await openPostgresStore(url, opts);
  opened.push(store);
  return store;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close().catch(() => undefined)));
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

async function admin<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The URL of `url`'s database reached through a relay the test can cut. */
async function throughProxy(url: string): Promise<{ url: string; proxy: TcpProxy; password: string }> {
  const u = new URL(url);
  const proxy = await startTcpProxy(u.hostname, Number(u.port));
  proxies.push(proxy);
  u.port = String(proxy.port);
  return { url: u.toString(), proxy, password: decodeURIComponent(u.password) };
}

describe('the PostgreSQL store', () => {
  it('takes a prefix literally: % and _ and \\ in it are not wildcards', async () => {
    expect(likePrefix('a_b%c\\')).toBe('a\\_b\\%c\\\\%');
    const store = await open(await freshDatabase('pgs'));
    const c = store.collection<number>('things');
    for (const [i, key] of ['a_b/1', 'axb/2', 'a%/3', 'ab/4', 'a\\/5', 'a/6'].entries()) await c.put(key, i);
    expect((await c.list({ prefix: 'a_' })).map(([k]) => k)).toEqual(['a_b/1']);
    expect((await c.list({ prefix: 'a%' })).map(([k]) => k)).toEqual(['a%/3']);
    expect((await c.list({ prefix: 'a\\' })).map(([k]) => k)).toEqual(['a\\/5']);
    expect(await c.deletePrefix('a_')).toBe(1);
    expect(await c.count()).toBe(5);
  });

  it('lists in code-point order, by indexed fields through JSONB containment, with limits', async () => {
    const store = await open(await freshDatabase('pgs'));
    const c = store.collection<{ state: string; n: number; tags?: string[] }>({
      name: 'calls',
      indexes: ['state', 'n'],
    });
    await c.put('b', { state: 'open', n: 1 });
    await c.put('B', { state: 'final', n: 2 });
    await c.put('a', { state: 'open', n: 2 });
    await c.put('é', { state: 'open', n: 1 });
    await c.put('z', { state: 'open', n: 1, tags: ['open'] });
    expect((await c.list()).map(([k]) => k)).toEqual(['B', 'a', 'b', 'z', 'é']);
    expect((await c.list({ where: { state: 'open', n: 1 } })).map(([k]) => k)).toEqual(['b', 'z', 'é']);
    expect(await c.count({ where: { state: 'open' } })).toBe(4);
    expect(await c.count({ where: { state: 'open' }, limit: 2 })).toBe(2);
    expect((await c.list({ where: { state: 'open' }, limit: 2 })).map(([k]) => k)).toEqual(['a', 'b']);
    await expect(c.list({ where: { tags: 'open' } })).rejects.toThrow(/does not index "tags"/);
  });

  it('indexes only the declared fields (idx column), each in a B-tree of its own and no GIN index', async () => {
    const url = await freshDatabase('pgs');
    const store = await open(url);
    type Call = { state: string; n: number; ts: number; user: string };
    const c = store.collection<Call>({ name: 'calls', indexes: ['state', 'n'] });
    await c.put('a', { state: 'open', n: 1, ts: 1, user: 'U1' });
    expect(await c.insertIfAbsent('b', { state: 'open', n: 2, ts: 2, user: 'U2' })).toBe(true);
    const b = await c.getVersioned('b');
    expect(await c.compareAndSet('b', b!.version, { state: 'final', n: 2, ts: 3, user: 'U3' })).toBe(true);
    await store.collection<number>('plain').put('x', 5);
    const rows = await admin(url, async (db) => {
      const r = await db.query<{ key: string; idx: unknown }>('SELECT key, idx FROM records ORDER BY key');
      return r.rows.map((row) => [row.key, row.idx]);
    });
    expect(rows).toEqual([
      ['a', { state: 'open', n: 1 }],
      ['b', { state: 'final', n: 2 }],
      ['x', {}],
    ]);
    // The first `where` on a field creates its index.
    expect((await c.list({ where: { state: 'final' } })).map(([k]) => k)).toEqual(['b']);
    expect(await c.count({ where: { n: 1, state: 'open' } })).toBe(1);
    const indexes = await admin(url, async (db) => {
      const r = await db.query<{ indexname: string; indexdef: string }>(
        `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'records' AND indexname <> 'records_pkey'
         ORDER BY indexname`,
      );
      return r.rows.map((row) => [row.indexname, row.indexdef]);
    });
    expect(indexes).toEqual([
      [
        'records_by_n',
        expect.stringMatching(/USING btree \(collection, \(\(idx -> 'n'::text\)\)\) WHERE \(idx \? 'n'/),
      ],
      [
        'records_by_state',
        expect.stringMatching(/USING btree \(collection, \(\(idx -> 'state'::text\)\)\) WHERE \(idx \? 'state'/),
      ],
      ['records_expires_at', expect.stringContaining('(expires_at)')],
    ]);
    // The planner can use a field's index for the store's listing (seq scans off: the table is tiny).
    const plan = await admin(url, async (db) => {
      await db.query('SET enable_seqscan = off');
      const r = await db.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT key FROM records WHERE collection = 'calls' AND idx ? 'state' AND idx -> 'state' = '"open"'`,
      );
      return r.rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/records_by_state/);
  });

  it('indexes any field name (quotes, long names) and creates each index once when replicas race', async () => {
    const url = await freshDatabase('pgs');
    const odd = `it's a field whose name is longer than PostgreSQL's 63-byte identifiers, "quoted"`;
    const stores = await Promise.all([open(url), open(url), open(url)]);
    const views = stores.map((s) => s.collection<Record<string, string>>({ name: 'odd', indexes: [odd, 'kind'] }));
    await views[0]!.put('k1', { [odd]: 'x', kind: 'a' });
    await views[1]!.put('k2', { [odd]: 'y', kind: 'a' });
    const found = await Promise.all(views.map((v) => v.list({ where: { [odd]: 'x', kind: 'a' } })));
    for (const f of found) expect(f.map(([k]) => k)).toEqual(['k1']);
    const names = await admin(url, async (db) => {
      const r = await db.query<{ indexname: string }>(
        `SELECT indexname FROM pg_indexes WHERE tablename = 'records' AND indexname LIKE 'records_by_%'`,
      );
      return r.rows.map((row) => row.indexname).sort();
    });
    expect(names).toHaveLength(2);
    expect(names).toEqual(
      expect.arrayContaining(['records_by_kind', expect.stringMatching(/^records_by_[0-9a-f]{24}$/)]),
    );
    await Promise.all(stores.map((s) => s.close()));
  });

  it('finds records written before a spec named a field, by a former run or by a narrower view', async () => {
    const url = await freshDatabase('pgs');
    type Call = { state: string; owner?: string };
    const first = await open(url);
    await first.collection<Call>({ name: 'calls', indexes: ['state'] }).put('old', { state: 'open', owner: 'U1' });
    await first.collection<Call>({ name: 'calls', indexes: ['state'] }).put('none', { state: 'open' });
    await first.close();

    const again = await open(url);
    const narrow = again.collection<Call>({ name: 'calls', indexes: ['state'] });
    const wide = again.collection<Call>({ name: 'calls', indexes: ['state', 'owner'] });
    await narrow.put('later', { state: 'final', owner: 'U1' });
    expect((await wide.list({ where: { owner: 'U1' } })).map(([k]) => k)).toEqual(['later', 'old']);
    expect(await wide.count({ where: { owner: 'U1', state: 'open' } })).toBe(1);
    await narrow.put('after', { state: 'open', owner: 'U1' });
    expect(await wide.count({ where: { owner: 'U1' } })).toBe(3);
  });

  it('keeps values as JSON of any shape (arrays, scalars, nested) and versions every write upwards', async () => {
    const store = await open(await freshDatabase('pgs'));
    const c = store.collection<unknown>('shapes');
    await c.put('arr', [1, 'two', { three: [3] }]);
    await c.put('str', 'plain text with "quotes" and \\ backslash');
    await c.put('num', 12.5);
    await c.put('null', null);
    expect(await c.get('arr')).toEqual([1, 'two', { three: [3] }]);
    expect(await c.get('str')).toBe('plain text with "quotes" and \\ backslash');
    expect(await c.get('num')).toBe(12.5);
    expect(await c.getVersioned('null')).toEqual({ value: null, version: expect.any(Number) });
    const v1 = (await c.getVersioned('num'))!.version;
    await c.put('num', 13);
    const v2 = (await c.getVersioned('num'))!.version;
    expect(v2).toBeGreaterThan(v1);
    await c.delete('num');
    await c.put('num', 14);
    expect((await c.getVersioned('num'))!.version).toBeGreaterThan(v2);
    await expect(c.put('bad', undefined)).rejects.toThrow(/not a JSON value/);
  });

  it('hides an expired row at once by the app clock, lets insertIfAbsent win over it, and sweeps it', async () => {
    let clock = 1_000_000;
    const url = await freshDatabase('pgs');
    const store = await open(url, { now: () => clock });
    const c = store.collection<string>('claims');
    await c.put('k', 'first', { expiresAt: clock + 1000 });
    await c.put('other', 'stays');
    expect(await c.insertIfAbsent('k', 'second')).toBe(false);
    const before = (await c.getVersioned('k'))!;
    clock += 1000;
    expect(await c.get('k')).toBeUndefined();
    expect(await c.list()).toEqual([['other', 'stays']]);
    expect(await c.compareAndSet('k', before.version, 'too late')).toBe(false);
    expect(await c.insertIfAbsent('k', 'second', { expiresAt: clock + 5000 })).toBe(true);
    expect(await c.getVersioned('k')).toEqual({ value: 'second', version: expect.any(Number) });
    expect((await c.getVersioned('k'))!.version).toBeGreaterThan(before.version);
    expect(await store.sweep()).toBe(0);
    expect(await store.sweep(clock + 5000)).toBe(1);
    const rows = await admin(url, (a) => a.query('SELECT key FROM records ORDER BY key'));
    expect(rows.rows).toEqual([{ key: 'other' }]);
  });

  it('lets exactly one of many concurrent insertIfAbsent win across two processes’ pools', async () => {
    const url = await freshDatabase('pgs');
    const a = await open(url, { poolSize: 5 });
    const b = await open(url, { poolSize: 5 });
    for (let round = 0; round < 5; round++) {
      const key = `event-${round}`;
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).collection<number>('events').insertIfAbsent(key, i)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = results.indexOf(true);
      expect(await a.collection<number>('events').get(key)).toBe(winner);
    }
  });

  it('lets exactly one compareAndSet win from one read version, and the loser sees the winner’s write', async () => {
    const url = await freshDatabase('pgs');
    const a = await open(url);
    const b = await open(url);
    const ca = a.collection<{ owner: string }>('leases');
    const cb = b.collection<{ owner: string }>('leases');
    await ca.put('job', { owner: 'nobody' });
    for (let round = 0; round < 5; round++) {
      const seen = (await ca.getVersioned('job'))!.version;
      const [ra, rb] = await Promise.all([
        ca.compareAndSet('job', seen, { owner: `a${round}` }),
        cb.compareAndSet('job', seen, { owner: `b${round}` }),
      ]);
      expect([ra, rb].filter(Boolean)).toHaveLength(1);
      expect((await cb.get('job'))!.owner).toBe(ra ? `a${round}` : `b${round}`);
      expect(await (ra ? cb : ca).compareAndSet('job', seen, { owner: 'stale' })).toBe(false);
    }
  });

  it('counts its queries for the benches and keeps records across a reopen; a closed store refuses writes', async () => {
    const url = await freshDatabase('pgs');
    const store = await open(url);
    const c = store.collection<number>('n');
    const before = store.stats().queries;
    await c.put('x', 1);
    await c.get('x');
    await c.list({ prefix: 'x' });
    expect(store.stats().queries - before).toBe(3);
    await store.close();
    await expect(c.put('y', 2)).rejects.toThrow(StoreClosedError);
    await expect(c.get('x')).rejects.toThrow(/store is closed.*reading n\/x could not be done/);
    const again = await open(url);
    expect(await again.collection<number>('n').list()).toEqual([['x', 1]]);
  });

  it('turns not durable when the database cannot be reached, refuses writes, and recovers by probe', async () => {
    const { url, proxy, password } = await throughProxy(await freshDatabase('pgs'));
    const store = await open(url, { connectTimeoutMs: 2000, retryMs: 100 });
    const seen: StoreStatus[] = [];
    store.onStatus((s) => seen.push(s));
    const c = store.collection<string>('posts');
    await c.put('before', 'kept');

    await proxy.cut();
    // The first query may still find a pooled connection (then it is cut); the next ones are refused.
    await expect(c.put('first', 'x')).rejects.toThrow(StoreUnavailableError);
    const err = await c.put('during', 'lost?').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreUnavailableError);
    const down = store.status();
    expect(down.durable).toBe(false);
    expect(down.problem).toMatch(
      new RegExp(`PostgreSQL at 127\\.0\\.0\\.1:${proxy.port}/pgs_\\w+ refuses connections`),
    );
    expect(down.since).toEqual(expect.any(Number));
    expect((err as Error).message).toContain('so the change to posts/during did not happen');
    await expect(c.get('before')).rejects.toThrow(StoreUnavailableError);
    expect((await store.probe()).durable).toBe(false);
    expect(seen.map((s) => s.durable)).toEqual([false]);
    for (const text of [JSON.stringify(down), (err as Error).message, (err as Error).stack ?? '']) {
      expect(text).not.toContain(password);
      expect(text).not.toContain('postgres:');
    }

    await proxy.restore();
    expect(await store.probe()).toEqual({ durable: true });
    expect(seen.map((s) => s.durable)).toEqual([false, true]);

    // Without anyone probing, the store retries by itself while down and turns durable when the database is back.
    await proxy.cut();
    await expect(c.put('x', 'y')).rejects.toThrow(StoreUnavailableError);
    await proxy.restore();
    const t0 = Date.now();
    while (!store.status().durable && Date.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 50));
    expect(store.status().durable).toBe(true);
    expect(seen.map((s) => s.durable)).toEqual([false, true, false, true]);
    expect(await c.get('before')).toBe('kept');
    expect(await c.get('during')).toBeUndefined();
    await c.put('after', 'ok');
  });

  it('says plainly that the database is gone when it was renamed away, and recovers when it is back', async () => {
    const url = await freshDatabase('pgs');
    const name = new URL(url).pathname.slice(1);
    const store = await open(url);
    const c = store.collection<number>('n');
    await c.put('a', 1);
    const adminUrl = testPostgresUrl();
    await admin(adminUrl, async (a) => {
      await a.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
      await a.query(`ALTER DATABASE ${name} RENAME TO ${name}_away`);
    });
    await expect(c.put('b', 2)).rejects.toThrow(StoreUnavailableError);
    expect(store.status()).toMatchObject({ durable: false, problem: expect.stringContaining('does not exist') });
    await admin(adminUrl, (a) => a.query(`ALTER DATABASE ${name}_away RENAME TO ${name}`));
    expect((await store.probe()).durable).toBe(true);
    expect(await c.get('a')).toBe(1);
  });

  it('refuses to open on an unreachable database in plain words, without the password', async () => {
    const u = new URL(testPostgresUrl());
    const proxy = await startTcpProxy(u.hostname, Number(u.port));
    proxies.push(proxy);
    await proxy.cut();
    u.port = String(proxy.port);
    u.password = 'Sup3r-Secret-pw';
    const err = await openPostgresStore(u.toString(), { connectTimeoutMs: 1000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreUnavailableError);
    expect((err as Error).message).toBe(
      `Cannot open the state: PostgreSQL at 127.0.0.1:${proxy.port}/postgres refuses connections ` +
        '(is the server running and listening there?).',
    );
    expect((err as Error).stack).not.toContain('Sup3r');
  });

  it('names a wrong password without repeating it', async () => {
    const u = new URL(await freshDatabase('pgs'));
    u.password = 'Wr0ng-pass';
    const err = await openPostgresStore(u.toString()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreUnavailableError);
    expect((err as Error).message).toContain('refused the user name or password in DATABASE_URL');
    expect((err as Error).message).not.toContain('Wr0ng');
  });
});
