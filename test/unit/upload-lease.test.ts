/**
 * Leases on records of long-running work (src/slack/upload/lease.ts), on the memory store with an injected clock:
 * one claimant wins, a live lease keeps others out, an expired one lets another replica take over, the replica that
 * lost it can no longer write, and a released record is claimable at once.
 */
import { beforeEach, describe, expect, it } from '@jest/globals';
import { LeaseLostError, RecordLease, type Leasable } from '../../src/slack/upload/lease.js';
import { createMemoryStore } from '../../src/store/memory-store.js';
import type { Collection } from '../../src/store/store.js';

interface Job extends Leasable {
  status: 'running' | 'done';
  nextBatch: number;
}

const LEASE_MS = 1000;
let clock = 1_000_000;
const now = () => clock;
let jobs: Collection<Job>;

beforeEach(async () => {
  clock = 1_000_000;
  jobs = createMemoryStore({ now }).collection<Job>('jobs');
  await jobs.put('j1', { status: 'running', nextBatch: 0 });
});

const claim = (owner: string, force = false) => RecordLease.claim(jobs, 'j1', owner, { leaseMs: LEASE_MS, now, force });

describe('claiming', () => {
  it('gives the record to one of two concurrent claimants', async () => {
    const [a, b] = await Promise.all([claim('A'), claim('B')]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    const winner = a ? 'A' : 'B';
    expect((await jobs.get('j1'))?.lease).toEqual({ owner: winner, until: clock + LEASE_MS });
  });

  it('keeps others out while the lease lives and lets them in once it ran out', async () => {
    expect(await claim('A')).toBeDefined();
    clock += LEASE_MS - 1;
    expect(await claim('B')).toBeUndefined();
    clock += 1;
    const b = await claim('B');
    expect(b?.value.lease).toEqual({ owner: 'B', until: clock + LEASE_MS });
    expect(b?.previous).toEqual({ owner: 'A', until: clock });
  });

  it('renewing keeps it: another replica cannot claim while the holder renews', async () => {
    const a = (await claim('A'))!;
    for (let i = 0; i < 5; i++) {
      clock += LEASE_MS / 2;
      await a.lease.renew();
      expect(await claim('B')).toBeUndefined();
    }
  });

  it('does not claim a record that is not running, or is gone', async () => {
    await jobs.put('j1', { status: 'done', nextBatch: 3 });
    expect(await claim('A')).toBeUndefined();
    expect(await claim('A', true)).toBeUndefined();
    await jobs.delete('j1');
    expect(await claim('A')).toBeUndefined();
  });

  it('force takes a live lease (the only process on the store, after its own restart)', async () => {
    expect(await claim('A')).toBeDefined();
    expect(await claim('B')).toBeUndefined();
    expect((await claim('B', true))?.value.lease?.owner).toBe('B');
  });
});

describe('writing under a lease', () => {
  it('saves progress and extends the lease while held', async () => {
    const a = (await claim('A'))!;
    clock += 500;
    await a.lease.save({ status: 'running', nextBatch: 4 });
    expect(await jobs.get('j1')).toEqual({
      status: 'running',
      nextBatch: 4,
      lease: { owner: 'A', until: clock + 1000 },
    });
  });

  it('the replica that lost the lease cannot overwrite the progress of the one that took over', async () => {
    const a = (await claim('A'))!;
    await a.lease.save({ status: 'running', nextBatch: 2 });
    clock += LEASE_MS;
    const b = (await claim('B'))!;
    expect(b.value.nextBatch).toBe(2);
    await b.lease.save({ status: 'running', nextBatch: 5 });

    await expect(a.lease.save({ status: 'running', nextBatch: 3 })).rejects.toBeInstanceOf(LeaseLostError);
    await expect(a.lease.renew()).rejects.toBeInstanceOf(LeaseLostError);
    expect(a.lease.isLost).toBe(true);
    await a.lease.release();
    expect(await jobs.get('j1')).toMatchObject({ nextBatch: 5, lease: { owner: 'B' } });
  });

  it('a renewal and a save of one holder never undo each other', async () => {
    const a = (await claim('A'))!;
    await Promise.all([
      a.lease.renew(),
      a.lease.save({ status: 'running', nextBatch: 1 }),
      a.lease.renew(),
      a.lease.save({ status: 'running', nextBatch: 2 }),
      a.lease.renew(),
    ]);
    expect((await jobs.get('j1'))?.nextBatch).toBe(2);
  });

  it('a released record is claimable at once, and the releaser can no longer write', async () => {
    const a = (await claim('A'))!;
    await a.lease.release();
    expect((await jobs.get('j1'))?.lease).toBeUndefined();
    expect((await claim('B'))?.value.lease?.owner).toBe('B');
    await expect(a.lease.save({ status: 'running', nextBatch: 9 })).rejects.toBeInstanceOf(LeaseLostError);
  });

  it('writes with the expiry given (a finished record expires)', async () => {
    const a = (await claim('A'))!;
    await a.lease.save({ status: 'done', nextBatch: 7 }, { expiresAt: clock + 10 });
    expect((await jobs.get('j1'))?.status).toBe('done');
    clock += 10;
    expect(await jobs.get('j1')).toBeUndefined();
  });
});
