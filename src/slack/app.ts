/**
 * The Bolt app: HTTP receiver at POST /slack/events (commands, interactivity and events on one endpoint) with
 * GET /healthz, or Socket Mode when SLACK_APP_TOKEN is set (healthz then on PORT through the receiver's routes).
 * The public /healthz says only whether the app can do its job (200 `{"ok":true}` or 503 `{"ok":false}`): which
 * check failed, and why, is for operators (GET /healthz/details, src/metrics-server.ts).
 * Web API calls follow one retry policy in both modes (retry-policy.ts). The listeners are registered by src/main.ts
 * once the services exist (src/slack/routes.ts).
 */
import {
  App,
  LogLevel,
  SocketModeReceiver,
  type Logger as BoltLogger,
  type SocketModeReceiverOptions,
} from '@slack/bolt';
import { WebClient, type FetchFunction } from '@slack/web-api';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { HealthReport } from '../health.js';
import type { AppDeps } from './deps.js';
import { budgetedFetch, type SlackMethodBudget } from './method-budget.js';
import { timeAcks } from './middleware/observe.js';
import { slackRetryClientOptions, SOCKET_RECONNECT_RETRY_POLICY, type SlackRetryTuning } from './retry-policy.js';

export interface SlackAppOptions {
  /** Known bot ids skip auth.test at start-up (tests); in production Bolt asks Slack. */
  botId?: string;
  botUserId?: string;
  /** Web API retries (default SLACK_RETRY_POLICY.retries); tests use 0. */
  slackRetries?: number;
  /** Other retry settings of the Web API clients (tests shorten the waits). */
  slackRetry?: Partial<SlackRetryTuning>;
  /**
   * Socket Mode: how long the socket client waits for a pong (default 5000 ms); it is also the step of its delay
   * before reconnecting. Tests shorten it.
   */
  socketPingTimeoutMs?: number;
  isReady?: () => boolean;
  /** Whether /healthz answers ok (503 when a check fails); without it, `isReady` alone decides. */
  health?: { report(): Promise<HealthReport> };
  /** Routes served beside /healthz on the same port (the operators' endpoints behind METRICS_TOKEN). */
  routes?: CustomRoute[];
  /** The `fetch` of every Web API client (observes each call: metrics, token failures). */
  slackFetch?: FetchFunction;
  /** Slack's per-method budgets shared by the replicas (method-budget.ts); without it calls are not budgeted. */
  slackBudget?: SlackMethodBudget;
}

export interface SlackApp {
  app: App;
  /**
   * The client of background work (the watch's posts and updates): the app's options, but its calls leave part of
   * each Slack budget to people's, and a 429 it gets pauses only its own queue, never people's calls.
   */
  backgroundClient: WebClient;
  start(): Promise<{ port: number }>;
  stop(): Promise<void>;
}

function boltLogger(deps: AppDeps): BoltLogger {
  const l = deps.logger.child({ component: 'bolt' });
  let level: LogLevel = LogLevel.INFO;
  return {
    debug: (...m: unknown[]) => l.debug(m.map(String).join(' ')),
    info: (...m: unknown[]) => l.info(m.map(String).join(' ')),
    warn: (...m: unknown[]) => l.warn(m.map(String).join(' ')),
    error: (...m: unknown[]) => l.error(m.map(String).join(' ')),
    setLevel: (lv: LogLevel) => {
      level = lv;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}

export function createSlackApp(deps: AppDeps, opts: SlackAppOptions = {}): SlackApp {
  const { config } = deps;
  const healthz = (_req: IncomingMessage, res: ServerResponse) => {
    const ready = opts.isReady ? opts.isReady() : true;
    const ok: Promise<boolean> = opts.health ? opts.health.report().then((r) => r.ok) : Promise.resolve(ready);
    void ok
      .catch(() => false)
      .then((healthy) => {
        // Nothing else: no check names, no leader role, no database host or directory for whoever reaches PORT.
        res.writeHead(healthy ? 200 : 503, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
        res.end(JSON.stringify({ ok: healthy }));
      });
  };
  const customRoutes: CustomRoute[] = [{ path: '/healthz', method: ['GET'], handler: healthz }, ...(opts.routes ?? [])];
  const logger = boltLogger(deps);
  const socket = config.slackAppToken
    ? socketModeReceiver({ appToken: config.slackAppToken, config, customRoutes, logger, opts })
    : undefined;
  const retryTuning = {
    ...opts.slackRetry,
    ...(opts.slackRetries !== undefined ? { retries: opts.slackRetries } : {}),
  };
  const budget = opts.slackBudget;
  const fetchFor = (priority: 'person' | 'background'): FetchFunction | undefined =>
    budget
      ? budgetedFetch(budget, {
          slackApiUrl: config.slackApiUrl,
          priority,
          ...(opts.slackFetch ? { fetch: opts.slackFetch } : {}),
        })
      : opts.slackFetch;
  const app = new App({
    token: config.slackBotToken,
    ...(socket ? { receiver: socket.receiver } : { signingSecret: config.slackSigningSecret, customRoutes }),
    ...(opts.botId && opts.botUserId ? { botId: opts.botId, botUserId: opts.botUserId } : {}),
    logger,
    clientOptions: {
      slackApiUrl: config.slackApiUrl,
      // Always set: without a retryConfig, Socket Mode would put its own 100 retries here (retry-policy.ts).
      // Its fetch wraps opts.slackFetch (through the Slack budgets), to tell requests that never reached Slack apart.
      ...slackRetryClientOptions(retryTuning, fetchFor('person')),
    },
  });
  const backgroundClient = budget
    ? new WebClient(config.slackBotToken, {
        slackApiUrl: config.slackApiUrl,
        logger,
        ...slackRetryClientOptions(retryTuning, fetchFor('background')),
      })
    : app.client;
  const { metrics } = deps;
  if (metrics) timeAcks(app, (surface, seconds) => metrics.ack(surface, seconds));
  app.error(async (error) => {
    deps.logger.error({ err: `${error.name}: ${error.message}` }, 'unhandled error in a listener');
  });

  let server: { address(): unknown } | undefined;
  return {
    app,
    backgroundClient,
    async start() {
      if (socket) return { port: await startSocketMode(app, socket) };
      const started = (await app.start(config.port)) as unknown;
      server = started as typeof server;
      const addr = server && typeof server.address === 'function' ? server.address() : undefined;
      const port = addr && typeof addr === 'object' && 'port' in addr ? Number(addr.port) : config.port;
      return { port };
    },
    async stop() {
      if (socket) await stopSocketMode(app, socket);
      else await app.stop();
    },
  };
}

type CustomRoute = NonNullable<SocketModeReceiverOptions['customRoutes']>[number];

interface SocketMode {
  receiver: SocketModeReceiver;
  /** The receiver's HTTP server: PORT, serving the custom routes (/healthz). */
  server: Server;
}

/**
 * Socket Mode's receiver is built here rather than by Bolt: its socket client gets its own copy of the client
 * options, whose reconnect policy (retried for as long as Slack is away) must not reach the listeners' clients, and
 * the port its HTTP server listens on can be known.
 */
function socketModeReceiver(a: {
  appToken: string;
  config: AppDeps['config'];
  customRoutes: CustomRoute[];
  logger: BoltLogger;
  opts: SlackAppOptions;
}): SocketMode {
  const receiver = new SocketModeReceiver({
    appToken: a.appToken,
    logger: a.logger,
    customRoutes: a.customRoutes,
    installerOptions: {
      port: a.config.port,
      clientOptions: {
        slackApiUrl: a.config.slackApiUrl,
        retryConfig: { ...SOCKET_RECONNECT_RETRY_POLICY },
        ...(a.opts.slackFetch ? { fetch: a.opts.slackFetch } : {}),
      },
    },
    ...(a.opts.socketPingTimeoutMs ? { clientPingTimeout: a.opts.socketPingTimeoutMs } : {}),
  });
  // Bolt creates this server when there are custom routes; its type keeps it private.
  const server = (receiver as unknown as { httpServer?: Server }).httpServer;
  if (!server) throw new Error('the Socket Mode receiver built no HTTP server for /healthz');
  return { receiver, server };
}

/** Connects the socket (resolves after Slack's hello) and returns the port of /healthz once it listens. */
async function startSocketMode(app: App, socket: SocketMode): Promise<number> {
  const { server } = socket;
  const listening = new Promise<number>((resolve, reject) => {
    const onListening = () => {
      server.off('error', onError);
      const addr = server.address();
      resolve(addr && typeof addr === 'object' ? addr.port : 0);
    };
    const onError = (err: Error) => {
      server.off('listening', onListening);
      reject(err);
    };
    server.once('listening', onListening);
    server.once('error', onError);
  });
  listening.catch(() => undefined); // awaited below, after the socket is up
  try {
    await app.start();
    return await listening;
  } catch (err) {
    await stopSocketMode(app, socket).catch(() => undefined);
    throw err;
  }
}

/** Closes the socket and the HTTP server, and waits (a few seconds at most) until both are closed. */
async function stopSocketMode(app: App, socket: SocketMode): Promise<void> {
  const { receiver, server } = socket;
  const disconnected = new Promise<void>((resolve) => receiver.client.once('disconnected', () => resolve()));
  const closed = server.listening ? new Promise<void>((resolve) => server.once('close', () => resolve())) : undefined;
  await app.stop();
  server.closeAllConnections();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all([disconnected, closed]),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, 3_000))),
  ]);
  clearTimeout(timer);
}
