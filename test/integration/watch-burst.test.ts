/**
 * A burst of 300 calls into one channel: the fake Slack enforces a per-channel pace (scaled: 10/s instead of 1/s,
 * with the app's gap scaled the same way); the channel switches to digest messages, no call is dropped, no 429.
 * And calls spread over many channels, a few each, faster than the workspace's allowance of posts: the channels
 * switch to digests too.
 */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { runCommand, startWatchHarness, type WatchHarness } from '../support/watch-harness.js';

const CH = 'C0BURST';
// Hundreds of calls read, placed and written take seconds here, and may take a minute on a loaded machine.
jest.setTimeout(180_000);

/**
 * One poll cycle read in full before anything is written: each channel's first write of `method` waits at Slack until
 * the poll has placed every call, then the writes go and the cycle waits for them. What is posted on its own and
 * what goes into a digest then does not depend on how fast this machine reads and places the calls (on a loaded one,
 * posts answered meanwhile would make room for more calls of their own).
 */
async function cycleWithWritesHeld(h: WatchHarness, channels: readonly string[], method: string): Promise<void> {
  const firsts = channels.map((channel) => h.fake.holdRequest(method, { channel }));
  await h.svc.pollNow();
  for (const first of firsts) first.release();
  await h.svc.delivery.idle();
}

describe('bursts', () => {
  let h: WatchHarness;
  beforeEach(async () => {
    h = await startWatchHarness({
      fake: { postMessageRateLimit: { perSecond: 10, burst: 3, retryAfterSec: 1 } },
      tuning: { minGapMs: 110, burstThreshold: 8 },
    });
  });
  afterEach(async () => {
    await h.close();
  });

  it('stays within the channel pace, switches to a digest and keeps all 300 calls findable', async () => {
    const { id } = h.phoneCampaign(300);
    await runCommand(h, `watch ${id}`, { channelId: CH });
    const calls = Array.from({ length: 300 }, () => h.sim.control.createCall(id, { status: 'in-progress' }));
    await cycleWithWritesHeld(h, [CH], 'chat.postMessage');
    for (const c of calls) h.sim.control.updateCall(c.id as string, { status: 'ended', answered_by: 'human' });
    await cycleWithWritesHeld(h, [CH], 'chat.update');

    const writes = h.fake.calls().filter((c) => c.method === 'chat.postMessage' || c.method === 'chat.update');
    // Slack never had to refuse us.
    expect(writes.filter((c) => c.status === 429)).toHaveLength(0);
    // Far fewer writes than calls: the burst went into digests updated in place.
    expect(writes.length).toBeLessThan(60);
    const top = h.topLevel(CH);
    const everything = JSON.stringify(top.map((m) => [m.text, m.blocks]));
    for (const c of calls) expect(everything).toContain(c.id as string);
    const digests = top.filter((m) => m.metadata?.event_type === 'outreach_call_digest');
    expect(digests.length).toBeGreaterThanOrEqual(7);
    // Every line shows the final status.
    expect(everything).not.toContain('In progress');
    // Writes into the channel kept the gap (a little timer jitter allowed). The app counts it from the answer to the
    // write before, so it holds between their arrivals here on any machine; how fast a burst goes is the watch
    // bench's figure (bench/watch.bench.ts), not a test's.
    const times = writes.filter((c) => c.args.channel === CH).map((c) => c.at);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(95);
  });
});

describe('more calls than the workspace takes posts', () => {
  let h: WatchHarness;
  beforeEach(async () => {
    // Room for 6 new call messages in a poll interval over every channel; each channel alone is far from a burst.
    h = await startWatchHarness({ tuning: { minGapMs: 30, burstThreshold: 8, workspacePostsPerInterval: 6 } });
  });
  afterEach(async () => {
    await h.close();
  });

  it('switches channels with only a few calls each to digests, each posted once with final states', async () => {
    const channels = Array.from({ length: 8 }, (_, i) => `C0WIDE${i}`);
    const campaigns = [];
    for (const ch of channels) {
      const c = h.phoneCampaign(3);
      await runCommand(h, `watch ${c.id}`, { channelId: ch });
      campaigns.push(c.id);
    }
    // Slack answers posts slowly (as when the workspace's allowance is spent): new calls wait for it.
    h.fake.failNext('chat.postMessage', { delayMs: 300 }, 1000);
    const calls = campaigns.flatMap((id) =>
      [0, 1, 2].map(() => h.sim.control.createCall(id, { status: 'in-progress' })),
    );
    await cycleWithWritesHeld(h, channels, 'chat.postMessage');
    for (const c of calls) h.sim.control.updateCall(c.id as string, { status: 'ended', answered_by: 'human' });
    await h.cycle();
    await h.svc.delivery.idle();
    h.fake.clearFailures();

    const own = channels.flatMap((ch) => h.topLevel(ch).filter((m) => m.metadata?.event_type === 'outreach_call'));
    const digests = channels.flatMap((ch) =>
      h.topLevel(ch).filter((m) => m.metadata?.event_type === 'outreach_call_digest'),
    );
    // 24 calls, 3 a channel (below its own burst threshold of 8): most went into digests, not one post each.
    expect(digests.length).toBeGreaterThan(0);
    expect(own.length).toBeLessThan(calls.length / 2);
    const everything = JSON.stringify(channels.flatMap((ch) => h.topLevel(ch).map((m) => [m.text, m.blocks])));
    for (const c of calls) expect(everything).toContain(c.id as string);
    // Running calls wait for their end to be listed: each digest is posted once, with final states, never updated.
    expect(JSON.stringify(digests.map((m) => [m.text, m.blocks]))).not.toContain('In progress');
    const digestUpdates = h.fake
      .calls('chat.update')
      .filter((c) => (c.args.metadata as { event_type?: string } | undefined)?.event_type === 'outreach_call_digest');
    expect(digestUpdates).toHaveLength(0);
  });
});

describe('digests over many channels', () => {
  let h: WatchHarness;
  beforeEach(async () => {
    // Room for 8 new call messages in a poll interval (1 s here) over every channel.
    h = await startWatchHarness({ tuning: { minGapMs: 30, burstThreshold: 8, workspacePostsPerInterval: 8 } });
  });
  afterEach(async () => {
    await h.close();
  });

  it("paces each channel's digests to its share of the workspace's allowance, each with every call since", async () => {
    const channels = Array.from({ length: 6 }, (_, i) => `C0PACE${i}`);
    const campaigns: number[] = [];
    for (const ch of channels) {
      const c = h.phoneCampaign(6);
      await runCommand(h, `watch ${c.id}`, { channelId: ch });
      campaigns.push(c.id);
    }
    const digestsOf = (ch: string) => h.topLevel(ch).filter((m) => m.metadata?.event_type === 'outreach_call_digest');
    // More calls than the allowance, posted slowly: the channels switch to digests.
    h.fake.failNext('chat.postMessage', { delayMs: 300 }, 1000);
    for (const id of campaigns) {
      for (let k = 0; k < 4; k++) {
        const c = h.sim.control.createCall(id, { status: 'in-progress' });
        h.sim.control.updateCall(c.id as string, { status: 'ended', answered_by: 'human' });
      }
    }
    await cycleWithWritesHeld(h, channels, 'chat.postMessage');
    h.fake.clearFailures();
    const paced = channels.filter((ch) => digestsOf(ch).length > 0);
    expect(paced.length).toBeGreaterThanOrEqual(4);

    // One more call each: every channel's next digest waits for its share of the interval (the digests of `paced`
    // channels share half the allowance: 1,000 ms × channels / 4), then lists it.
    const more = campaigns.map((id) => {
      const c = h.sim.control.createCall(id, { status: 'in-progress' });
      h.sim.control.updateCall(c.id as string, { status: 'ended', answered_by: 'human' });
      return c.id as string;
    });
    await h.cycle();
    const gapMs = (1000 * paced.length) / (8 * 0.5);
    for (const ch of paced) {
      const digests = digestsOf(ch);
      const last = digests.at(-1)!;
      const before = digests.at(-2)!;
      expect(JSON.stringify([last.text, last.blocks])).toContain(more[channels.indexOf(ch)]!);
      // Slack's ts are seconds with microseconds (the fake's clock).
      const apart = (Number(last.ts) - Number(before.ts)) * 1000;
      expect([ch, apart >= gapMs - 50]).toEqual([ch, true]);
    }
  });
});
