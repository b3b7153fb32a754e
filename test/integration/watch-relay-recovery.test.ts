/**
 * A reply from Slack left marked by a sender that died (src/watch/reply-send.ts), in process: the state a death
 * leaves (the person's Slack message, the mark in the conversation's ledger, and, for a death after the act, the
 * message in the service) and the finders of the mark: the leader after a poll cycle, and the same event delivered
 * again. The marks are made older instead of waited for. The real kills, between replicas: replica-reply-kill.test.ts.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { messageKey, postRef, tryRef } from '../../src/watch/conversation.js';
import type { PendingSend } from '../../src/watch/state.js';
import type { FakeMessage } from '../../src/emulator/fake-slack.js';
import {
  agentAnswered,
  CH,
  customerLines,
  customerWrites,
  endedCallThread,
  reactionsOf,
  RESPONDER,
  sends,
  type Thread,
} from '../support/reply-thread.js';
import { eventually, runCommand } from '../support/watch-harness.js';

/** Longer than anything in these tests takes: a mark is abandoned only when a test makes it older. */
const REPLY_ABANDONED_MS = 30_000;

describe('a reply left marked by a sender that died', () => {
  let t: Thread;
  afterEach(async () => {
    await t.h.close();
  });

  /** What a sender that died after marking leaves: its Slack message, and the mark in the post's ledger. */
  async function leftMarked(text: string): Promise<{ message: FakeMessage; send: PendingSend }> {
    const message = t.h.fake.addMessage(CH, { user: RESPONDER, text, thread_ts: t.parent.ts });
    const post = (await t.h.svc.state.post(CH, t.callId))!;
    const thread = await t.h.app.deps.outreach.getThread(t.threadId);
    const send: PendingSend = {
      ts: message.ts,
      channelId: CH,
      userId: RESPONDER,
      content: text,
      idempotencyKey: '6f1c2b9e-3d4a-4c5b-8e7f-0a1b2c3d4e5f',
      agentId: thread.agent.id,
      endUserId: thread.end_user.id,
      threadId: t.threadId,
      at: Date.now(),
    };
    expect((await t.h.svc.delivery.ledger.markSend(postRef(post), send)).kind).toBe('marked');
    return { message, send };
  }
  /** Its sender has been gone longer than REPLY_ABANDONED_MS (the mark made older, not waited for). */
  async function abandoned(ref = postRef({ channelId: CH, callId: t.callId })): Promise<void> {
    await t.h.svc.delivery.ledger.update(ref, (c) => ({
      ...c,
      sends: (c.sends ?? []).map((s) => ({ ...s, at: s.at - REPLY_ABANDONED_MS - 1000 })),
    }));
  }

  it('died between the mark and POST /message: the leader sends it with the same key, once, ✅', async () => {
    t = await endedCallThread({ tuning: { replyAbandonedMs: REPLY_ABANDONED_MS } });
    const { message, send } = await leftMarked('Te llamo a las 5');
    // Not yet abandoned: the leader leaves it to its sender.
    await t.h.cycle();
    expect(sends(t.h)).toHaveLength(0);
    await abandoned();
    await t.h.cycle();
    expect(await reactionsOf(t.h, CH, message.ts)).toEqual(['white_check_mark']);
    expect(sends(t.h).map((r) => r.headers['idempotency-key'])).toEqual([send.idempotencyKey]);
    await agentAnswered(t, 'Te llamo a las 5');
    await t.h.cycle();
    expect(sends(t.h)).toHaveLength(1);
    expect(customerLines(t)).toEqual([]);
    const ok = t.audits.filter((a) => a.result === 'ok' && a.action.includes(`call ${t.callId}`));
    expect(ok).toHaveLength(1);
    expect(ok[0]!.detail).toContain('recorded after a restart');
    expect((await t.h.svc.state.post(CH, t.callId))?.sending).toBeUndefined();
  });

  it('died after the service took it: the leader finds it in the thread and does not send it again', async () => {
    t = await endedCallThread({ tuning: { replyAbandonedMs: REPLY_ABANDONED_MS } });
    const { message, send } = await leftMarked('Ya quedó');
    // The act happened (its answer lost with the sender).
    await t.h.app.deps.outreach.sendMessage(
      { agent_id: send.agentId, end_user_id: send.endUserId, content: send.content },
      { idempotencyKey: send.idempotencyKey },
    );
    // Meanwhile the thread holds the echo back (it may be the reply's), and what came after it waits, in order.
    await customerWrites(t, 'Y otra cosa');
    expect(customerLines(t)).toEqual([]);
    await abandoned();
    await t.h.cycle();
    expect(await reactionsOf(t.h, CH, message.ts)).toEqual(['white_check_mark']);
    await agentAnswered(t, 'Ya quedó');
    await t.h.cycle();
    expect(sends(t.h)).toHaveLength(1);
    expect(customerLines(t)).toEqual(['Y otra cosa']);
    expect(t.audits.filter((a) => a.result === 'ok' && a.action.includes(`call ${t.callId}`))).toHaveLength(1);
  });

  it('died after recording the service’s answer, before ✅: the leader reacts and audits, and sends nothing', async () => {
    t = await endedCallThread({ tuning: { replyAbandonedMs: REPLY_ABANDONED_MS } });
    const { message, send } = await leftMarked('Listo');
    const result = await t.h.app.deps.outreach.sendMessage(
      { agent_id: send.agentId, end_user_id: send.endUserId, content: send.content },
      { idempotencyKey: send.idempotencyKey },
    );
    const ref = postRef({ channelId: CH, callId: t.callId });
    await t.h.svc.delivery.ledger.sendTaken(ref, send.ts, messageKey(result.in_response_to!));
    await abandoned();
    await t.h.cycle();
    expect(await reactionsOf(t.h, CH, message.ts)).toEqual(['white_check_mark']);
    await agentAnswered(t, 'Listo');
    expect(sends(t.h)).toHaveLength(1);
    expect(customerLines(t)).toEqual([]);
    expect(t.audits.filter((a) => a.result === 'ok' && a.action.includes(`call ${t.callId}`))).toHaveLength(1);
    expect((await t.h.svc.state.post(CH, t.callId))?.conv?.relayed?.map((r) => r.ts)).toEqual([send.ts]);
  });

  it('the same event delivered again finds the mark: left to its sender while fresh, completed once abandoned', async () => {
    t = await endedCallThread({ tuning: { replyAbandonedMs: REPLY_ABANDONED_MS } });
    const { message, send } = await leftMarked('Sigo aquí');
    const event = {
      type: 'message',
      channel: CH,
      user: RESPONDER,
      text: 'Sigo aquí',
      ts: message.ts,
      thread_ts: t.parent.ts,
      channel_type: 'channel',
    };
    const first = await t.h.driver.event(event, { eventId: 'Ev0AGAIN', retryNum: 1, retryReason: 'http_timeout' });
    expect(first.status).toBe(200);
    await t.h.cycle();
    expect(sends(t.h)).toHaveLength(0);
    await abandoned();
    await t.h.driver.event(event, { eventId: 'Ev0AGAIN', retryNum: 2, retryReason: 'http_timeout' });
    expect(await reactionsOf(t.h, CH, message.ts)).toEqual(['white_check_mark']);
    expect(sends(t.h).map((r) => r.headers['idempotency-key'])).toEqual([send.idempotencyKey]);
    // Delivered once more after it was recorded: nothing happens.
    await t.h.driver.event(event, { eventId: 'Ev0AGAIN', retryNum: 3, retryReason: 'http_timeout' });
    await t.h.cycle();
    expect(sends(t.h)).toHaveLength(1);
  });

  it('a try DM whose first message was marked before its service thread was known: sent again with the same key', async () => {
    t = await endedCallThread({ tuning: { replyAbandonedMs: REPLY_ABANDONED_MS } });
    const { h } = t;
    const agentId = (await h.app.deps.outreach.getThread(t.threadId)).agent.id;
    await runCommand(h, `try ${agentId}`, { userId: 'U0BOB' });
    const dm = h.fake.dmChannel('U0BOB')!;
    const session = (await h.svc.state.tries.get('U0BOB'))!;
    const message = h.fake.addMessage(dm, { user: 'U0BOB', text: 'Hola agente' });
    const send: PendingSend = {
      ts: message.ts,
      channelId: dm,
      userId: 'U0BOB',
      content: 'Hola agente',
      idempotencyKey: '0d9e8f7a-6b5c-4d3e-9f1a-2b3c4d5e6f70',
      agentId,
      endUserId: session.endUserId,
      at: Date.now(),
    };
    expect((await h.svc.delivery.ledger.markSend(tryRef('U0BOB'), send)).kind).toBe('marked');
    await abandoned(tryRef('U0BOB'));
    await h.cycle();
    expect(await reactionsOf(h, dm, message.ts)).toEqual(['white_check_mark']);
    await eventually(
      () => h.fake.messages(dm).map((m) => m.text),
      (l) => l.some((x) => x.includes('Con gusto: Hola agente')),
    );
    expect(sends(h).map((r) => r.headers['idempotency-key'])).toEqual([send.idempotencyKey]);
    expect((await h.svc.state.tries.get('U0BOB'))?.threadId).toBeDefined();
  });
});
