/**
 * What the watch keeps in memory is let go when what it is about ends (issue 23, item 2): a call's conversation and
 * its last read when the poller lets the call's post go, a left-out call's conversation when it is no longer
 * followed, everything when the watch stops leading; and each map has a cap besides (src/bounded.ts). Through the
 * real app (startApp) against the simulator and the fake Slack; the figures are the watch's own `memoryFigures()`.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { WebClient } from '@slack/web-api';
import type { Message } from '../../src/outreach/schemas.js';
import { SlackPoster } from '../../src/slack/watch/poster.js';
import { startFakeSlack } from '../../src/emulator/fake-slack.js';
import { callMessages, runCommand, startWatchHarness, type WatchHarness } from '../support/watch-harness.js';

const CH = 'C0OPS';

/** Maps that hold something per call, thread or channel: all empty once nothing is followed. */
const PER_CALL = [
  'delivery.conversations',
  'delivery.queues',
  'delivery.pending',
  'delivery.unposted',
  'delivery.openCalls',
  'delivery.held',
  'poller.lastRead',
];

describe('what the watch keeps in memory', () => {
  let h: WatchHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  /** A watched call with a two-line conversation, read while it runs, then ended; returns its ids. */
  async function endedCallWithConversation(watchArgs = '') {
    const { id } = h!.phoneCampaign(2);
    await runCommand(h!, `watch ${id}${watchArgs}`, { channelId: CH });
    const call = h!.sim.control.createCall(id, { status: 'in-progress' });
    const threadId = call.thread_id as string;
    h!.sim.control.addMessage(threadId, { sent_by: 'AI', content: 'Hola, le llamo de parte de la promo.' });
    h!.sim.control.addMessage(threadId, { sent_by: 'EU', content: 'Gracias, no me interesa.' });
    await h!.cycle();
    return { campaignId: id, callId: call.id as string, threadId };
  }

  it("lets a call's conversation and its last read go when the poller lets the call's post go", async () => {
    // Settled posts are let go at the first housekeeping after they are (30 minutes in production).
    h = await startWatchHarness({ tuning: { threadIdleMs: 0 } });
    const { callId, threadId } = await endedCallWithConversation();
    const parent = callMessages(h.fake, CH, callId)[0]!;
    expect(h.fake.threadReplies(CH, parent.ts).some((m) => m.text.includes('no me interesa'))).toBe(true);
    expect(h.svc.delivery.conversations.has(threadId)).toBe(true);
    expect(h.svc.memoryFigures()['poller.lastRead']).toBe(1);

    h.sim.control.updateCall(callId, { status: 'ended', answered_by: 'human' });
    await h.cycle();
    await h.cycle();
    expect(await h.svc.state.post(CH, callId)).toBeUndefined();
    expect(h.svc.delivery.conversations.has(threadId)).toBe(false);
    const figures = h.svc.memoryFigures();
    for (const name of PER_CALL) expect([name, figures[name]]).toEqual([name, 0]);
  });

  it('lets the conversation of a call a filter left out go once the call is no longer followed', async () => {
    h = await startWatchHarness({ tuning: { threadIdleMs: 0 } });
    // The channel shows failed calls only: this one is answered, so it is never posted; its conversation is read
    // anyway (a filter never hides a customer waiting for a person).
    const { campaignId, callId, threadId } = await endedCallWithConversation(' only:failed');
    expect(h.svc.delivery.conversations.has(threadId)).toBe(true);

    h.sim.control.updateCall(callId, { status: 'ended', answered_by: 'human' });
    await h.cycle();
    await h.cycle();
    expect(callMessages(h.fake, CH, callId)).toHaveLength(0);
    expect((await h.svc.state.call(campaignId, callId))?.snapshot).toBeUndefined();
    expect(h.svc.delivery.conversations.has(threadId)).toBe(false);
    const figures = h.svc.memoryFigures();
    for (const name of PER_CALL) expect([name, figures[name]]).toEqual([name, 0]);
  });

  it('forgets everything it held when the watch stops leading, and takes up the conversation again after', async () => {
    h = await startWatchHarness();
    const { callId, threadId } = await endedCallWithConversation();
    expect(h.svc.delivery.conversations.size).toBe(1);

    await h.svc.stop();
    expect(h.svc.delivery.conversations.size).toBe(0);
    const figures = h.svc.memoryFigures();
    for (const name of PER_CALL) expect([name, figures[name]]).toEqual([name, 0]);

    // Leading again, it reads the conversation again (as after a restart) and posts only what is new.
    await h.svc.start();
    h.sim.control.addMessage(threadId, { sent_by: 'AI', content: 'Entendido, que tenga buen día.' });
    await h.cycle();
    const parent = callMessages(h.fake, CH, callId)[0]!;
    const texts = h.fake.threadReplies(CH, parent.ts).map((m) => m.text);
    expect(texts.filter((t) => t.includes('no me interesa'))).toHaveLength(1);
    expect(texts.filter((t) => t.includes('buen día'))).toHaveLength(1);
    expect(h.svc.delivery.conversations.has(threadId)).toBe(true);
  });

  it('holds at most its cap of conversations, however many threads are fetched', async () => {
    h = await startWatchHarness();
    const cap = h.svc.delivery.conversations.max;
    expect(cap).toBeGreaterThanOrEqual(10_000);
    const messages: Message[] = [{ thread_id: 't', type: 'text', sent_by: 'AI', sent_at: new Date().toISOString() }];
    for (let i = 0; i < cap + 500; i++) await h.svc.delivery.conversationFetched(`thread-${i}`, messages);
    expect(h.svc.delivery.conversations.size).toBe(cap);
    // The ones fetched longest ago went first.
    expect(h.svc.delivery.conversations.has('thread-0')).toBe(false);
    expect(h.svc.delivery.conversations.has(`thread-${cap + 499}`)).toBe(true);
    expect(h.svc.memoryFigures()['delivery.conversations.evicted']).toBe(500);
  });

  it('lets go of the pacing lanes of channels it no longer writes to', async () => {
    const fake = await startFakeSlack();
    try {
      const client = new WebClient(fake.botToken, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });
      const poster = new SlackPoster(client, { minGapMs: 0, lanesKept: 10 });
      for (let i = 0; i < 50; i++) await poster.post(`C${String(i).padStart(8, '0')}`, { text: 'hello' });
      // Each write was over before the next channel's: at most the cap and the one being written.
      expect(poster.memoryFigures()['poster.lanes']).toBeLessThanOrEqual(11);
    } finally {
      await fake.close();
    }
  });
});
