/**
 * The playground: the Slack emulator with the demo workspace, the app itself unchanged (startApp in sandbox mode,
 * so the built-in simulator with its demo data in motion stands in for the service), and the page's server on
 * PLAYGROUND_HOST:PORT. The app's bot token and signing secret are random per start, and its state lives in a
 * folder of its own under the OS temp dir, removed at close: nothing mixes with a real install's.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig, type PlaygroundSettings } from '../config.js';
import { startFakeSlack, type FakeSlack } from '../emulator/fake-slack.js';
import { SlackDriver } from '../emulator/slack-driver.js';
import { createLogger, type Logger } from '../log.js';
import { startApp, type RunningApp, type StartOptions } from '../main.js';
import { isLoopback } from '../metrics-server.js';
import type { Simulator } from '../sim/index.js';
import { SUBCOMMANDS } from '../slack/grammar.js';
import type { PageEvent, PageRefusal } from './api.js';
import { EventStreams, watchEmulator } from './events.js';
import { createPlaygroundServer } from './server.js';
import { ServicePanel } from './service-panel.js';
import type { CommandInfo } from './shapes.js';
import { APP, CHANNELS, PEOPLE, PERMISSION_ENV, TEAM, emulatorUsers } from './workspace.js';

/** The command as manifest.yml has it (test/integration/playground.test.ts checks they agree). */
export const COMMAND: CommandInfo = {
  name: '/campaign',
  usageHint: SUBCOMMANDS.join(' | '),
  description: 'Run outbound campaigns (list, create, upload contacts, watch calls in a channel)',
};

/** The longest an ended call's conversation waits to be read again in the playground. */
const PLAYGROUND_THREAD_MAX_GAP_MS = 10_000;

/** Refusals the page gets with its state (the newest); each one is streamed and logged as it happens. */
const KEPT_REFUSALS = 50;

export interface PlaygroundOptions {
  settings: PlaygroundSettings;
  logger?: Logger;
  /** The app's start options (tests speed the sandbox and the watch up). */
  start?: Partial<StartOptions>;
  /** The built page's folder; default dist/web/ of this checkout. */
  webRoot?: string;
}

export interface Playground {
  /** `http://127.0.0.1:3000/`: where the page is. */
  url: string;
  port: number;
  emulator: FakeSlack;
  app: RunningApp;
  simulator: Simulator;
  close(): Promise<void>;
}

export async function startPlayground(opts: PlaygroundOptions): Promise<Playground> {
  const { settings } = opts;
  const secrets: Secrets = {
    botToken: `xoxb-${randomBytes(24).toString('hex')}`,
    appToken: `xapp-1-${APP.appId}-${randomBytes(24).toString('hex')}`,
    signingSecret: randomBytes(32).toString('hex'),
  };
  const logger =
    opts.logger ??
    createLogger(settings.logLevel, {
      secrets: Object.values(secrets),
      ...(settings.logFormat ? { format: settings.logFormat } : {}),
    });
  const emulator = await startEmulator(settings, secrets);
  const stateDir = mkdtempSync(join(tmpdir(), 'outreach-playground-'));
  const app = await startSandboxApp(opts, { emulator, secrets, stateDir, logger }).catch(async (err: unknown) => {
    await emulator.close();
    rmSync(stateDir, { recursive: true, force: true });
    throw err;
  });
  const simulator = app.simulator as Simulator;
  // What Slack sends the app: signed HTTP requests to its receiver, or envelopes over its Socket Mode connection.
  const driver = settings.socketMode
    ? new SlackDriver({ transport: 'socket', fake: emulator, keepLog: 100 })
    : new SlackDriver({
        appUrl: `http://127.0.0.1:${app.port}/slack/events`,
        signingSecret: secrets.signingSecret,
        fake: emulator,
        keepLog: 100,
      });
  const page = pageServer({ emulator, driver, simulator, logger, webRoot: opts.webRoot ?? defaultWebRoot() });
  async function stopAll(): Promise<void> {
    page.close();
    await app.stop();
    await emulator.close();
    rmSync(stateDir, { recursive: true, force: true });
  }
  const port = await listen(page.server, settings).catch(async (err: unknown) => {
    await stopAll();
    throw err;
  });
  if (!isLoopback(settings.host)) {
    logger.warn(
      `PLAYGROUND_HOST ${settings.host} is not a loopback address: anyone who can reach port ${port} uses the ` +
        'playground, and its page has no login. Leave PLAYGROUND_HOST unset to keep it on this machine.',
    );
  }
  const shownHost = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  return {
    url: `http://${shownHost}:${port}/`,
    port,
    emulator,
    app,
    simulator,
    async close() {
      await new Promise<void>((resolve) => {
        page.server.close(() => resolve());
        page.server.closeAllConnections();
      });
      await stopAll();
    },
  };
}

/** Random per start: the app's bot token, app-level token and signing secret. */
interface Secrets {
  botToken: string;
  appToken: string;
  signingSecret: string;
}

/** The Slack emulator with the demo workspace: its channels, its people and a DM with the app for each. */
async function startEmulator(settings: PlaygroundSettings, { botToken, appToken }: Secrets): Promise<FakeSlack> {
  const emulator = await startFakeSlack({
    botToken,
    appToken,
    teamId: TEAM.id,
    teamDomain: TEAM.domain,
    appId: APP.appId,
    botId: APP.botId,
    botUserId: APP.botUserId,
    channels: [...CHANNELS],
    users: emulatorUsers(),
    checkRawMentions: 'notify',
    keepCalls: 1000,
    ...(settings.rateLimits ? { tierLimits: true } : {}),
  });
  for (const p of PEOPLE) emulator.dm(p.id);
  return emulator;
}

/** The app itself, unchanged, in sandbox mode against the emulator, with its state in `stateDir`. */
async function startSandboxApp(
  opts: PlaygroundOptions,
  { emulator, secrets, stateDir, logger }: { emulator: FakeSlack; secrets: Secrets; stateDir: string; logger: Logger },
): Promise<RunningApp> {
  const { settings } = opts;
  const config = loadConfig({
    SLACK_BOT_TOKEN: secrets.botToken,
    SLACK_SIGNING_SECRET: secrets.signingSecret,
    ...(settings.socketMode ? { SLACK_APP_TOKEN: secrets.appToken } : {}),
    SLACK_API_URL: emulator.apiUrl,
    STATE_DIR: join(stateDir, 'state'),
    STATE_FILE: join(stateDir, 'state.json'),
    POLL_INTERVAL_SECONDS: String(settings.pollIntervalSeconds),
    LOG_LEVEL: settings.logLevel,
    ...PERMISSION_ENV,
  });
  return startApp(
    { ...config, port: 0, metricsPort: 0 },
    {
      logger,
      botId: APP.botId,
      botUserId: APP.botUserId,
      ...opts.start,
      // An ended call's conversation is read again at most this long after its last read (production: 5 minutes, to
      // spare the service's budget at volume): the playground's few calls afford it, and an end user written as from
      // the service's panel shows within seconds.
      watch: { threadMaxGapMs: PLAYGROUND_THREAD_MAX_GAP_MS, ...opts.start?.watch },
    },
  );
}

/**
 * The page's server (not listening yet): the page's events streamed from the emulator and the simulator's panel, a
 * person's requests turned into Slack deliveries, the emulator's refusals kept, streamed and logged.
 */
function pageServer({
  emulator,
  driver,
  simulator,
  logger,
  webRoot,
}: {
  emulator: FakeSlack;
  driver: SlackDriver;
  simulator: Simulator;
  logger: Logger;
  webRoot: string;
}): { server: Server; close(): void } {
  const streams = new EventStreams();
  const errors = new Map<string, Record<string, string>>();
  const refusals: PageRefusal[] = [];
  const refused = (r: PageRefusal) => {
    refusals.push(r);
    refusals.splice(0, Math.max(0, refusals.length - KEPT_REFUSALS));
    const where = r.path ? ` at ${r.path}` : '';
    logger.warn(
      `Slack (the playground's emulator) refused ${r.method}: ${r.error}${where}${r.detail ? `: ${r.detail}` : ''}`,
    );
  };
  const panel = new ServicePanel(simulator.control, (service) =>
    streams.publish({ type: 'service', service }, 'everyone'),
  );
  const unwatch = watchEmulator(emulator, { streams, errors, refused });
  const server = createPlaygroundServer({
    emulator,
    streams,
    actions: {
      emulator,
      driver,
      panel,
      errors,
      refused: (r) => {
        refused(r);
        streams.publish({ type: 'refusal', refusal: r }, 'everyone');
      },
      publish: (event: PageEvent, to: string[]) => streams.publish(event, to),
    },
    sources: () => ({ emulator, command: COMMAND, refusals, service: panel.state(), errors }),
    webRoot,
  });
  return {
    server,
    close() {
      unwatch();
      panel.close();
      streams.close();
    },
  };
}

function listen(server: Server, settings: PlaygroundSettings): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EADDRINUSE' && err.code !== 'EACCES') return reject(err);
      const why = err.code === 'EADDRINUSE' ? 'is in use' : 'may not be opened by this user';
      reject(
        new ConfigError(
          `PORT ${settings.port} on ${settings.host} ${why}. Set PORT to a free port (0: any), or stop what listens there.`,
          ['PORT'],
        ),
      );
    });
    server.listen(settings.port, settings.host, () => {
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : settings.port);
    });
  });
}

/** dist/web/ of the checkout this file is in (src/playground/ under tsx, dist/src/playground/ once built). */
function defaultWebRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'dist', 'web');
}
