/**
 * The three processes of the upload benchmarks, so the figures are the app's own: the app as production runs it
 * (compiled JavaScript, built here with tsc into node_modules/.cache/upload-bench, with `npm start`'s Node flags),
 * the simulator in a child, and the benchmark itself playing Slack (the fake Web API holding the files, and the
 * driver sending signed requests).
 *
 * The app's child answers over IPC: a job as stored, its RSS, and the event loop's longest block since the last
 * question (perf_hooks.monitorEventLoopDelay at 1 ms resolution: a block of the loop delays its timer).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startSimulator } from '../../src/sim/index.js';
import { startFakeSlack, type FakeSlack } from '../../src/emulator/fake-slack.js';
import { SlackDriver } from '../../src/emulator/slack-driver.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BUILD = join(ROOT, 'node_modules', '.cache', 'upload-bench');
export const PER_SECOND = 12;

/**
 * Node/V8 flags for the app's process: by default those of `npm start` (read from package.json, so the bench measures
 * what runs in production); NODE_ARGS='' or other flags to compare deployment settings.
 */
const START_FLAGS = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }
).scripts.start
  .split(' ')
  .filter((t) => t.startsWith('--'));
export const NODE_ARGS = (process.env.NODE_ARGS ?? START_FLAGS.join(' ')).split(' ').filter(Boolean);

/** The app's process: compiled src/main.js started with a config, answering questions over IPC. */
const APP_CHILD = `
const build = process.env.BENCH_BUILD;
const { monitorEventLoopDelay } = await import('node:perf_hooks');
const { loadConfig } = await import(build + '/src/config.js');
const { startApp } = await import(build + '/src/main.js');
const { jobsOf } = await import(build + '/src/slack/upload/jobs.js');
const opts = JSON.parse(process.env.BENCH_APP);
const app = await startApp({ ...loadConfig(opts.env), port: 0, metricsPort: 0 }, opts.start);
const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();
const rss = () => ({ rssKb: Math.round(process.memoryUsage().rss / 1024), maxRssKb: process.resourceUsage().maxRSS });
process.on('message', async (m) => {
  if (m.type === 'job') {
    const j = await jobsOf(app.deps.store).get(m.id);
    // The job without its list of refused rows: that can be long, and the answer is asked for often.
    process.send({ type: 'job', job: j ? { ...j, serviceFailures: [] } : null });
  }
  if (m.type === 'rss') process.send({ type: 'rss', ...rss() });
  if (m.type === 'loop') {
    process.send({ type: 'loop', maxMs: loop.max / 1e6, p99Ms: loop.percentile(99) / 1e6 });
    loop.reset();
  }
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
  child: ChildProcess;
  ask<T>(msg: { type: string; id?: string }, answer: string): Promise<T>;
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

export interface SimHandle {
  baseUrl: string;
  origin: string;
  apiKey: string;
  child: ChildProcess;
}

/** The simulator in a child process (this file run with --sim), enforcing the service's 12 requests/s. */
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

/** A campaign ready to take contacts, in the simulator child. */
export async function seedCampaign(sim: SimHandle, name: string): Promise<number> {
  const agent = await control<{ id: string }>(sim, 'addAgent', { name: 'Bench' });
  const integration = await control<{ id: string }>(sim, 'addIntegration', { agentId: agent.id, type: 'phone_call' });
  const campaign = await control<{ id: number }>(sim, 'seedCampaign', {
    name,
    agentId: agent.id,
    integrationId: integration.id,
    status: 'ready',
  });
  return Number(campaign.id);
}

// Entry of the simulator child.
if (process.argv.includes('--sim') && process.argv[1] === fileURLToPath(import.meta.url)) {
  const sim = await startSimulator({ rateLimitPerSecond: PER_SECOND });
  console.log(JSON.stringify({ baseUrl: sim.baseUrl, origin: sim.origin, apiKey: sim.apiKey }));
  process.stdin.resume();
  process.stdin.on('end', () => void sim.close().then(() => process.exit(0)));
}

const SIGNING_SECRET = 'bench-secret';

/** The simulator, the fake Slack, the app (with `env` over the common settings) and a driver for signed requests. */
export interface BenchStack {
  sim: SimHandle;
  fake: FakeSlack;
  app: AppChild;
  driver: SlackDriver;
  /** Stops all three and removes the state directory. */
  close(): Promise<void>;
}

export async function startBenchStack(
  name: string,
  env: Record<string, string>,
  start: Record<string, unknown> = {},
): Promise<BenchStack> {
  console.log('building the app (tsc) …');
  build();
  const sim = await startSimChild();
  const fake = await startFakeSlack();
  const stateDir = mkdtempSync(join(tmpdir(), `${name}-bench-`));
  const app = await startAppChild(
    {
      SLACK_BOT_TOKEN: fake.botToken,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: fake.apiUrl,
      OUTREACH_BASE_URL: sim.baseUrl,
      OUTREACH_API_KEY: sim.apiKey,
      STATE_DIR: stateDir,
      STATE_FILE: join(stateDir, 'state.json'),
      LOG_LEVEL: process.env.BENCH_LOG ?? 'silent',
      ...env,
    },
    { botId: fake.botId, botUserId: fake.botUserId, slackRetries: 0, ...start },
  );
  const driver = new SlackDriver({
    appUrl: `http://127.0.0.1:${app.port}/slack/events`,
    signingSecret: SIGNING_SECRET,
    fake,
  });
  return {
    sim,
    fake,
    app,
    driver,
    async close() {
      if (app.child.exitCode === null && app.child.signalCode === null) app.child.kill();
      await fake.close();
      sim.child.stdin?.end();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}
