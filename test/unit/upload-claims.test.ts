/**
 * Upload claims kept in the store (src/slack/upload/claims.ts), on the memory store with an injected clock: one
 * upload per campaign whoever asks (two replicas at once: one wins; the other is told whose upload holds it), a
 * released or run-out claim free again, a job taken over by another replica keeps its own campaign, the embedded
 * store's only process takes what its predecessor left; a submitted file checked by one replica at a time.
 */
import { beforeEach, describe, expect, it } from '@jest/globals';
import { UploadClaims } from '../../src/slack/upload/claims.js';
import { createMemoryStore } from '../../src/store/memory-store.js';
import type { Store } from '../../src/store/store.js';

const LEASE_MS = 1000;
let clock = 1_000_000;
const now = () => clock;
let store: Store;

const claims = (owner: string, exclusive = false) =>
  new UploadClaims(store, { owner, exclusive, leaseMs: LEASE_MS, submitMs: 5000, now });
const jobA = { id: '7:F1', fileName: 'a.csv' };
const jobB = { id: '7:F2', fileName: 'b.csv' };

beforeEach(() => {
  clock = 1_000_000;
  store = createMemoryStore({ now });
});

describe('one upload per campaign', () => {
  it('gives a campaign to one of two replicas asking at once; the other learns whose upload has it', async () => {
    const [a, b] = await Promise.all([claims('r1').claimRun(7, jobA), claims('r2').claimRun(7, jobB)]);
    const won = [a, b].filter((x) => 'held' in x);
    expect(won).toHaveLength(1);
    const lost = [a, b].find((x) => 'holder' in x)!;
    expect('holder' in lost && lost.holder.fileName).toBe('held' in a ? 'a.csv' : 'b.csv');
  });

  it('frees the campaign when the holder lets go, or when its claim runs out unrenewed', async () => {
    const r1 = claims('r1');
    const r2 = claims('r2');
    const held = await r1.claimRun(7, jobA);
    if (!('held' in held)) throw new Error('not held');
    expect(await r2.claimRun(7, jobB)).toMatchObject({ holder: { jobId: jobA.id, fileName: 'a.csv', owner: 'r1' } });
    clock += LEASE_MS - 10;
    expect(await held.held.renew()).toBe(true);
    clock += LEASE_MS - 10;
    expect('holder' in (await r2.claimRun(7, jobB))).toBe(true);
    await held.held.release();
    const next = await r2.claimRun(7, jobB);
    expect('held' in next).toBe(true);
    // r1's late renewal of a claim it no longer holds fails; its release leaves r2's claim alone.
    expect(await held.held.renew()).toBe(false);
    await held.held.release();
    expect(await claims('r3').claimRun(7, jobA)).toMatchObject({ holder: { jobId: jobB.id, owner: 'r2' } });
    clock += LEASE_MS + 1;
    expect('held' in (await claims('r3').claimRun(7, jobA))).toBe(true);
  });

  it('lets a replica that took a job over keep its campaign; the embedded store takes what a predecessor left', async () => {
    expect('held' in (await claims('r1').claimRun(7, jobA))).toBe(true);
    expect('held' in (await claims('r2').claimRun(7, jobA))).toBe(true);
    expect('holder' in (await claims('r3').claimRun(7, jobB))).toBe(true);
    expect('held' in (await claims('restarted', true).claimRun(7, jobB))).toBe(true);
  });
});

describe('a submitted file', () => {
  it('is checked by one replica at a time, free again once released or run out', async () => {
    const [a, b] = await Promise.all([
      claims('r1').reserveSubmission(7, 'F1'),
      claims('r2').reserveSubmission(7, 'F1'),
    ]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    const holder = a ? claims('r1') : claims('r2');
    const other = a ? claims('r2') : claims('r1');
    expect(await other.reserveSubmission(7, 'F2')).toBe(true);
    await other.releaseSubmission(7, 'F1');
    expect(await other.reserveSubmission(7, 'F1')).toBe(false);
    await holder.releaseSubmission(7, 'F1');
    expect(await other.reserveSubmission(7, 'F1')).toBe(true);
    clock += 5001;
    expect(await holder.reserveSubmission(7, 'F1')).toBe(true);
  });
});
