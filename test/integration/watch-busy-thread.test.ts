/**
 * A busy channel's threads are not starved by its calls' updates: while a call's update waits for the update gap, a
 * customer's new line in another call's thread is written meanwhile (Slack takes it at once), not after the update.
 * (Before, a channel's worker waited for any call update due within the gap before taking a thread line, so in a
 * channel whose calls kept changing, customers' lines came late: issue 24's playground showed it.)
 */
import { afterEach, expect, it } from '@jest/globals';
import { callMessages, runCommand, startWatchHarness, type WatchHarness } from '../support/watch-harness.js';

const CH = 'C0BUSY';
/** Long enough that the test's own cycles always fall within it, on any machine. */
const GAP_MS = 10_000;

let h: WatchHarness;
afterEach(async () => {
  await h.close();
});

it("writes a customer's line while a call's update waits for the gap, not after it", async () => {
  h = await startWatchHarness({ tuning: { updateGapMs: GAP_MS } });
  const { id } = h.phoneCampaign(2);
  await runCommand(h, `watch ${id}`, { channelId: CH });
  const a = h.sim.control.createCall(id, { status: 'in-progress' });
  const b = h.sim.control.createCall(id, { status: 'in-progress' });
  await h.cycle();
  await h.cycle();
  const postedA = h.fake
    .calls('chat.postMessage')
    .find((c) => JSON.stringify(c.args.metadata ?? '').includes(a.id as string));
  expect(postedA).toBeDefined();

  // A ends a moment after its post: its update waits for the gap. Meanwhile B's customer writes.
  h.sim.control.updateCall(a.id as string, { status: 'ended', answered_by: 'human' });
  h.sim.control.addMessage(b.thread_id as string, { sent_by: 'EU', content: 'Sigo esperando respuesta' });
  await h.cycle();

  const log = h.fake.calls();
  const update = log.findIndex(
    (c) => c.method === 'chat.update' && JSON.stringify(c.args.metadata ?? '').includes(a.id as string),
  );
  const line = log.findIndex(
    (c) => c.method === 'chat.postMessage' && String(c.args.text ?? '').includes('Sigo esperando respuesta'),
  );
  expect(update).toBeGreaterThan(-1);
  expect(line).toBeGreaterThan(-1);
  // The update did wait for its gap (so the line had a gap to go in)...
  expect(log[update]!.at - postedA!.at).toBeGreaterThanOrEqual(GAP_MS - 50);
  // ...and the customer's line went first, in B's thread.
  expect(line).toBeLessThan(update);
  const parentB = callMessages(h.fake, CH, b.id as string)[0]!;
  expect(h.fake.threadReplies(CH, parentB.ts).map((r) => r.text)).toContainEqual(
    expect.stringContaining('Sigo esperando respuesta'),
  );
  expect(callMessages(h.fake, CH, a.id as string)[0]!.text).toContain('Ended');
}, 60_000);
