/**
 * `npm run state:copy`: an embedded state (or any exportable store) copied into a fresh PostgreSQL database reads
 * back identically, expiries kept and expired records left behind; a non-empty target is refused unless --force; the
 * command prints counts per collection and never the password.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CopyTargetNotEmptyError, copyState, hideCredentials, runStateCopy } from '../../src/store/copy.js';
import { openEmbeddedStore } from '../../src/store/embedded/store.js';
import { createMemoryStore } from '../../src/store/memory-store.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/pg-store.js';
import type { ExportableStore, ExportedRecord } from '../../src/store/store.js';
import { freshDatabase } from '../support/postgres.js';

const closeLater: Array<{ close(): Promise<void> }> = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of closeLater.splice(0)) await s.close().catch(() => undefined);
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function pgStore(url: string): Promise<PostgresStore> {
  const s = await openPostgresStore(url, { poolSize: 3 });
  closeLater.push(s);
  return s;
}

async function everything(store: ExportableStore): Promise<Record<string, ExportedRecord[]>> {
  const out: Record<string, ExportedRecord[]> = {};
  for (const name of await store.collectionNames()) {
    out[name] = [];
    for await (const rec of store.exportRecords(name)) out[name].push(rec);
  }
  return out;
}

const soon = () => Date.now() + 3_600_000;

/** A small state of the shapes the app keeps: per-campaign calls, subscriptions, expiring event ids. */
async function fill(store: ExportableStore, expiresAt: number): Promise<void> {
  const calls = store.collection<{ campaignId: number; status: string }>({ name: 'calls', indexes: ['status'] });
  for (let i = 0; i < 30; i++) await calls.put(`7/call-${i}`, { campaignId: 7, status: i % 3 ? 'open' : 'final' });
  await calls.put('8/x', { campaignId: 8, status: 'final' }, { expiresAt });
  const subs = store.collection<unknown>('subscriptions');
  await subs.put('C123', { campaigns: [7, 8], since: '2026-01-02T03:04:05.000Z', note: 'ünïcødé "quoted" 😀' });
  await subs.put('100%_literal', null);
  const events = store.collection<boolean>('slack_events');
  await events.put('Ev1', true, { expiresAt });
  await events.put('Ev-gone', true, { expiresAt: Date.now() - 1000 });
}

describe('copying a state into PostgreSQL', () => {
  it('copies every unexpired record with its expiry, readable identically, listing and where included', async () => {
    const from = createMemoryStore();
    const expiresAt = soon();
    await fill(from, expiresAt);
    const to = await pgStore(await freshDatabase('copy'));
    const seen: Array<[string, number]> = [];
    const result = await copyState(from, to, { onCollection: (n, c) => seen.push([n, c]) });
    expect(seen).toEqual([
      ['calls', 31],
      ['slack_events', 1],
      ['subscriptions', 2],
    ]);
    expect(result.total).toBe(34);
    expect(await everything(to)).toEqual(await everything(from));
    expect((await everything(to)).slack_events).toEqual([{ key: 'Ev1', value: true, expiresAt }]);
    const calls = to.collection<{ status: string }>({ name: 'calls', indexes: ['status'] });
    expect(await calls.count({ where: { status: 'final' } })).toBe(11);
    expect(await to.collection('subscriptions').get('C123')).toEqual(
      await from.collection('subscriptions').get('C123'),
    );
    expect(await to.collection('slack_events').get('Ev-gone')).toBeUndefined();
  });

  it('refuses a target that holds records, writing nothing; with force the copied keys replace theirs', async () => {
    const from = createMemoryStore();
    await fill(from, soon());
    const to = await pgStore(await freshDatabase('copy'));
    await to.collection<string>('subscriptions').put('C123', 'theirs');
    await to.collection<string>('other').put('kept', 'theirs too');
    const err = await copyState(from, to, { targetName: 'PostgreSQL at db:5432/x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CopyTargetNotEmptyError);
    expect((err as Error).message).toContain('PostgreSQL at db:5432/x already holds records (collections: other, ');
    expect(await to.collectionNames()).toEqual(['other', 'subscriptions']);
    expect(await to.collection('subscriptions').get('C123')).toBe('theirs');

    await copyState(from, to, { force: true });
    expect(await to.collection('subscriptions').get('C123')).toEqual(
      await from.collection('subscriptions').get('C123'),
    );
    expect(await to.collection('other').get('kept')).toBe('theirs too');
    expect(await to.collection('calls').count()).toBe(31);
  });

  it('runs as a command from an embedded STATE_DIR: counts per collection, never the password', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'copy-src-'));
    dirs.push(dir);
    const embedded = await openEmbeddedStore(dir);
    const expiresAt = soon();
    await fill(embedded, expiresAt);
    const before = await everything(embedded);
    await embedded.close();

    const url = await freshDatabase('copy');
    const password = decodeURIComponent(new URL(url).password);
    expect(password.length).toBeGreaterThan(5);
    const run = async (args: string[], env: Record<string, string> = {}) => {
      const lines: string[] = [];
      const code = await runStateCopy(args, env, { out: (l) => lines.push(l), err: (l) => lines.push(l) });
      const text = lines.join('\n');
      expect(text).not.toContain(password);
      return { code, text };
    };

    const first = await run(['--to', url, '--from', dir]);
    expect(first.code).toBe(0);
    const where = `PostgreSQL at ${new URL(url).host}${new URL(url).pathname}`;
    expect(first.text).toBe(
      [
        `Copying the embedded state in ${dir} to ${where}…`,
        '  calls: 31 records',
        '  slack_events: 1 record',
        '  subscriptions: 2 records',
        'Copied 34 records in 3 collections. Start the app with DATABASE_URL set to this database to use them.',
      ].join('\n'),
    );
    const to = await pgStore(url);
    expect(await everything(to)).toEqual(before);

    // Again: the target is not empty now. DATABASE_URL and STATE_DIR are the defaults of --to and --from.
    const again = await run([], { DATABASE_URL: url, STATE_DIR: dir });
    expect(again.code).toBe(1);
    expect(again.text).toMatch(/^The copy did not start: PostgreSQL at .* already holds records .*--force/m);
    expect((await run(['--force'], { DATABASE_URL: url, STATE_DIR: dir })).code).toBe(0);
    expect(await everything(to)).toEqual(before);
  });

  it('explains wrong usage without echoing a URL’s password', async () => {
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
    expect(await runStateCopy(['postgres://u:Hunter2-secret@db/x'], {}, io)).toBe(2);
    expect(await runStateCopy(['--to', 'mysql://u:Hunter2-secret@db/x'], {}, io)).toBe(2);
    expect(await runStateCopy([], {}, io)).toBe(2);
    const missing = join(tmpdir(), 'no-such-state-dir-for-copy');
    expect(await runStateCopy(['--to', 'postgres://u:Hunter2-secret@db/x', '--from', missing], {}, io)).toBe(1);
    const text = lines.join('\n');
    expect(text).not.toContain('Hunter2');
    expect(text).toContain('--to must be a PostgreSQL URL');
    expect(text).toContain(`There is no embedded state in ${missing}`);
    expect(hideCredentials('see postgres://me:pw%40x@db:5432/x and https://a:b@c')).toBe(
      'see postgres://me:***@db:5432/x and https://a:***@c',
    );
  });
});
