/**
 * A reply from Slack whose replica is SIGKILLed on its way to the service (src/watch/reply-send.ts: mark, act,
 * record), among three replicas on one database: the reply's event goes to a replica that does not lead; it marks
 * the reply and is killed while the service holds its POST /message, either before handling it (then the request is
 * dropped: nothing was sent) or after (the message is in the service, the answer never arrives). The leader finds
 * the mark once abandoned, looks the thread up, and sends it again with the same Idempotency-Key only when the
 * service does not have it: the customer gets the reply exactly once, the person's message gets ✅, one audit line.
 */
import { beforeAll, expect, it } from '@jest/globals';
import { callMessagesIn, quickWatch, replicaSetOfFile, seedPhoneCampaign } from '../support/replicas.js';

const CH = 'C0KILL';
/** A mark this old is the leader's to complete; its sender gives its POST up after half of it. */
const REPLY_ABANDONED_MS = 10_000;

const set = replicaSetOfFile({ count: 3, start: quickWatch({ replyAbandonedMs: REPLY_ABANDONED_MS }) });
let parentTs: string;
let threadId: string;
let callId: string;

beforeAll(async () => {
  const { sim, fake } = set;
  sim.control.setAgentReply((content) => `Con gusto: ${content}`);
  const campaignId = seedPhoneCampaign(sim, 'Kill', { contacts: [{ contact: '+525510000001', name: 'Ana López' }] });
  expect((await set.driver.command(`watch ${campaignId}`, { channelId: CH })).status).toBe(200);
  const call = sim.control.createCall(campaignId, { status: 'in-progress' });
  callId = call.id as string;
  threadId = call.thread_id as string;
  sim.control.addMessage(threadId, { sent_by: 'AI', content: 'Hola, soy Ana' });
  const parent = await set.until('the call message', () => callMessagesIn(fake, CH, callId)[0]);
  parentTs = parent.ts;
  await set.until('the first line', () => fake.threadReplies(CH, parentTs).some((m) => m.text.includes('soy Ana')));
}, 120_000);

const sendsOf = (text: string) =>
  set.sim.control
    .requests()
    .filter((r) => r.route === 'sendMessage' && (r.body as { content?: string }).content === text);

/** Audit lines of replies in this call, over every replica's log (the killed one's too). */
function replyAudits(): Array<{ result: string; detail?: string }> {
  return set.replicas
    .flatMap((r) => set.log(r.index).split('\n'))
    .flatMap((line) => {
      try {
        const j = JSON.parse(line) as { msg?: string; audit?: { action?: string; result: string; detail?: string } };
        return j.msg === 'audit' && j.audit?.action?.includes(`(call ${callId})`) ? [j.audit] : [];
      } catch {
        return [];
      }
    });
}

/** A responder replies; the replica that got it is killed while the service holds its POST /message at `when`. */
async function replyAndKill(text: string, when: 'before' | 'after'): Promise<string> {
  const leader = await set.theLeader();
  const sender = set.replicas.find((r) => r.index !== leader && set.alive(r.index))!.index;
  const held = set.sim.control.hold(/^POST .*\/message$/, { when, once: true });
  const { message } = await set.driverFor(sender).userMessage({ channelId: CH, threadTs: parentTs, text });
  await held.arrived;
  await set.kill(sender);
  // Dropped: the service never handles it. Released: it was handled; its answer goes to a dead socket.
  if (when === 'before') held.drop();
  else held.release();
  return message.ts;
}

async function checkedOnce(ts: string, text: string): Promise<void> {
  const reacted = await set.until(
    'the ✅ on the reply',
    () => set.fake.message(CH, ts)?.reactions,
    REPLY_ABANDONED_MS + 30_000,
  );
  expect(reacted.map((r) => r.name)).toEqual(['white_check_mark']);
  const inService = (await fetchMessages()).filter((m) => m.sent_by === 'EU' && m.content === text);
  expect(inService).toHaveLength(1);
  await set.until('the agent’s answer', () =>
    set.fake.threadReplies(CH, parentTs).some((m) => m.text.includes(`Con gusto: ${text}`)),
  );
  // The reply is not echoed back into the thread as the customer's.
  expect(
    set.fake.threadReplies(CH, parentTs).filter((m) => m.text.startsWith('*👤') && m.text.includes(text)),
  ).toHaveLength(0);
  const audited = await set.until('its audit line', () => {
    const found = replyAudits().filter((a) => a.detail?.includes(ts));
    return found.length > 0 ? found : undefined;
  });
  expect(audited.map((a) => a.result)).toEqual(['ok']);
}

async function fetchMessages(): Promise<Array<{ sent_by: string; content?: string | null }>> {
  const res = await fetch(`${set.sim.baseUrl}/message/${threadId}`, {
    headers: { authorization: `api-key ${set.sim.apiKey}` },
  });
  return (await res.json()) as Array<{ sent_by: string; content?: string | null }>;
}

it('killed between the mark and POST /message: the leader sends it once, with the same Idempotency-Key, ✅', async () => {
  const ts = await replyAndKill('Te llamo a las cinco', 'before');
  await checkedOnce(ts, 'Te llamo a las cinco');
  const attempts = sendsOf('Te llamo a las cinco');
  // The dropped attempt and the leader's: one key.
  expect(attempts).toHaveLength(2);
  expect(new Set(attempts.map((r) => r.headers['idempotency-key'])).size).toBe(1);
}, 120_000);

it('killed after the service took the reply and before recording it: the leader finds it, sends nothing again, ✅', async () => {
  const ts = await replyAndKill('Ya quedó tu pedido', 'after');
  await checkedOnce(ts, 'Ya quedó tu pedido');
  expect(sendsOf('Ya quedó tu pedido')).toHaveLength(1);
}, 120_000);
