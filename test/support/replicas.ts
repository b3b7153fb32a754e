/**
 * Several replicas of the app, each a real process (test/support/replica-process.ts: startApp as src/index.ts runs
 * it) with its own PORT, all on one DATABASE_URL, one fake Slack and one simulator of the service, the way they run
 * behind a load balancer. The driver spreads Slack's requests over the live replicas in turn (a load balancer that
 * stops sending to a replica once it is down); `driverFor(i)` sends to one replica only. A test file takes its set
 * from `replicaSetOfFile` (started before its tests, closed after them), the watch tuning of the tests that watch
 * calls from `quickWatch`.
 *
 * Each replica's output (pino JSON lines) goes to a file of its own, so a replica killed with SIGKILL leaves its
 * log behind; errors of the harness carry the tail of the log concerned. The files are removed by `close()` unless
 * KEEP_REPLICA_LOGS is set (their directory is printed then); REPLICA_LOG sets the replicas' LOG_LEVEL (default
 * info).
 */
import { afterAll, beforeAll, expect } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StartOptions } from '../../src/main.js';
import type { WatchTuning } from '../../src/watch/service.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/sim/index.js';
import {
  startFakeSlack,
  type FakeFileObject,
  type FakeMessage,
  type FakeSlack,
  type FakeSlackOptions,
} from '../../src/emulator/fake-slack.js';
import { freshDatabase } from './postgres.js';
import { SlackDriver, stateValue } from '../../src/emulator/slack-driver.js';
import { freePort } from './ports.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ENTRY = join(ROOT, 'test', 'support', 'replica-process.ts');
const REPLICA_SIGNING_SECRET = 'replica-test-signing-secret';

/** startApp's options that cross a process boundary (JSON: no logger, no functions). */
export type ReplicaStartOptions = Omit<StartOptions, 'logger' | 'isReady' | 'health' | 'routes' | 'slackFetch'>;

export interface ReplicaSetOptions {
  /** How many replicas (default 3). */
  count?: number;
  /** Extra environment of every replica (over the harness's). */
  env?: Record<string, string>;
  /** Start options of every replica (watch and upload tuning). */
  start?: ReplicaStartOptions;
  /** The shared database (default: a fresh database on the test run's PostgreSQL). */
  databaseUrl?: string;
  sim?: SimulatorOptions;
  fake?: FakeSlackOptions;
  /** Longest wait for a replica's /healthz to answer 200 (default 60 s: tsx compiles at each start). */
  startTimeoutMs?: number;
}

interface Replica {
  index: number;
  port: number;
  /** http://127.0.0.1:PORT */
  origin: string;
  /** http://127.0.0.1:METRICS_PORT: the operators' listener (GET /metrics, GET /healthz/details). */
  operatorOrigin: string;
  logFile: string;
  /** The process now (a new one after `start(i)`), undefined once it exited. */
  child: ChildProcess | undefined;
  /** Resolves with the exit code (null after a signal) of the current process. */
  exited: Promise<number | null>;
}

export interface ReplicaSet {
  fake: FakeSlack;
  sim: Simulator;
  databaseUrl: string;
  replicas: Replica[];
  /** Spreads requests over the live replicas, one after the other. */
  driver: SlackDriver;
  /** Sends to replica `i` only. */
  driverFor(i: number): SlackDriver;
  alive(i: number): boolean;
  /** Sends `signal` (default SIGKILL) to replica `i` and waits for its process to end. */
  kill(i: number, signal?: NodeJS.Signals): Promise<void>;
  /** Starts replica `i` again (same port, same database) and waits for its /healthz. */
  start(i: number): Promise<void>;
  /** GET /healthz of replica `i` (or its operators' /healthz/details): status and parsed body. */
  healthz(i: number, details?: boolean): Promise<{ status: number; body: unknown }>;
  /** GET /metrics of replica `i` (Prometheus text). */
  metrics(i: number): Promise<string>;
  /** The value of a metric without labels (or with exactly `labels`) in replica `i`'s /metrics, if present. */
  metric(i: number, name: string, labels?: string): Promise<number | undefined>;
  /** Replica `i`'s log so far. */
  log(i: number): string;
  /** The last `lines` lines of replica `i`'s log, for error messages. */
  logTail(i: number, lines?: number): string;
  /** Polls `fn` every 25 ms until it gives something truthy; on timeout fails with every replica's last log lines. */
  until<T>(what: string, fn: () => T | Promise<T>, timeoutMs?: number): Promise<NonNullable<T>>;
  /** The live replicas that say they lead (outreach_slack_leader 1). */
  leaders(): Promise<number[]>;
  /** Waits for exactly one live leader and gives its index; fails if two ever say so at once. */
  theLeader(timeoutMs?: number): Promise<number>;
  /** Stops every live replica (SIGTERM, then SIGKILL after 10 s), the fake Slack and the simulator. */
  close(): Promise<void>;
}

/**
 * The replica set of a test file: started before its first test, closed after its last (`beforeClose` first, e.g.
 * to wake a stopped process). The object is filled in once the set has started: read it in tests and hooks, not at
 * the top of the file.
 */
export function replicaSetOfFile(
  opts: ReplicaSetOptions & { beforeClose?: (set: ReplicaSet) => void; hookTimeoutMs?: number } = {},
): ReplicaSet {
  const { beforeClose, hookTimeoutMs = 120_000, ...setOptions } = opts;
  const set = {} as ReplicaSet;
  let starting: Promise<ReplicaSet> | undefined;
  beforeAll(async () => {
    starting = startReplicas(setOptions);
    Object.assign(set, await starting);
  }, hookTimeoutMs);
  afterAll(async () => {
    // Also a set that became ready only after beforeAll timed out: its processes would keep their ports otherwise.
    const started = await starting?.catch(() => undefined);
    if (!started) return;
    beforeClose?.(started);
    await started.close();
  }, hookTimeoutMs);
  return set;
}

/**
 * The start options of the replica tests that watch calls: a poll every 500 ms, every conversation read at every
 * cycle, retries within a fraction of a second, and Slack's per-method windows 20 times faster (these tests check
 * what is posted, not Slack's pace); `watch` adds to the watch's tuning.
 */
export function quickWatch(watch: Partial<WatchTuning> = {}): ReplicaStartOptions {
  return {
    watch: { pollIntervalMs: 500, threadMaxGapMs: 0, minGapMs: 30, retryDelayMs: 200, backoffMs: 50, ...watch },
    slackTimeScale: 20,
  };
}

/**
 * A campaign with its own agent and phone integration, seeded in the simulator (status `active` unless said): what a
 * replica test watches or uploads into. Resolves to its id.
 */
export function seedPhoneCampaign(
  sim: Simulator,
  name: string,
  opts: { status?: 'active' | 'ready' | 'pending'; contacts?: { contact: string; name: string }[] } = {},
): number {
  const agent = sim.control.addAgent({ name: 'Ana Agent' });
  const phone = sim.control.addIntegration({ agentId: agent.id, type: 'phone_call' });
  return Number(
    sim.control.seedCampaign({
      name,
      agentId: agent.id,
      integrationId: phone.id,
      status: opts.status ?? 'active',
      ...(opts.contacts ? { contacts: opts.contacts } : {}),
    }).id,
  );
}

/** The messages in `channel` that show call `callId` (by their metadata). */
export function callMessagesIn(fake: FakeSlack, channel: string, callId: string): FakeMessage[] {
  return fake
    .messages(channel)
    .filter((m) => m.metadata?.event_type === 'outreach_call' && m.metadata.event_payload.call_id === callId);
}

/**
 * `/campaign upload <id>` through replica `through`, as `userId` in `channelId`, and `file` submitted in the modal it
 * opened: both answered 200 (the upload then runs on that replica).
 */
export async function uploadThrough(
  set: ReplicaSet,
  through: number,
  campaignId: number,
  file: FakeFileObject,
  where: { userId: string; channelId: string },
): Promise<void> {
  const { fake } = set;
  const driver = set.driverFor(through);
  const before = new Set(fake.openViews(where.userId).map((v) => v.id));
  expect((await driver.command(`upload ${campaignId}`, where)).status).toBe(200);
  const view = await set.until('the upload modal', () =>
    fake.openViews(where.userId).find((v) => v.callback_id === 'campaign_upload' && !before.has(v.id)),
  );
  const submitted = await driver.viewSubmission({
    viewId: String(view.id),
    userId: where.userId,
    values: { file: { file: stateValue.files([file]) } },
  });
  expect(submitted.status).toBe(200);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startReplicas(opts: ReplicaSetOptions = {}): Promise<ReplicaSet> {
  const count = opts.count ?? 3;
  const startTimeoutMs = opts.startTimeoutMs ?? 60_000;
  const databaseUrl = opts.databaseUrl ?? (await freshDatabase('replicas'));
  const sim = await startSimulator({ ...opts.sim });
  const fake = await startFakeSlack({ ...opts.fake });
  const dir = mkdtempSync(join(tmpdir(), 'outreach-replicas-'));
  const env = (i: number, port: number, metricsPort: number): Record<string, string> => ({
    PATH: process.env.PATH ?? '',
    ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
    // jest's --experimental-vm-modules is not for the replicas.
    NODE_OPTIONS: '',
    SLACK_BOT_TOKEN: fake.botToken,
    SLACK_SIGNING_SECRET: REPLICA_SIGNING_SECRET,
    SLACK_API_URL: fake.apiUrl,
    OUTREACH_BASE_URL: sim.baseUrl,
    OUTREACH_API_KEY: sim.apiKey,
    DATABASE_URL: databaseUrl,
    // Unused with DATABASE_URL; each replica gets its own so none could share state through files by accident.
    STATE_DIR: join(dir, `state-${i}`),
    STATE_FILE: join(dir, `state-${i}.json`),
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
    LOG_LEVEL: process.env.REPLICA_LOG ?? 'info',
    LOG_FORMAT: 'json',
    POLL_INTERVAL_SECONDS: '5',
    PERSON_ACTIONS_PER_MINUTE: '6000',
    PERSON_ACTIONS_BURST: '1000',
    ...(opts.env?.ADMIN_USER_IDS || opts.env?.ADMIN_USERGROUP_ID ? {} : { ALLOW_EVERYONE_TO_CHANGE: 'true' }),
    ...opts.env,
  });
  const startOptions: ReplicaStartOptions = {
    botId: fake.botId,
    botUserId: fake.botUserId,
    slackRetries: 0,
    ...opts.start,
  };
  fake.allowMentions(
    ...(opts.env?.ADMIN_USER_IDS ?? '').split(','),
    ...(opts.env?.RESPONDER_USER_IDS ?? '').split(','),
    opts.env?.ADMIN_USERGROUP_ID,
    opts.env?.RESPONDER_USERGROUP_ID,
  );

  const replicas: Replica[] = [];

  const tail = (i: number, lines = 40): string => {
    const text = logOf(i);
    return `--- replica ${i} (${replicas[i]?.logFile ?? '?'}), last ${lines} lines ---\n${text
      .split('\n')
      .slice(-lines - 1)
      .join('\n')}`;
  };
  function logOf(i: number): string {
    const r = replicas[i];
    if (!r) throw new Error(`no replica ${i}`);
    try {
      return readFileSync(r.logFile, 'utf8');
    } catch {
      return '';
    }
  }

  function spawnReplica(i: number, port: number, metricsPort: number): Replica {
    const logFile = join(dir, `replica-${i}.log`);
    const fd = openSync(logFile, 'a');
    const child = spawn(process.execPath, ['--import', 'tsx', ENTRY], {
      cwd: ROOT,
      env: { ...env(i, port, metricsPort), REPLICA_START_OPTIONS: JSON.stringify(startOptions) },
      stdio: ['ignore', fd, fd],
    });
    closeSync(fd);
    const r: Replica = {
      index: i,
      port,
      origin: `http://127.0.0.1:${port}`,
      operatorOrigin: `http://127.0.0.1:${metricsPort}`,
      logFile,
      child,
      exited: new Promise((resolve) =>
        child.once('exit', (code) => {
          if (r.child === child) r.child = undefined;
          resolve(code);
        }),
      ),
    };
    return r;
  }

  async function waitHealthy(i: number): Promise<void> {
    const r = replicas[i]!;
    const deadline = Date.now() + startTimeoutMs;
    let last = 'no answer';
    while (Date.now() < deadline) {
      if (!r.child) throw new Error(`replica ${i} exited before /healthz answered 200\n${tail(i)}`);
      try {
        const res = await fetch(`${r.origin}/healthz`, { signal: AbortSignal.timeout(2000) });
        if (res.status === 200) return;
        last = `HTTP ${res.status}: ${await res.text()}`;
      } catch (err) {
        last = String(err);
      }
      await sleep(100);
    }
    throw new Error(`replica ${i}: /healthz did not answer 200 within ${startTimeoutMs} ms (${last})\n${tail(i)}`);
  }

  const ports = await Promise.all(Array.from({ length: 2 * count }, () => freePort()));
  for (let i = 0; i < count; i++) replicas.push(spawnReplica(i, ports[2 * i]!, ports[2 * i + 1]!));

  const set: ReplicaSet = {
    fake,
    sim,
    databaseUrl,
    replicas,
    driver: undefined as unknown as SlackDriver,
    driverFor(i) {
      const r = replicas[i];
      if (!r) throw new Error(`no replica ${i}`);
      return new SlackDriver({ appUrl: `${r.origin}/slack/events`, signingSecret: REPLICA_SIGNING_SECRET, fake });
    },
    alive: (i) => replicas[i]?.child !== undefined,
    async kill(i, signal = 'SIGKILL') {
      const r = replicas[i];
      if (!r?.child) return;
      r.child.kill(signal);
      await r.exited;
    },
    async start(i) {
      const r = replicas[i];
      if (!r) throw new Error(`no replica ${i}`);
      if (r.child) throw new Error(`replica ${i} is running`);
      replicas[i] = spawnReplica(i, r.port, Number(new URL(r.operatorOrigin).port));
      await waitHealthy(i);
    },
    async healthz(i, details = false) {
      const r = replicas[i]!;
      const url = details ? `${r.operatorOrigin}/healthz/details` : `${r.origin}/healthz`;
      const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: the text itself
      }
      return { status: res.status, body };
    },
    async metrics(i) {
      const res = await fetch(`${replicas[i]!.operatorOrigin}/metrics`, { signal: AbortSignal.timeout(5000) });
      return res.text();
    },
    async metric(i, name, labels) {
      const text = await set.metrics(i);
      const head = labels ? `${name}{${labels}} ` : `${name} `;
      const line = text.split('\n').find((l) => l.startsWith(head));
      return line === undefined ? undefined : Number(line.slice(head.length));
    },
    log: logOf,
    logTail: tail,
    async until(what, fn, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const v = await fn();
        if (v) return v;
        if (Date.now() > deadline) {
          const logs = replicas.map((r) => tail(r.index, 15)).join('\n');
          throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}\n${logs}`);
        }
        await sleep(25);
      }
    },
    async leaders() {
      const live = replicas.filter((r) => r.child).map((r) => r.index);
      const values = await Promise.all(live.map((i) => set.metric(i, 'outreach_slack_leader').catch(() => undefined)));
      return live.filter((_, k) => values[k] === 1);
    },
    async theLeader(timeoutMs = 20_000) {
      const found = await set.until(
        'a leader',
        async () => {
          const l = await set.leaders();
          if (l.length > 1) throw new Error(`two replicas lead at once: ${l.join(', ')}`);
          return l.length === 1 ? { index: l[0]! } : undefined;
        },
        timeoutMs,
      );
      return found.index;
    },
    async close() {
      await Promise.all(
        replicas.map(async (r) => {
          const child = r.child;
          if (!child) return;
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await r.exited;
          clearTimeout(timer);
        }),
      );
      await fake.close();
      await sim.close();
      if (process.env.KEEP_REPLICA_LOGS) console.log(`replica logs kept in ${dir}`);
      else rmSync(dir, { recursive: true, force: true });
    },
  };

  // Round robin over the replicas alive at the time of each request.
  let turn = 0;
  set.driver = new SlackDriver({
    appUrl: () => {
      for (let k = 0; k < replicas.length; k++) {
        const r = replicas[turn++ % replicas.length]!;
        if (r.child) return `${r.origin}/slack/events`;
      }
      throw new Error('no replica is alive');
    },
    signingSecret: REPLICA_SIGNING_SECRET,
    fake,
  });

  try {
    await Promise.all(replicas.map((_, i) => waitHealthy(i)));
  } catch (err) {
    await set.close().catch(() => undefined);
    throw err;
  }
  return set;
}
