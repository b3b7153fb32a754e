/**
 * Two replicas of the app on one PostgreSQL database (in this process, each with its own port, one fake Slack and one
 * simulator): one upload per campaign holds across them (a second file into a campaign whose upload runs at the
 * other replica waits, says why, and starts by itself once the first has finished), and one Slack file submitted
 * through both replicas at once starts one job.
 */
import { jobsOf } from '../../src/slack/upload/jobs.js';
import { startReplicaPair, type ReplicaPair, type TestApp } from '../support/test-app.js';
import {
  blocksText,
  contactPosts,
  job,
  numbersCsv,
  openUploadModal,
  seedCampaign,
  simContacts,
  submitAndSettle,
  until,
  waitForSummary,
} from '../support/upload.js';

const UPLOAD = { batchSize: 5, concurrency: 1, progressIntervalMs: 100, retryBaseMs: 20, leaseMs: 3000 };

/** Replica A (with the fake Slack and the simulator) and B, a second app on the same database. */
let pair: ReplicaPair;
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  pair = await startReplicaPair({ start: { upload: UPLOAD } });
  ({ a, b } = pair);
});
afterAll(async () => {
  await pair?.close();
});

async function upload(t: TestApp, campaignId: number, name: string, content: string) {
  const file = t.fake.addFile({ name, content });
  expect((await submitAndSettle(t, campaignId, await openUploadModal(t, campaignId), file)).started).toBe(true);
  return file;
}

it('a second upload into a campaign whose upload runs at another replica waits for it, then runs', async () => {
  const campaignId = seedCampaign(a, 'Two replicas');
  // Batches are held at the service: the first upload is still running when the second is submitted, however long
  // that takes.
  const batches = a.sim.control.hold(/\/contacts$/);
  try {
    const first = await upload(a, campaignId, 'primero.csv', numbersCsv(40, 1000));
    await until(async () => batches.held() === 1, 30_000);
    const second = await upload(b, campaignId, 'segundo.csv', numbersCsv(20, 2000));

    const waiting = await until(async () => {
      const j = await job(b, campaignId, second.id);
      const m = j?.messageTs ? b.fake.message(j.channelId, j.messageTs) : undefined;
      const s = m ? blocksText(m) : '';
      return s.includes('Waiting') ? s : undefined;
    }, 30_000);
    expect(waiting).toContain(
      'Waiting: the upload of *primero.csv* into this campaign has to finish first (one upload per campaign at a time)',
    );
    // The first is still running at A; the second has sent nothing.
    expect((await job(a, campaignId, first.id))?.status).toBe('running');
    const ofSecond = (r: ReturnType<typeof contactPosts>[number]) =>
      (r.body as { contacts: { contact: string }[] }).contacts.some((c) => c.contact.includes('5510002'));
    expect(contactPosts(a, campaignId).filter(ofSecond)).toHaveLength(0);
    expect(batches.held()).toBe(1);
    batches.release();

    expect(blocksText(await waitForSummary(a, campaignId, first.id, 20_000))).toContain('Upload finished');
    expect(blocksText(await waitForSummary(b, campaignId, second.id, 20_000))).toContain('Upload finished');
    expect(simContacts(a, campaignId)).toHaveLength(60);
    // The second's first batch went after the first's last was answered.
    const posts = contactPosts(a, campaignId);
    const lastFirst = Math.max(...posts.filter((r) => !ofSecond(r)).map((r) => Date.parse(r.at)));
    const firstSecond = Math.min(...posts.filter(ofSecond).map((r) => Date.parse(r.at)));
    expect(firstSecond).toBeGreaterThanOrEqual(lastFirst);
  } finally {
    batches.release();
  }
});

it('one file submitted through both replicas at once starts one job', async () => {
  const campaignId = seedCampaign(a, 'Double submit');
  const file = a.fake.addFile({ name: 'doble.csv', content: numbersCsv(10, 3000) });
  // Two people (one modal each), the same Slack file, through two replicas.
  const viewA = await openUploadModal(a, campaignId, 'U0ANA');
  const viewB = await openUploadModal(b, campaignId, 'U0BETO');
  // One starts (at once, or after "checking": upload.ts); the other is refused under the file input at once.
  const outcomes = await Promise.all([
    submitAndSettle(a, campaignId, viewA, file, { userId: 'U0ANA' }),
    submitAndSettle(b, campaignId, viewB, file, { userId: 'U0BETO' }),
  ]);
  expect(outcomes.filter((o) => o.started)).toHaveLength(1);
  const refused = outcomes.find((o) => !o.started)!;
  expect(refused.ack.viewResult).toMatchObject({ ok: true, action: 'errors' });
  expect(refused.refusal).toMatch(/already being checked for this campaign|already being uploaded into this campaign/);
  expect(blocksText(await waitForSummary(a, campaignId, file.id, 20_000))).toContain('Upload finished');
  const jobs = await jobsOf(a.app.deps.store).list({ prefix: `${campaignId}:` });
  expect(jobs).toHaveLength(1);
  expect(simContacts(a, campaignId)).toHaveLength(10);
  // One progress message for the file.
  const messages = a.fake.allMessages().filter((m) => m.text.includes('doble.csv'));
  expect(messages).toHaveLength(1);
});
