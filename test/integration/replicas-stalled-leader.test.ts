/**
 * A stalled leader is fenced (issue 23, 7c). Two replicas on one PostgreSQL, each a real process. The leader posts a
 * call's message; Slack holds the request, the leader's process is stopped (SIGSTOP: a stall, its socket open) and
 * Slack answers with a transient error, so the leader, once it runs again, would send the post again after its
 * backoff. Meanwhile the database ends the stalled leader's silent lease session and the other replica takes the lease
 * (a new epoch): it finds the post's mark, looks the message up, and posts it. Then the stalled leader wakes: its
 * retry is refused by the fence (its term is over), logged, and never reaches Slack; the new leader's writes go on
 * (the call's end is shown in the one message).
 */
import { expect, it } from '@jest/globals';
import { callMessagesIn, quickWatch, replicaSetOfFile, seedPhoneCampaign } from '../support/replicas.js';

const CH = 'C0FENCE';
const REFUSED = 'a leader-only Slack write was not sent';

const set = replicaSetOfFile({
  count: 2,
  start: quickWatch(),
  // A replica left stopped (SIGSTOP) by a failed test is woken, so that it can stop.
  beforeClose: (s) => s.replicas.forEach((r) => r.child?.kill('SIGCONT')),
});

const callMessages = (callId: string) => callMessagesIn(set.fake, CH, callId);

it("a stalled leader's write is refused by the fence once another replica leads; the new leader's go on", async () => {
  const { sim, fake } = set;
  const campaignId = seedPhoneCampaign(sim, 'Fenced', { contacts: [{ contact: '+525510000001', name: 'Ana López' }] });
  expect((await set.driver.command(`watch ${campaignId}`, { channelId: CH })).status).toBe(200);
  const leader = await set.theLeader(30_000);
  const other = 1 - leader;
  const stalled = set.replicas[leader]!.child!;

  // The leader's post of the call's message reaches Slack and waits there.
  const call = sim.control.createCall(campaignId, { status: 'in-progress' });
  const callId = call.id as string;
  const ofCall = (args: Record<string, unknown>) => JSON.stringify(args).includes(callId);
  const held = fake.holdRequest('chat.postMessage', { channel: CH, match: ofCall });
  await held.received;
  stalled.kill('SIGSTOP');
  // Slack answers with a transient error, read by the leader only once it runs again.
  held.fail('internal_error');

  // The other replica takes the lease over and posts the call's message itself.
  await set.until(
    'the other replica leads',
    async () => (await set.metric(other, 'outreach_slack_leader')) === 1,
    60_000,
  );
  await set.until('the call message', () => callMessages(callId).length === 1, 30_000);
  const posts = () => fake.calls('chat.postMessage').filter((c) => ofCall(c.args));
  const postsBefore = posts().length;

  // The stalled leader wakes: the post it would try again is refused by the fence, before it leaves the process.
  stalled.kill('SIGCONT');
  await set.until(
    'the woken leader refuses its write (or sends it, unfenced)',
    () => set.log(leader).includes(REFUSED) || posts().length > postsBefore,
    30_000,
  );
  expect(posts()).toHaveLength(postsBefore);
  expect(callMessages(callId)).toHaveLength(1);
  expect(set.log(leader)).toContain(REFUSED);

  // The new leader's writes go on: the call ends, its one message says so.
  sim.control.updateCall(callId, { status: 'ended', answered_by: 'human', duration: 42 });
  await set.until('the ended call shown', () => callMessages(callId)[0]?.text.includes('Ended'), 30_000);
  expect(callMessages(callId)).toHaveLength(1);
  expect(posts()).toHaveLength(postsBefore);
  expect(await set.metric(other, 'outreach_slack_leader')).toBe(1);
  expect(await set.metric(leader, 'outreach_slack_leader')).toBe(0);
}, 180_000);
