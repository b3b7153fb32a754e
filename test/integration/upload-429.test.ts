/**
 * A storm of 429s from the outreach service during an upload: the upload waits (the message says why) and tries the
 * same batches again with the same keys, more times than the client's own retries, and loses nothing.
 */
import { startTestApp, type TestApp } from '../support/test-app.js';
import {
  blocksText,
  contactPosts,
  job,
  numbersCsv,
  openUploadModal,
  seedCampaign,
  simContacts,
  submitUpload,
  waitForSummary,
} from '../support/upload.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({
    start: { upload: { batchSize: 25, progressIntervalMs: 100, retryBaseMs: 300, retryMaxMs: 600 } },
  });
});
afterAll(async () => t.close());

it('slows down under a 429 storm but adds every contact once', async () => {
  const campaignId = seedCampaign(t, 'Storm');
  const rows = 200;
  const file = t.fake.addFile({ name: 'storm.csv', content: numbersCsv(rows, 5000) });
  // More 429s in a row than the client retries one request (5 tries), so whole batches fail and are tried again.
  t.sim.control.injectFaults([
    { status: 429, count: 1, match: /^POST .*\/contacts$/, retryAfter: 1 },
    { status: 429, count: 30, match: /^POST .*\/contacts$/, retryAfter: 0 },
  ]);
  await submitUpload(t, await openUploadModal(t, campaignId), file);
  const message = await waitForSummary(t, campaignId, file.id, 20_000);

  const posts = contactPosts(t, campaignId);
  expect(posts.filter((r) => r.status === 429)).toHaveLength(31);
  const numbers = simContacts(t, campaignId).map((c) => c.contact);
  expect(numbers).toHaveLength(rows);
  expect(new Set(numbers).size).toBe(rows);
  // Each batch was applied once: the answered requests are one per batch (replays aside).
  const applied = posts.filter((r) => r.status === 200 && !r.replayed);
  expect(new Set(applied.map((r) => r.headers['idempotency-key'])).size).toBe(applied.length);
  expect(applied).toHaveLength(rows / 25);

  expect(await job(t, campaignId, file.id)).toMatchObject({ status: 'done', counts: { sent: rows, created: rows } });
  expect(blocksText(message)).toContain('Upload finished');
  // While it waited, the message said so.
  const updates = t.fake.calls('chat.update').filter((c) => c.args.ts === message.ts);
  expect(updates.some((u) => JSON.stringify(u.args).includes('not taking contacts right now'))).toBe(true);
});
