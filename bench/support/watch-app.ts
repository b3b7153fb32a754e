/**
 * The app of the watch bench in a process of its own, so its CPU figures are the app's alone (the simulator and the
 * fake Slack stay in the bench's process): src/main.ts's startApp on the configuration given as environment (the
 * embedded store in STATE_DIR, or PostgreSQL with DATABASE_URL), polling only when the bench says so, answering
 * over IPC.
 *
 * Time runs `scale` times faster, as in the rest of the bench: the watch's tuning (every `…Ms` but retention),
 * Slack's per-method budgets (startApp's slackTimeScale) and the service's 12 requests/s (the limiter's window is
 * 1 s / scale; with DATABASE_URL it takes its slots from the database's shared windows like the app's own).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { startApp } from '../../src/main.js';
import { outreachBucket, sharedLimiter } from '../../src/outreach/limiter.js';
import type { MemoryFigures } from '../../src/bounded.js';
import type { EmbeddedStoreStats } from '../../src/store/embedded/store.js';
import { PgRateWindows } from '../../src/store/pg-coordination.js';
import type { CycleReport } from '../../src/watch/poller.js';
import type { FinalShown } from '../../src/watch/delivery.js';
import { defaultTuning, type WatchTuning } from '../../src/watch/service.js';
import type { Subscription } from '../../src/watch/state.js';

/** What the app's process tells about itself at a point in time. */
export interface AppUsage {
  /** CPU (user + system) of the app's process since it started, ms. */
  cpuMs: number;
  rssKb: number;
  /** Embedded store: files and bytes written since open. */
  embedded?: EmbeddedStoreStats;
  /** PostgreSQL: statements of the store (records, Slack budgets) and of the service limiter's shared windows. */
  queries?: { store: number; limiter: number };
  /** PostgreSQL: the store's statements by kind (verb and collection, or the coordination's first words). */
  statements?: Record<string, number>;
  /** Delivery items waiting for Slack. */
  pending: number;
}

/** A statement's kind for the breakdown: `list watch_posts`, `put watch_calls`, `slack/outreach windows: …`. */
function statementKind(text: string, params: readonly unknown[] | undefined): string {
  const sql = text.replace(/\s+/g, ' ').trim();
  const collection = typeof params?.[0] === 'string' && / records\b/.test(sql) ? params[0] : undefined;
  if (collection !== undefined && !collection.includes(':')) {
    const verb = sql.startsWith('SELECT value, version')
      ? 'get'
      : sql.startsWith('SELECT key, value')
        ? 'list'
        : sql.startsWith('SELECT count')
          ? 'count'
          : sql.startsWith('INSERT')
            ? sql.includes('records.expires_at <=')
              ? 'insertIfAbsent'
              : 'put'
            : sql.startsWith('UPDATE')
              ? 'compareAndSet'
              : sql.startsWith('DELETE')
                ? 'delete'
                : sql.slice(0, 20);
    return `${verb} ${collection}`;
  }
  return `other: ${sql.slice(0, 48)}`;
}

/** The app's memory at a point in time: after a forced GC when the app runs with --expose-gc (`exposeGc`). */
export interface AppMemory {
  /** Whether a GC ran just before (else the heap includes garbage not yet collected). */
  collected: boolean;
  heapUsed: number;
  rss: number;
  /** The size of each long-lived map of the watch (WatchService.memoryFigures). */
  maps: MemoryFigures;
}

interface DeliveryFigures {
  callPosts: number;
  callUpdates: number;
  digestPosts: number;
  digestUpdates: number;
  conversationPosts: number;
  failures: number;
  /**
   * Call id → when its final state first reached Slack (`at`, ms since the epoch, this machine's clock), when the
   * poller saw it and how it was written (post, update, digest); with `since`, only those shown at or after it (the
   * app remembers the last 20,000: a long run asks every cycle).
   */
  finalShown: Array<[string, FinalShown]>;
}

type Request =
  | { type: 'subscribe'; subs: Subscription[] }
  | { type: 'cycle' }
  | { type: 'usage' }
  | { type: 'idle' }
  | { type: 'delivery'; since?: number }
  | { type: 'memory' }
  | { type: 'stop' };

/** The watch's tuning with time `scale` times faster (retention and event memory stay as in production). */
function scaledTuning(pollIntervalSeconds: number, scale: number): Partial<WatchTuning> {
  const t = defaultTuning(pollIntervalSeconds) as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(t)) {
    if (k.endsWith('Ms') && typeof v === 'number' && k !== 'retentionMs' && k !== 'eventTtlMs') out[k] = v / scale;
  }
  return { ...(out as Partial<WatchTuning>), autoPoll: false, requestsPerSecond: 12 * scale };
}

export interface WatchApp {
  child: ChildProcess;
  subscribe(subs: Subscription[]): Promise<void>;
  cycle(): Promise<CycleReport>;
  usage(): Promise<AppUsage>;
  idle(): Promise<void>;
  delivery(since?: number): Promise<DeliveryFigures>;
  memory(): Promise<AppMemory>;
  stop(): Promise<void>;
}

interface ChildSettings {
  scale: number;
  pollIntervalSeconds: number;
  botId: string;
  botUserId: string;
  /** Run the app with --expose-gc, so `memory()` measures the heap after a full GC. */
  exposeGc?: boolean;
}

/** Starts the app's process with `env` (loadConfig's variables) and waits until it leads (polls and delivers). */
export async function startWatchApp(env: Record<string, string>, settings: ChildSettings): Promise<WatchApp> {
  const child = fork(fileURLToPath(import.meta.url), ['--watch-app'], {
    // BENCH_APP_CPU_PROF=<dir>: the app's CPU profile (.cpuprofile, for Chrome's DevTools) is written there at stop.
    execArgv: [
      '--import',
      'tsx',
      ...(settings.exposeGc ? ['--expose-gc'] : []),
      ...(process.env.BENCH_APP_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_APP_CPU_PROF}`] : []),
    ],
    env: { PATH: process.env.PATH ?? '', ...env, WATCH_BENCH: JSON.stringify(settings) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let seq = 0;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const exited = new Promise<never>((_, reject) => {
    child.once('exit', (code, signal) => {
      const err = new Error(`the app's process exited (${signal ?? code})`);
      for (const w of waiting.values()) w.reject(err);
      reject(err);
    });
  });
  exited.catch(() => undefined);
  const ready = new Promise<void>((resolve) => {
    child.on('message', (m: { ready?: boolean }) => {
      if (m.ready) resolve();
    });
  });
  child.on('message', (m: { id?: number; result?: unknown; error?: string }) => {
    if (m.id === undefined) return;
    const w = waiting.get(m.id);
    if (!w) return;
    waiting.delete(m.id);
    if (m.error !== undefined) w.reject(new Error(m.error));
    else w.resolve(m.result);
  });
  const ask = <T>(req: Request): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = ++seq;
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      child.send({ id, ...req });
    });
  await Promise.race([ready, exited]);
  return {
    child,
    subscribe: (subs) => ask({ type: 'subscribe', subs }),
    cycle: () => ask({ type: 'cycle' }),
    usage: () => ask({ type: 'usage' }),
    idle: () => ask({ type: 'idle' }),
    delivery: (since) => ask({ type: 'delivery', ...(since !== undefined ? { since } : {}) }),
    memory: () => ask({ type: 'memory' }),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((r) => child.once('exit', r));
      await ask({ type: 'stop' }).catch(() => undefined);
      await gone;
    },
  };
}

/** The app's process: startApp, then answers the bench's questions. */
async function runChild(): Promise<void> {
  const settings = JSON.parse(process.env.WATCH_BENCH ?? '{}') as ChildSettings;
  const config = { ...loadConfig(process.env), port: 0, metricsPort: 0 };
  const scale = settings.scale;
  if (config.outreach.mode !== 'live') throw new Error('the watch bench needs OUTREACH_BASE_URL and OUTREACH_API_KEY');
  // The service's 12 requests/s on the bench's time: the limiter of this API key is made before startApp asks for
  // it (sharedLimiter keeps one per key), with the database's shared windows as the app would give it.
  let limiterQueries = 0;
  let limiterPool: pg.Pool | undefined;
  const timing = { perSecond: 12, windowMs: 1000 / scale, marginMs: 250 / scale, backoffBaseMs: 1000 / scale };
  if (config.databaseUrl) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 4 });
    limiterPool = pool;
    const runner = {
      query: <R extends pg.QueryResultRow>(text: string, params?: unknown[]) => {
        limiterQueries++;
        return pool.query<R>(text, params);
      },
    };
    sharedLimiter(config.outreach.apiKey, {
      ...timing,
      shared: { windows: new PgRateWindows(runner), bucket: outreachBucket(config.outreach.apiKey) },
    });
  } else {
    sharedLimiter(config.outreach.apiKey, timing);
  }
  const app = await startApp(config, {
    logger: createLogger((process.env.BENCH_LOG as 'info' | undefined) ?? 'silent'),
    botId: settings.botId,
    botUserId: settings.botUserId,
    slackRetries: 0,
    slackTimeScale: scale,
    watch: scaledTuning(settings.pollIntervalSeconds, scale),
  });
  const watch = app.services.watch;
  const store = app.deps.store as { kind: string; stats?: () => unknown; pool?: pg.Pool };
  // PostgreSQL: every statement of the store (records and the Slack budgets' windows) counted by kind.
  const statements: Record<string, number> = {};
  if (store.pool) {
    const pool = store.pool as unknown as { query: (text: string, params?: unknown[]) => Promise<unknown> };
    const query = pool.query.bind(pool);
    pool.query = (text, params) => {
      const k = statementKind(text, params);
      statements[k] = (statements[k] ?? 0) + 1;
      return query(text, params);
    };
  }
  // With DATABASE_URL the watch runs only while this process holds the leader lease.
  for (let i = 0; (await app.health.report()).leader === false; i++) {
    if (i > 300) throw new Error('the app did not take the leader lease within 30 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  const answer = async (req: Request): Promise<unknown> => {
    switch (req.type) {
      case 'subscribe':
        for (const s of req.subs) await watch.state.putSubscription(s);
        return null;
      case 'cycle':
        return watch.pollNow();
      case 'usage': {
        const cpu = process.cpuUsage();
        const usage: AppUsage = {
          cpuMs: (cpu.user + cpu.system) / 1000,
          rssKb: Math.round(process.memoryUsage().rss / 1024),
          pending: watch.delivery.pending(),
        };
        if (store.kind === 'embedded') usage.embedded = store.stats?.() as EmbeddedStoreStats;
        else {
          usage.queries = { store: (store.stats?.() as { queries: number }).queries, limiter: limiterQueries };
          usage.statements = { ...statements };
        }
        return usage;
      }
      case 'idle':
        await watch.delivery.idle();
        return null;
      case 'delivery': {
        const s = watch.delivery.stats;
        const figures: DeliveryFigures = {
          callPosts: s.callPosts,
          callUpdates: s.callUpdates,
          digestPosts: s.digestPosts,
          digestUpdates: s.digestUpdates,
          conversationPosts: s.conversationPosts,
          failures: s.failures,
          finalShown: [...s.finalShown].filter(([, f]) => req.since === undefined || f.at >= req.since),
        };
        return figures;
      }
      case 'memory': {
        const gc = (globalThis as { gc?: () => void }).gc;
        gc?.();
        const m = process.memoryUsage();
        const memory: AppMemory = {
          collected: gc !== undefined,
          heapUsed: m.heapUsed,
          rss: m.rss,
          maps: watch.memoryFigures(),
        };
        return memory;
      }
      case 'stop':
        await app.stop();
        await limiterPool?.end();
        return null;
    }
  };
  process.on('message', (m: Request & { id: number }) => {
    answer(m).then(
      (result) => process.send?.({ id: m.id, result }, () => (m.type === 'stop' ? process.exit(0) : undefined)),
      (err: unknown) => process.send?.({ id: m.id, error: String((err as Error)?.stack ?? err) }),
    );
  });
  process.send?.({ ready: true });
}

if (process.argv.includes('--watch-app') && process.argv[1] === fileURLToPath(import.meta.url)) {
  runChild().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
