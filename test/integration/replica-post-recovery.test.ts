/**
 * The window between a Slack post and the write that records it, closed across replicas: the leader is SIGKILLed
 * while Slack has taken a message but not yet answered (so its `ts` was never stored). The next leader finds the
 * message by its metadata and does not post it again: first a conversation line in a call's thread, then a call's
 * own message.
 */
import { expect, it } from '@jest/globals';
import { callMessagesIn, quickWatch, replicaSetOfFile, seedPhoneCampaign } from '../support/replicas.js';

const CH = 'C0HANG';

const set = replicaSetOfFile({ count: 2, start: quickWatch() });

const callMessages = (callId: string) => callMessagesIn(set.fake, CH, callId);

it('a leader killed between Slack taking a post and recording it: the next one finds the post, none is doubled', async () => {
  const { sim, fake } = set;
  const campaignId = seedPhoneCampaign(sim, 'Recovery', {
    contacts: [
      { contact: '+525510000001', name: 'Ana López' },
      { contact: '+525510000002', name: 'Luis Pérez' },
    ],
  });
  const r = await set.driver.command(`watch ${campaignId}`, { channelId: CH });
  expect(r.status).toBe(200);

  // A call with its conversation showing (intro and the agent's first line in the thread).
  const call = sim.control.createCall(campaignId, { status: 'in-progress' });
  const callId = call.id as string;
  sim.control.addMessage(call.thread_id as string, { sent_by: 'AI', content: 'Hola, soy Ana' });
  const parent = await set.until('the call message', () => callMessages(callId)[0]);
  await set.until('the first line', () =>
    fake.threadReplies(CH, parent.ts).some((m) => m.text.includes('Hola, soy Ana')),
  );

  // The end user writes; Slack takes the line and the leader dies before the answer comes.
  const first = await set.theLeader();
  const line = fake.holdAnswer('chat.postMessage', { channel: CH });
  sim.control.addMessage(call.thread_id as string, { sent_by: 'EU', content: 'customer asks once' });
  expect(String((await line.applied).text)).toContain('customer asks once');
  await set.kill(first);
  line.release();
  const second = await set.theLeader(25_000);
  expect(second).not.toBe(first);

  // The new leader goes on with the conversation: the line held is not posted again, the next one is posted.
  sim.control.addMessage(call.thread_id as string, { sent_by: 'AI', content: 'agent answers after' });
  await set.until('the next line', () =>
    fake.threadReplies(CH, parent.ts).some((m) => m.text.includes('agent answers after')),
  );
  const lines = fake.threadReplies(CH, parent.ts).map((m) => m.text);
  expect(lines.filter((t) => t.includes('customer asks once'))).toHaveLength(1);
  expect(lines.filter((t) => t.includes('Hola, soy Ana'))).toHaveLength(1);

  // The same for a call's own message: taken by Slack, its leader killed before the answer.
  await set.start(first);
  const message = fake.holdAnswer('chat.postMessage', { channel: CH });
  const later = sim.control.createCall(campaignId, { status: 'in-progress' });
  const laterId = later.id as string;
  await message.applied;
  expect(callMessages(laterId)).toHaveLength(1);
  await set.kill(second);
  message.release();
  expect(await set.theLeader(25_000)).toBe(first);
  // The new leader updates the message it found (a post it never recorded) when the call ends.
  sim.control.updateCall(laterId, { status: 'ended', answered_by: 'human', duration: 42 });
  await set.until('the ended call shown', () => callMessages(laterId)[0]?.text.includes('Ended'));
  expect(callMessages(laterId)).toHaveLength(1);
  expect(callMessages(callId)).toHaveLength(1);
}, 150_000);
