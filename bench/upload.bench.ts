/**
 * Upload end to end: a 100,000-row CSV (Spanish headers, Mexican numbers in local formats, all distinct and valid,
 * so exactly 100 batches of 1,000) chosen in the upload modal, downloaded from a fake Slack, streamed through the
 * contacts pipeline and sent to the simulator, which enforces the service's 12 requests per second.
 *
 * Prints the wall time from the modal's submission to the end of the job against the floor (100 batches at 12 per
 * second = 8.3 s; target at most 1.15 times the floor) and the app process's peak RSS (target under 200 MB).
 *
 * Three processes, so the RSS figure is the app's own: the app runs as production runs it (compiled JavaScript,
 * built here with tsc into node_modules/.cache/upload-bench, about 15 s), the simulator (with its copy of the
 * 100,000 contacts) in a child, and this process plays Slack (the fake Web API holding the file, and the driver
 * sending signed requests). Parse + normalize speed without the network is bench/parse.bench.ts.
 *
 *   npm run bench -- upload          (ROWS=200000 … for a bigger file; NODE_ARGS='--optimize-for-size' … to run
 *                                     the app with V8 flags; CONCURRENCY=2 … for fewer batches in flight)
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { UploadJob } from '../src/slack/upload/jobs.js';
import { uploadJobId } from '../src/slack/upload/jobs.js';
import { startSimulator } from '../src/sim/index.js';
import { startFakeSlack } from '../test/support/fakeSlack.js';
import { SlackDriver, stateValue } from '../test/support/slackDriver.js';

const ROWS = Number(process.env.ROWS ?? 100_000);
const PER_SECOND = 12;
const BATCH = 1000;
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BUILD = join(ROOT, 'node_modules', '.cache', 'upload-bench');
const SIGNING_SECRET = 'bench-secret';
/**
 * Node/V8 flags for the app's process: by default those of `npm start` (read from package.json, so the bench measures
 * what runs in production); NODE_ARGS='' or other flags to compare deployment settings.
 */
const START_FLAGS = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }
).scripts.start
  .split(' ')
  .filter((t) => t.startsWith('--'));
const NODE_ARGS = (process.env.NODE_ARGS ?? START_FLAGS.join(' ')).split(' ').filter(Boolean);
/** Batches in flight (default: the app's, 4). */
const CONCURRENCY = process.env.CONCURRENCY ? Number(process.env.CONCURRENCY) : undefined;

/** The app's process: compiled src/main.js started with a config, answering questions over IPC. */
const APP_CHILD = `
const build = process.env.BENCH_BUILD;
const { loadConfig } = await import(build + '/src/config.js');
const { startApp } = await import(build + '/src/main.js');
const { jobsOf } = await import(build + '/src/slack/upload/jobs.js');
const opts = JSON.parse(process.env.BENCH_APP);
const app = await startApp({ ...loadConfig(opts.env), port: 0 }, opts.start);
const rss = () => ({ rssKb: Math.round(process.memoryUsage().rss / 1024), maxRssKb: process.resourceUsage().maxRSS });
process.on('message', async (m) => {
  if (m.type === 'job') process.send({ type: 'job', job: jobsOf(app.deps.store).get(m.id) ?? null });
  if (m.type === 'rss') process.send({ type: 'rss', ...rss() });
  if (m.type === 'stop') {
    const r = rss();
    await app.stop();
    process.send({ type: 'stopped', ...r }, () => process.exit(0));
  }
});
process.send({ type: 'ready', port: app.port, ...rss() });
`;

interface AppChild {
  port: number;
  ask<T>(msg: { type: string; id?: string }, answer: string): Promise<T>;
  child: ChildProcess;
}

function build(): void {
  const r = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-p',
      join(ROOT, 'tsconfig.build.json'),
      '--outDir',
      BUILD,
    ],
    { stdio: 'inherit' },
  );
  // tsc emits even when some file of the tree (someone else's work in progress) has a type error.
  if (r.status !== 0) console.warn(`(tsc reported type errors, exit ${r.status}; using what it emitted)`);
}

async function startAppChild(env: Record<string, string>, start: Record<string, unknown>): Promise<AppChild> {
  const child = spawn(process.execPath, [...NODE_ARGS, '--input-type=module', '-e', APP_CHILD], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, BENCH_BUILD: pathToFileURL(BUILD).href, BENCH_APP: JSON.stringify({ env, start }) },
  });
  const waitFor = <T>(type: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (m: { type: string }) => {
        if (m.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(m as T);
      };
      const onExit = (code: number | null) => reject(new Error(`the app exited with ${code}`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const ready = await waitFor<{ port: number }>('ready');
  return {
    port: ready.port,
    child,
    ask<T>(msg: { type: string; id?: string }, answer: string) {
      const p = waitFor<T>(answer);
      child.send(msg);
      return p;
    },
  };
}

interface SimHandle {
  baseUrl: string;
  origin: string;
  apiKey: string;
  child: ChildProcess;
}

async function startSimChild(): Promise<SimHandle> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--sim'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`simulator exited with ${code}`)));
  });
  return { ...(JSON.parse(line) as Omit<SimHandle, 'child'>), child };
}

async function control<T>(sim: SimHandle, method: string, arg: unknown): Promise<T> {
  const res = await fetch(`${sim.origin}/_sim/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(arg),
  });
  if (!res.ok) throw new Error(`/_sim/${method}: HTTP ${res.status} ${await res.text()}`);
  return ((await res.json()) as { result: T }).result;
}

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
  console.log('building the app (tsc) …');
  build();
  const sim = await startSimChild();
  const fake = await startFakeSlack();
  const stateDir = mkdtempSync(join(tmpdir(), 'upload-bench-'));
  const app = await startAppChild(
    {
      SLACK_BOT_TOKEN: fake.botToken,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: fake.apiUrl,
      OUTREACH_BASE_URL: sim.baseUrl,
      OUTREACH_API_KEY: sim.apiKey,
      STATE_FILE: join(stateDir, 'state.json'),
      LOG_LEVEL: 'silent',
    },
    {
      botId: fake.botId,
      botUserId: fake.botUserId,
      slackRetries: 0,
      ...(CONCURRENCY ? { upload: { concurrency: CONCURRENCY } } : {}),
    },
  );
  const driver = new SlackDriver({
    appUrl: `http://127.0.0.1:${app.port}/slack/events`,
    signingSecret: SIGNING_SECRET,
    fake,
  });
  let stopped = false;
  try {
    const agent = await control<{ id: string }>(sim, 'addAgent', { name: 'Bench' });
    const integration = await control<{ id: string }>(sim, 'addIntegration', { agentId: agent.id, type: 'phone_call' });
    const campaign = await control<{ id: number }>(sim, 'seedCampaign', {
      name: 'Bench upload',
      agentId: agent.id,
      integrationId: integration.id,
      status: 'ready',
    });
    const campaignId = Number(campaign.id);

    const content = csv(ROWS);
    const file = fake.addFile({ name: 'bench.csv', content });
    await driver.command(`upload ${campaignId}`, { userId: 'U0BENCH' });
    const view = await fake.waitFor(
      () => fake.openViews('U0BENCH').find((v) => v.callback_id === 'campaign_upload'),
      5000,
    );

    const id = uploadJobId(campaignId, file.id);
    const before = await app.ask<{ rssKb: number }>({ type: 'rss' }, 'rss');
    const started = performance.now();
    await driver.viewSubmission({ viewId: String(view.id), values: { file: { file: stateValue.files([file]) } } });
    let job: UploadJob | null = null;
    let lastBatchMs: number | undefined;
    for (;;) {
      job = (await app.ask<{ job: UploadJob | null }>({ type: 'job', id }, 'job')).job;
      if (lastBatchMs === undefined && job && job.nextBatch >= Math.ceil(ROWS / BATCH)) {
        lastBatchMs = performance.now() - started;
      }
      if (job && job.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const wallMs = performance.now() - started;
    const end = await app.ask<{ maxRssKb: number }>({ type: 'stop' }, 'stopped');
    stopped = true;

    const batches = Math.ceil(ROWS / BATCH);
    const floorS = batches / PER_SECOND;
    const wallS = wallMs / 1000;
    const ratio = wallS / floorS;
    const peakMb = end.maxRssKb / 1024;
    const mb = (n: number) => `${n.toFixed(1)} MB`;
    console.log(
      `rows                 ${ROWS.toLocaleString('en-US')} (${mb(Buffer.byteLength(content) / 1048576)} CSV)`,
    );
    console.log(
      `job                  ${job.status}: sent ${job.counts.sent}, created ${job.counts.created}, ` +
        `not added ${job.counts.failed + job.rejected}, ${job.nextBatch} batches`,
    );
    console.log(`wall time            ${wallS.toFixed(2)} s (submission → job done, summary posted)`);
    if (lastBatchMs !== undefined) {
      console.log(`  last batch answered ${(lastBatchMs / 1000).toFixed(2)} s (the summary then waits its turn)`);
    }
    console.log(`floor                ${floorS.toFixed(2)} s (${batches} batches at ${PER_SECOND}/s)`);
    console.log(`ratio                ${ratio.toFixed(3)} × floor (target ≤ 1.15) ${ratio <= 1.15 ? 'OK' : 'MISSED'}`);
    console.log(
      `app peak RSS         ${peakMb.toFixed(0)} MB (target < 200) ${peakMb < 200 ? 'OK' : 'MISSED'}; ` +
        `${(before.rssKb / 1024).toFixed(0)} MB before the upload`,
    );
    console.log(`progress updates     ${fake.calls('chat.update').length} (chat.update)`);
    if (NODE_ARGS.length || CONCURRENCY)
      console.log(`settings             node ${NODE_ARGS.join(' ')} concurrency ${CONCURRENCY ?? 'default'}`);
    if (job.status !== 'done' || job.counts.created !== ROWS) process.exitCode = 1;
  } finally {
    if (!stopped) app.child.kill();
    await fake.close();
    sim.child.stdin?.end();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Entry: the bench itself, or (with --sim) the simulator child.
if (process.argv.includes('--sim')) {
  const sim = await startSimulator({ rateLimitPerSecond: PER_SECOND });
  console.log(JSON.stringify({ baseUrl: sim.baseUrl, origin: sim.origin, apiKey: sim.apiKey }));
  process.stdin.resume();
  process.stdin.on('end', () => void sim.close().then(() => process.exit(0)));
} else {
  await main();
}
