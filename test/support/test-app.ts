/**
 * The real app, started as `npm start` would start it, against the fake Slack Web API and the project's simulator
 * of the outreach service, both on 127.0.0.1; plus a driver that sends signed Slack requests to its receiver, or,
 * in Socket Mode, envelopes over the fake Slack's WebSocket.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/config.js';
import { startApp, type RunningApp, type StartOptions } from '../../src/main.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/sim/index.js';
import { startFakeSlack, type FakeSlack, type FakeSlackOptions } from '../../src/emulator/fake-slack.js';
import { SlackDriver } from '../../src/emulator/slack-driver.js';
import { freshDatabase } from './postgres.js';

export const SIGNING_SECRET = 'test-signing-secret';

export interface TestAppOptions {
  /** Extra environment, e.g. ADMIN_USER_IDS. */
  env?: Record<string, string>;
  sim?: SimulatorOptions;
  fake?: FakeSlackOptions;
  /** Web API retries of the app's Slack client (default 0: a failure shows at once; 'policy': the app's own). */
  slackRetries?: number | 'policy';
  /** Socket Mode (SLACK_APP_TOKEN = the fake's app token): the driver sends envelopes over the WebSocket. */
  socketMode?: boolean;
  start?: Partial<StartOptions>;
  /** Another app's simulator and fake Slack (two replicas in one process): this app closes neither. */
  shared?: { sim: Simulator; fake: FakeSlack };
}

export interface TestApp {
  fake: FakeSlack;
  sim: Simulator;
  app: RunningApp;
  driver: SlackDriver;
  config: Config;
  /** Stops the app and starts it again on the same state file (a restart); `whileDown` runs in between. */
  restart(whileDown?: () => void | Promise<void>): Promise<void>;
  close(): Promise<void>;
}

export async function startTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const sim = opts.shared?.sim ?? (await startSimulator({ ...opts.sim }));
  const fake = opts.shared?.fake ?? (await startFakeSlack({ ...opts.fake }));
  const stateDir = mkdtempSync(join(tmpdir(), 'outreach-slack-test-'));
  const config: Config = {
    ...loadConfig({
      SLACK_BOT_TOKEN: fake.botToken,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: fake.apiUrl,
      OUTREACH_BASE_URL: sim.baseUrl,
      OUTREACH_API_KEY: sim.apiKey,
      STATE_FILE: join(stateDir, 'state.json'),
      STATE_DIR: stateDir,
      LOG_LEVEL: 'silent',
      // A test types and clicks far faster than a person: each person's share of actions is not what these tests
      // are about (fair-use.test.ts sets the defaults back).
      PERSON_ACTIONS_PER_MINUTE: '6000',
      PERSON_ACTIONS_BURST: '1000',
      ...(opts.socketMode ? { SLACK_APP_TOKEN: fake.appToken } : {}),
      // The live service refuses to start without admins unless everyone may change on purpose: tests that name no
      // admins keep the open behaviour they were written for.
      ...(opts.env?.ADMIN_USER_IDS || opts.env?.ADMIN_USERGROUP_ID ? {} : { ALLOW_EVERYONE_TO_CHANGE: 'true' }),
      ...opts.env,
    }),
    port: 0,
    // The operators' listener on any free port of 127.0.0.1 (tests run many apps at once), unless a test says.
    ...(opts.env?.METRICS_PORT ? {} : { metricsPort: 0 }),
  };
  // The people and groups the app is configured with are mentioned on purpose (see src/emulator/raw-mentions.ts).
  fake.allowMentions(
    ...config.adminUserIds,
    ...config.responderUserIds,
    config.adminUsergroupId,
    config.responderUsergroupId,
  );
  const startOpts: StartOptions = {
    botId: fake.botId,
    botUserId: fake.botUserId,
    ...(opts.slackRetries === 'policy' ? {} : { slackRetries: opts.slackRetries ?? 0 }),
    ...opts.start,
    // An upload's submission answers "checking" after 1 s rather than 2.2 s: what it does before (permission, claim,
    // the reader's thread) then has 2 s of Slack's 3 on a loaded machine too. Tests take either answer (upload.ts).
    upload: { ackBudgetMs: 1000, ...opts.start?.upload },
  };
  const handle: TestApp = {
    fake,
    sim,
    config,
    app: await startApp(config, startOpts),
    driver: undefined as unknown as SlackDriver,
    async restart(whileDown) {
      await handle.app.stop();
      await whileDown?.();
      handle.app = await startApp(config, startOpts);
      handle.driver = driverFor(handle.app, fake, opts.socketMode);
    },
    async close() {
      await handle.app.stop();
      if (opts.shared) return;
      await fake.close();
      await sim.close();
    },
  };
  handle.driver = driverFor(handle.app, fake, opts.socketMode);
  return handle;
}

/** Two replicas of the app in this process (`startReplicaPair`); `close()` stops both and what they share. */
export interface ReplicaPair {
  a: TestApp;
  b: TestApp;
  close(): Promise<void>;
}

/** The second replica's API key, of the same organization as the simulator's first. */
const SECOND_API_KEY = 'sim-key-b';

/**
 * Two replicas of the app in this process on one fresh PostgreSQL database, as two processes behind a load balancer
 * would be: one simulator and one fake Slack (A's), `opts` for both. Each has its own API key of one organization:
 * the service's limiter is one per key and process (src/outreach/limiter.ts) and its shared windows are those of the
 * app that made it, while replicas in their own processes each have their own.
 */
export async function startReplicaPair(opts: Omit<TestAppOptions, 'shared'> = {}): Promise<ReplicaPair> {
  const env = { ...opts.env, DATABASE_URL: await freshDatabase('pair') };
  const orgs = { 'sim-key': 'org-sim', [SECOND_API_KEY]: 'org-sim' };
  const a = await startTestApp({ ...opts, env, sim: { orgs, ...opts.sim } });
  const b = await startTestApp({
    ...opts,
    env: { ...env, OUTREACH_API_KEY: SECOND_API_KEY },
    shared: { sim: a.sim, fake: a.fake },
  });
  return {
    a,
    b,
    async close() {
      await b.close();
      await a.close();
    },
  };
}

function driverFor(app: RunningApp, fake: FakeSlack, socketMode = false): SlackDriver {
  if (socketMode) return new SlackDriver({ transport: 'socket', fake });
  return new SlackDriver({ appUrl: `http://127.0.0.1:${app.port}/slack/events`, signingSecret: SIGNING_SECRET, fake });
}
