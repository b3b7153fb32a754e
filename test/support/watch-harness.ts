/**
 * The watch feature end to end: the simulator of the service, the fake Slack Web API, and the real app (startApp)
 * between them, on 127.0.0.1 ports. Polling runs only when a test says so (`cycle()`), so tests are deterministic
 * and fast; Slack pacing is scaled down (configurable) but enforced by the fake.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../src/clock.js';
import type { Config } from '../../src/config.js';
import type { Locale } from '../../src/i18n/locale.js';
import { createLogger, type Logger } from '../../src/log.js';
import { startApp, type RunningApp } from '../../src/main.js';
import type { SeedCampaignInput } from '../../src/sim/index.js';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { SlackMethodBudget } from '../../src/slack/method-budget.js';
import { LocalRateWindows } from '../../src/store/local-coordination.js';
import type { WatchService, WatchTuning } from '../../src/watch/service.js';
import {
  startFakeSlack,
  type FakeSlack,
  type FakeSlackOptions,
  type FakeMessage,
} from '../../src/emulator/fake-slack.js';
import { SlackDriver } from '../../src/emulator/slack-driver.js';

const SIGNING_SECRET = 'watch-test-secret';
export const BOT_USER = 'UBOT';
export const BOT_ID = 'BBOT';

export const FAST_TUNING: Partial<WatchTuning> = {
  autoPoll: false,
  pollIntervalMs: 1000,
  // A cycle plans for the requests of production's 5 s cycle at 12/s (48), in its 1 s: every campaign listed.
  requestsPerSecond: 60,
  minGapMs: 30,
  retryDelayMs: 50,
  backoffMs: 20,
  maxAttempts: 4,
  burstThreshold: 10,
  calmMs: 60_000,
  // One message written at most every 100 ms (5 s in production, UPDATE_GAP_MS).
  updateGapMs: 100,
};

/** A clock a test moves by hand (the app's clock, StartOptions.clock): time passes only when the test says. */
export class StepClock implements Clock {
  constructor(public at: number) {}
  now(): number {
    return this.at;
  }
}

export interface WatchHarness {
  sim: Simulator;
  fake: FakeSlack;
  app: RunningApp;
  driver: SlackDriver;
  svc: WatchService;
  stateFile: string;
  dir: string;
  /** A phone campaign in `active` with `contacts` contacts; returns its id and agent id. */
  phoneCampaign(
    contacts?: number,
    name?: string,
    over?: Pick<SeedCampaignInput, 'timezone' | 'scheduling'>,
  ): { id: number; agentId: string };
  whatsappCampaign(contacts?: number): { id: number; agentId: string };
  /** One poll cycle, then waits until everything recorded reached Slack. */
  cycle(): Promise<void>;
  /** Stops the app (keeps sim, fake Slack and the state file) and starts a new one on the same state. */
  restart(tuning?: Partial<WatchTuning>): Promise<void>;
  close(): Promise<void>;
  topLevel(channel: string): FakeMessage[];
}

export async function startWatchHarness(
  opts: {
    tuning?: Partial<WatchTuning>;
    fake?: FakeSlackOptions;
    admins?: string[];
    /** RESPONDER_USER_IDS (default: none, so the admins reply; everyone when there are no admins either). */
    responders?: string[];
    /** The app's logger (default: silent, or the level in WATCH_LOG), e.g. one writing into a stream a test reads. */
    logger?: Logger;
    /** Socket Mode: the app connects to the fake's WebSocket and the driver sends envelopes over it. */
    socketMode?: boolean;
    /**
     * Time of the app's Slack budgets (src/slack/method-budget.ts) runs this many times faster, like the watch's
     * tuning: default 36 (FAST_TUNING's gap of 30 ms stands for 1,100 ms). A test of Slack's limits gives the
     * fake Slack's tierLimits the same scale.
     */
    slackTimeScale?: number;
    /** DEFAULT_LOCALE: the language of channels that chose none (default `en`). */
    defaultLocale?: Locale;
    /** DATABASE_URL: the app's store in PostgreSQL (test/support/postgres.ts `freshDatabase`); default embedded. */
    databaseUrl?: string;
    /** The app's clock (reminders of waiting customers): a test moves it forward instead of waiting. */
    clock?: Clock;
  } = {},
): Promise<WatchHarness> {
  const dir = await mkdtemp(join(tmpdir(), 'watch-'));
  const stateFile = join(dir, 'state.json');
  const sim = await startSimulator({ port: 0, rateLimitPerSecond: false });
  const fake = await startFakeSlack({ botUserId: BOT_USER, botId: BOT_ID, ...opts.fake });
  // The people the app is configured with are mentioned on purpose (see src/emulator/raw-mentions.ts).
  fake.allowMentions(...(opts.admins ?? []), ...(opts.responders ?? []));
  const agent = sim.control.addAgent({ name: 'Ana Agent' });
  const phone = sim.control.addIntegration({ agentId: agent.id, type: 'phone_call' });
  const wa = sim.control.addIntegration({ agentId: agent.id, type: 'whatsapp' });
  const config: Config = {
    slackBotToken: 'xoxb-test',
    slackSigningSecret: SIGNING_SECRET,
    slackApiUrl: fake.apiUrl,
    port: 0,
    metricsPort: 0,
    metricsHost: '127.0.0.1',
    outreach: { mode: 'live', baseUrl: sim.baseUrl, apiKey: sim.apiKey },
    stateFile,
    stateDir: join(dir, 'state'),
    retentionDays: 7,
    pollIntervalSeconds: 5,
    adminUserIds: opts.admins ?? [],
    // No admins given: everyone may change, on purpose (the live service refuses to start otherwise).
    allowEveryoneToChange: (opts.admins ?? []).length === 0,
    responderUserIds: opts.responders ?? [],
    defaultPhoneRegion: 'MX',
    defaultLocale: opts.defaultLocale ?? 'en',
    uploadMaxBytes: 10 * 1024 * 1024,
    uploadMaxRows: 200_000,
    uploadMaxCellChars: 5_000,
    uploadConcurrency: 2,
    // Tests type and click faster than people; each person's share is checked in fair-use.test.ts.
    personActionsPerMinute: 6000,
    personActionsBurst: 1000,
    logLevel: 'silent',
    ...(opts.socketMode ? { slackAppToken: fake.appToken } : {}),
    ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : {}),
  };
  const tuning = { ...FAST_TUNING, ...opts.tuning };
  const boot = (t: Partial<WatchTuning>) =>
    startApp(config, {
      logger: opts.logger ?? createLogger((process.env.WATCH_LOG as 'debug') ?? 'silent'),
      botId: BOT_ID,
      botUserId: BOT_USER,
      slackRetries: 0,
      watch: t,
      slackBudget: new SlackMethodBudget({ windows: new LocalRateWindows(), timeScale: opts.slackTimeScale ?? 36 }),
      ...(opts.clock ? { clock: opts.clock } : {}),
    });
  let app = await boot(tuning);
  const mkDriver = () =>
    opts.socketMode
      ? new SlackDriver({ transport: 'socket', fake })
      : new SlackDriver({ appUrl: `http://127.0.0.1:${app.port}/slack/events`, signingSecret: SIGNING_SECRET, fake });
  const h: WatchHarness = {
    sim,
    fake,
    app,
    driver: mkDriver(),
    svc: app.services.watch,
    stateFile,
    dir,
    phoneCampaign(contacts = 5, name = 'Spring promo', over = {}) {
      const c = sim.control.seedCampaign({
        ...over,
        name,
        agentId: agent.id,
        integrationId: phone.id,
        status: 'active',
        contacts: Array.from({ length: contacts }, (_, i) => ({
          contact: `+5255${String(10000000 + i).padStart(8, '0')}`,
          name: `Contact ${i + 1}`,
        })),
      });
      return { id: c.id as number, agentId: agent.id };
    },
    whatsappCampaign(contacts = 5) {
      const c = sim.control.seedCampaign({
        name: 'WA promo',
        agentId: agent.id,
        integrationId: wa.id,
        status: 'active',
        template: 'promo_template',
        contacts: Array.from({ length: contacts }, (_, i) => ({
          contact: `+5255${String(20000000 + i).padStart(8, '0')}`,
          name: `WA ${i + 1}`,
        })),
      });
      return { id: c.id as number, agentId: agent.id };
    },
    async cycle() {
      await h.svc.pollNow();
      await h.svc.delivery.idle();
    },
    async restart(t) {
      await app.stop();
      app = await boot({ ...tuning, ...t });
      h.app = app;
      h.svc = app.services.watch;
      h.driver = mkDriver();
    },
    async close() {
      await app.stop();
      await fake.close();
      await sim.close();
      await rm(dir, { recursive: true, force: true });
    },
    topLevel(channel) {
      return fake.messages(channel).filter((m) => !m.thread_ts || m.thread_ts === m.ts);
    },
  };
  return h;
}

/** Messages carrying our call metadata for this call. */
export function callMessages(fake: FakeSlack, channel: string, callId: string): FakeMessage[] {
  return fake
    .messages(channel)
    .filter((m) => m.metadata?.event_type === 'outreach_call' && m.metadata.event_payload.call_id === callId);
}

/** How long a test waits for something the app does (below jest's 30 s test timeout). */
const ANSWER_WAIT_MS = 20_000;

/** Runs a `/campaign` command and waits for its answer through response_url; returns that answer's body. */
export async function runCommand(
  h: WatchHarness,
  text: string,
  opts: { channelId?: string; userId?: string } = {},
): Promise<Record<string, unknown> | undefined> {
  const r = await h.driver.command(text, opts);
  // Awaited as the fake changes (a busy machine may take seconds); past ANSWER_WAIT_MS it rejects, naming the calls.
  const use = await h.fake.waitFor(() => h.fake.responseUrlUses().find((u) => u.url === r.responseUrl), ANSWER_WAIT_MS);
  return use.body;
}

/** A debug-level logger of the app writing into `lines`: a test reads what the app did, e.g. that it is done with an event. */
export function linesLogger(lines: string[]): Logger {
  return createLogger('debug', { destination: { write: (l: string) => void lines.push(l) } });
}

/**
 * Waits until the app logged that it was done with Slack event `eventId` `times` times (once per delivery: the
 * message handler logs each one's outcome last). Whatever the app was to do for it is done then; true if it did.
 */
export async function eventHandled(lines: string[], eventId: string, times = 1): Promise<boolean> {
  const handled = () =>
    lines.filter((l) => l.includes('"msg":"message event"') && l.includes(`"eventId":"${eventId}"`)).length;
  return (await eventually(handled, (n) => n >= times)) >= times;
}

/**
 * Polls `fn` until `ok` holds (every 20 ms) and returns its value; after `timeoutMs` returns the last value, for the
 * test's own assertion to name what is wrong. The default is long (a loaded machine may take seconds to do what an
 * idle one does in milliseconds) and costs nothing when the condition comes true.
 */
export async function eventually<T>(
  fn: () => T | Promise<T>,
  ok: (v: T) => boolean,
  timeoutMs = ANSWER_WAIT_MS,
): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() - start > timeoutMs) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}
