/**
 * The composition root: builds the whole app once from a config and its settings — store, service client (or the
 * in-process simulator in sandbox mode) with its limiter, permissions, audit trail, metrics, health, the Slack app,
 * and the services (watch, uploads, Home, the campaign form's agent directory and submission records) — hands each
 * what it needs, registers the listeners, starts the background work; and stops it all in order. src/index.ts calls
 * it with the process environment; integration tests call it with their own config and settings.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { configSecrets, everyoneMayChangeProblem, type Config } from './config.js';
import { createLogger, type Logger } from './log.js';
import { Health, storeCheck } from './health.js';
import { SlackAuthMonitor } from './slack/auth-monitor.js';
import { createMetrics, type AppMetrics } from './metrics.js';
import { isLoopback, publicPortRoutes, startMetricsServer, type MetricsServer } from './metrics-server.js';
import { OutreachClient } from './outreach/client.js';
import { sharedLimiter } from './outreach/limiter.js';
import { startSimulator, type Simulator } from './sim/index.js';
import { openStore } from './store/open.js';
import { createAudit } from './slack/audit.js';
import { Languages } from './slack/locale.js';
import { createPermissions } from './slack/permissions.js';
import { createSlackApp, type SlackApp, type SlackAppOptions } from './slack/app.js';
import { SlackMethodBudget } from './slack/method-budget.js';
import type { RateWindows } from './store/coordination.js';
import { openCoordination, type Coordination } from './store/open-coordination.js';
import { PgTokenBuckets } from './store/pg-token-buckets.js';
import { LeaderWork } from './leader-work.js';
import type { AppDeps } from './slack/deps.js';
import { observedFetch } from './slack/middleware/observe.js';
import { routes, type Services } from './slack/routes.js';
import { DEFAULT_UPLOAD_TUNING, type UploadTuning } from './slack/upload/runner.js';
import { UploadService } from './slack/upload/service.js';
import { DEFAULT_FORM_TIMING, type SubmitTiming } from './slack/campaign-form/submit.js';
import { DEFAULT_HOME_TUNING, HomeService, type HomeTuning } from './slack/home/service.js';
import { createWatch } from './slack/watch/create.js';
import { systemClock, type Clock } from './clock.js';
import type { WatchService, WatchTuning } from './watch/service.js';
import { AgentDirectory } from './slack/campaign-form/directory.js';
import { FormSubmissions } from './slack/campaign-form/once.js';
import { DEFAULT_REPORT_TUNING, ReportService, type ReportTuning } from './slack/reports/service.js';
import { createPersonBudget } from './slack/middleware/person-budget.js';

export interface RunningApp {
  port: number;
  /** The operators' listener (GET /metrics, GET /healthz/details): METRICS_HOST:METRICS_PORT, the port as chosen. */
  metricsPort: number;
  metricsHost: string;
  deps: AppDeps;
  /** Every service, built once (tests look inside). */
  services: Services;
  /** The settings the services read at each use (tests change some while the app runs). */
  settings: Settings;
  metrics: AppMetrics;
  health: Health;
  simulator?: Simulator;
  stop(): Promise<void>;
}

export interface StartOptions extends SlackAppOptions {
  logger?: Logger;
  /** Sandbox only: options for the in-process simulator (tests speed its live driver up). */
  sandboxTickMs?: number;
  /** Watch poller/delivery settings (tests shorten intervals and Slack pacing). */
  watch?: Partial<WatchTuning>;
  /** Upload job settings (tests shorten the progress interval and retry delays). */
  upload?: Partial<UploadTuning>;
  /** Home tab caching and paging (tests shorten the TTLs). */
  home?: Partial<HomeTuning>;
  /** The campaign form's ack budget (tests shorten it to reach the slow path). */
  campaignForm?: Partial<SubmitTiming>;
  /** /healthz settings (tests shorten them). */
  healthTuning?: Partial<HealthTuning>;
  /** The windows Slack's per-method budgets are kept in (shared by replicas); default: this process's memory. */
  rateWindows?: RateWindows;
  /**
   * Slack's per-method windows pass this many times faster (tests that check what is posted, not Slack's pace, on
   * replicas in other processes where a budget object cannot be handed over). Default 1.
   */
  slackTimeScale?: number;
  /** The time the app goes by (reminders of waiting customers, report schedules: tests move it forward). Default: the system's. */
  clock?: Clock;
  /** Report scheduler settings (tests shorten its tick). */
  reports?: Partial<ReportTuning>;
  /** Longest a command or click waits for the shared count of its sender's actions (PostgreSQL); default 1 s. */
  fairUseSharedDeadlineMs?: number;
}

interface HealthTuning {
  /** Between two auth.test calls checking the bot token. */
  slackAuthCheckMs: number;
  /**
   * Least time between two probe writes of the store, however many /healthz requests come: /healthz's own while the
   * store is durable, the store's retry while it is not.
   */
  storeProbeMs: number;
}

const DEFAULT_HEALTH_TUNING: HealthTuning = { slackAuthCheckMs: 60_000, storeProbeMs: 5_000 };

/** The settings of the running app: defaults overlaid with the start options'. */
interface Settings {
  upload: UploadTuning;
  home: HomeTuning;
  campaignForm: SubmitTiming;
  health: HealthTuning;
}

type AppStore = Awaited<ReturnType<typeof openStore>>;

/** What the steps of startApp share: the listeners' deps, and the store, metrics and coordination behind them. */
interface Core {
  deps: AppDeps;
  store: AppStore;
  metrics: AppMetrics;
  coordination: Coordination;
}

export async function startApp(config: Config, opts: StartOptions = {}): Promise<RunningApp> {
  const refusal = everyoneMayChangeProblem(config);
  if (refusal) throw refusal;
  const logger =
    opts.logger ??
    createLogger(config.logLevel, {
      secrets: configSecrets(config),
      ...(config.logFormat ? { format: config.logFormat } : {}),
    });
  const settings: Settings = {
    upload: { ...DEFAULT_UPLOAD_TUNING, ...opts.upload },
    home: { ...DEFAULT_HOME_TUNING, ...opts.home },
    campaignForm: { ...DEFAULT_FORM_TIMING, ...opts.campaignForm },
    health: { ...DEFAULT_HEALTH_TUNING, ...opts.healthTuning },
  };
  const { store, coordination } = await openState(config, settings.health, logger);
  // One registry per running app (tests run several in one process).
  const metrics = createMetrics();
  const { outreach, simulator } = await connectService(config, opts, { store, coordination, metrics, logger });
  const deps = appDeps(config, { outreach, store, logger, metrics });
  const core: Core = { deps, store, metrics, coordination };
  const status = { listening: false };
  // The checks read the Slack app and the leader lease, built below, only when asked (after the start).
  const { health, slackAuth } = healthChecks(core, settings.health, {
    listening: () => status.listening,
    authTest: () => slack.app.client.auth.test(),
    leading: () => leaderWork.active,
  });
  const metricsServer = await startOperatorsListener(config, { metrics, health }, logger).catch(
    async (err: unknown) => {
      await store.close().catch(() => undefined);
      await outreach.close();
      await simulator?.close();
      throw err;
    },
  );
  const { slack, slackBudget } = slackApp(core, opts, { health, slackAuth, status });
  const { services, leaderWork, watch, reports, home } = buildServices(core, opts, settings, { slack, slackBudget });
  auditRefreshes(deps, watch, home);
  routes(slack.app, services);
  let port: number;
  try {
    ({ port } = await slack.start());
  } catch (err) {
    await metricsServer.close();
    throw err;
  }
  status.listening = true;
  slackAuth.start();
  await leaderWork.start();
  // Uploads the app stopped in the middle of go on from their first unanswered batch.
  await services.uploads.start();
  logger.info({ port }, 'outreach-slack is listening');
  const stop = stopInOrder(status, [
    () => slack.stop().catch((err: unknown) => logger.warn({ err: String(err) }, 'stopping the Slack app failed')),
    () => slackAuth.stop(),
    () => leaderWork.stop(),
    () => reports.close(),
    () => watch.close(),
    () => services.uploads.stop(),
    // The lease is given up once nothing here polls or posts: another replica takes over at once.
    () => coordination.close().catch((err: unknown) => logger.warn({ err: String(err) }, 'giving up the lease failed')),
    // A Home tab refresh started just before the stop may still be waiting on the service.
    () => home.idle(),
    () => store.close(),
    () => outreach.close(),
    () => simulator?.close(),
    () => metricsServer.close(),
  ]);
  const { port: metricsPort, host: metricsHost } = metricsServer;
  return { port, metricsPort, metricsHost, deps, services, settings, metrics, health, simulator, stop };
}

/** `stop()` of the running app: once, the listener first marked as stopping, then each step after the one before. */
function stopInOrder(
  status: { listening: boolean },
  steps: Array<() => Promise<unknown> | undefined>,
): () => Promise<void> {
  let stopped = false;
  return async () => {
    if (stopped) return;
    stopped = true;
    status.listening = false;
    for (const step of steps) await step();
  };
}

/** The store, and who polls and delivers (one replica at a time) with the budgets every replica shares. */
async function openState(config: Config, health: HealthTuning, logger: Logger) {
  const store = await openStore(
    // The store's own retry while it cannot write: once per probe interval too (never a busy loop).
    { ...config, retryMs: Math.max(10, health.storeProbeMs) },
    logger.child({ component: 'store' }),
  );
  // In the database with DATABASE_URL, in this process with the embedded store (its one process always leads).
  const coordination =
    store.kind === 'postgres' && config.databaseUrl
      ? openCoordination({
          kind: 'postgres',
          sql: store,
          url: config.databaseUrl,
          logger: logger.child({ component: 'leader' }),
        })
      : openCoordination({ kind: 'embedded' });
  return { store, coordination };
}

/** The service's client with its limiter: the live service, or in sandbox mode the simulator started here. */
async function connectService(
  config: Config,
  opts: StartOptions,
  { store, coordination, metrics, logger }: Omit<Core, 'deps'> & { logger: Logger },
): Promise<{ outreach: OutreachClient; simulator: Simulator | undefined }> {
  let simulator: Simulator | undefined;
  let service = config.outreach;
  if (service.mode === 'sandbox') {
    simulator = await startSimulator({ sandbox: opts.sandboxTickMs ? { tickMs: opts.sandboxTickMs } : true, port: 0 });
    service = { mode: 'live', baseUrl: simulator.baseUrl, apiKey: simulator.apiKey };
    logger.info({ url: simulator.baseUrl }, 'sandbox: using the built-in simulator of the outreach service');
  }
  const { baseUrl, apiKey } = service;
  const outreach = new OutreachClient({
    baseUrl,
    apiKey,
    // Several replicas share the service's 12 requests/s through the database's windows.
    limiter: sharedLimiter(apiKey, store.kind === 'postgres' ? { windows: coordination.windows } : undefined),
    logger,
    onExchange: (x) => metrics.serviceExchange(x),
  });
  metrics.watchLimiter(outreach.limiter);
  return { outreach, simulator };
}

/** What every listener and service is handed: settings, service, store, who may do what, the audit, languages. */
function appDeps(
  config: Config,
  { outreach, store, logger, metrics }: Pick<AppDeps, 'outreach' | 'store' | 'logger' | 'metrics'>,
): AppDeps {
  const languages = new Languages({ store, defaultLocale: config.defaultLocale, logger });
  return {
    config,
    outreach,
    store,
    logger,
    permissions: createPermissions({
      adminUserIds: config.adminUserIds,
      ...(config.adminUsergroupId ? { adminUsergroupId: config.adminUsergroupId } : {}),
      responderUserIds: config.responderUserIds,
      ...(config.responderUsergroupId ? { responderUsergroupId: config.responderUsergroupId } : {}),
    }),
    audit: createAudit(logger, config.auditChannelId, languages),
    languages,
    metrics,
  };
}

/** The checks of /healthz (listening, the store, Slack's word on the tokens), also shown as metrics. */
function healthChecks(
  { deps, store, metrics }: Core,
  tuning: HealthTuning,
  live: {
    listening: () => boolean;
    authTest: ConstructorParameters<typeof SlackAuthMonitor>[0]['authTest'];
    leading: () => boolean;
  },
): { health: Health; slackAuth: SlackAuthMonitor } {
  const slackAuth = new SlackAuthMonitor({
    authTest: live.authTest,
    intervalMs: tuning.slackAuthCheckMs,
    logger: deps.logger.child({ component: 'health' }),
  });
  const health = new Health(
    {
      listening: () => (live.listening() ? { ok: true } : { ok: false, detail: 'the app is starting or stopping' }),
      store: storeCheck(store, { probeEveryMs: tuning.storeProbeMs }),
      slack_auth: () => slackAuth.check(),
    },
    undefined,
    live.leading,
  );
  metrics.watchHealth(async () => {
    const r = await health.report();
    return Object.fromEntries(Object.entries(r.checks).map(([name, c]) => [name, c.ok]));
  });
  return { health, slackAuth };
}

/** The Bolt app on PORT, its Web API calls observed (metrics, token failures) and held to Slack's budgets. */
function slackApp(
  { deps, metrics, coordination }: Core,
  opts: StartOptions,
  { health, slackAuth, status }: { health: Health; slackAuth: SlackAuthMonitor; status: { listening: boolean } },
): { slack: SlackApp; slackBudget: SlackMethodBudget } {
  const { config } = deps;
  const slackFetch = observedFetch({
    slackApiUrl: config.slackApiUrl,
    botToken: config.slackBotToken,
    ...(config.slackAppToken ? { appToken: config.slackAppToken } : {}),
    onCall: (x) => metrics.slackApiCall(x),
    onTokenResult: (token, method, error) => slackAuth.noteCall(token, method, error),
  });
  // Slack's limits per method for the workspace, one budget for every replica; people's calls before the watch's.
  const slackBudget =
    opts.slackBudget ??
    new SlackMethodBudget({
      windows: opts.rateWindows ?? coordination.windows,
      ...(opts.slackTimeScale ? { timeScale: opts.slackTimeScale } : {}),
      logger: deps.logger.child({ component: 'slack-budget' }),
    });
  const slack = createSlackApp(deps, {
    ...opts,
    isReady: () => status.listening,
    health,
    slackFetch,
    slackBudget,
    routes: publicPortRoutes(config.metricsToken, { metrics, health }),
  });
  return { slack, slackBudget };
}

/** Every service, built once, and the leader's work (polling, delivery, scheduled reports) behind the lease. */
function buildServices(
  { deps, store, metrics, coordination }: Core,
  opts: StartOptions,
  settings: Settings,
  { slack, slackBudget }: { slack: SlackApp; slackBudget: SlackMethodBudget },
) {
  const { config, logger } = deps;
  const client = slack.app.client;
  const clock = opts.clock ?? systemClock;
  // Each person's share of commands and clicks (the fair-use middleware), which a report also spends as it reads.
  // One bucket per person for every replica: in the shared store with PostgreSQL, in this process otherwise.
  const personBudget = createPersonBudget({
    perMinute: config.personActionsPerMinute,
    burst: config.personActionsBurst,
    ...(store.kind === 'postgres' ? { shared: new PgTokenBuckets(store) } : {}),
    logger: logger.child({ component: 'fair-use' }),
    now: () => clock.now(),
    ...(opts.fairUseSharedDeadlineMs !== undefined ? { sharedDeadlineMs: opts.fairUseSharedDeadlineMs } : {}),
  });
  // Polling, delivery to Slack and scheduled reports run only while this replica holds the leader lease; the
  // delivery's writes are fenced by its term (leader-work.ts), so a stalled leader's are not sent after a takeover.
  const leaderWork = new LeaderWork(
    coordination.leadership,
    {
      async start() {
        await watch.start();
        await reports.start();
      },
      async stop() {
        await reports.stop();
        await watch.stop();
      },
    },
    logger.child({ component: 'leader' }),
    (l) => metrics.setLeader(l),
  );
  const watch = createWatch(deps, client, opts.watch, slack.backgroundClient, clock, slackBudget, leaderWork);
  const reportTuning = { ...DEFAULT_REPORT_TUNING, ...opts.reports };
  const reports = new ReportService(deps, slack.backgroundClient, clock, reportTuning, personBudget);
  const home = new HomeService(
    deps,
    settings.home,
    (id) => watch.channelsWatching(id),
    () => watch.waitingForReply(),
  );
  const services: Services = {
    ...deps,
    watch,
    // Each upload is held by one replica through a lease in its job; another takes it over if that one dies.
    uploads: new UploadService(deps, client, settings.upload, {
      id: `${hostname()}/${process.pid}/${randomBytes(3).toString('hex')}`,
      exclusive: store.kind !== 'postgres',
    }),
    home,
    directory: new AgentDirectory(deps),
    submissions: new FormSubmissions(store),
    formTiming: settings.campaignForm,
    reports,
    personBudget,
  };
  return { services, leaderWork, watch, reports, home };
}

/**
 * Every change passes through the audit trail: the watches note what was done from Slack, the person's Home tab is
 * published again, other people's cached lists are read again at their next use.
 */
function auditRefreshes(deps: AppDeps, watch: WatchService, home: HomeService): void {
  const { logger } = deps;
  deps.audit.subscribe((entry, entryClient) => {
    if (entry.result === 'refused') return;
    // Watches tell their owners what the service did to a campaign, not what a person did from Slack.
    watch.changedFromSlack(entry).catch((err: unknown) => {
      logger.warn({ err: String(err) }, 'could not note a change from Slack for the watches');
    });
    // A failed change may still have moved something (or found the view stale): refresh either way.
    home.changed(entry.campaignId);
    home
      .knows(entry.userId)
      .then((known) => (known ? home.refresh(entry.userId, entryClient) : undefined))
      .catch((err: unknown) => {
        logger.warn({ err: String(err), user: entry.userId }, 'could not refresh the Home tab after a change');
      });
  });
}

/** The operators' own listener; a warning when it is reachable from other hosts. */
async function startOperatorsListener(
  config: Config,
  sources: Parameters<typeof startMetricsServer>[1],
  logger: Logger,
): Promise<MetricsServer> {
  const server = await startMetricsServer({ host: config.metricsHost, port: config.metricsPort }, sources);
  const where = { host: server.host, port: server.port };
  if (isLoopback(config.metricsHost)) {
    logger.info(where, "operators' endpoints (GET /metrics, GET /healthz/details) listen on this host only");
  } else {
    logger.warn(
      where,
      `METRICS_HOST ${config.metricsHost} is not a loopback address: anyone who can reach ${server.host}:${server.port} ` +
        'reads the metrics and the health details. Keep that port off public networks (a firewall, a private ' +
        'interface), or leave METRICS_HOST unset for 127.0.0.1 and let Prometheus scrape PORT with METRICS_TOKEN.',
    );
  }
  return server;
}
