/**
 * A filter never hides a customer waiting for a person (issue 23, item 4), through the real poller against the
 * simulator, on a clock the test moves one poll interval (5 s) before each cycle: the conversation of a call a filter
 * left out reaches the channel within two cycles of the end user writing, while other watched campaigns' live
 * transcripts want more reads than a cycle has; and it comes as the call's own message with its thread, even while
 * the channel lists its new calls in a digest. Nor does a digest: a customer who writes after their call was listed
 * only as a digest line gets the call's own message and thread too.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { callMessages, runCommand, startWatchHarness, StepClock, type WatchHarness } from '../support/watch-harness.js';

const OPS = 'C0OPS';
const INTERVAL = 5_000;
const WRITTEN = 'Sigo esperando respuesta';

let h: WatchHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** One poll interval passes, then a cycle runs and everything it recorded reaches Slack. */
async function step(hh: WatchHarness, clock: StepClock): Promise<void> {
  clock.at += INTERVAL;
  await hh.cycle();
}

/** Whether the channel shows the call as its own message with `text` in its thread. */
function shownWithLine(hh: WatchHarness, callId: string, text: string): boolean {
  const parent = callMessages(hh.fake, OPS, callId)[0];
  return !!parent && hh.fake.threadReplies(OPS, parent.ts).some((r) => r.text.includes(text));
}

/** Cycles until the call and the end user's line are in OPS (at most `max`); how many it took, or Infinity. */
async function cyclesUntilShown(hh: WatchHarness, clock: StepClock, callId: string, max = 6): Promise<number> {
  for (let n = 1; n <= max; n++) {
    await step(hh, clock);
    if (shownWithLine(hh, callId, WRITTEN)) return n;
  }
  return Infinity;
}

describe('a customer waiting in a call a filter left out', () => {
  it('reaches the channel within two cycles of writing, while other campaigns’ conversations compete for the reads', async () => {
    const clock = new StepClock(Date.now());
    h = await startWatchHarness({
      clock,
      // A cycle of 5 s may send 16 requests (4/s, a fifth kept for people): 4 listings, about 12 conversation reads.
      // The open messages are not what this test is about: no cap on them.
      tuning: { pollIntervalMs: INTERVAL, requestsPerSecond: 4, concurrency: 4, maxOpenCalls: 500 },
    });
    // Three other watched campaigns with 12 running calls each: 36 live transcripts due every cycle.
    for (let i = 0; i < 3; i++) {
      const { id } = h.phoneCampaign(12, `Live ${i}`);
      await runCommand(h, `watch ${id}`, { channelId: `C0LIVE${i}` });
      for (let j = 0; j < 12; j++) {
        const c = h.sim.control.createCall(id, { status: 'in-progress', answered_by: 'human' });
        h.sim.control.addMessage(c.thread_id as string, { sent_by: 'AI', content: `Hola ${i}/${j}` });
      }
    }
    const { id } = h.phoneCampaign(2, 'Filtered');
    await runCommand(h, `watch ${id} only:ended human`, { channelId: OPS });
    const call = h.sim.control.createCall(id, { status: 'in-progress', answered_by: 'machine' });
    const callId = call.id as string;
    await step(h, clock);
    await step(h, clock);
    h.sim.control.updateCall(callId, { status: 'ended', answered_by: 'machine' });
    // The call ends (answered by a machine): the filter leaves it out.
    await step(h, clock);
    expect(callMessages(h.fake, OPS, callId)).toHaveLength(0);
    // 30 s after the end, the end user writes.
    for (let i = 0; i < 6; i++) await step(h, clock);
    expect(callMessages(h.fake, OPS, callId)).toHaveLength(0);
    h.sim.control.addMessage(call.thread_id as string, { sent_by: 'EU', content: WRITTEN });

    // Two intervals (10 s), and what the cycle found is in Slack: within two poll intervals plus 5 s.
    expect(await cyclesUntilShown(h, clock, callId)).toBeLessThanOrEqual(2);
    // The reads were short all along: the live transcripts are the ones left for later.
    const last = h.svc.poller.reports.at(-1)!;
    expect(last.conversationsLeft).toBeGreaterThan(0);
    expect(last.conversationsRead).toBeGreaterThan(0);
  }, 60_000);

  it('comes as the call’s own message with its thread, even while the channel lists new calls in a digest', async () => {
    const clock = new StepClock(Date.now());
    // More than two new calls waiting switch a channel to a digest; it stays in digest mode through the test.
    h = await startWatchHarness({
      clock,
      tuning: { pollIntervalMs: INTERVAL, burstThreshold: 2, calmMs: 600_000 },
    });
    const busy = h.phoneCampaign(8, 'Busy').id;
    const { id } = h.phoneCampaign(2, 'Filtered');
    await runCommand(h, `watch ${busy}`, { channelId: OPS });
    await runCommand(h, `watch ${id} only:ended human`, { channelId: OPS });
    const call = h.sim.control.createCall(id, { status: 'ended', answered_by: 'machine' });
    const callId = call.id as string;
    for (let i = 0; i < 5; i++) h.sim.control.createCall(busy, { status: 'ended', answered_by: 'human' });
    await step(h, clock);
    expect((await h.svc.state.channel(OPS)).mode).toBe('digest');
    expect(callMessages(h.fake, OPS, callId)).toHaveLength(0);

    await step(h, clock);
    h.sim.control.addMessage(call.thread_id as string, { sent_by: 'EU', content: WRITTEN });
    expect(await cyclesUntilShown(h, clock, callId)).toBeLessThanOrEqual(2);
    expect(callMessages(h.fake, OPS, callId)).toHaveLength(1);
    // The channel still lists its other new calls in digests.
    expect((await h.svc.state.channel(OPS)).mode).toBe('digest');
    expect((await h.svc.state.post(OPS, callId))?.digestId).toBeUndefined();
  }, 60_000);
});

describe('a customer writing after their call was listed in a digest', () => {
  it('gets the call’s own message with its thread within two cycles; the digest keeps its line', async () => {
    const clock = new StepClock(Date.now());
    h = await startWatchHarness({
      clock,
      tuning: { pollIntervalMs: INTERVAL, burstThreshold: 2, calmMs: 600_000 },
    });
    const { id } = h.phoneCampaign(8, 'Busy');
    await runCommand(h, `watch ${id}`, { channelId: OPS });
    const calls = Array.from({ length: 5 }, () =>
      h!.sim.control.createCall(id, { status: 'ended', answered_by: 'human' }),
    );
    await step(h, clock);
    await step(h, clock);
    expect((await h.svc.state.channel(OPS)).mode).toBe('digest');
    const listed = [];
    for (const c of calls) {
      const post = await h.svc.state.post(OPS, c.id as string);
      if (post?.digestId && !post.ts) listed.push(c);
    }
    expect(listed.length).toBeGreaterThan(0);
    const call = listed[0]!;
    const callId = call.id as string;
    const digestId = (await h.svc.state.post(OPS, callId))!.digestId!;
    for (let i = 0; i < 4; i++) await step(h, clock);
    expect(callMessages(h.fake, OPS, callId)).toHaveLength(0);

    h.sim.control.addMessage(call.thread_id as string, { sent_by: 'EU', content: WRITTEN });
    expect(await cyclesUntilShown(h, clock, callId)).toBeLessThanOrEqual(2);
    expect(callMessages(h.fake, OPS, callId)).toHaveLength(1);
    expect((await h.svc.state.digests.get(digestId))?.lines.some((l) => l.callId === callId)).toBe(true);
    // The other calls of the digest, whose end users did not write, stay lines only.
    for (const c of listed.slice(1)) expect(callMessages(h.fake, OPS, c.id as string)).toHaveLength(0);
  }, 60_000);
});
