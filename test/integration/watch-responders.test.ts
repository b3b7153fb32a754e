/**
 * Who speaks to customers: a reply in a watched call thread reaches the customer (POST /message) only from a
 * responder of this workspace. A non-responder's, a guest's and another organization's person's replies stay in
 * Slack as internal notes (🔒, an ephemeral saying why, the refusal audited), even when the guest or the outsider is
 * listed as a responder; a thread whose parent carries our call metadata but was posted by another app, or whose
 * campaign is no longer watched in that channel, is not trusted. A responder's reply is relayed and audited.
 * `/campaign try` is for responders only. Checked at the simulator: nothing refused is ever sent.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { AuditEntry } from '../../src/slack/audit.js';
import type { WatchTuning } from '../../src/watch/service.js';
import type { FakeMessage } from '../../src/emulator/fake-slack.js';
import type { AckResponse } from '../../src/emulator/slack-driver.js';
import {
  callMessages,
  eventHandled,
  eventually,
  linesLogger,
  runCommand,
  startWatchHarness,
  type WatchHarness,
} from '../support/watch-harness.js';

const CH = 'C0OPS';
/**
 * How long the app may take to answer a reply before the test fails: seconds on a loaded machine (only a failing
 * test waits this long).
 */
const PATIENCE_MS = 20_000;
const ADMIN = 'U0ADMIN';
const RESPONDER = 'U0RESP';
const READER = 'U0READER';
const GUEST = 'U0GUEST';
const OUTSIDER = 'U0EXT';
const OTHER_TEAM = 'T0OTHERORG';

const sends = (h: WatchHarness) => h.sim.control.requests().filter((r) => r.route === 'sendMessage');
/** Lines of the app's log (debug), each test's own. */
let logLines: string[] = [];
/**
 * Once the app is done with the reply's event (its message handler logs the outcome last), nothing was sent to the
 * customer: whatever the app would send for it, it would have sent by then.
 */
const noneSent = async (h: WatchHarness, ack: AckResponse) => {
  expect(await eventHandled(logLines, String((ack.payload as { event_id?: unknown }).event_id))).toBe(true);
  expect(sends(h)).toHaveLength(0);
};

/** A harness whose admin watches a phone campaign in CH; one call with its thread posted. */
async function watchedCall(opts: { responders?: string[]; tuning?: Partial<WatchTuning> } = {}) {
  logLines = [];
  const h = await startWatchHarness({
    logger: linesLogger(logLines),
    admins: [ADMIN],
    responders: opts.responders ?? [RESPONDER, GUEST, OUTSIDER],
    ...(opts.tuning ? { tuning: opts.tuning } : {}),
    fake: {
      users: [
        { id: ADMIN },
        { id: RESPONDER },
        { id: READER },
        { id: GUEST, isRestricted: true },
        { id: OUTSIDER, teamId: OTHER_TEAM },
      ],
    },
  });
  const audits: AuditEntry[] = [];
  h.app.deps.audit.subscribe((e) => audits.push(e));
  const c = h.phoneCampaign(1);
  await runCommand(h, `watch ${c.id}`, { channelId: CH, userId: ADMIN });
  const call = h.sim.control.createCall(c.id, { status: 'in-progress' });
  h.sim.control.addMessage(call.thread_id as string, { sent_by: 'AI', content: 'Hola' });
  await h.cycle();
  await h.cycle();
  const parent = callMessages(h.fake, CH, call.id as string)[0]!;
  return { h, audits, campaign: c, call, parent };
}

describe('replies in call threads: who may speak to the customer', () => {
  let h: WatchHarness;
  let audits: AuditEntry[];
  let parent: FakeMessage;
  let campaignId: number;
  let callId: string;

  beforeEach(async () => {
    const w = await watchedCall();
    ({ h, audits, parent } = w);
    campaignId = w.campaign.id;
    callId = w.call.id as string;
  });
  afterEach(async () => {
    await h.close();
  });

  /** The acknowledgement of the last reply's event. */
  let lastAck: AckResponse;
  /** Posts a reply as `userId` and waits until the app has reacted to it. */
  async function reply(userId: string, text: string): Promise<FakeMessage> {
    const { message, ack } = await h.driver.userMessage({ channelId: CH, threadTs: parent.ts, text, userId });
    lastAck = ack;
    return (await eventually(
      () => h.fake.message(CH, message.ts),
      (m) => (m?.reactions?.length ?? 0) > 0,
      PATIENCE_MS,
    ))!;
  }

  it.each([
    ['a member who is not a responder', READER, /Only <@U0RESP>, <@U0GUEST>, <@U0EXT> can reply to customers/],
    ['a guest (even listed as a responder)', GUEST, /Guests can't write to customers/],
    ['a person of another organization (even listed)', OUTSIDER, /Only members of the workspace/],
  ])("keeps %s's reply in Slack as an internal note", async (_who, userId, why) => {
    const m = await reply(userId, 'We can give you a 50% discount');
    expect(sends(h)).toEqual([]);
    // The reply is still there, marked as kept internal; its author is told why, in the thread.
    expect(m.text).toBe('We can give you a 50% discount');
    expect(m.reactions?.map((r) => r.name)).toEqual(['lock']);
    const eph = await eventually(
      () => h.fake.ephemerals(CH).filter((e) => e.user === userId),
      (e) => e.length > 0,
      PATIENCE_MS,
    );
    expect(eph).toHaveLength(1);
    expect(eph[0]!.thread_ts).toBe(parent.ts);
    expect(eph[0]!.text).toContain('stayed in Slack as an internal note');
    expect(eph[0]!.text).toMatch(why);
    // The refusal is audited after the ephemeral went out: wait for it rather than assume the order.
    const refused = await eventually(
      () => audits.filter((a) => a.userId === userId && a.result === 'refused'),
      (r) => r.length > 0,
      PATIENCE_MS,
    );
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ campaignId, action: expect.stringContaining(`call ${callId}`) });
    await noneSent(h, lastAck);
  });

  it("relays a responder's reply and audits who wrote to which end user of which campaign, and when", async () => {
    const before = Date.now();
    const m = await reply(RESPONDER, 'Te llamo mañana');
    expect(m.reactions?.map((r) => r.name)).toEqual(['white_check_mark']);
    const sent = sends(h);
    expect(sent).toHaveLength(1);
    const endUserId = (sent[0]!.body as { end_user_id: string }).end_user_id;
    expect(sent[0]!.body).toMatchObject({ content: 'Te llamo mañana' });
    // The reply is recorded (✅) before its audit line is written: awaited, not read at once.
    const ok = await eventually(
      () => audits.filter((a) => a.result === 'ok' && a.userId === RESPONDER),
      (x) => x.length >= 1,
      PATIENCE_MS,
    );
    expect(ok).toHaveLength(1);
    expect(ok[0]!.campaignId).toBe(campaignId);
    expect(ok[0]!.action).toBe(`reply to end user ${endUserId} (call ${callId}) in ${CH}`);
    const at = Date.parse(/at (\S+),/.exec(ok[0]!.detail ?? '')![1]!);
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(Date.now());
    // The words themselves are not copied into the audit trail.
    expect(JSON.stringify(ok)).not.toContain('mañana');
  });

  it('sends nothing when Slack cannot say who wrote the reply, and says so', async () => {
    h.fake.failNext('users.info', 'fatal_error');
    const m = await reply(RESPONDER, 'are you there?');
    expect(m.reactions?.map((r) => r.name)).toEqual(['x']);
    const eph = await eventually(
      () => h.fake.ephemerals(CH).filter((e) => e.user === RESPONDER),
      (e) => e.length > 0,
      PATIENCE_MS,
    );
    expect(eph[0]!.text).toMatch(/not sent to the customer: I couldn't check with Slack who may reply/);
    // The audit line is written after the reaction and the ephemeral answer.
    const results = await eventually(
      () => audits.filter((a) => a.userId === RESPONDER).map((a) => a.result),
      (r) => r.length > 0,
      PATIENCE_MS,
    );
    expect(results).toEqual(['failed']);
    await noneSent(h, lastAck);
  });

  it("keeps a reply whose event says the author's team is another organization's", async () => {
    const { message } = await h.driver.userMessage({
      channelId: CH,
      threadTs: parent.ts,
      text: 'hello',
      userId: RESPONDER,
    });
    expect(
      await eventually(
        () => h.fake.message(CH, message.ts)?.reactions?.length ?? 0,
        (n) => n > 0,
        PATIENCE_MS,
      ),
    ).toBe(1);
    // The same responder, but Slack says the message came from another team (a Slack Connect workspace).
    const ev = {
      type: 'message',
      channel: CH,
      user: RESPONDER,
      text: 'from elsewhere',
      ts: h.fake.addMessage(CH, { user: RESPONDER, text: 'from elsewhere', thread_ts: parent.ts }).ts,
      thread_ts: parent.ts,
      team: OTHER_TEAM,
      user_team: OTHER_TEAM,
      source_team: OTHER_TEAM,
      channel_type: 'channel',
    };
    await h.driver.event(ev);
    const m = await eventually(
      () => h.fake.message(CH, ev.ts),
      (x) => (x?.reactions?.length ?? 0) > 0,
      PATIENCE_MS,
    );
    expect(m?.reactions?.map((r) => r.name)).toEqual(['lock']);
    expect(sends(h).map((r) => (r.body as { content: string }).content)).toEqual(['hello']);
  });
});

describe('threads whose parent is not ours to trust', () => {
  it('a parent with our metadata shape posted by another app is not trusted; nothing is sent', async () => {
    const { h, call } = await watchedCall();
    try {
      // Another app copies our call message's metadata (a real conversation of a watched campaign).
      const spoof = h.fake.addMessage(CH, {
        user: 'U0OTHERAPP',
        bot_id: 'B0OTHERAPP',
        app_id: 'A0OTHERAPP',
        bot_profile: { id: 'B0OTHERAPP', app_id: 'A0OTHERAPP', name: 'Lookalike' },
        text: 'Contact 1: in progress',
        metadata: {
          event_type: 'outreach_call',
          event_payload: { campaign_id: call.campaign_id, call_id: call.id, thread_id: call.thread_id },
        },
      });
      const { ack } = await h.driver.userMessage({
        channelId: CH,
        threadTs: spoof.ts,
        text: 'send this',
        userId: RESPONDER,
      });
      await noneSent(h, ack);
      expect(await h.svc.state.postByThreadTs(CH, spoof.ts)).toBeUndefined();
      expect(h.fake.threadReplies(CH, spoof.ts).filter((m) => m.user === 'UBOT')).toEqual([]);
    } finally {
      await h.close();
    }
  });

  it('our own call message is not trusted once its campaign is no longer watched in that channel', async () => {
    const { h, campaign, parent } = await watchedCall({ tuning: { threadIdleMs: 50 } });
    try {
      // The channel still watches another campaign, so it is a watched channel.
      const other = h.phoneCampaign(1, 'Other');
      await runCommand(h, `watch ${other.id}`, { channelId: CH, userId: ADMIN });
      await runCommand(h, `unwatch ${campaign.id}`, { channelId: CH, userId: ADMIN });
      // Let the thread's mapping go, as after a long pause.
      const post = await h.svc.state.postByThreadTs(CH, parent.ts);
      if (post) await h.svc.state.deletePost(post);
      const { ack } = await h.driver.userMessage({
        channelId: CH,
        threadTs: parent.ts,
        text: 'still there?',
        userId: RESPONDER,
      });
      await noneSent(h, ack);
    } finally {
      await h.close();
    }
  });
});

describe('/campaign try', () => {
  let h: WatchHarness;
  let audits: AuditEntry[];
  let agentId: string;
  beforeEach(async () => {
    const w = await watchedCall({ responders: [RESPONDER] });
    ({ h, audits } = w);
    agentId = w.campaign.agentId;
  });
  afterEach(async () => {
    await h.close();
  });

  it('is refused to non-responders (command and button), and works for a responder', async () => {
    for (const line of ['try', `try ${agentId}`]) {
      const body = JSON.stringify(await runCommand(h, line, { channelId: CH, userId: READER }));
      expect(body).toContain("You can't talk to agents");
      expect(body).toContain('Only <@U0RESP> can reply to customers');
    }
    await h.driver.blockAction({
      actionId: 'watch_try_agent',
      value: agentId,
      userId: GUEST,
      channelId: CH,
    });
    await eventually(
      () => audits.filter((a) => a.userId === GUEST && a.result === 'refused'),
      (a) => a.length > 0,
      PATIENCE_MS,
    );
    expect(audits.filter((a) => a.result === 'refused').map((a) => [a.userId, a.action])).toEqual([
      [READER, 'try agents'],
      [READER, `try agent ${agentId}`],
      [GUEST, `try agent ${agentId}`],
    ]);
    expect(h.sim.control.requests().filter((q) => q.route === 'createEndUser')).toHaveLength(0);
    expect(await h.svc.state.tries.count()).toBe(0);

    const ok = JSON.stringify(await runCommand(h, `try ${agentId}`, { channelId: CH, userId: RESPONDER }));
    expect(ok).toContain('Started');
    expect((await h.svc.state.tries.get(RESPONDER))?.agentId).toBe(agentId);
  });
});
