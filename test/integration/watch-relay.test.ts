/**
 * Replies from Slack threads to the service (POST /message) and the agent's answers back, end to end; what must not
 * be relayed (bot echoes, other bots, edits, deletions, internal notes, redeliveries); reactions and failures.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import {
  BOT_ID,
  BOT_USER,
  callMessages,
  eventHandled,
  eventually,
  linesLogger,
  runCommand,
  startWatchHarness,
  type WatchHarness,
} from '../support/watch-harness.js';
import type { FakeMessage } from '../../src/emulator/fake-slack.js';
import type { AckResponse, SlackDriver } from '../../src/emulator/slack-driver.js';

const CH = 'C0OPS';

function sends(h: WatchHarness) {
  return h.sim.control.requests().filter((r) => r.route === 'sendMessage');
}

describe('replies in call threads', () => {
  let h: WatchHarness;
  let parent: FakeMessage;
  let threadId: string;
  let endUserId: string;
  let agentId: string;

  const log: string[] = [];
  beforeEach(async () => {
    log.length = 0;
    h = await startWatchHarness({ logger: linesLogger(log) });
    const c = h.phoneCampaign(1);
    agentId = c.agentId;
    await runCommand(h, `watch ${c.id}`, { channelId: CH });
    const call = h.sim.control.createCall(c.id, { status: 'in-progress' });
    threadId = call.thread_id as string;
    h.sim.control.addMessage(threadId, { sent_by: 'AI', content: 'Hola' });
    await h.cycle();
    await h.cycle();
    parent = callMessages(h.fake, CH, call.id as string)[0]!;
    const thread = h.sim.control.getCampaignState(c.id)!;
    expect(thread).toBeDefined();
    endUserId = (await h.app.deps.outreach.getThread(threadId)).end_user.id;
  });
  afterEach(async () => {
    await h.close();
  });

  const agentAnswers = () =>
    h.fake.threadReplies(CH, parent.ts).filter((r) => /Agent.*Gracias por tu mensaje/.test(r.text));

  it("sends a person's reply with the thread's agent and end user, and posts the agent's answer back", async () => {
    h.sim.control.setAgentReply((content) => [`Recibido: ${content}`, 'Gracias por tu mensaje']);
    const { message } = await h.driver.userMessage({
      channelId: CH,
      threadTs: parent.ts,
      text: 'Can you call me <b>tomorrow</b> &amp; confirm?',
    });
    const answers = await eventually(agentAnswers, (a) => a.length === 1);
    expect(answers).toHaveLength(1);
    const [sent] = sends(h);
    expect(sent?.body).toEqual({
      agent_id: agentId,
      end_user_id: endUserId,
      content: 'Can you call me <b>tomorrow</b> & confirm?',
    });
    const replies = h.fake.threadReplies(CH, parent.ts).map((r) => r.text);
    // The person's own message is not echoed back; the two answers follow, in order.
    const recibido = replies.findIndex((t) => t.includes('Recibido:'));
    expect(recibido).toBeGreaterThan(0);
    expect(replies[recibido]).toContain('&lt;b&gt;tomorrow&lt;/b&gt; &amp; confirm?');
    expect(replies[recibido + 1]).toContain('Gracias por tu mensaje');
    expect(replies.filter((t) => t.includes('End user') || t.includes('Contact 1:'))).toHaveLength(0);
    const reacted = await eventually(
      () => h.fake.message(CH, message.ts),
      (m) => (m?.reactions?.length ?? 0) > 0,
    );
    expect(reacted?.reactions?.map((r) => r.name)).toEqual(['white_check_mark']);

    // Later polls see the same messages in GET /message and post nothing again.
    const before = h.fake.threadReplies(CH, parent.ts).length;
    await h.cycle();
    await h.cycle();
    expect(h.fake.threadReplies(CH, parent.ts)).toHaveLength(before);
  });

  it('relays nothing for bot echoes, other bots, edits, deletions, internal notes and redelivered events', async () => {
    const ts = () => `${(Date.now() / 1000).toFixed(6)}`;
    const base = { type: 'message', channel: CH, thread_ts: parent.ts, channel_type: 'channel' };
    /** Ids of the events sent (our own echo first), to see below that the app is done with each. */
    const ids: string[] = [];
    const idOf = (ack: AckResponse) => String((ack.payload as { event_id?: unknown }).event_id);
    const event = async (e: Record<string, unknown>) => void ids.push(idOf(await h.driver.event(e)));
    const message = async (o: Parameters<SlackDriver['userMessage']>[0]) =>
      void ids.push(idOf((await h.driver.userMessage(o)).ack));
    await event({ ...base, user: BOT_USER, bot_id: BOT_ID, text: 'our own echo', ts: ts() });
    await event({ ...base, subtype: 'bot_message', bot_id: 'B0OTHER', text: 'another bot', ts: ts() });
    await event({ ...base, user: 'U0CAROL', bot_id: 'B0OTHER', text: 'a bot with a user', ts: ts() });
    await event({
      ...base,
      subtype: 'message_changed',
      hidden: true,
      message: { user: 'U0ALICE', text: 'edited', ts: ts(), thread_ts: parent.ts },
      ts: ts(),
    });
    await event({ ...base, subtype: 'message_deleted', hidden: true, deleted_ts: ts(), ts: ts() });
    await event({ ...base, subtype: 'channel_join', user: 'U0DAN', text: 'joined', ts: ts() });
    await message({ channelId: CH, threadTs: parent.ts, text: 'note: she prefers mornings' });
    await message({ channelId: CH, threadTs: parent.ts, text: '// internal: escalate' });
    // A top-level message in the channel is not a reply.
    await message({ channelId: CH, text: 'unrelated chatter' });
    // The same event delivered twice (Slack retry: same event_id, retry headers).
    const first = await h.driver.userMessage({
      channelId: CH,
      threadTs: parent.ts,
      text: 'real reply',
      eventId: 'Ev0DUP',
    });
    const payload = first.ack.payload.event as Record<string, unknown>;
    await h.driver.event(payload, { eventId: 'Ev0DUP', retryNum: 1, retryReason: 'http_timeout' });
    await h.driver.event(payload, { eventId: 'Ev0DUP', retryNum: 2 });

    await eventually(agentAnswers, (a) => a.length >= 1);
    // The app is done with every event (our own echo never reaches its handler: Bolt drops it on arrival), and with
    // all three deliveries of the repeated one: anything it was to relay, it has.
    for (const id of ids.slice(1)) expect(await eventHandled(log, id)).toBe(true);
    expect(await eventHandled(log, 'Ev0DUP', 3)).toBe(true);
    expect(sends(h).map((r) => (r.body as { content: string }).content)).toEqual(['real reply']);
    expect(agentAnswers()).toHaveLength(1);
  });

  it('marks a reply that the service refused with ❌ and tells the person why, ephemerally', async () => {
    h.sim.control.injectFaults({ status: 503, match: /POST .*\/message$/, count: 5 });
    const { message } = await h.driver.userMessage({ channelId: CH, threadTs: parent.ts, text: 'are you there?' });
    const m = await eventually(
      () => h.fake.message(CH, message.ts),
      (x) => (x?.reactions?.length ?? 0) > 0,
      15_000,
    );
    expect(m?.reactions?.map((r) => r.name)).toEqual(['x']);
    const eph = await eventually(
      () => h.fake.ephemerals(CH).filter((e) => e.user === 'U0ALICE' && e.text.includes('not sent')),
      (e) => e.length > 0,
    );
    expect(eph).toHaveLength(1);
    expect(eph[0]!.thread_ts).toBe(parent.ts);
  });
});

describe('replies in old threads', () => {
  it('relays a reply in a thread whose mapping was let go, rebuilt from the message metadata, without replaying history', async () => {
    const h = await startWatchHarness({ tuning: { threadIdleMs: 50 } });
    try {
      const c = h.phoneCampaign(1);
      await runCommand(h, `watch ${c.id}`, { channelId: CH });
      const call = h.sim.control.createCall(c.id, { status: 'in-progress' });
      h.sim.control.addMessage(call.thread_id as string, { sent_by: 'AI', content: 'first turn' });
      await h.cycle();
      await h.cycle();
      h.sim.control.updateCall(call.id as string, { status: 'ended', answered_by: 'human' });
      await h.cycle();
      await new Promise((r) => setTimeout(r, 100));
      await h.cycle();
      const parent = callMessages(h.fake, CH, call.id as string)[0]!;
      expect(await h.svc.state.postByThreadTs(CH, parent.ts)).toBeUndefined();
      const before = h.fake.threadReplies(CH, parent.ts).length;

      await h.driver.userMessage({ channelId: CH, threadTs: parent.ts, text: 'following up' });
      const replies = await eventually(
        () => h.fake.threadReplies(CH, parent.ts),
        (r) => r.some((x) => x.text.includes('Gracias por tu mensaje')),
      );
      const sent = h.sim.control.requests().filter((r) => r.route === 'sendMessage');
      expect(sent).toHaveLength(1);
      // Only the person's reply and the agent's answer were added: nothing from before was posted again.
      expect(replies.filter((r) => r.text.includes('first turn'))).toHaveLength(1);
      expect(replies.length).toBe(before + 2);
    } finally {
      await h.close();
    }
  });
});

describe('a reply while the call message is being posted', () => {
  it('is relayed once, and every line of the conversation still reaches the thread once', async () => {
    const h = await startWatchHarness();
    let held: ReturnType<typeof h.fake.holdAnswer> | undefined;
    try {
      const c = h.phoneCampaign(1);
      await runCommand(h, `watch ${c.id}`, { channelId: CH });
      const call = h.sim.control.createCall(c.id, { status: 'in-progress' });
      const callId = call.id as string;
      const threadId = call.thread_id as string;
      const lines = ['Hola, soy Ana de la promo', 'Hola Ana, dime', 'Te llamo por la oferta de primavera'];
      h.sim.control.addMessage(threadId, { sent_by: 'AI', content: lines[0]! });
      h.sim.control.addMessage(threadId, { sent_by: 'EU', content: lines[1]! });
      h.sim.control.addMessage(threadId, { sent_by: 'AI', content: lines[2]! });

      // The call message is in Slack, but its answer (the ts) has not reached the app: its post record has no ts yet.
      held = h.fake.holdAnswer('chat.postMessage', { channel: CH });
      const cycling = h.cycle();
      await held.applied;
      const parent = callMessages(h.fake, CH, callId)[0]!;
      expect(parent).toBeDefined();
      const before = await h.svc.state.post(CH, callId);
      expect(before).toBeDefined();
      expect(before?.ts).toBeUndefined();

      await h.driver.userMessage({ channelId: CH, threadTs: parent.ts, text: 'Lo atiendo yo' });
      await eventually(
        () => sends(h),
        (s) => s.length > 0,
      );
      held.release();
      await cycling;
      await h.cycle();
      await h.cycle();
      const texts = () => h.fake.threadReplies(CH, parent.ts).map((r) => r.text);
      await eventually(texts, (t) => t.some((x) => x.includes('Gracias por tu mensaje')));
      await h.cycle();

      expect(sends(h).map((r) => (r.body as { content: string }).content)).toEqual(['Lo atiendo yo']);
      const got = texts();
      for (const line of lines) expect(got.filter((t) => t.includes(line))).toHaveLength(1);
      expect(got.filter((t) => t.includes('Gracias por tu mensaje'))).toHaveLength(1);
      // The person's own reply is in the thread once (theirs), not echoed back by the app.
      expect(got.filter((t) => t.includes('Lo atiendo yo'))).toHaveLength(1);
      expect(callMessages(h.fake, CH, callId)).toHaveLength(1);
      const after = await h.svc.state.post(CH, callId);
      expect(after?.ts).toBe(parent.ts);
      expect(after?.rebuilt).toBeUndefined();
    } finally {
      held?.release();
      await h.close();
    }
  });
});
