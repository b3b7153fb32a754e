/**
 * Who ends a customer's wait (src/watch/relay.ts, attention.ts), end to end on a clock the test moves: only a reply
 * that reached the customer, or a note by a person who may reply to customers. A guest, a person of another
 * organization (even listed as responders), a read-only member writing "+1", or a read-only member's note, leave the
 * waiting record, its one reminder and the Home tab's waiting list as they were; so does a responder's reply the
 * service refused.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { Clock } from '../../src/clock.js';
import type { FakeMessage } from '../../src/emulator/fake-slack.js';
import { watchedCallThread } from '../support/reply-thread.js';
import { eventually, startWatchHarness, type WatchHarness } from '../support/watch-harness.js';

const CH = 'C0OPS';
const ADMIN = 'U0ADMIN';
const READER = 'U0READER';
const GUEST = 'U0GUEST';
const OUTSIDER = 'U0EXT';
const MIN = 60_000;

class TestClock implements Clock {
  constructor(public at: number) {}
  now(): number {
    return this.at;
  }
}

interface Setup {
  h: WatchHarness;
  clock: TestClock;
  callId: string;
  threadId: string;
  parent: FakeMessage;
}

/** An admin watches a campaign; its call ended and its customer wrote afterwards: they wait for a person. */
async function waitingCustomer(): Promise<Setup> {
  const clock = new TestClock(Date.parse('2026-11-25T16:00:00Z'));
  const h = await startWatchHarness({
    clock,
    admins: [ADMIN],
    // The guest and the outsider are listed, and still may not reply.
    responders: [ADMIN, GUEST, OUTSIDER],
    tuning: { campaignCheckMs: 0, threadMaxGapMs: 0 },
    fake: {
      users: [{ id: ADMIN }, { id: READER }, { id: GUEST, isRestricted: true }, { id: OUTSIDER, teamId: 'T0OTHERORG' }],
    },
  });
  const call = await watchedCallThread(h, h.phoneCampaign(1).id, { userId: ADMIN, ended: true });
  h.sim.control.addMessage(call.threadId, { sent_by: 'EU', content: '¿Me ayudan con mi pedido?' });
  await h.cycle();
  await h.cycle();
  const s = { h, clock, ...call };
  expect(await waitingCalls(s)).toEqual([call.callId]);
  return s;
}

async function waitingCalls(s: Setup): Promise<string[]> {
  return (await s.h.svc.state.waiting.list()).map(([, w]) => w.callId);
}

/** Someone writes in the call's thread; resolves once the app has reacted to it. */
async function writes(s: Setup, userId: string, text: string): Promise<string[] | undefined> {
  const { message } = await s.h.driver.userMessage({ channelId: CH, threadTs: s.parent.ts, text, userId });
  const m = await eventually(
    () => s.h.fake.message(CH, message.ts),
    (x) => (x?.reactions?.length ?? 0) > 0,
  );
  return m?.reactions?.map((r) => r.name);
}

const reminders = (s: Setup) =>
  s.h.fake.threadReplies(CH, s.parent.ts).filter((r) => r.metadata?.event_type === 'outreach_reminder');

/** The wait is as it was: its record, the Home tab's list, and the one reminder once the minutes have passed. */
async function stillWaiting(s: Setup): Promise<void> {
  expect(await waitingCalls(s)).toEqual([s.callId]);
  expect(await s.h.svc.waitingForReply()).toHaveLength(1);
  s.clock.at += 16 * MIN;
  await s.h.cycle();
  expect(
    await eventually(
      () => reminders(s).length,
      (n) => n === 1,
    ),
  ).toBe(1);
}

describe('who ends a customer’s wait', () => {
  let s: Setup;
  afterEach(async () => {
    await s.h.close();
  });

  it.each([
    ['a read-only member writing "+1"', READER, '+1'],
    ['a guest (even listed as a responder)', GUEST, 'Yo me encargo'],
    ['a person of another organization (even listed)', OUTSIDER, 'We will call you'],
  ])('not %s: the reply stays in Slack and the customer still waits', async (_who, userId, text) => {
    s = await waitingCustomer();
    expect(await writes(s, userId, text)).toEqual(['lock']);
    await stillWaiting(s);
    expect(s.h.sim.control.requests().filter((r) => r.route === 'sendMessage')).toEqual([]);
  });

  it('not a read-only member’s note, nor a responder’s reply the service refused', async () => {
    s = await waitingCustomer();
    await s.h.driver.userMessage({ channelId: CH, threadTs: s.parent.ts, text: 'note: +1', userId: READER });
    s.h.sim.control.injectFaults({ status: 400, match: /POST .*\/message$/, count: 1 });
    expect(await writes(s, ADMIN, 'Le escribo enseguida')).toEqual(['x']);
    await stillWaiting(s);
  });

  it('a responder’s note ends it; so does a responder’s reply that reached the customer', async () => {
    s = await waitingCustomer();
    await s.h.driver.userMessage({ channelId: CH, threadTs: s.parent.ts, text: 'note: lo veo yo', userId: ADMIN });
    expect(
      await eventually(
        () => waitingCalls(s),
        (w) => w.length === 0,
      ),
    ).toEqual([]);

    s.h.sim.control.addMessage(s.threadId, { sent_by: 'EU', content: '¿Hola?' });
    await s.h.cycle();
    await s.h.cycle();
    expect(await waitingCalls(s)).toEqual([s.callId]);
    expect(await writes(s, ADMIN, 'Ya está en camino')).toEqual(['white_check_mark']);
    expect(await waitingCalls(s)).toEqual([]);
    expect(await s.h.svc.waitingForReply()).toEqual([]);
    s.clock.at += 16 * MIN;
    await s.h.cycle();
    expect(reminders(s)).toHaveLength(0);
  });
});
