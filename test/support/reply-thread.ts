/**
 * A call's Slack thread to reply in, for the relay's tests (watch-relay-ledger, watch-relay-recovery, watch-unwatch,
 * watch-wait-ends): a watched
 * campaign whose call ended with its thread up, the agent answering "Con gusto: <text>", and what the tests read
 * of it (the thread's lines, the customer's lines, the sends the simulator got, the reactions on a message).
 */
import type { AuditEntry } from '../../src/slack/audit.js';
import type { FakeMessage } from '../../src/emulator/fake-slack.js';
import { callMessages, eventually, runCommand, startWatchHarness, type WatchHarness } from './watch-harness.js';

export const CH = 'C0OPS';
export const RESPONDER = 'U0ALICE';

export interface Thread {
  h: WatchHarness;
  audits: AuditEntry[];
  callId: string;
  threadId: string;
  parent: FakeMessage;
}

/**
 * Watches campaign `campaignId` in `channelId` (as `userId`), and places one of its calls with the agent's first line
 * in its thread; `ended`: the call then ends. The call and its thread once the app has posted them.
 */
export async function watchedCallThread(
  h: WatchHarness,
  campaignId: number,
  opts: { channelId?: string; userId?: string; ended?: boolean; firstLine?: string } = {},
): Promise<{ callId: string; threadId: string; parent: FakeMessage }> {
  const channelId = opts.channelId ?? CH;
  await runCommand(h, `watch ${campaignId}`, { channelId, ...(opts.userId ? { userId: opts.userId } : {}) });
  const call = h.sim.control.createCall(campaignId, { status: 'in-progress' });
  const callId = call.id as string;
  const threadId = call.thread_id as string;
  h.sim.control.addMessage(threadId, { sent_by: 'AI', content: opts.firstLine ?? 'Hola' });
  await h.cycle();
  if (opts.ended) h.sim.control.updateCall(callId, { status: 'ended', answered_by: 'human' });
  await h.cycle();
  await h.cycle();
  return { callId, threadId, parent: callMessages(h.fake, channelId, callId)[0]! };
}

/** A watched campaign with an ended call whose Slack thread is up; the agent answers "Con gusto: <text>". */
export async function endedCallThread(tuning: Parameters<typeof startWatchHarness>[0] = {}): Promise<Thread> {
  // Conversations are read at every cycle (the test's cycles follow each other within milliseconds).
  const h = await startWatchHarness({ ...tuning, tuning: { threadMaxGapMs: 0, ...tuning.tuning } });
  const audits: AuditEntry[] = [];
  h.app.deps.audit.subscribe((e) => audits.push(e));
  h.sim.control.setAgentReply((content) => `Con gusto: ${content}`);
  const c = h.phoneCampaign(1);
  const call = await watchedCallThread(h, c.id, { ended: true, firstLine: 'Hola, ¿hablo con Contact 1?' });
  return { h, audits, ...call };
}

export const lines = (t: Thread) => t.h.fake.threadReplies(CH, t.parent.ts).map((r) => r.text);
/** The customer's lines in the thread, as posted by the app. */
export const customerLines = (t: Thread) =>
  lines(t)
    .filter((x) => x.startsWith('*👤 Contact 1:*'))
    .map((x) => x.replace('*👤 Contact 1:* ', '').split('\n')[0]);
export const sends = (h: WatchHarness) => h.sim.control.requests().filter((r) => r.route === 'sendMessage');
export const reactionsOf = async (h: WatchHarness, channel: string, ts: string) =>
  (await eventually(
    () => h.fake.message(channel, ts),
    (m) => (m?.reactions?.length ?? 0) > 0,
  ))!.reactions?.map((r) => r.name);

/** A responder's reply in the thread; resolves once the app reacted to it. */
export async function reply(
  t: Thread,
  text: string,
): Promise<{ message: FakeMessage; reactions: string[] | undefined }> {
  const { message } = await t.h.driver.userMessage({ channelId: CH, threadTs: t.parent.ts, text, userId: RESPONDER });
  return { message, reactions: await reactionsOf(t.h, CH, message.ts) };
}

/** The customer writes, and the app polls. */
export async function customerWrites(t: Thread, content: string): Promise<void> {
  t.h.sim.control.addMessage(t.threadId, { sent_by: 'EU', content });
  await t.h.cycle();
  await t.h.cycle();
}

export async function agentAnswered(t: Thread, text: string): Promise<void> {
  await eventually(
    () => lines(t),
    (l) => l.some((x) => x.includes(`Con gusto: ${text}`)),
  );
  await t.h.cycle();
}
