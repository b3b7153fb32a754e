/**
 * After `/campaign unwatch` (src/watch/relay.ts, poller.ts): a reply in the thread of one of that campaign's calls in
 * that channel stays in Slack (nothing reaches the customer), and its author is told, in their language, that the
 * campaign is no longer watched there and how to watch it again; the channel's records of that campaign are let go
 * once idle (a channel that watches nothing: all of them, a bounded number per cycle), unless it is watched again.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { AuditEntry } from '../../src/slack/audit.js';
import type { PostRecord } from '../../src/watch/state.js';
import type { WatchTuning } from '../../src/watch/service.js';
import { watchedCallThread } from '../support/reply-thread.js';
import { eventually, runCommand, startWatchHarness, type WatchHarness } from '../support/watch-harness.js';

const CH = 'C0OPS';
const ADMIN = 'U0ALICE';
const MARIA = 'U0MARIA';

const sends = (h: WatchHarness) => h.sim.control.requests().filter((r) => r.route === 'sendMessage');

/** A watched campaign with a call (still running) whose thread is up in CH. */
async function watchedCall(tuning: Partial<WatchTuning> = {}) {
  const h = await startWatchHarness({
    tuning,
    fake: { users: [{ id: ADMIN }, { id: MARIA, locale: 'es-MX' }] },
  });
  const audits: AuditEntry[] = [];
  h.app.deps.audit.subscribe((e) => audits.push(e));
  const campaignId = h.phoneCampaign(2).id;
  return { h, audits, campaignId, ...(await watchedCallThread(h, campaignId, { userId: ADMIN })) };
}

/** A reply in the thread; resolves once the app reacted to it, with the ephemerals its author got there. */
async function replyIn(h: WatchHarness, threadTs: string, userId: string, text: string) {
  const { message } = await h.driver.userMessage({ channelId: CH, threadTs, text, userId });
  const m = await eventually(
    () => h.fake.message(CH, message.ts),
    (x) => (x?.reactions?.length ?? 0) > 0,
  );
  const told = await eventually(
    () => h.fake.ephemerals(CH).filter((e) => e.user === userId && e.thread_ts === threadTs),
    (e) => e.length > 0,
  );
  return { reactions: m?.reactions?.map((r) => r.name), told: told.map((e) => e.text) };
}

const idle = () => new Promise((r) => setTimeout(r, 120));

describe('replies after /campaign unwatch', () => {
  let h: WatchHarness;
  afterEach(async () => {
    await h.close();
  });

  it('stay in Slack; the author is told the campaign is no longer watched here and how to watch it again, in their language', async () => {
    const w = await watchedCall();
    h = w.h;
    await runCommand(h, `unwatch ${w.campaignId}`, { channelId: CH, userId: ADMIN });
    const en = await replyIn(h, w.parent.ts, ADMIN, 'Te llamo mañana');
    expect(en.reactions).toEqual(['lock']);
    expect(en.told).toHaveLength(1);
    expect(en.told[0]).toContain(`campaign #${w.campaignId} is no longer watched in this channel`);
    expect(en.told[0]).toContain(`/campaign watch ${w.campaignId}`);
    const es = await replyIn(h, w.parent.ts, MARIA, 'Yo la llamo');
    expect(es.told[0]).toContain(`este canal ya no sigue la campaña #${w.campaignId}`);
    expect(es.told[0]).toContain(`/campaign seguir ${w.campaignId}`);
    expect(sends(h)).toEqual([]);
    // The refusal is audited after its author was told: awaited, not read at once.
    const refused = await eventually(
      () => w.audits.filter((a) => a.result === 'refused' && a.campaignId === w.campaignId),
      (r) => r.length >= 2,
    );
    expect(refused.map((a) => a.userId)).toEqual([ADMIN, MARIA]);
    // Watched again: replies reach the customer again.
    await runCommand(h, `watch ${w.campaignId}`, { channelId: CH, userId: ADMIN });
    await h.driver.userMessage({ channelId: CH, threadTs: w.parent.ts, text: 'Ya estoy aquí', userId: ADMIN });
    expect(
      await eventually(
        () => sends(h).length,
        (n) => n === 1,
      ),
    ).toBe(1);
  });

  it('stay in Slack, and the author is told, in a channel that still watches another campaign, once the call’s mapping was let go', async () => {
    const w = await watchedCall();
    h = w.h;
    const other = h.phoneCampaign(1, 'Other');
    await runCommand(h, `watch ${other.id}`, { channelId: CH, userId: ADMIN });
    await runCommand(h, `unwatch ${w.campaignId}`, { channelId: CH, userId: ADMIN });
    await h.svc.state.deletePost({ channelId: CH, callId: w.callId });
    const { reactions, told } = await replyIn(h, w.parent.ts, ADMIN, 'still there?');
    expect(reactions).toEqual(['lock']);
    expect(told[0]).toContain('no longer watched in this channel');
    expect(sends(h)).toEqual([]);
  });
});

describe('the records of an unwatched campaign in a channel', () => {
  let h: WatchHarness;
  afterEach(async () => {
    await h.close();
  });

  it('a channel that watches nothing: its posts (a running call’s too), digests and waiting customers are let go once idle, a bounded number per cycle', async () => {
    const w = await watchedCall({ threadIdleMs: 50 });
    h = w.h;
    const { state } = h.svc;
    // More posts than one cycle lets go (as after months of calls), and a customer waiting.
    const base = (await state.post(CH, w.callId))!;
    for (let i = 0; i < 230; i++) {
      const old: PostRecord = { ...base, callId: `old-${String(i).padStart(3, '0')}`, ts: `1700000000.${i}` };
      await state.putPost(old);
    }
    await state.putDigest({ channelId: CH, id: `${CH}/1`, seq: 1, lines: [], fp: 'f', deliveredFp: 'f', ts: '1.2' });
    await state.waiting.put(`${CH}/${w.callId}`, {
      channelId: CH,
      campaignId: w.campaignId,
      callId: w.callId,
      threadTs: w.parent.ts,
      since: Date.now(),
      messageKey: 'k',
    });
    await runCommand(h, `unwatch ${w.campaignId}`, { channelId: CH, userId: ADMIN });
    expect(await state.postsIn(CH)).toHaveLength(231);
    await idle();
    await h.cycle();
    expect((await state.postsIn(CH)).length).toBe(31);
    await h.cycle();
    expect(await state.postsIn(CH)).toEqual([]);
    expect(await state.waiting.list()).toEqual([]);
    expect(await state.digests.list({ prefix: `${CH}/` })).toEqual([]);
  });

  it('a channel watched again before then keeps them', async () => {
    const w = await watchedCall({ threadIdleMs: 50 });
    h = w.h;
    await runCommand(h, `unwatch ${w.campaignId}`, { channelId: CH, userId: ADMIN });
    await runCommand(h, `watch ${w.campaignId}`, { channelId: CH, userId: ADMIN });
    await idle();
    await h.cycle();
    expect(await h.svc.state.post(CH, w.callId)).toBeDefined();
  });

  it('a channel that still watches another campaign: the unwatched one’s posts go once idle, though their calls never ended', async () => {
    const w = await watchedCall({ threadIdleMs: 50 });
    h = w.h;
    const other = h.phoneCampaign(1, 'Other');
    await runCommand(h, `watch ${other.id}`, { channelId: CH, userId: ADMIN });
    const otherCall = h.sim.control.createCall(other.id, { status: 'in-progress' });
    await h.cycle();
    await runCommand(h, `unwatch ${w.campaignId}`, { channelId: CH, userId: ADMIN });
    await idle();
    await h.cycle();
    expect(await h.svc.state.post(CH, w.callId)).toBeUndefined();
    // The watched campaign's running call keeps its post.
    expect(await h.svc.state.post(CH, otherCall.id as string)).toBeDefined();
  });
});
