/**
 * Watches that call people in, across replicas (two app processes on one PostgreSQL): who was mentioned, who waits
 * and which reminder went out are in the store, so a note written through a replica that does not lead ends the
 * wait for the leader, and after the leader is killed the next one posts the one reminder still owed, once.
 */
import { afterAll, expect, it } from '@jest/globals';
import { openPostgresStore } from '../../src/store/pg-store.js';
import type { Store } from '../../src/store/store.js';
import { WatchState } from '../../src/watch/state.js';
import type { FakeMessage } from '../../src/emulator/fake-slack.js';
import { callMessagesIn, quickWatch, replicaSetOfFile, seedPhoneCampaign } from '../support/replicas.js';

const CH = 'C0OPS';
const OWNER = 'U0ALICE';
const MARIA = 'U0MARIA';

const set = replicaSetOfFile({
  count: 2,
  fake: {
    users: [
      { id: OWNER, name: 'alice' },
      { id: MARIA, name: 'maria', email: 'maria@example.com' },
    ],
  },
  start: quickWatch(),
});
let store: Store | undefined;

afterAll(async () => {
  await store?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = <T>(what: string, fn: () => T | Promise<T>, timeoutMs?: number) => set.until(what, fn, timeoutMs);
const leader = () => set.theLeader();

it('a note through another replica ends the wait; a new leader posts the reminder still owed, once', async () => {
  const { sim, fake } = set;
  const campaignId = seedPhoneCampaign(sim, 'Réplicas', {
    contacts: [{ contact: '+525510000001', name: 'Ana López' }],
  });

  const first = await leader();
  const other = 1 - first;
  const watched = await set.driverFor(other).command(`watch ${campaignId}`, { channelId: CH, userId: OWNER });
  expect(watched.status).toBe(200);
  await until('the watch', () => fake.responseUrlUses().find((u) => u.url === watched.responseUrl));

  store = await openPostgresStore(set.databaseUrl);
  const state = new WatchState(store, { retentionMs: 7 * 24 * 3600_000, eventTtlMs: 3600_000 });
  const waiting = async () => (await state.waiting.list()).length;

  const call = sim.control.createCall(campaignId, { status: 'ended' });
  const threadId = call.thread_id as string;
  sim.control.updateThread(threadId, {
    assigned_to: [{ id: 'svc-1', email: 'maria@example.com', first_name: 'Maria', last_name: 'L' }],
  });
  const parent = await until('the call message', () => callMessagesIn(fake, CH, call.id as string)[0]);
  const replies = (): FakeMessage[] => fake.threadReplies(CH, parent.ts);
  const reminders = () => replies().filter((r) => r.metadata?.event_type === 'outreach_reminder');

  // The end user writes: the assignee is called in by the leader.
  sim.control.addMessage(threadId, { sent_by: 'EU', content: '¿Me ayudan?' });
  await until('the mention', () => replies().find((r) => r.text.includes(`<@${MARIA}>`)));

  await until('the customer waiting', async () => (await waiting()) === 1);

  // A note through the replica that does not lead ends the wait (in the store, for the leader).
  await set.driverFor(other).userMessage({ channelId: CH, threadTs: parent.ts, text: 'note: la llamo yo' });
  await until('the wait ended', async () => (await waiting()) === 0);
  // From now on the wait is 3 seconds on this watch (written through the store, as the Watch settings would).
  const sub = (await state.subscriptionsIn(CH))[0]!;
  await state.putSubscription({ ...sub, reminderMinutes: 0.05 });
  await sleep(4000);
  expect(reminders()).toHaveLength(0);

  // The end user writes again (a new turn: mentioned again), then the leader dies before the wait is over.
  sim.control.addMessage(threadId, { sent_by: 'EU', content: '¿Siguen ahí?' });
  await until('the second mention', () => replies().filter((r) => r.text.includes(`<@${MARIA}>`)).length === 2);
  await set.kill(first);
  const next = await leader();
  expect(next).toBe(other);
  const [reminder] = await until('the reminder', () => (reminders().length ? reminders() : undefined), 40_000);
  expect(reminder!.text).toContain(`<@${MARIA}>`);
  await sleep(3000);
  expect(reminders()).toHaveLength(1);
  expect((await state.waiting.list())[0]?.[1].remindedAt).toBeDefined();
}, 150_000);
