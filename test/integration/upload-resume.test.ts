/**
 * The app stops in the middle of an upload and starts again on the same state file: the upload goes on from the
 * first batch the service had not answered, says so in its message, and no contact is sent or created twice.
 */
import { batchIdempotencyKey } from '../../src/contacts/index.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import {
  blocksText,
  CHANNEL,
  contactPosts,
  job,
  numbersCsv,
  openUploadModal,
  seedCampaign,
  simContacts,
  submitUpload,
  waitForSummary,
  until,
} from '../support/upload.js';

let t: TestApp;
const BATCH = 10;
const ROWS = 120;
const BATCHES = ROWS / BATCH;

beforeAll(async () => {
  t = await startTestApp({
    start: { upload: { batchSize: BATCH, concurrency: 2, progressIntervalMs: 100, retryBaseMs: 20 } },
  });
});
afterAll(async () => t.close());

it('resumes after a restart from the first unanswered batch, without duplicates', async () => {
  const campaignId = seedCampaign(t, 'Restart');
  // Slow batches, so the restart falls in the middle.
  t.sim.control.setLatencyMs(120, /\/contacts$/);
  const file = t.fake.addFile({ name: 'many.csv', content: numbersCsv(ROWS) });
  await submitUpload(t, await openUploadModal(t, campaignId), file);
  await until(async () => ((await job(t, campaignId, file.id))?.nextBatch ?? 0) >= 3, 10_000);

  await t.restart();
  const atRestart = (await job(t, campaignId, file.id))!;
  expect(atRestart.status).toBe('running');
  expect(atRestart.nextBatch).toBeGreaterThanOrEqual(3);
  expect(atRestart.nextBatch).toBeLessThan(BATCHES);
  const postsBefore = contactPosts(t, campaignId).length;
  t.sim.control.setLatencyMs(0, /\/contacts$/);

  const message = await waitForSummary(t, campaignId, file.id);

  // Every number once, all of them.
  const numbers = simContacts(t, campaignId).map((c) => c.contact);
  expect(numbers).toHaveLength(ROWS);
  expect(new Set(numbers).size).toBe(ROWS);

  // Batches answered before the restart were not sent again.
  const after = contactPosts(t, campaignId).slice(postsBefore);
  const keysAfter = after.map((r) => r.headers['idempotency-key']);
  for (let i = 0; i < atRestart.nextBatch; i++) {
    expect(keysAfter).not.toContain(batchIdempotencyKey(file.id, campaignId, i));
  }
  // Every batch reached the service with its own key; a batch in flight at the stop went again with the same key.
  const allKeys = new Set(contactPosts(t, campaignId).map((r) => r.headers['idempotency-key']));
  for (let i = 0; i < BATCHES; i++) expect(allKeys).toContain(batchIdempotencyKey(file.id, campaignId, i));
  expect(allKeys.size).toBe(BATCHES);

  const done = (await job(t, campaignId, file.id))!;
  expect(done).toMatchObject({ status: 'done', nextBatch: BATCHES, resumes: 1, resumedAfterRow: atRestart.lastRow });
  expect(done.counts).toMatchObject({ sent: ROWS, created: ROWS, skipped: 0, failed: 0 });

  // One message, updated in place across the restart, saying where it resumed.
  expect(message.ts).toBe(atRestart.messageTs);
  expect(t.fake.messages(CHANNEL).filter((m) => /many\.csv/.test(m.text))).toHaveLength(1);
  const text = blocksText(message);
  expect(text).toContain('Upload finished');
  expect(text).toContain(`resumed after row ${atRestart.lastRow}`);
  expect(text).toMatch(/\*Created\*\\n120/);

  // The message was rewritten at most once per interval, before and after the restart, with a progress bar.
  const updates = t.fake.calls('chat.update').filter((c) => c.args.ts === message.ts);
  expect(updates.length).toBeGreaterThan(3);
  const progress = updates.map((u) => JSON.stringify(u.args.blocks)).filter((b) => b.includes('is uploading'));
  expect(progress.some((b) => /▓+░+` \d{1,2}%/.test(b))).toBe(true);
  expect(progress.some((b) => b.includes('The app restarted during this upload'))).toBe(true);
  for (let i = 1; i < updates.length; i++) expect(updates[i]!.at - updates[i - 1]!.at).toBeGreaterThanOrEqual(95);
});

it('downloads the file again when Slack fails to send it on resume', async () => {
  const campaignId = seedCampaign(t, 'Retry download');
  t.sim.control.setLatencyMs(120, /\/contacts$/);
  const file = t.fake.addFile({ name: 'again.csv', content: numbersCsv(60, 3000) });
  await submitUpload(t, await openUploadModal(t, campaignId), file);
  await until(async () => ((await job(t, campaignId, file.id))?.nextBatch ?? 0) >= 2, 10_000);
  t.fake.failNext('download', { status: 503 });
  const downloadsBefore = t.fake.calls('download').filter((c) => c.args.file === file.id).length;
  await t.restart();
  t.sim.control.setLatencyMs(0, /\/contacts$/);

  expect(blocksText(await waitForSummary(t, campaignId, file.id))).toContain('Upload finished');
  const downloads = t.fake.calls('download').filter((c) => c.args.file === file.id);
  expect(downloads.slice(downloadsBefore).map((d) => d.status)).toEqual([503, 200]);
  expect(simContacts(t, campaignId)).toHaveLength(60);
});

describe('an upload that cannot go on stops, says why, and keeps what was sent', () => {
  it('the file was deleted from Slack before the upload could resume', async () => {
    const campaignId = seedCampaign(t, 'Gone');
    t.sim.control.setLatencyMs(120, /\/contacts$/);
    const file = t.fake.addFile({ name: 'gone.csv', content: numbersCsv(60, 1000) });
    await submitUpload(t, await openUploadModal(t, campaignId), file);
    await until(async () => ((await job(t, campaignId, file.id))?.nextBatch ?? 0) >= 2, 10_000);
    t.fake.failNext('files.info', 'file_not_found');
    await t.restart();
    t.sim.control.setLatencyMs(0, /\/contacts$/);
    const sent = (await job(t, campaignId, file.id))!.counts.sent;

    const text = blocksText(await waitForSummary(t, campaignId, file.id));
    expect(text).toContain('Upload stopped');
    expect(text).toContain('Slack no longer has this file');
    expect(text).toContain(`The ${sent} contacts the service confirmed before are in the campaign`);
    expect(await job(t, campaignId, file.id)).toMatchObject({ status: 'stopped', counts: { sent } });
    // Batches in flight when the app stopped may have been applied too (the service never said): at most two.
    const added = simContacts(t, campaignId).length;
    expect(added).toBeGreaterThanOrEqual(sent);
    expect(added).toBeLessThanOrEqual(sent + 2 * BATCH);
  });

  it('the campaign finished in the middle of the upload', async () => {
    const campaignId = seedCampaign(t, 'Ends');
    t.sim.control.setLatencyMs(120, /\/contacts$/);
    const file = t.fake.addFile({ name: 'ends.csv', content: numbersCsv(60, 2000) });
    await submitUpload(t, await openUploadModal(t, campaignId), file);
    await until(async () => ((await job(t, campaignId, file.id))?.nextBatch ?? 0) >= 2, 10_000);
    t.sim.control.setCampaignStatus(campaignId, 'finished');
    t.sim.control.setLatencyMs(0, /\/contacts$/);

    const text = blocksText(await waitForSummary(t, campaignId, file.id));
    const j = (await job(t, campaignId, file.id))!;
    expect(j.status).toBe('stopped');
    expect(text).toContain('Upload stopped');
    expect(text.toLowerCase()).toContain('finished');
    // Every batch was answered: the confirmed ones added, the later ones refused as the campaign is finished.
    expect(simContacts(t, campaignId)).toHaveLength(j.counts.sent);
    expect(j.counts.sent).toBeLessThan(60);
  });
});
