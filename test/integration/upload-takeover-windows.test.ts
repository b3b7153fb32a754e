/**
 * An upload's two posts into Slack, each closed against a kill (issue 23, 7a): the progress message and the
 * failed-rows CSV (phone numbers) in the uploader's DM. Two replicas on one PostgreSQL, each a real process; the one
 * running an upload is SIGKILLed at each point of a post: after its mark but before the post reaches Slack (the
 * request is held by the fake and dropped when its process dies), and after Slack carried the post out but before
 * its answer came back (the answer is held until the process is dead). The other replica takes the job over once
 * its lease runs out and finishes it: each time there is exactly one progress message (the summary in its place)
 * and, for a file with rejected rows, exactly one failed-rows file shared in the uploader's DM.
 */
import { beforeAll, expect, it } from '@jest/globals';
import type { FakeMessage } from '../../src/emulator/fake-slack.js';
import { replicaSetOfFile, seedPhoneCampaign, uploadThrough } from '../support/replicas.js';

const CH = 'C0UPLOADS';
const ADMIN = 'U0ADMIN';
const UPLOAD = { batchSize: 5, concurrency: 1, progressIntervalMs: 100, retryBaseMs: 20, leaseMs: 3000 };

const set = replicaSetOfFile({ count: 2, start: { upload: UPLOAD, slackTimeScale: 20 } });

beforeAll(() => {
  set.fake.addUser({ id: ADMIN, name: 'admin' });
});

/** `rows` valid numbers and `rejected` rows whose phone is not a number (they go into the failed-rows CSV). */
function csv(name: string, rows: number, rejected: number, from: number): string {
  const lines = ['Nombre,Teléfono'];
  for (let i = 0; i < rows; i++) lines.push(`${name} ${i},55${String(10_000_000 + from + i).slice(-8)}`);
  for (let i = 0; i < rejected; i++) lines.push(`${name} sin número ${i},12`);
  return `${lines.join('\n')}\n`;
}

let seeded = 0;
/** A campaign and a file uploaded into it through replica `through`, by ADMIN in CH. */
async function upload(through: number, name: string, rejected: number) {
  const { sim, fake } = set;
  const campaignId = seedPhoneCampaign(sim, name, { status: 'ready' });
  const file = fake.addFile({ name: `${name}.csv`, content: csv(name, 20, rejected, 1000 * ++seeded) });
  await uploadThrough(set, through, campaignId, file, { userId: ADMIN, channelId: CH });
  return { campaignId, file };
}

/** The messages of the upload of `name` in a conversation (the progress, later the summary in its place). */
const progressMessages = (channel: string, name: string): FakeMessage[] =>
  set.fake.messages(channel).filter((m) => m.text.includes(`${name}.csv`) && !m.text.includes('failed-rows'));

/** The failed-rows files of `name` shared in the uploader's DM, and the DM's messages that hold them. */
function reportsInDm(name: string) {
  const dm = set.fake.dmChannel(ADMIN);
  const fileName = `failed-rows-${name}.csv`;
  const files = set.fake.uploadedFiles().filter((f) => f.name === fileName);
  const shared = files.filter((f) => dm !== undefined && f.channel === dm);
  const messages = dm
    ? set.fake
        .messages(dm, { includeReplies: true })
        .filter((m) => (m.files ?? []).some((f) => (f as { name?: string }).name === fileName))
    : [];
  return { files, shared, messages };
}

/** Waits until the upload's message in CH shows its summary. */
async function summaryOf(name: string): Promise<FakeMessage> {
  return set.until(
    `the summary of ${name}.csv`,
    () => progressMessages(CH, name).find((m) => /Upload (finished|stopped)/.test(m.text)),
    60_000,
  );
}

/** Kills replica `i` and starts it again in the background (the other one takes the job over meanwhile). */
async function killAndRestart(i: number): Promise<Promise<void>> {
  await set.kill(i);
  return set.start(i);
}

it('the progress message: killed after Slack posted it but before its ts was saved, it is not posted again', async () => {
  const held = set.fake.holdAnswer('chat.postMessage', { channel: CH });
  const { campaignId } = await upload(0, 'posted', 0);
  expect(String((await held.applied).text)).toContain('posted.csv');
  const restarted = await killAndRestart(0);
  held.release();

  const summary = await summaryOf('posted');
  expect(summary.text).toMatch(/Upload finished/);
  expect(progressMessages(CH, 'posted')).toHaveLength(1);
  expect(progressMessages(ADMIN, 'posted')).toHaveLength(0);
  expect(set.sim.control.getCampaignState(campaignId)?.contacts).toHaveLength(20);
  await restarted;
}, 120_000);

it('the progress message: killed after its mark but before the post left, it is posted once by the next replica', async () => {
  const held = set.fake.holdRequest('chat.postMessage', { channel: CH });
  await upload(1, 'unsent', 0);
  expect(String((await held.received).text)).toContain('unsent.csv');
  const restarted = await killAndRestart(1);
  await held.dropped;

  expect((await summaryOf('unsent')).text).toMatch(/Upload finished/);
  expect(progressMessages(CH, 'unsent')).toHaveLength(1);
  await restarted;
}, 120_000);

it('the failed-rows DM: killed after Slack shared the file but before it was recorded, it is not shared again', async () => {
  const held = set.fake.holdAnswer('files.completeUploadExternal');
  await upload(0, 'shared', 3);
  await held.applied;
  expect(reportsInDm('shared').shared).toHaveLength(1);
  const restarted = await killAndRestart(0);
  held.release();

  const summary = await summaryOf('shared');
  expect(JSON.stringify(summary.blocks)).not.toContain('could not be sent');
  const { shared, messages } = reportsInDm('shared');
  expect(shared).toHaveLength(1);
  expect(messages).toHaveLength(1);
  expect(progressMessages(CH, 'shared')).toHaveLength(1);
  await restarted;
}, 120_000);

it('the failed-rows DM: killed after its mark but before the share left, it is shared once and the stray file deleted', async () => {
  const held = set.fake.holdRequest('files.completeUploadExternal');
  await upload(1, 'unshared', 3);
  const stray = ((await held.received).files as Array<{ id: string }>)[0]!.id;
  const restarted = await killAndRestart(1);
  await held.dropped;

  await summaryOf('unshared');
  const { files, shared, messages } = reportsInDm('unshared');
  expect(shared).toHaveLength(1);
  expect(messages).toHaveLength(1);
  // The file uploaded before the kill was never shared: it is deleted (it holds phone numbers), not left behind.
  expect(shared[0]!.id).not.toBe(stray);
  expect(files.map((f) => f.id)).not.toContain(stray);
  expect(files).toHaveLength(1);
  await restarted;
}, 120_000);
