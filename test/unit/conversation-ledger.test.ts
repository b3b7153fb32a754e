/**
 * The conversation ledger (src/watch/conversation.ts): what a thread has shown and what was sent from Slack and
 * awaits its echo. Short texts repeated in both directions ("Gracias", "ok", "sí"), interleaved, with failed sends:
 * a customer's message is never taken for a reply sent from Slack unless it is that reply's echo (the send's
 * `in_response_to`), or, while the send is unanswered, an end-user message with its text sent about its time.
 */
import { describe, expect, it } from '@jest/globals';
import type { Message } from '../../src/outreach/schemas.js';
import { createMemoryStore } from '../../src/store/memory-store.js';
import {
  advance,
  ConversationLedger,
  ECHO_WINDOW,
  findEcho,
  messageKey,
  newCursor,
  nextStep,
  postRef,
} from '../../src/watch/conversation.js';
import { WatchState, type ConversationCursor, type PendingSend, type PostRecord } from '../../src/watch/state.js';

const T0 = Date.parse('2026-05-04T10:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();
const msg = (s: number, by: 'AI' | 'EU', content: string): Message => ({
  thread_id: 'th',
  type: 'text',
  sent_by: by,
  sent_at: at(s),
  content,
});

/** Drives the cursor as far as it goes: what would be posted, and whether it stopped to wait for a send's answer. */
function drain(all: Message[], cur: ConversationCursor) {
  const posted: string[] = [];
  for (;;) {
    const step = nextStep(all, cur);
    if (step.kind === 'none' || step.kind === 'wait') return { posted, cur, waited: step.kind === 'wait' };
    if (step.kind === 'post') posted.push(`${step.message.sent_by}:${step.message.content}`);
    cur = advance(cur, step.index, step.message);
  }
}

function sendOf(ts: string, content: string, atSecond: number): PendingSend {
  return {
    ts,
    channelId: 'C1',
    userId: 'U0RESP',
    content,
    idempotencyKey: `key-${ts}`,
    agentId: 'ag',
    endUserId: 'eu',
    threadId: 'th',
    at: T0 + atSecond * 1000,
  };
}

async function ledgerWithPost() {
  const state = new WatchState(createMemoryStore(), { retentionMs: 86_400_000, eventTtlMs: 3600_000 });
  const post: PostRecord = {
    channelId: 'C1',
    campaignId: 7,
    callId: 'call-1',
    threadId: 'th',
    ts: '100.0001',
    createdAt: at(0),
    conv: { count: 0, accounted: [], lastActivityAt: T0, introPosted: true },
  };
  await state.putPost(post);
  const ledger = new ConversationLedger(state);
  const ref = postRef(post);
  const cursor = async () => (await ledger.cursor(ref))!;
  /** Delivery: every step the ledger allows, recorded as delivery records it. */
  const deliver = async (all: Message[]) => {
    const posted: string[] = [];
    for (;;) {
      const step = nextStep(all, await cursor());
      if (step.kind === 'none' || step.kind === 'wait') return posted;
      if (step.kind === 'post') posted.push(`${step.message.sent_by}:${step.message.content}`);
      await ledger.shown(ref, step);
    }
  };
  /** The relay: a reply from Slack marked, answered by the service with `echo`, recorded. */
  const relayed = async (send: PendingSend, echo: Message) => {
    expect((await ledger.markSend(ref, send)).kind).toBe('marked');
    await ledger.sendTaken(ref, send.ts, messageKey(echo));
    await ledger.sendFinished(ref, send.ts);
  };
  return { state, ledger, ref, cursor, deliver, relayed };
}

describe('the conversation ledger', () => {
  it('the issue: a responder replies "Gracias" from Slack, then the customer writes "Una pregunta más" and "Gracias": both are shown', async () => {
    const l = await ledgerWithPost();
    const hello = msg(0, 'AI', 'Hola');
    expect(await l.deliver([hello])).toEqual(['AI:Hola']);
    const echo = msg(10, 'EU', 'Gracias');
    await l.relayed(sendOf('200.1', 'Gracias', 10), echo);
    const answer = msg(11, 'AI', 'De nada');
    const conversation = [hello, echo, answer, msg(60, 'EU', 'Una pregunta más'), msg(70, 'EU', 'Gracias')];
    expect(await l.deliver(conversation)).toEqual(['AI:De nada', 'EU:Una pregunta más', 'EU:Gracias']);
    // Nothing of the reply is left to match anything later.
    expect((await l.cursor()).accounted).toEqual([]);
    expect((await l.cursor()).sends).toEqual([]);
  });

  it('repeated "ok" and "sí" both ways, interleaved, with a failed send in between', async () => {
    const l = await ledgerWithPost();
    const all: Message[] = [msg(0, 'EU', 'ok')];
    expect(await l.deliver(all)).toEqual(['EU:ok']);

    // The responder writes "ok" too: marked, and the service answers with its echo.
    const okSend = sendOf('300.1', 'ok', 20);
    expect((await l.ledger.markSend(l.ref, okSend)).kind).toBe('marked');
    const okEcho = msg(20, 'EU', 'ok');
    all.push(okEcho);
    // Read before the answer was recorded: the echo waits (it is not posted as the customer's).
    expect(await l.deliver(all)).toEqual([]);
    await l.ledger.sendTaken(l.ref, okSend.ts, messageKey(okEcho));
    await l.ledger.sendFinished(l.ref, okSend.ts);
    all.push(msg(21, 'AI', 'Perfecto'), msg(40, 'EU', 'ok'));
    expect(await l.deliver(all)).toEqual(['AI:Perfecto', 'EU:ok']);

    // A "sí" from Slack fails: its mark goes, and the customer's "sí" right after is shown.
    const siSend = sendOf('300.2', 'sí', 50);
    expect((await l.ledger.markSend(l.ref, siSend)).kind).toBe('marked');
    await l.ledger.sendFailed(l.ref, siSend.ts);
    all.push(msg(52, 'EU', 'sí'));
    expect(await l.deliver(all)).toEqual(['EU:sí']);

    // A second "sí" from Slack goes through; the customer answers "sí" and "Gracias" after it.
    const si2 = sendOf('300.3', 'sí', 80);
    await l.relayed(si2, msg(80, 'EU', 'sí'));
    all.push(msg(80, 'EU', 'sí'), msg(81, 'AI', 'Listo'), msg(90, 'EU', 'sí'), msg(95, 'EU', 'Gracias'));
    expect(await l.deliver(all)).toEqual(['AI:Listo', 'EU:sí', 'EU:Gracias']);
    const cur = await l.cursor();
    expect(cur.sends).toEqual([]);
    expect(cur.relayed?.map((r) => r.ts)).toEqual(['300.1', '300.2', '300.3']);
    expect(cur.relayed?.[1]?.key).toBeUndefined();
  });

  it('a pending send holds only a message with its text sent about its time; other customer messages flow', () => {
    const send = sendOf('400.1', 'Gracias', 600);
    const cur: ConversationCursor = { count: 0, accounted: [], lastActivityAt: T0, sends: [send] };
    // Written ten minutes before the reply: the customer's, not an echo.
    const early = drain([msg(0, 'EU', 'Gracias'), msg(1, 'AI', 'De nada')], cur);
    expect(early).toMatchObject({ posted: ['EU:Gracias', 'AI:De nada'], waited: false });
    // The agent's line with the same words is never an echo (the service records replies as EU).
    expect(drain([msg(600, 'AI', 'Gracias')], cur).posted).toEqual(['AI:Gracias']);
    // About the send's time: it waits for the send's answer.
    const held = drain([msg(599, 'EU', 'otra cosa'), msg(601, 'EU', 'Gracias'), msg(602, 'AI', 'ok')], cur);
    expect(held).toMatchObject({ posted: ['EU:otra cosa'], waited: true });
    // Answered (taken): the wait is over; the echo is skipped by its key, not by its text.
    const echo = msg(601, 'EU', 'Gracias');
    const taken: ConversationCursor = {
      ...held.cur,
      accounted: [messageKey(echo)],
      sends: [{ ...send, taken: { key: messageKey(echo) } }],
    };
    expect(
      drain([msg(599, 'EU', 'otra cosa'), echo, msg(602, 'AI', 'ok'), msg(603, 'EU', 'Gracias')], taken).posted,
    ).toEqual(['AI:ok', 'EU:Gracias']);
  });

  it('finds a send’s echo when looking it up: about its time, not shown yet, not another reply’s', () => {
    const send = sendOf('500.1', 'ok', 100);
    const shownOk = msg(95, 'EU', 'ok');
    const otherReply = msg(99, 'EU', 'ok');
    const echo = msg(101, 'EU', 'ok');
    const cur: ConversationCursor = {
      ...advance({ count: 0, accounted: [], lastActivityAt: T0 }, 0, shownOk),
      relayed: [{ ts: '500.0', key: messageKey(otherReply) }],
      sends: [send],
    };
    expect(findEcho([shownOk, otherReply, echo], cur, send)).toEqual(echo);
    // Not there (the send never reached the service): a customer's "ok" long after is not taken for it.
    const later = msg(100 + ECHO_WINDOW.afterMs / 1000 + 5, 'EU', 'ok');
    expect(findEcho([shownOk, otherReply, later], cur, send)).toBeUndefined();
    expect(findEcho([shownOk, otherReply, msg(100, 'EU', 'okay')], cur, send)).toBeUndefined();
  });

  it('marks a Slack message once: a second delivery finds the mark, or that it was handled; one finder takes an old mark over', async () => {
    const l = await ledgerWithPost();
    const send = sendOf('600.1', 'Lo atiendo yo', 0);
    expect(await l.ledger.markSend(l.ref, send)).toEqual({ kind: 'marked' });
    expect(await l.ledger.markSend(l.ref, { ...send, idempotencyKey: 'other' })).toEqual({ kind: 'pending', send });
    // Found by the index while marked.
    expect((await l.ledger.marked()).map((m) => m.send.ts)).toEqual(['600.1']);
    expect((await l.state.post('C1', 'call-1'))?.sending).toBe(true);

    expect(await l.ledger.takeOver(l.ref, send.ts, 60_000, send.at + 59_000)).toBeUndefined();
    const taken = await l.ledger.takeOver(l.ref, send.ts, 60_000, send.at + 61_000);
    expect(taken).toMatchObject({ ts: '600.1', idempotencyKey: 'key-600.1', attemptAt: send.at + 61_000 });
    // The other finder, at the same moment, leaves it.
    expect(await l.ledger.takeOver(l.ref, send.ts, 60_000, send.at + 61_000)).toBeUndefined();

    await l.ledger.sendTaken(l.ref, send.ts, messageKey(msg(0, 'EU', 'Lo atiendo yo')));
    await l.ledger.sendFinished(l.ref, send.ts);
    expect(await l.ledger.markSend(l.ref, send)).toEqual({ kind: 'handled' });
    expect(await l.ledger.marked()).toEqual([]);
    expect((await l.state.post('C1', 'call-1'))?.sending).toBeUndefined();
  });
});

describe('a conversation mirrored in another channel’s thread', () => {
  const all = [msg(0, 'AI', 'Hola'), msg(30, 'EU', '¿Me ayudan?'), msg(60, 'EU', 'Claro, te ayudo')];
  const here = { ...newCursor(T0), count: 2, lastKey: messageKey(all[1]!) };

  it('waits while the other thread’s reply with that text is being sent', () => {
    const sending = { ...newCursor(T0), sends: [sendOf('1.1', 'Claro, te ayudo', 58)] };
    expect(nextStep(all, here, [{ channelId: 'C2', conv: sending }])).toEqual({ kind: 'wait', ts: '1.1' });
  });

  it('shows the other thread’s sent reply as one from Slack there, and the same words from the customer as theirs', () => {
    const sent = { ...newCursor(T0), relayed: [{ ts: '1.1', key: messageKey(all[2]!) }] };
    expect(nextStep(all, here, [{ channelId: 'C2', conv: sent }])).toMatchObject({
      kind: 'elsewhere',
      channelId: 'C2',
    });
    // Without that reply on record, the end user's message is theirs.
    expect(nextStep(all, here, [{ channelId: 'C2', conv: newCursor(T0) }]).kind).toBe('post');
    expect(nextStep(all, here).kind).toBe('post');
  });
});
