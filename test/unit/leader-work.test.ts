/**
 * LeaderWork (src/leader-work.ts): the leader-only work starts when the lease is won, stops when it is lost, in
 * order however fast the lease flaps, and never runs after stop().
 */
import { expect, it } from '@jest/globals';
import { LeaderWork } from '../../src/leader-work.js';
import { createLogger } from '../../src/log.js';
import { LocalLeadership } from '../../src/store/local-coordination.js';
import { SwitchedLeadership } from '../support/switched-leadership.js';

/** Work whose start and stop take a while, recording what happened in which order. */
function slowWork(log: string[], ms = 5) {
  let running = false;
  const step = (what: 'start' | 'stop') => async () => {
    log.push(`${what} begins`);
    if ((what === 'start') === running) throw new Error(`${what} while ${running ? 'running' : 'stopped'}`);
    await new Promise((r) => setTimeout(r, ms));
    running = what === 'start';
    log.push(`${what} ends`);
  };
  return { start: step('start'), stop: step('stop'), isRunning: () => running };
}

const logger = createLogger('silent');

it('starts the work when the lease is won and stops it when it is lost', async () => {
  const lease = new SwitchedLeadership();
  const log: string[] = [];
  const work = slowWork(log);
  const roles: boolean[] = [];
  const lw = new LeaderWork(lease, work, logger, (r) => roles.push(r));
  await lw.start();
  expect(work.isRunning()).toBe(false);
  lease.set(true);
  await new Promise((r) => setTimeout(r, 30));
  expect(work.isRunning()).toBe(true);
  expect(lw.active).toBe(true);
  lease.set(false);
  await new Promise((r) => setTimeout(r, 30));
  expect(log).toEqual(['start begins', 'start ends', 'stop begins', 'stop ends']);
  expect(roles).toEqual([true, false]);
  expect(lw.active).toBe(false);
  await lw.stop();
  expect(log).toHaveLength(4);
});

it('stop() wins over a start still queued: the work does not run after it', async () => {
  const lease = new SwitchedLeadership();
  const log: string[] = [];
  const work = slowWork(log);
  const lw = new LeaderWork(lease, work, logger);
  await lw.start();
  lease.set(true);
  await lw.stop();
  await new Promise((r) => setTimeout(r, 30));
  expect(work.isRunning()).toBe(false);
});

it('follows a flapping lease in order and ends in the state the lease is in', async () => {
  const lease = new SwitchedLeadership();
  const log: string[] = [];
  const work = slowWork(log);
  const lw = new LeaderWork(lease, work, logger);
  await lw.start();
  for (let i = 0; i < 7; i++) lease.set(i % 2 === 0);
  // The lease ends held (i = 6): the work ends running, never two starts or two stops in a row.
  await new Promise((r) => setTimeout(r, 100));
  expect(work.isRunning()).toBe(true);
  for (let i = 1; i < log.length; i++) expect(log[i]).not.toBe(log[i - 1]);
  lease.set(false);
  await new Promise((r) => setTimeout(r, 50));
  expect(work.isRunning()).toBe(false);
  await lw.stop();
});

it('starts at once under the embedded lease (one process always leads) and stops for good on stop()', async () => {
  const lease = new LocalLeadership();
  const log: string[] = [];
  const work = slowWork(log);
  const lw = new LeaderWork(lease, work, logger);
  await lw.start();
  expect(work.isRunning()).toBe(true);
  await lw.stop();
  expect(work.isRunning()).toBe(false);
  expect(lw.active).toBe(false);
});
