/**
 * Hostile contact files against the app as production runs it (bench/support/app-harness.ts): each uploaded through
 * the modal while another person sends `/campaign help` every 100 ms. Prints, per file: what became of it, how
 * long it took, the event loop's longest block in the app meanwhile (target ≤ 100 ms), the other person's slowest
 * ack (Slack's limit is 3 s), and whether any temp file of the app was left behind.
 *
 * The files are those of test/integration/upload-hostile.test.ts: a header of 200,000 commas, 250 named columns, a 1 MB XLSX
 * whose sheet unpacks to 300 MB, shared strings that lie about their size, cells of 1 MB, one 2 MB shared string in
 * each of 20,000 rows, and 2,000,000 rows without a number (UPLOAD_MAX_ROWS raised so it is read to the end).
 *
 *   npm run bench -- hostile         (BENCH_LOG=info shows the app's logs)
 */
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { UploadJob } from '../src/slack/upload/jobs.js';
import { uploadJobId } from '../src/slack/upload/jobs.js';
import {
  longCellsCsv,
  namedColumnsCsv,
  rejectedRowsCsv,
  sharedStringsXml,
  sheetXml,
  wideHeaderCsv,
  xlsxWith,
} from '../test/support/hostile-files.js';
import { stateValue } from '../src/emulator/slack-driver.js';
import { seedCampaign, startBenchStack } from './support/app-harness.js';

const UPLOADER = 'U0BENCH';
const OTHER = 'U0OTHER';
const MB = 1024 * 1024;

async function bomb(): Promise<Buffer> {
  const row = Buffer.from(
    '<row r="2"><c r="A2"><v>5540000002</v></c><c r="B2" t="s"><v>0</v></c></row>'.repeat(15_000),
  );
  return xlsxWith({
    sheet: function* () {
      yield Buffer.from('<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>');
      for (let i = 0; i < Math.ceil((300 * MB) / row.length); i++) yield row;
      yield Buffer.from('</sheetData></worksheet>');
    },
    strings: () => sharedStringsXml(1, 10),
  });
}

async function liar(): Promise<Buffer> {
  const block = Buffer.from(`<si><t>${'a'.repeat(MB)}</t></si>`);
  return xlsxWith({
    sheet: () => sheetXml(3),
    strings: function* () {
      yield Buffer.from('<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">');
      for (let i = 0; i < 300; i++) yield block;
      yield Buffer.from('</sst>');
    },
    stringsDeclare: 1024,
  });
}

const FILES: { name: string; what: string; make: () => Buffer | Promise<Buffer> }[] = [
  { name: 'wide.csv', what: 'header of 200,000 commas, 200 rows', make: () => wideHeaderCsv(200_000, 200) },
  { name: 'columns.csv', what: '250 named columns', make: () => namedColumnsCsv(250) },
  { name: 'bomb.xlsx', what: '1 MB XLSX, sheet unpacks to 300 MB', make: bomb },
  { name: 'liar.xlsx', what: 'shared strings say 1 KB, unpack to 300 MB', make: liar },
  { name: 'cells.csv', what: '5 cells of 1 MB among 20 rows', make: () => longCellsCsv(5, 1_000_000, 20) },
  {
    name: 'amplified.xlsx',
    what: 'a 2 MB shared string in each of 20,000 rows',
    make: () => xlsxWith({ sheet: () => sheetXml(20_000), strings: () => sharedStringsXml(1, 2 * MB) }),
  },
  { name: 'millions.csv', what: '2,000,000 rows without a number', make: () => rejectedRowsCsv(2_000_000) },
];

async function main(): Promise<void> {
  const { sim, fake, app, driver, close } = await startBenchStack('hostile', {
    ADMIN_USER_IDS: UPLOADER,
    UPLOAD_MAX_BYTES: String(20 * MB),
    UPLOAD_MAX_ROWS: '2500000',
  });
  const appPid = app.child.pid!;
  const tempOfApp = () =>
    readdirSync(tmpdir()).filter((n) => n.startsWith(`outreach-upload-${appPid}-`) || n.startsWith(`tmp-${appPid}-`));
  let failed = 0;
  try {
    console.log(
      `${'file'.padEnd(16)}${'size'.padStart(9)}  ${'time'.padStart(7)}  ${'longest block'.padStart(13)}  ${'slowest ack'.padStart(11)}  temp  outcome`,
    );
    for (const f of FILES) {
      const content = await f.make();
      const campaignId = await seedCampaign(sim, `Hostile ${f.name}`);
      const file = fake.addFile({ name: f.name, content });
      const seen = new Set(fake.openViews(UPLOADER).map((v) => v.id));
      await driver.command(`upload ${campaignId}`, { userId: UPLOADER });
      const view = await fake.waitFor(
        () => fake.openViews(UPLOADER).find((v) => v.callback_id === 'campaign_upload' && !seen.has(v.id)),
        5000,
      );
      let done = false;
      const acks: number[] = [];
      const other = (async () => {
        while (!done) {
          const r = await driver.command('help', { userId: OTHER });
          acks.push(r.respondedAt - r.sentAt);
          await new Promise((res) => setTimeout(res, 100));
        }
      })();
      await app.ask({ type: 'loop' }, 'loop');
      const started = performance.now();
      const ack = await driver.viewSubmission({
        viewId: String(view.id),
        values: { file: { file: stateValue.files([file]) } },
      });
      let outcome: string;
      const refusal = (ack.json as { errors?: Record<string, string> } | undefined)?.errors?.file;
      if (refusal) outcome = `refused: ${refusal}`;
      else {
        const id = uploadJobId(campaignId, file.id);
        let job: UploadJob | null = null;
        for (;;) {
          job = (await app.ask<{ job: UploadJob | null }>({ type: 'job', id }, 'job')).job;
          if (job && job.status !== 'running') break;
          if (!job && performance.now() - started > 30_000) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        if (!job) {
          const v = fake.view(String(view.id));
          const text = ((v?.blocks ?? []) as { text?: { text?: string } }[]).map((b) => b.text?.text ?? '').join(' ');
          outcome = `refused: ${text}`;
        } else {
          outcome =
            `${job.status}: ${job.counts.created} added, ${job.counts.failed + job.rejected} not added` +
            (job.stopReason ? ` (${job.stopReason})` : '');
        }
      }
      const ms = performance.now() - started;
      const loop = await app.ask<{ maxMs: number }>({ type: 'loop' }, 'loop');
      done = true;
      await other;
      // The job's end is saved after its temp directory is removed; a refusal removes it before answering.
      const left = tempOfApp();
      const slowest = Math.max(...acks);
      const ok = loop.maxMs <= 100 && slowest < 3000 && left.length === 0;
      if (!ok) failed++;
      console.log(
        `${f.name.padEnd(16)}${`${(content.length / MB).toFixed(1)} MB`.padStart(9)}  ${`${(ms / 1000).toFixed(1)} s`.padStart(7)}  ` +
          `${`${loop.maxMs.toFixed(1)} ms`.padStart(13)}  ${`${slowest.toFixed(0)} ms`.padStart(11)}  ` +
          `${left.length === 0 ? 'none' : `${left.length} LEFT`}  ${outcome.replace(/\s+/g, ' ').slice(0, 150)}`,
      );
      console.log(`${''.padEnd(16)}(${f.what})${ok ? '' : '  MISSED'}`);
    }
    const end = await app.ask<{ maxRssKb: number }>({ type: 'stop' }, 'stopped');
    console.log(
      `app peak RSS over all files: ${(end.maxRssKb / 1024).toFixed(0)} MB; targets: block ≤ 100 ms, ack < 3 s, no temp file left`,
    );
    if (failed) process.exitCode = 1;
  } finally {
    await close();
  }
}

await main();
