/**
 * Retention (RETENTION_DAYS): records of calls that ended more than the retention ago are gone (they expire, or the
 * poller's housekeeping deletes those an older state kept without expiry), and a reply in such a call's thread still
 * reaches the service through the message metadata rebuild.
 */
import { describe, expect, it } from '@jest/globals';
import type { CallRecord, PostRecord } from '../../src/watch/state.js';
import { callMessages, eventually, runCommand, startWatchHarness } from '../support/watch-harness.js';

const CH = 'C0OPS';
const DAY = 24 * 3600_000;

describe('retention', () => {
  it('forgets an ended call after the retention, and a later reply in its thread is still relayed', async () => {
    const retentionMs = 1500;
    const h = await startWatchHarness({ tuning: { retentionMs, overlapMs: 0, threadIdleMs: 50 } });
    try {
      const c = h.phoneCampaign(1);
      await runCommand(h, `watch ${c.id}`, { channelId: CH });
      const call = h.sim.control.createCall(c.id, { status: 'in-progress' });
      const callId = call.id as string;
      h.sim.control.addMessage(call.thread_id as string, { sent_by: 'AI', content: 'first turn' });
      await h.cycle();
      await h.cycle();
      h.sim.control.updateCall(callId, { status: 'ended', answered_by: 'human' });
      await h.cycle();
      expect((await h.svc.state.call(c.id, callId))?.final).toBe(true);
      await runCommand(h, `unwatch ${c.id}`, { channelId: CH });

      await new Promise((r) => setTimeout(r, retentionMs + 200));
      await h.cycle();
      expect(await h.svc.state.call(c.id, callId)).toBeUndefined();
      expect(await h.svc.state.post(CH, callId)).toBeUndefined();
      expect(await h.svc.state.cursor(c.id)).toBeUndefined();

      // Watched again later: the old call is not shown again, and a reply in its thread finds its way back.
      await runCommand(h, `watch ${c.id}`, { channelId: CH });
      await h.cycle();
      expect(callMessages(h.fake, CH, callId)).toHaveLength(1);
      const parent = callMessages(h.fake, CH, callId)[0]!;
      await h.driver.userMessage({ channelId: CH, threadTs: parent.ts, text: 'still there?' });
      await eventually(
        () => h.fake.threadReplies(CH, parent.ts),
        (r) => r.some((x) => x.text.includes('Gracias por tu mensaje')),
      );
      const sent = h.sim.control.requests().filter((r) => r.route === 'sendMessage');
      expect(sent.map((r) => (r.body as { content: string }).content)).toEqual(['still there?']);
      expect((await h.svc.state.postByThreadTs(CH, parent.ts))?.callId).toBe(callId);
    } finally {
      await h.close();
    }
  });

  it('deletes what an older state kept without expiry once it is older than the retention', async () => {
    const h = await startWatchHarness();
    try {
      const c = h.phoneCampaign(1);
      await runCommand(h, `watch ${c.id}`, { channelId: CH });
      await h.cycle();
      const store = h.app.deps.store;
      const old = Date.now() - 8 * DAY;
      const gone = 424242;
      // As converted from an old state file: no expiry on any of these.
      const endedCall: CallRecord = {
        campaignId: gone,
        callId: 'old-call',
        createdAt: new Date(old).toISOString(),
        status: 'ended',
        fp: 'x',
        final: true,
        firstSeenAt: old,
        finalAt: old,
      };
      const recent: CallRecord = { ...endedCall, callId: 'recent-call', finalAt: Date.now() - DAY };
      await store.collection<CallRecord>('watch_calls').put(`${gone}/old-call`, endedCall);
      await store.collection<CallRecord>('watch_calls').put(`${gone}/recent-call`, recent);
      await store.collection('watch_cursors').put(String(gone), {
        campaignId: gone,
        failures: 0,
        lastPolledAt: new Date(old).toISOString(),
      });
      const oldPost: PostRecord = {
        channelId: CH,
        campaignId: gone,
        callId: 'old-call',
        createdAt: new Date(old).toISOString(),
        ts: '1000.000001',
        deliveredFp: 'x',
      };
      await store.collection<PostRecord>('watch_posts').put(`${CH}/old-call`, oldPost);
      await store.collection('watch_events').put('Ev0ANCIENT', old);

      // A new process looks through the older records (a few campaigns and channels per cycle).
      await h.restart();
      await h.cycle();
      await h.cycle();
      expect(await h.svc.state.call(gone, 'old-call')).toBeUndefined();
      expect(await h.svc.state.call(gone, 'recent-call')).toBeDefined();
      expect(await h.svc.state.post(CH, 'old-call')).toBeUndefined();
      expect(await h.svc.state.cursor(gone)).toBeUndefined();
      expect(await h.svc.state.events.get('Ev0ANCIENT')).toBeUndefined();
      // The watched campaign's own records are untouched.
      expect(await h.svc.state.cursor(c.id)).toBeDefined();
    } finally {
      await h.close();
    }
  });
});
