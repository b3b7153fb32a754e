/**
 * The load of the watch benches (bench/watch.bench.ts, bench/soak.bench.ts): 200 watched campaigns (one channel
 * each), calls already in the service, then a live phase at 330 calls a minute: each cycle ends the calls of the
 * previous one (each with a two-message conversation) and starts 165 new ones, so every live call ends within one
 * poll interval. The simulator (12 requests/s at the bench's time) and the fake Slack (Slack's tiers per method for
 * the workspace, ~1 message/s per channel) run in the bench's process, the app in its own (watch-app.ts).
 *
 * Time runs `scale` times faster than in production: the service's 12 requests/s, Slack's minute, the poll interval
 * (30 s / scale) and every delay of the watch (watch-app.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import type { WatchFilter } from '../../src/watch/filter.js';
import type { Subscription } from '../../src/watch/state.js';
import { startFakeSlack, type FakeSlack } from '../../src/emulator/fake-slack.js';
import type { BenchPostgres } from './postgres.js';
import { startWatchApp, type WatchApp } from './watch-app.js';

export const CAMPAIGNS = 200;
export const POLL_SECONDS = 30;
/** 330 calls a minute at one cycle every 30 s. */
export const PER_CYCLE = 165;

export type StoreKind = 'embedded' | 'postgres';

export interface WatchLoadOptions {
  kind: StoreKind;
  /** The PostgreSQL server of the run (`kind` postgres). */
  pgServer?: BenchPostgres;
  /** The bench's name: its temporary directory and its database. */
  name: string;
  scale: number;
  /** Calls made an hour before the watch starts, all ended: never posted, never listed again. */
  history: number;
  /** Cycles that start calls (each campaign gets a contact for each of its calls). */
  liveCycles: number;
  format?: 'compact' | 'detailed';
  filter?: WatchFilter;
  /** The app runs with --expose-gc (`app.memory()` measures the heap after a full GC). */
  exposeGc?: boolean;
}

export interface WatchLoad {
  app: WatchApp;
  sim: Simulator;
  fake: FakeSlack;
  stateDir: string;
  db?: { url: string; name: string };
  pollIntervalMs: number;
  /** Live calls started so far. */
  created: number;
  /** Ends the calls started by the previous turn (their conversation happened meanwhile), then starts 165 more when
   * `start`; returns the ids of the calls ended. */
  turn(start: boolean): string[];
  /** Calls started and not ended yet. */
  running(): number;
  shown: ShownCalls;
  close(): Promise<void>;
}

/**
 * When each ended call's final state reached Slack, asked of the app every cycle (it remembers the last 20,000
 * only): `waiting` holds the calls ended and not shown yet, `latencies` the measured end-to-Slack time of the others.
 */
class ShownCalls {
  /** Call id → when it ended (this machine's clock, ms). */
  readonly waiting = new Map<string, number>();
  /** Call end → final state in Slack, measured ms, in the order they were seen. */
  readonly latencies: number[] = [];
  /** For each latency (same order): the part until the poller saw the final state, and how it was written. */
  readonly parts: Array<{ seenMs: number; via: string }> = [];
  private since = 0;

  constructor(
    private readonly app: WatchApp,
    /** Asked again each time: a call shown a little before the newest one seen may be listed after it. */
    private readonly marginMs: number,
  ) {}

  ended(callId: string, at: number): void {
    this.waiting.set(callId, at);
  }

  /** Takes in what the app showed since the last look. */
  async update(): Promise<void> {
    const { finalShown } = await this.app.delivery(Math.max(0, this.since - this.marginMs));
    for (const [id, { at, seenAt, via }] of finalShown) {
      this.since = Math.max(this.since, at);
      const endedAt = this.waiting.get(id);
      if (endedAt === undefined) continue;
      this.waiting.delete(id);
      this.latencies.push(at - endedAt);
      this.parts.push({ seenMs: Math.max(0, seenAt - endedAt), via });
    }
  }
}

export async function startWatchLoad(o: WatchLoadOptions): Promise<WatchLoad> {
  const dir = await mkdtemp(join(tmpdir(), `${o.name}-bench-`));
  const sim = await startSimulator({ port: 0, rateLimitPerSecond: 12 * o.scale });
  const fake = await startFakeSlack({ botUserId: 'UBOT', botId: 'BBOT', tierLimits: { timeScale: o.scale } });
  const agent = sim.control.addAgent({ name: 'Bench agent' });
  const integ = sim.control.addIntegration({ agentId: agent.id, type: 'phone_call' });
  const contactsPer = Math.ceil((o.history + o.liveCycles * PER_CYCLE) / CAMPAIGNS);
  const campaigns: number[] = [];
  for (let i = 0; i < CAMPAIGNS; i++) {
    const c = sim.control.seedCampaign({
      name: `Bench ${i}`,
      agentId: agent.id,
      integrationId: integ.id,
      status: 'active',
      contacts: Array.from({ length: contactsPer }, (_, j) => ({
        contact: `+52155${String(i * 100_000 + j).padStart(8, '0')}`,
        name: `Person ${i}-${j}`,
      })),
    });
    campaigns.push(c.id as number);
  }

  const db = o.kind === 'postgres' ? await o.pgServer!.database(`${o.name}_bench`) : undefined;
  const stateDir = join(dir, 'state');
  const app = await startWatchApp(
    {
      SLACK_BOT_TOKEN: fake.botToken,
      SLACK_SIGNING_SECRET: 'bench-secret',
      SLACK_API_URL: fake.apiUrl,
      OUTREACH_BASE_URL: sim.baseUrl,
      OUTREACH_API_KEY: sim.apiKey,
      ALLOW_EVERYONE_TO_CHANGE: 'true',
      POLL_INTERVAL_SECONDS: String(POLL_SECONDS),
      STATE_DIR: stateDir,
      STATE_FILE: join(dir, 'no-legacy-state.json'),
      LOG_LEVEL: 'silent',
      ...(db ? { DATABASE_URL: db.url } : {}),
    },
    {
      scale: o.scale,
      pollIntervalSeconds: POLL_SECONDS,
      botId: 'BBOT',
      botUserId: 'UBOT',
      ...(o.exposeGc ? { exposeGc: true } : {}),
    },
  );
  const close = async () => {
    await app.stop().catch(() => undefined);
    await fake.close();
    await sim.close();
    if (process.env.KEEP_STATE) console.log(`state kept in ${stateDir}`);
    else await rm(dir, { recursive: true, force: true });
  };

  try {
    const hourAgo = new Date(Date.now() - 3600_000).toISOString();
    for (let k = 0; k < o.history; k++) {
      const call = sim.control.createCall(campaigns[k % CAMPAIGNS]!, { created_at: hourAgo });
      sim.control.updateCall(call.id as string, { status: 'ended', answered_by: 'human', contactStatus: null });
    }
    const startFrom = new Date(Date.now() - 1000).toISOString();
    const subs: Subscription[] = campaigns.map((id) => ({
      campaignId: id,
      channelId: `C${String(id).padStart(6, '0')}`,
      createdBy: 'U0BENCH',
      createdAt: startFrom,
      startFrom,
      campaignName: `Bench ${id}`,
      kind: 'phone_call',
      ...(o.format === 'compact' ? { format: o.format } : {}),
      ...(o.filter ? { filter: o.filter } : {}),
    }));
    await app.subscribe(subs);
  } catch (err) {
    await close();
    throw err;
  }

  const pollIntervalMs = (POLL_SECONDS * 1000) / o.scale;
  const shown = new ShownCalls(app, 10 * pollIntervalMs);
  let running: string[] = [];
  const load: WatchLoad = {
    app,
    sim,
    fake,
    stateDir,
    ...(db ? { db } : {}),
    pollIntervalMs,
    created: 0,
    shown,
    turn(start) {
      const ended = [...running];
      for (const id of running) {
        sim.control.updateCall(id, { status: 'ended', answered_by: 'human', contactStatus: null });
        shown.ended(id, Date.now());
      }
      running = [];
      if (start) {
        for (let k = 0; k < PER_CYCLE; k++, load.created++) {
          const call = sim.control.createCall(campaigns[load.created % CAMPAIGNS]!, { status: 'in-progress' });
          // The call's transcript, while it runs (a line written at the instant of the end would be the end user
          // writing after it: a customer waiting for a person, with a mention and a reminder, not this load).
          const thread = call.thread_id as string;
          sim.control.addMessage(thread, { sent_by: 'AI', content: 'Hola, le llamo de parte de Bench.' });
          sim.control.addMessage(thread, { sent_by: 'EU', content: 'Gracias, no me interesa.' });
          running.push(call.id as string);
        }
      }
      return ended;
    },
    running: () => running.length,
    close,
  };
  return load;
}
