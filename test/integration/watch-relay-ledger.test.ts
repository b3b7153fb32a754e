/**
 * What a conversation shows and what was sent to it from Slack, end to end (src/watch/conversation.ts,
 * src/watch/reply-send.ts) through the simulator and the fake Slack: short texts repeated both ways ("Gracias",
 * "ok", "sí") in a call's thread and in a `/campaign try` DM, interleaved with failed sends; a reply whose answer was
 * lost on the way back; the Idempotency-Key of POST /message. Replies left marked by a sender that died:
 * watch-relay-recovery.test.ts.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import {
  agentAnswered,
  CH,
  customerLines,
  customerWrites,
  endedCallThread,
  lines,
  reactionsOf,
  reply,
  RESPONDER,
  sends,
  type Thread,
  watchedCallThread,
} from '../support/reply-thread.js';
import {
  callMessages,
  eventually,
  runCommand,
  startWatchHarness,
  type WatchHarness,
} from '../support/watch-harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('short texts repeated both ways in a call thread', () => {
  let t: Thread;
  afterEach(async () => {
    await t.h.close();
  });

  it('the issue: a responder replies "Gracias" from Slack; the customer then writes "Una pregunta más" and "Gracias": the thread shows both', async () => {
    t = await endedCallThread();
    expect((await reply(t, 'Gracias')).reactions).toEqual(['white_check_mark']);
    await agentAnswered(t, 'Gracias');
    await customerWrites(t, 'Una pregunta más');
    await customerWrites(t, 'Gracias');
    expect(customerLines(t)).toEqual(['Una pregunta más', 'Gracias']);
    // The responder's own "Gracias" is in the thread once: theirs, not echoed back as the customer's.
    expect(lines(t).filter((x) => x === 'Gracias')).toHaveLength(1);
    // The customer's "Gracias" waits for a person again.
    expect((await t.h.svc.state.waiting.list()).map(([, w]) => w.callId)).toEqual([t.callId]);
  });

  it('"ok" and "sí" from Slack and from the customer, interleaved, a failed send among them: every customer line is shown once', async () => {
    t = await endedCallThread();
    await customerWrites(t, 'ok');
    expect((await reply(t, 'ok')).reactions).toEqual(['white_check_mark']);
    await agentAnswered(t, 'ok');
    await customerWrites(t, 'ok');

    // The service refuses a "sí" (not processed): ❌, and its mark goes with it.
    t.h.sim.control.injectFaults({ status: 503, match: /POST .*\/message$/, count: 1 });
    expect((await reply(t, 'sí')).reactions).toEqual(['x']);
    await customerWrites(t, 'sí');
    expect((await reply(t, 'sí')).reactions).toEqual(['white_check_mark']);
    await agentAnswered(t, 'sí');
    await customerWrites(t, 'sí');
    await customerWrites(t, 'Gracias');

    expect(customerLines(t)).toEqual(['ok', 'ok', 'sí', 'sí', 'Gracias']);
    // What the service holds: the customer's five lines and the responder's two sent replies, nothing twice.
    const eu = (await t.h.app.deps.outreach.getMessages(t.threadId)).filter((m) => m.sent_by === 'EU');
    expect(eu.map((m) => m.content).slice(-7)).toEqual(['ok', 'ok', 'ok', 'sí', 'sí', 'sí', 'Gracias']);
    const post = await t.h.svc.state.post(CH, t.callId);
    expect(post?.conv?.sends ?? []).toEqual([]);
    expect(post?.sending).toBeUndefined();
  });
});

describe('repeated texts in a /campaign try DM', () => {
  let h: WatchHarness;
  afterEach(async () => {
    await h.close();
  });

  it('"ok" twice, then a failed "ok": each sent reply once, no echo in the DM, and a later "ok" of the end user is shown', async () => {
    h = await startWatchHarness({ tuning: { threadMaxGapMs: 0 } });
    h.sim.control.setAgentReply((content) => `Con gusto: ${content}`);
    const agentId = h.phoneCampaign(1).agentId;
    await runCommand(h, `try ${agentId}`, { userId: RESPONDER });
    const dm = h.fake.dmChannel(RESPONDER)!;
    const dmLines = () => h.fake.messages(dm).map((m) => m.text);
    const write = async (text: string) => {
      const { message } = await h.driver.userMessage({ channelId: dm, text, userId: RESPONDER });
      return reactionsOf(h, dm, message.ts);
    };
    expect(await write('ok')).toEqual(['white_check_mark']);
    await eventually(dmLines, (l) => l.filter((x) => x.includes('Con gusto: ok')).length === 1);
    expect(await write('ok')).toEqual(['white_check_mark']);
    await eventually(dmLines, (l) => l.filter((x) => x.includes('Con gusto: ok')).length === 2);
    h.sim.control.injectFaults({ status: 503, match: /POST .*\/message$/, count: 1 });
    expect(await write('ok')).toEqual(['x']);

    // The end user's thread gets an "ok" from elsewhere (the service's own app): shown in the DM as theirs.
    const threadId = (await h.svc.state.tries.get(RESPONDER))!.threadId!;
    h.sim.control.addMessage(threadId, { sent_by: 'EU', content: 'ok' });
    await h.cycle();
    await h.cycle();
    const you = dmLines().filter((x) => /ok$/.test(x) && !x.includes('Con gusto'));
    // The person's three "ok" messages (theirs) and the one from elsewhere (posted by the app).
    expect(you).toHaveLength(4);
    expect(
      h.fake.messages(dm).filter((m) => m.user === 'UBOT' && /ok$/.test(m.text) && !m.text.includes('Con gusto')),
    ).toHaveLength(1);
    expect(sends(h).map((r) => (r.body as { content: string }).content)).toEqual(['ok', 'ok', 'ok']);
    expect((await h.svc.state.tries.get(RESPONDER))?.conv?.sends ?? []).toEqual([]);
  });
});

describe('POST /message: its Idempotency-Key, and an answer lost on the way back', () => {
  let t: Thread;
  afterEach(async () => {
    await t.h.close();
  });

  it('sends a UUID Idempotency-Key with each reply', async () => {
    t = await endedCallThread();
    await reply(t, 'Primera');
    await reply(t, 'Segunda');
    const keys = sends(t.h).map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    for (const k of keys) expect(k).toMatch(UUID);
    expect(keys[0]).not.toBe(keys[1]);
  });

  it('a reply the service took but whose answer was lost: looked up in the thread, ✅, sent once, audited once', async () => {
    t = await endedCallThread();
    t.h.sim.control.injectFaults({ status: 503, match: /POST .*\/message$/, count: 1, when: 'after' });
    const { reactions } = await reply(t, 'Lo atiendo yo');
    expect(reactions).toEqual(['white_check_mark']);
    expect(sends(t.h)).toHaveLength(1);
    const eu = (await t.h.app.deps.outreach.getMessages(t.threadId)).filter((m) => m.content === 'Lo atiendo yo');
    expect(eu).toHaveLength(1);
    // The agent's answer (made with it) reaches the thread; the reply itself is not echoed as the customer's.
    await agentAnswered(t, 'Lo atiendo yo');
    expect(customerLines(t)).toEqual([]);
    const ok = await eventually(
      () => t.audits.filter((a) => a.result === 'ok' && a.action.includes(`call ${t.callId}`)),
      (a) => a.length > 0,
    );
    expect(ok).toHaveLength(1);
    expect(t.audits.filter((a) => a.result === 'failed')).toEqual([]);
  });
});

describe('a call watched in two channels', () => {
  let h: WatchHarness;
  afterEach(async () => {
    await h.close();
  });

  it('a reply sent from one channel’s thread shows in the other as a reply from Slack, not as the customer’s, and ends the wait there too', async () => {
    const OTHER = 'C0SALES';
    h = await startWatchHarness({ tuning: { threadMaxGapMs: 0 } });
    h.sim.control.setAgentReply((content) => `Con gusto: ${content}`);
    const { id } = h.phoneCampaign(1);
    await runCommand(h, `watch ${id}`, { channelId: OTHER });
    const t: Thread = { h, audits: [], ...(await watchedCallThread(h, id, { ended: true })) };
    const parentElsewhere = callMessages(h.fake, OTHER, t.callId)[0]!;
    const linesElsewhere = () => h.fake.threadReplies(OTHER, parentElsewhere.ts).map((r) => r.text);

    await customerWrites(t, '¿Me ayudan?');
    const waitingIn = async () => (await h.svc.state.waiting.list()).map(([, w]) => w.channelId).sort();
    expect(await waitingIn()).toEqual([CH, OTHER].sort());

    expect((await reply(t, 'Claro, te ayudo')).reactions).toEqual(['white_check_mark']);
    await agentAnswered(t, 'Claro, te ayudo');
    await eventually(linesElsewhere, (l) => l.some((x) => x.includes('Con gusto: Claro, te ayudo')));
    const shown = linesElsewhere();
    // In the other channel: a reply from Slack, naming where it was written; never the customer's words.
    expect(shown.filter((x) => x.includes('Claro, te ayudo') && !x.includes('Con gusto'))).toEqual([
      `*💬 Reply sent from Slack* (<#${CH}>): Claro, te ayudo`,
    ]);
    expect(shown.filter((x) => x.startsWith('*👤 Contact 1:*')).map((x) => x.split('\n')[0])).toEqual([
      '*👤 Contact 1:* ¿Me ayudan?',
    ]);
    // A person answered the customer: nobody waits, in either channel.
    expect(await waitingIn()).toEqual([]);
    // And the customer's next line is the customer's again, in both.
    await customerWrites(t, 'Gracias');
    await eventually(linesElsewhere, (l) => l.some((x) => x === '*👤 Contact 1:* Gracias'));
    expect(customerLines(t)).toEqual(['¿Me ayudan?', 'Gracias']);
  });
});
