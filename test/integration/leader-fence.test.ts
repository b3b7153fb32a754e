/**
 * The fence of the leader-only writes (src/leader-work.ts `LeaderFence`, src/slack/watch/poster.ts `fenced`), on the
 * fake Slack: a write carries the term (lease epoch) that asked for it and is sent only if that term is still
 * current when its turn comes. A write queued in a lane while the lease was lost and won again (a new term) is not
 * sent; the new term's writes are; people's writes through the same poster, unfenced, never wait for the lease.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { WebClient } from '@slack/web-api';
import { LeaderWork } from '../../src/leader-work.js';
import { createLogger } from '../../src/log.js';
import { FencedWriteError, SlackPoster } from '../../src/slack/watch/poster.js';
import { startFakeSlack, type FakeSlack } from '../../src/emulator/fake-slack.js';
import { SwitchedLeadership } from '../support/switched-leadership.js';

const CH = 'C0LANE';
let fake: FakeSlack;

beforeAll(async () => {
  fake = await startFakeSlack();
});
afterAll(async () => fake.close());

/** A LeaderWork on a switchable lease; `role()` resolves at its next transition (started or stopped). */
async function leaderWork() {
  const lease = new SwitchedLeadership();
  let next: ((leader: boolean) => void) | undefined;
  const work = new LeaderWork(
    lease,
    { start: () => Promise.resolve(), stop: () => Promise.resolve() },
    createLogger('silent'),
    (leader) => next?.(leader),
  );
  await work.start();
  const role = () => new Promise<boolean>((r) => (next = r));
  return { lease, work, role };
}

it('a write of a term that ended is not sent, even when this replica leads again; the new term writes', async () => {
  const { lease, work, role } = await leaderWork();
  let started = role();
  lease.set(true);
  expect(await started).toBe(true);
  const client = new WebClient(fake.botToken, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });
  const poster = new SlackPoster(client, { minGapMs: 0 });
  const leader = poster.fenced(work);

  // The first write is at Slack, its answer held; the second waits in the channel's lane behind it.
  const first = fake.holdAnswer('chat.postMessage', { channel: CH });
  const sent = leader.post(CH, { text: 'first of term 1' });
  await first.applied;
  const queued = leader.post(CH, { text: 'queued in term 1' });

  // The lease is lost and won again: a new term (epoch 2) before the queued write's turn.
  const stopped = role();
  lease.set(false);
  expect(await stopped).toBe(false);
  started = role();
  lease.set(true);
  expect(await started).toBe(true);
  expect(work.term()).toBe(2);
  first.release();
  await sent;
  await expect(queued).rejects.toBeInstanceOf(FencedWriteError);

  await leader.post(CH, { text: 'written in term 2' });
  expect(fake.messages(CH).map((m) => m.text)).toEqual(['first of term 1', 'written in term 2']);

  // Not leading: nothing of the leader goes out; a person's write through the unfenced poster does.
  const lost = role();
  lease.set(false);
  await lost;
  await expect(leader.update(CH, fake.messages(CH)[0]!.ts, { text: 'late update' })).rejects.toBeInstanceOf(
    FencedWriteError,
  );
  await expect(leader.react(CH, fake.messages(CH)[0]!.ts, 'eyes')).rejects.toBeInstanceOf(FencedWriteError);
  await poster.post(CH, { text: 'a person’s answer' });
  expect(fake.messages(CH).map((m) => m.text)).toEqual(['first of term 1', 'written in term 2', 'a person’s answer']);
  expect(fake.calls('chat.update')).toHaveLength(0);
  expect(fake.calls('reactions.add')).toHaveLength(0);
  await work.stop();
});
