/**
 * The replica harness itself (test/support/replicas.ts): real app processes on one database, each answering /healthz
 * on its own port; Slack's requests spread over them in turn; a SIGKILLed replica leaves its log behind and gets no
 * more requests, and can be started again.
 */
import { expect, it } from '@jest/globals';
import { replicaSetOfFile } from '../support/replicas.js';

const set = replicaSetOfFile({ count: 2 });

it('runs each replica in its own process on its own port, spreads requests over the live ones', async () => {
  const [a, b] = set.replicas;
  expect(a!.port).not.toBe(b!.port);
  expect(a!.child!.pid).not.toBe(b!.child!.pid);
  for (const i of [0, 1]) expect((await set.healthz(i)).status).toBe(200);

  const first = await set.driver.command('help');
  const second = await set.driver.command('help');
  expect(first.status).toBe(200);
  expect(second.status).toBe(200);
  expect(new Set([first.url, second.url])).toEqual(new Set([`${a!.origin}/slack/events`, `${b!.origin}/slack/events`]));

  // Its log reaches the file a moment after it answers (the logger writes asynchronously; a kill loses what is not
  // written yet): awaited before the kill.
  await set.until('replica 0 logged that it listens', () => set.log(0).includes('outreach-slack is listening'), 30_000);
  await set.kill(0);
  expect(set.alive(0)).toBe(false);
  expect(set.log(0)).toContain('outreach-slack is listening');
  const after = await Promise.all([set.driver.command('help'), set.driver.command('help')]);
  for (const r of after) {
    expect(r.status).toBe(200);
    expect(r.url).toBe(`${b!.origin}/slack/events`);
  }

  await set.start(0);
  expect((await set.healthz(0)).status).toBe(200);
  expect((await set.driverFor(0).command('help')).status).toBe(200);
}, 90_000);
