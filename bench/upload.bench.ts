/**
 * Upload end to end: a 100,000-row CSV (Spanish headers, Mexican numbers in local formats, all distinct and valid,
 * so exactly 100 batches of 1,000) chosen in the upload modal, downloaded from a fake Slack, read in the app's
 * reader thread and sent to the simulator, which enforces the service's 12 requests per second.
 *
 * Prints, against their targets: the time from the modal's submission to the last batch answered over the floor
 * (100 batches at 12 per second = 8.3 s; target at most 1.05 times the floor), the app process's peak RSS (reader
 * thread included; target at most 150 MB), and the event loop's longest block while it ran (target at most 100 ms).
 * The wall time to the summary is printed too (the summary then waits for its turn to update the message).
 *
 * Three processes, so the figures are the app's own (bench/support/app-harness.ts). Parse + normalize speed without
 * the network is bench/parse.bench.ts; hostile files are bench/hostile.bench.ts.
 *
 *   npm run bench -- upload          (ROWS=200000 … for a bigger file; NODE_ARGS='--optimize-for-size' … to run
 *                                     the app with V8 flags; CONCURRENCY=2 … for fewer batches in flight)
 */
import type { UploadJob } from '../src/slack/upload/jobs.js';
import { uploadJobId } from '../src/slack/upload/jobs.js';
import { stateValue } from '../src/emulator/slack-driver.js';
import { NODE_ARGS, PER_SECOND, seedCampaign, startBenchStack } from './support/app-harness.js';

const ROWS = Number(process.env.ROWS ?? 100_000);
const BATCH = 1000;
/** Batches in flight (default: the app's, 4). */
const CONCURRENCY = process.env.CONCURRENCY ? Number(process.env.CONCURRENCY) : undefined;

/** Distinct valid Mexican mobile numbers written the ways people write them. */
function csv(rows: number): string {
  const lines = ['Nombre;Teléfono;Notas;Ciudad;folio'];
  const cities = ['CDMX', 'Guadalajara', 'Monterrey', 'Puebla', 'Mérida'];
  for (let i = 0; i < rows; i++) {
    const rest = String(10_000_000 + i).slice(-8);
    const style = i % 5;
    const phone =
      style === 0
        ? `55 ${rest.slice(0, 4)} ${rest.slice(4)}`
        : style === 1
          ? `(55) ${rest.slice(0, 4)}-${rest.slice(4)}`
          : style === 2
            ? `55${rest}`
            : style === 3
              ? `+52 1 55 ${rest}`
              : `+5255${rest}`;
    lines.push(`Persona ${i};${phone};cliente desde ${2000 + (i % 25)};${cities[i % cities.length]};F-${i}`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

async function main(): Promise<void> {
  const { sim, fake, app, driver, close } = await startBenchStack(
    'upload',
    { ADMIN_USER_IDS: 'U0BENCH' },
    CONCURRENCY ? { upload: { concurrency: CONCURRENCY } } : {},
  );
  try {
    const campaignId = await seedCampaign(sim, 'Bench upload');

    const content = csv(ROWS);
    const file = fake.addFile({ name: 'bench.csv', content });
    await driver.command(`upload ${campaignId}`, { userId: 'U0BENCH' });
    const view = await fake.waitFor(
      () => fake.openViews('U0BENCH').find((v) => v.callback_id === 'campaign_upload'),
      5000,
    );

    const id = uploadJobId(campaignId, file.id);
    const before = await app.ask<{ rssKb: number }>({ type: 'rss' }, 'rss');
    await app.ask({ type: 'loop' }, 'loop');
    const started = performance.now();
    const ack = await driver.viewSubmission({
      viewId: String(view.id),
      values: { file: { file: stateValue.files([file]) } },
    });
    let job: UploadJob | null = null;
    let lastBatchMs: number | undefined;
    for (;;) {
      job = (await app.ask<{ job: UploadJob | null }>({ type: 'job', id }, 'job')).job;
      if (!job && performance.now() - started > 10_000) {
        throw new Error(`no upload started; the modal answered ${ack.body} (BENCH_LOG=info shows the app's logs)`);
      }
      if (lastBatchMs === undefined && job && job.nextBatch >= Math.ceil(ROWS / BATCH)) {
        lastBatchMs = performance.now() - started;
      }
      if (job && job.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const wallMs = performance.now() - started;
    const loop = await app.ask<{ maxMs: number; p99Ms: number }>({ type: 'loop' }, 'loop');
    const end = await app.ask<{ maxRssKb: number }>({ type: 'stop' }, 'stopped');

    const batches = Math.ceil(ROWS / BATCH);
    const floorS = batches / PER_SECOND;
    const wallS = wallMs / 1000;
    const lastS = (lastBatchMs ?? wallMs) / 1000;
    const ratio = lastS / floorS;
    const peakMb = end.maxRssKb / 1024;
    const mb = (n: number) => `${n.toFixed(1)} MB`;
    console.log(
      `rows                 ${ROWS.toLocaleString('en-US')} (${mb(Buffer.byteLength(content) / 1048576)} CSV)`,
    );
    console.log(
      `job                  ${job.status}: sent ${job.counts.sent}, created ${job.counts.created}, ` +
        `not added ${job.counts.failed + job.rejected}, ${job.nextBatch} batches`,
    );
    console.log(`last batch answered  ${lastS.toFixed(2)} s after the submission`);
    console.log(`floor                ${floorS.toFixed(2)} s (${batches} batches at ${PER_SECOND}/s)`);
    console.log(`ratio                ${ratio.toFixed(3)} × floor (target ≤ 1.05) ${ratio <= 1.05 ? 'OK' : 'MISSED'}`);
    console.log(`wall time            ${wallS.toFixed(2)} s (to the summary, which waits for its turn to update)`);
    console.log(
      `app peak RSS         ${peakMb.toFixed(0)} MB (target ≤ 150) ${peakMb <= 150 ? 'OK' : 'MISSED'}; ` +
        `${(before.rssKb / 1024).toFixed(0)} MB before the upload`,
    );
    console.log(
      `event loop           longest block ${loop.maxMs.toFixed(1)} ms (target ≤ 100) ${loop.maxMs <= 100 ? 'OK' : 'MISSED'}; ` +
        `p99 ${loop.p99Ms.toFixed(1)} ms`,
    );
    console.log(`progress updates     ${fake.calls('chat.update').length} (chat.update)`);
    if (NODE_ARGS.length || CONCURRENCY)
      console.log(`settings             node ${NODE_ARGS.join(' ')} concurrency ${CONCURRENCY ?? 'default'}`);
    if (job.status !== 'done' || job.counts.created !== ROWS) process.exitCode = 1;
  } finally {
    await close();
  }
}

await main();
