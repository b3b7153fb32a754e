/**
 * The Bolt app: HTTP receiver at POST /slack/events (commands, interactivity and events on one endpoint) with
 * GET /healthz, or Socket Mode when SLACK_APP_TOKEN is set (healthz then on PORT through the receiver's routes).
 */
import { App, LogLevel, type Logger as BoltLogger } from '@slack/bolt';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppDeps } from './deps.js';
import { registerAll } from './register.js';

export interface SlackAppOptions {
  /** Known bot ids skip auth.test at start-up (tests); in production Bolt asks Slack. */
  botId?: string;
  botUserId?: string;
  /** Web API retries; tests use 0. */
  slackRetries?: number;
  isReady?: () => boolean;
}

export interface SlackApp {
  app: App;
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
    res.writeHead(ready ? 200 : 503, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ ok: ready }));
  };
  const socketMode = Boolean(config.slackAppToken);
  const app = new App({
    token: config.slackBotToken,
    ...(socketMode
      ? { socketMode: true, appToken: config.slackAppToken, installerOptions: { port: config.port } }
      : { signingSecret: config.slackSigningSecret }),
    ...(opts.botId && opts.botUserId ? { botId: opts.botId, botUserId: opts.botUserId } : {}),
    customRoutes: [{ path: '/healthz', method: ['GET'], handler: healthz }],
    logger: boltLogger(deps),
    clientOptions: {
      slackApiUrl: config.slackApiUrl,
      ...(opts.slackRetries !== undefined ? { retryConfig: { retries: opts.slackRetries } } : {}),
    },
  });
  registerAll(app, deps);
  app.error(async (error) => {
    deps.logger.error({ err: `${error.name}: ${error.message}` }, 'unhandled error in a listener');
  });

  let server: { address(): unknown } | undefined;
  return {
    app,
    async start() {
      const started = (await app.start(config.port)) as unknown;
      server = started as typeof server;
      const addr = server && typeof server.address === 'function' ? server.address() : undefined;
      const port = addr && typeof addr === 'object' && 'port' in addr ? Number(addr.port) : config.port;
      return { port };
    },
    async stop() {
      await app.stop();
    },
  };
}
