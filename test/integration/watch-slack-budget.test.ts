/**
 * Watching within Slack's own limits: the fake Slack enforces Slack's tiers per method for the workspace (scaled in
 * time like the app's budgets), and the watch coalesces its writes: a call that ends before its first post is posted
 * once, in its final state; one message is updated at most every `updateGapMs`; a final state is never lost.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { FakeCall } from '../../src/emulator/fake-slack.js';
import {
  callMessages,
  eventually,
  runCommand,
  startWatchHarness,
  type WatchHarness,
} from '../support/watch-harness.js';

/** Slack's minute is 3 s here, in the fake Slack and in the app's budgets alike. */
const SCALE = 20;

/** The Slack writes that carried one call's own message (its post and its updates). */
function writesOf(calls: FakeCall[], callId: string): FakeCall[] {
  return calls.filter(
    (c) =>
      (c.method === 'chat.postMessage' || c.method === 'chat.update') &&
      JSON.stringify(c.args.metadata ?? '').includes(callId) &&
      c.status === 200,
  );
}

describe("watching within Slack's limits", () => {
  let h: WatchHarness;
  afterEach(async () => {
    await h.close();
  });

  it('costs at most two Slack calls per call that ends within one interval; beyond the open cap, one', async () => {
    h = await startWatchHarness({
      fake: { tierLimits: { timeScale: SCALE } },
      slackTimeScale: SCALE,
      tuning: { minGapMs: 1100 / SCALE, updateGapMs: 5000 / SCALE, maxOpenCalls: 6 },
    });
    const channels = ['C0A', 'C0B', 'C0C', 'C0D'];
    const campaigns = channels.map((_, i) => h.phoneCampaign(5, `Campaign ${i}`).id);
    for (const [i, id] of campaigns.entries()) await runCommand(h, `watch ${id}`, { channelId: channels[i] });
    const calls = campaigns.flatMap((id) =>
      Array.from({ length: 5 }, () => h.sim.control.createCall(id, { status: 'in-progress' })),
    );
    await h.cycle();
    // Six messages may wait for their final update at once; the other calls wait to be posted when they end.
    const runningPosts = h.fake
      .calls('chat.postMessage')
      .filter((c) => (c.args.metadata as { event_type?: string } | undefined)?.event_type === 'outreach_call');
    expect(runningPosts).toHaveLength(6);
    for (const c of calls) h.sim.control.updateCall(c.id as string, { status: 'ended', answered_by: 'human' });
    await h.cycle();

    const log = h.fake.calls();
    for (const [i, c] of calls.entries()) {
      const id = c.id as string;
      const channel = channels[Math.floor(i / 5)] as string;
      const writes = writesOf(log, id);
      expect(writes.length).toBeLessThanOrEqual(2);
      const [msg] = callMessages(h.fake, channel, id);
      expect(msg?.text).toContain('Ended');
    }
    const perCall = calls.map((c) => writesOf(log, c.id as string).length);
    // Posted while running then updated (2), or posted once when it ended (1). Each of the six final updates lets
    // one held call be posted (it may still be running then): at most 12 calls cost two.
    expect(perCall.filter((n) => n === 2).length).toBeGreaterThanOrEqual(6);
    expect(perCall.filter((n) => n === 1).length).toBeGreaterThanOrEqual(8);
    expect(Object.values(h.fake.counts()).every((m) => m.ratelimited === 0)).toBe(true);
  }, 30_000);

  it('gives 0 × 429 for a burst of 330 ended calls a minute across many channels, every final state shown', async () => {
    h = await startWatchHarness({
      fake: { tierLimits: { timeScale: SCALE } },
      slackTimeScale: SCALE,
      tuning: { minGapMs: 1100 / SCALE, updateGapMs: 5000 / SCALE, burstThreshold: 15 },
    });
    const CHANNELS = 30;
    const ids: number[] = [];
    for (let i = 0; i < CHANNELS; i++) {
      const { id } = h.phoneCampaign(12, `Burst ${i}`);
      ids.push(id);
      await runCommand(h, `watch ${id}`, { channelId: `C0BURST${i}` });
    }
    // One of Slack's minutes (3 s here) of 330 calls: 11 per channel, started, then all ended.
    const calls = ids.flatMap((id) =>
      Array.from({ length: 11 }, () => ({ id, call: h.sim.control.createCall(id, { status: 'in-progress' }) })),
    );
    await h.cycle();
    for (const { call } of calls)
      h.sim.control.updateCall(call.id as string, { status: 'ended', answered_by: 'human' });
    await h.cycle();

    const counts = h.fake.counts();
    for (const [method, c] of Object.entries(counts))
      expect({ method, ratelimited: c.ratelimited }).toEqual({ method, ratelimited: 0 });
    // Every call's final state is in Slack: in its own message, or as a line of its channel's digest.
    for (const [i, id] of ids.entries()) {
      const shown = JSON.stringify(h.topLevel(`C0BURST${i}`).map((m) => [m.text, m.blocks]));
      for (const { call } of calls.filter((c) => c.id === id)) expect(shown).toContain(call.id as string);
      expect(shown).not.toContain('In progress');
    }
    // Far fewer writes than two per call: most calls were posted once, in their final state.
    const writes = (counts['chat.postMessage']?.calls ?? 0) + (counts['chat.update']?.calls ?? 0);
    expect(writes).toBeLessThanOrEqual(2 * calls.length);
  }, 60_000);

  it('never loses a final state held back by the update gap, even across a restart', async () => {
    h = await startWatchHarness({ tuning: { updateGapMs: 1_500 } });
    const { id } = h.phoneCampaign(2);
    await runCommand(h, `watch ${id}`, { channelId: 'C0GAP' });
    const call = h.sim.control.createCall(id, { status: 'in-progress' });
    const callId = call.id as string;
    await h.svc.pollNow();
    await eventually(
      () => callMessages(h.fake, 'C0GAP', callId).length,
      (n) => n === 1,
    );
    // Ends within the gap after its post: the update waits for the gap's end instead of going out at once.
    h.sim.control.updateCall(callId, { status: 'ended', answered_by: 'human' });
    await h.svc.pollNow();
    expect(h.fake.calls('chat.update')).toHaveLength(0);
    await h.svc.delivery.idle();
    expect(callMessages(h.fake, 'C0GAP', callId)[0]?.text).toContain('Ended');
    const [update] = h.fake.calls('chat.update');
    expect(h.fake.calls('chat.update')).toHaveLength(1);
    const posted = writesOf(h.fake.calls(), callId)[0]!;
    // Written a gap after the post (a little timer jitter allowed), not at once.
    expect(update!.at - posted.at).toBeGreaterThanOrEqual(1_450);

    // Again, and the app stops while the final update is held back: the next start delivers it.
    const second = h.sim.control.createCall(id, { status: 'in-progress' });
    const secondId = second.id as string;
    await h.svc.pollNow();
    await eventually(
      () => callMessages(h.fake, 'C0GAP', secondId).length,
      (n) => n === 1,
    );
    h.sim.control.updateCall(secondId, { status: 'ended', answered_by: 'machine' });
    await h.svc.pollNow();
    await h.restart();
    await h.cycle();
    const [msg] = callMessages(h.fake, 'C0GAP', secondId);
    expect(msg?.text).not.toContain('In progress');
    expect(
      h.fake.calls('chat.postMessage').filter((c) => JSON.stringify(c.args.metadata ?? '').includes(secondId)),
    ).toHaveLength(1);
  }, 30_000);
});
