/**
 * The limits around uploads: rows per file (the rest is not read, and the person is told from which row to go
 * on), characters per cell and per row (those rows refused, naming the column), how many uploads run at once and
 * one per campaign (the others wait and say so), and a job the app keeps stopping in (a crash loop) stopped after
 * 3 resumes without progress, its uploader told by DM. Temp files are gone after each.
 */
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { startTestApp, type TestApp } from '../support/test-app.js';
import {
  ADMIN,
  blocksText,
  contactPosts,
  job,
  numbersCsv,
  openUploadModal,
  seedCampaign,
  simContacts,
  submitAndSettle,
  waitForSummary,
  until,
} from '../support/upload.js';

let t: TestApp;
const MAX_ROWS = 25;

beforeAll(async () => {
  t = await startTestApp({
    env: {
      ADMIN_USER_IDS: ADMIN,
      UPLOAD_MAX_ROWS: String(MAX_ROWS),
      UPLOAD_MAX_CELL_CHARS: '100',
      UPLOAD_CONCURRENCY: '2',
    },
    start: { upload: { batchSize: 5, concurrency: 1, progressIntervalMs: 1000, retryBaseMs: 20, retryMaxMs: 100 } },
  });
});
afterAll(async () => t.close());

const tempLeft = () => readdirSync(tmpdir()).filter((n) => n.startsWith(`outreach-upload-${process.pid}-`));

async function upload(campaignId: number, name: string, content: string) {
  const file = t.fake.addFile({ name, content });
  expect((await submitAndSettle(t, campaignId, await openUploadModal(t, campaignId), file)).started).toBe(true);
  return file;
}

describe('rows and characters', () => {
  it('reads up to UPLOAD_MAX_ROWS rows, sends them, and says from which row the rest was not read', async () => {
    const campaignId = seedCampaign(t, 'Row cap');
    const file = await upload(campaignId, 'largo.csv', numbersCsv(40));
    const text = blocksText(await waitForSummary(t, campaignId, file.id));
    expect(text).toContain('Upload stopped');
    expect(text).toContain(
      `The file has more rows than the ${MAX_ROWS} one upload reads: the rows up to row ${MAX_ROWS + 1} were read, ` +
        `and row ${MAX_ROWS + 2} and the rows after it were not. Put those rows in another file`,
    );
    expect(simContacts(t, campaignId)).toHaveLength(MAX_ROWS);
    expect(await job(t, campaignId, file.id)).toMatchObject({ status: 'stopped', rowsRead: MAX_ROWS });
    expect(tempLeft()).toEqual([]);
  }, 60_000);

  it('refuses a row with a cell over UPLOAD_MAX_CELL_CHARS, or four times that in all, naming the column', async () => {
    const campaignId = seedCampaign(t, 'Cell cap');
    const long = 'n'.repeat(150);
    const wide = 'w'.repeat(90);
    const content = [
      'Teléfono,Notas,A,B,C,D',
      `5550000001,${long},,,,`,
      `5550000002,${wide},${wide},${wide},${wide},${wide}`,
      '5550000003,corta,,,,',
    ].join('\n');
    const file = await upload(campaignId, 'celdas.csv', content);
    const text = blocksText(await waitForSummary(t, campaignId, file.id));
    expect(text).toContain('2 rows with a value too long');
    expect(simContacts(t, campaignId).map((c) => c.contact)).toEqual(['+525550000003']);
    const report = t.fake.uploadedFiles().find((f) => f.name === 'failed-rows-celdas.csv')!;
    const csv = report.bytes.toString('utf8');
    expect(csv).toContain(
      '2,5550000001,"the value in column ""Notas"" has 150 characters; a cell may have at most 100',
    );
    expect(csv).toContain('3,5550000002,the row has 460 characters in all; a row may have at most 400');
    expect(report.channel).toBe(t.fake.dmChannel(ADMIN));
  }, 60_000);
});

describe('uploads take turns', () => {
  it('runs two at once and one per campaign; the others wait, say why, and start by themselves', async () => {
    const [c1, c2, c3] = [seedCampaign(t, 'Turn 1'), seedCampaign(t, 'Turn 2'), seedCampaign(t, 'Turn 3')];
    // Every batch is held at the service until the waiting ones were seen: the first two cannot finish meanwhile,
    // however long each submission takes on a loaded machine.
    const batches = t.sim.control.hold(/\/contacts$/);
    try {
      // Every version of the job's progress message (posted, then updated): a wait is seen however short it was,
      // even if the job already started by the time this looks.
      const versionsOf = async (campaignId: number, fileId: string) => {
        const j = await job(t, campaignId, fileId);
        if (!j?.messageTs) return [];
        return [
          ...t.fake
            .calls('chat.postMessage')
            .filter((c) => (c.response as { ts?: string } | undefined)?.ts === j.messageTs),
          ...t.fake.calls('chat.update').filter((c) => c.args.ts === j.messageTs && c.args.channel === j.channelId),
        ].map((c) => blocksText(c.args as { blocks?: unknown[]; text?: string }));
      };
      const saidWaiting = (campaignId: number, fileId: string, why: string) =>
        until(async () => (await versionsOf(campaignId, fileId)).find((text) => text.includes(why)), 30_000).catch(
          async (err: Error) => {
            // What its message said instead, and which messages said they wait: to tell what happened.
            const short = (texts: string[]) => JSON.stringify(texts.map((x) => x.slice(0, 300)));
            const waiting = [...t.fake.calls('chat.postMessage'), ...t.fake.calls('chat.update')]
              .map((c) => blocksText(c.args as { blocks?: unknown[]; text?: string }))
              .filter((x) => x.includes('Waiting'));
            throw new Error(
              `${err.message} for "${why}"; its message said ${short(await versionsOf(campaignId, fileId))}; ` +
                `messages saying they wait: ${short(waiting)}`,
            );
          },
        );
      const a = await upload(c1, 'a.csv', numbersCsv(20, 5000));
      const b = await upload(c2, 'b.csv', numbersCsv(20, 6000));
      // Both are sending their batches before the third comes (on a loaded machine one may still be starting, and the
      // third would take its place and never wait).
      await until(async () => batches.held() === 2, 20_000);
      const c = await upload(c3, 'c.csv', numbersCsv(20, 7000));
      const turn = 'Waiting for its turn: 2 uploads are running';
      expect(await saidWaiting(c3, c.id, turn)).toContain(turn);
      const d = await upload(c1, 'd.csv', numbersCsv(20, 8000));
      const oneAtATime =
        'Waiting: the upload of *a.csv* into this campaign has to finish first (one upload per campaign at a time)';
      expect(await saidWaiting(c1, d.id, oneAtATime)).toContain(oneAtATime);
      // Still only the first two sending.
      expect(batches.held()).toBe(2);
      batches.release();
      for (const [campaignId, f] of [
        [c1, a],
        [c2, b],
        [c3, c],
        [c1, d],
      ] as const) {
        expect(blocksText(await waitForSummary(t, campaignId, f.id, 40_000))).toContain('Upload finished');
      }
      expect(simContacts(t, c1)).toHaveLength(40);
      // d's first batch went after a's last was answered; c's after a or b had ended.
      const posts = contactPosts(t, c1);
      const keyOf = (fileId: string) => (r: (typeof posts)[number]) => {
        const rows = (r.body as { contacts: { contact: string }[] }).contacts.map((x) => x.contact);
        return fileId === a.id ? rows.some((x) => x.includes('5510005')) : rows.some((x) => x.includes('5510008'));
      };
      const lastA = Math.max(...posts.filter(keyOf(a.id)).map((r) => Date.parse(r.at)));
      const firstD = Math.min(...posts.filter(keyOf(d.id)).map((r) => Date.parse(r.at)));
      expect(firstD).toBeGreaterThanOrEqual(lastA);
    } finally {
      batches.release();
    }
    expect(tempLeft()).toEqual([]);
  }, 90_000);
});

describe('a job the app keeps stopping in', () => {
  it('is stopped after 3 resumes without progress, and its uploader is told by DM why', async () => {
    const campaignId = seedCampaign(t, 'Crash loop');
    // No batch is ever answered before the app stops again: each is held at the service, and never carried out.
    const batches = t.sim.control.hold(/\/contacts$/);
    const downloads = (fileId: string) => t.fake.calls('download').filter((c) => c.args.file === fileId).length;
    const updatesOf = async (fileId: string) => {
      const ts = (await job(t, campaignId, fileId))?.messageTs;
      return t.fake.calls('chat.update').filter((c) => c.args.ts === ts);
    };
    /** The progress message shows rows read: the file is being read and its first batch sent. */
    const reading = (fileId: string, updatesBefore: number) =>
      until(async () => {
        const updates = (await updatesOf(fileId)).slice(updatesBefore);
        return updates.some((u) => /\*Rows read\*\\n[1-9]/.test(JSON.stringify(u.args.blocks))) ? true : undefined;
      }, 30_000);
    try {
      const file = await upload(campaignId, 'bucle.csv', numbersCsv(20, 9000));
      await reading(file.id, 0);
      for (let resume = 1; resume <= 3; resume++) {
        const before = (await updatesOf(file.id)).length;
        await t.restart();
        await reading(file.id, before);
        expect(await job(t, campaignId, file.id)).toMatchObject({
          status: 'running',
          resumes: resume,
          stalledResumes: resume,
          nextBatch: 0,
        });
      }
      const downloadsBefore = downloads(file.id);
      const dmBefore = t.fake.messages(t.fake.dmChannel(ADMIN) ?? 'none').length;
      await t.restart();
      const text = blocksText(await waitForSummary(t, campaignId, file.id));
      expect(text).toContain('Upload stopped');
      expect(text).toContain('The app stopped 4 times while this upload was running');
      // Started a fourth time after a restart, and stopped there instead of being read a fourth time.
      expect(await job(t, campaignId, file.id)).toMatchObject({ status: 'stopped', resumes: 4, stalledResumes: 3 });
      // Not read again.
      expect(downloads(file.id)).toBe(downloadsBefore);
      // The DM follows the summary (it is sent once the stop is saved), so wait for it rather than read at once.
      const dms = await t.fake.waitFor(() => {
        const sent = t.fake.messages(t.fake.dmChannel(ADMIN) ?? 'none').slice(dmBefore);
        return sent.length > 0 ? sent : undefined;
      }, 20_000);
      expect(dms.map((m) => m.text).join('\n')).toMatch(
        /Your upload \*bucle\.csv\* into \*Crash loop\* \(#\d+\) was stopped\. The app stopped 4 times/,
      );
      expect(tempLeft()).toEqual([]);
    } finally {
      // The stopped runs' batches are answered 503 and never carried out.
      batches.drop();
    }
  }, 90_000);
});
