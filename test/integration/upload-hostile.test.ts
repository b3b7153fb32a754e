/**
 * Hostile contact files, uploaded through the real modal while another person keeps typing `/campaign help`: each
 * is refused or finished with a message that says what was wrong, that person's acks stay far under Slack's 3 s,
 * the app stays up, and no temp file is left behind (the upload's own directory, exceljs's spools).
 *
 * Measured on the code before: a 0.2 MB header of 200,000 commas blocked the event loop 17 s; a 1 MB XLSX made
 * exceljs spool a 1 GB temp file; long shared strings ran the process out of heap; millions of rejected rows were
 * kept in memory and the report built in one 10 s block.
 */
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  longCellsCsv,
  namedColumnsCsv,
  rejectedRowsCsv,
  sharedStringsXml,
  sheetXml,
  wideHeaderCsv,
  xlsxWith,
} from '../support/hostile-files.js';
import type { ViewSubmissionResult } from '../../src/emulator/slack-driver.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import {
  ADMIN,
  blocksText,
  CHANNEL,
  job,
  openUploadModal,
  seedCampaign,
  simContacts,
  submitUpload,
  waitForSummary,
} from '../support/upload.js';

/** Someone else in the workspace, using the app while the upload runs. */
const OTHER = 'U0OTHER';
const MB = 1024 * 1024;

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({
    env: {
      ADMIN_USER_IDS: ADMIN,
      UPLOAD_MAX_BYTES: String(20 * MB),
      // The file of millions of rows is read to its end: its report is what is under test.
      UPLOAD_MAX_ROWS: '2500000',
    },
    start: { upload: { progressIntervalMs: 200, retryBaseMs: 20, retryMaxMs: 100 } },
  });
});
afterAll(async () => t.close());

/** Temp files of this process: upload directories, and the temp files exceljs spools worksheets into. */
function tempLeft(): string[] {
  return readdirSync(tmpdir()).filter(
    (n) => n.startsWith(`outreach-upload-${process.pid}-`) || n.startsWith(`tmp-${process.pid}-`),
  );
}

interface Outcome {
  ack: ViewSubmissionResult;
  /** The text under the file input, when the file was refused there. */
  refusal?: string;
  /** The summary message, when the upload ran. */
  summary?: string;
  campaignId: number;
  fileId: string;
  /** Ack times of the other person's `/campaign help`, ms. */
  acks: number[];
  /** Longest event-loop block seen while it ran, ms (the app runs in this process). */
  longestBlockMs: number;
  /** Upload directories and spools seen while it ran. */
  tempSeen: string[];
}

async function hostileUpload(name: string, content: Buffer, timeoutMs = 60_000): Promise<Outcome> {
  const campaignId = seedCampaign(t, `Hostile ${name}`);
  const viewId = await openUploadModal(t, campaignId);
  const file = t.fake.addFile({ name, content });
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const acks: number[] = [];
  const tempSeen = new Set<string>();
  let done = false;
  const otherPerson = (async () => {
    while (!done) {
      const r = await t.driver.command('help', { userId: OTHER, channelId: CHANNEL });
      expect(r.status).toBe(200);
      acks.push(r.respondedAt - r.sentAt);
      for (const f of tempLeft()) tempSeen.add(f);
      await sleep(150);
    }
  })();
  loop.enable();
  const out = { campaignId, fileId: file.id, acks } as Outcome;
  try {
    const ack = await submitUpload(t, viewId, file);
    out.ack = ack;
    if (ack.viewResult?.action === 'errors') {
      out.refusal = (ack.json as { errors: Record<string, string> }).errors.file;
    } else if (JSON.stringify(ack.json ?? '').includes('Checking')) {
      // Slow to check: the modal says "checking", then the outcome.
      const outcome = await t.fake.waitFor(() => {
        const blocks = (t.fake.view(viewId)?.blocks ?? []) as { text?: { text?: string } }[];
        const text = blocks.map((b) => b.text?.text ?? '').join('\n');
        return text.includes('Checking') ? undefined : text;
      }, timeoutMs);
      if (await job(t, campaignId, file.id))
        out.summary = blocksText(await waitForSummary(t, campaignId, file.id, timeoutMs));
      else out.refusal = outcome;
    } else {
      out.summary = blocksText(await waitForSummary(t, campaignId, file.id, timeoutMs));
    }
    // One more request after the end: the app is up and answers at once.
    const after = await t.driver.command('help', { userId: OTHER, channelId: CHANNEL });
    expect(after.status).toBe(200);
    acks.push(after.respondedAt - after.sentAt);
    return out;
  } finally {
    done = true;
    await otherPerson;
    loop.disable();
    out.longestBlockMs = loop.max / 1e6;
    out.tempSeen = [...tempSeen];
  }
}

/** What every hostile upload must show, whatever its outcome. */
async function expectHarmless(o: Outcome): Promise<void> {
  expect(o.acks.length).toBeGreaterThan(0);
  expect(Math.max(...o.acks)).toBeLessThan(3000);
  // Nothing of this upload left on disk (removal is awaited before the job ends; give a refusal's a moment).
  await t.fake.waitFor(() => (tempLeft().length === 0 ? true : undefined), 5000).catch(() => undefined);
  expect(tempLeft()).toEqual([]);
  // The longest block is measured over the whole upload; the ≤ 100 ms target is the bench's (npm run bench --
  // hostile), on a quiet machine. Here, with jest and the other suites on two cores, it must stay far from the
  // 3 s of a Slack ack, and far from the seconds of the code before.
  expect(o.longestBlockMs).toBeLessThan(1000);
}

const reportOf = (userId: string, fileName: string) =>
  t.fake.uploadedFiles().filter((f) => f.channel === t.fake.dmChannel(userId) && f.name === fileName);

describe('refused or finished with a clear message, the app answering everyone meanwhile', () => {
  it('a header of 200,000 commas: the blank columns are not columns, the contacts are read', async () => {
    // 200 rows: the code before built an object of 200,001 cells for each, seconds of blocked event loop.
    const o = await hostileUpload('wide.csv', wideHeaderCsv(200_000, 200));
    expect(o.summary).toContain('Upload finished');
    expect(simContacts(t, o.campaignId)).toHaveLength(200);
    await expectHarmless(o);
  });

  it('a header of 250 named columns: refused before anything is read, saying how many are allowed', async () => {
    const o = await hostileUpload('columns.csv', namedColumnsCsv(250));
    expect(o.refusal).toContain('"columns.csv" has 250 columns in its header row; at most 200 can be read');
    expect(await job(t, o.campaignId, o.fileId)).toBeUndefined();
    await expectHarmless(o);
  });

  it('an XLSX of 1 MB whose worksheet unpacks to 300 MB: refused from its ZIP directory, nothing spooled', async () => {
    const row = Buffer.from(
      '<row r="2"><c r="A2"><v>5540000002</v></c><c r="B2" t="s"><v>0</v></c></row>'.repeat(15_000),
    );
    const content = await xlsxWith({
      sheet: function* () {
        yield Buffer.from('<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>');
        for (let i = 0; i < Math.ceil((300 * MB) / row.length); i++) yield row;
        yield Buffer.from('</sheetData></worksheet>');
      },
      strings: () => sharedStringsXml(1, 10),
    });
    expect(content.length).toBeLessThan(2 * MB);
    const o = await hostileUpload('bomb.xlsx', content);
    expect(o.refusal).toMatch(/"bomb\.xlsx" unpacks to more than 100 MB, the most a workbook may hold here/);
    expect(o.refusal).toContain('CSV UTF-8');
    // exceljs used to write the sheet to a temp file before reading anything else.
    expect(o.tempSeen.filter((f) => f.startsWith('tmp-'))).toEqual([]);
    await expectHarmless(o);
  });

  it('an XLSX whose shared strings say 1 KB and unpack to 300 MB: refused when the lie shows', async () => {
    const block = Buffer.from('<si><t>'.concat('a'.repeat(MB), '</t></si>'));
    const content = await xlsxWith({
      sheet: () => sheetXml(3),
      strings: function* () {
        yield Buffer.from('<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">');
        for (let i = 0; i < 300; i++) yield block;
        yield Buffer.from('</sst>');
      },
      stringsDeclare: 1024,
    });
    const o = await hostileUpload('liar.xlsx', content);
    expect(o.refusal).toContain('"liar.xlsx"');
    expect(o.refusal).toContain(
      "can't be read: its part xl/sharedStrings.xml unpacks to more than its own header says",
    );
    await expectHarmless(o);
  });

  it('cells of a megabyte: those rows are not added, the report says which column and the limit', async () => {
    const o = await hostileUpload('notas.csv', longCellsCsv(5, 1_000_000, 20));
    expect(o.summary).toContain('Upload finished');
    expect(o.summary).toContain('5 rows with a value too long');
    expect(simContacts(t, o.campaignId)).toHaveLength(20);
    const [report] = reportOf(ADMIN, 'failed-rows-notas.csv');
    const csv = report!.bytes.toString('utf8');
    expect(csv).toContain('the value in column ""Notas"" has 1,000,000 characters; a cell may have at most 5,000');
    expect(csv.length).toBeLessThan(10_000);
    await expectHarmless(o);
  });

  it('one shared string of 2 MB in every row of an XLSX: no request of gigabytes, every row refused', async () => {
    const content = await xlsxWith({ sheet: () => sheetXml(20_000), strings: () => sharedStringsXml(1, 2 * MB) });
    const o = await hostileUpload('amplified.xlsx', content);
    expect(o.summary).toContain('Upload finished');
    expect(o.summary).toContain('20,000 rows with a value too long');
    expect(simContacts(t, o.campaignId)).toHaveLength(0);
    await expectHarmless(o);
  });

  it('2,000,000 rows without a number: finished, and the report lists the first 100,000 and says how many more', async () => {
    const o = await hostileUpload('millones.csv', rejectedRowsCsv(2_000_000), 240_000);
    expect(o.summary).toContain('Upload finished');
    expect(o.summary).toMatch(/\*Failed\*\\n2,000,000/);
    const [report] = reportOf(ADMIN, 'failed-rows-millones.csv');
    expect(report).toBeDefined();
    const lines = report!.bytes.toString('utf8').trimEnd().split('\r\n');
    expect(lines).toHaveLength(100_001);
    expect(lines[1]).toBe('2,x,no digits: not a phone number');
    expect(lines[100_000]).toBe('100001,x,no digits: not a phone number');
    expect(report!.initialComment).toContain('2,000,000 rows of *millones.csv*');
    expect(report!.initialComment).toContain(
      'The CSV lists the first 100,000 of them; the other 1,900,000 are not listed',
    );
    await expectHarmless(o);
  }, 300_000);

  it('a workbook that needs more memory than a reader may use ends the reader, not the app', async () => {
    const svc = t.app.services.uploads;
    const before = svc.tuning.readerResourceLimits;
    svc.tuning.readerResourceLimits = { maxOldGenerationSizeMb: 24, maxYoungGenerationSizeMb: 8 };
    try {
      // 60 MB of shared strings: within the 100 MB a workbook may unpack to, beyond this reader's heap.
      const content = await xlsxWith({ sheet: () => sheetXml(3), strings: () => sharedStringsXml(60, MB) });
      const o = await hostileUpload('heavy.xlsx', content);
      expect(o.refusal).toContain('"heavy.xlsx" needs more memory to read than an upload may use');
      await expectHarmless(o);
    } finally {
      svc.tuning.readerResourceLimits = before;
    }
  });
});
