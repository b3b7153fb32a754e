/**
 * Coordination of replicas on the run's real PostgreSQL: shared rate windows used by two instances on two pools (as
 * two replicas would), the leader lease on dedicated connections (failover when a session ends, hand-over on stop, a
 * stalled leader), and two outreach limiters on one shared budget against the simulator's real 12/s limit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { OutreachClient } from '../../src/outreach/client.js';
import { RateLimiter, outreachBucket } from '../../src/outreach/limiter.js';
import { onBehalfOf } from '../../src/outreach/on-behalf.js';
import { startSimulator, type Simulator } from '../../src/sim/index.js';
import type { RateWindow, SlotTicket } from '../../src/store/coordination.js';
import { migrate } from '../../src/store/migrations.js';
import { openCoordination } from '../../src/store/open-coordination.js';
import { PgLeadership, PgRateWindows } from '../../src/store/pg-coordination.js';
import { freshDatabase } from '../support/postgres.js';

let url: string;
const pools: pg.Pool[] = [];
const cleanups: (() => Promise<void>)[] = [];

function pool(): pg.Pool {
  const p = new pg.Pool({ connectionString: url, max: 4 });
  pools.push(p);
  return p;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** The database server and this process read one machine's clock; a few ms cover rounding between them. */
const CLOCK_SLACK_MS = 5;

/** Most starts within any span shorter than `windowMs` (a start exactly a window later is in the next window). */
function mostInAnyWindow(times: number[], windowMs: number): number {
  const t = [...times].sort((a, b) => a - b);
  let most = 0;
  let j = 0;
  for (let i = 0; i < t.length; i++) {
    while (j < t.length && (t[j] as number) - (t[i] as number) < windowMs) j++;
    most = Math.max(most, j - i);
  }
  return most;
}

async function waitFor(what: string, cond: () => boolean, ms: number): Promise<number> {
  const t0 = performance.now();
  while (!cond()) {
    if (performance.now() - t0 > ms) throw new Error(`timed out after ${ms} ms waiting until ${what}`);
    await sleep(10);
  }
  return performance.now() - t0;
}

beforeAll(async () => {
  url = await freshDatabase('coord');
  const p = pool();
  await migrate(p, 'test');
});

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

afterAll(async () => {
  for (const p of pools) await p.end();
});

describe('PgRateWindows on two pools (two replicas)', () => {
  it('never lets more than `limit` starts into any window while both hammer one bucket', async () => {
    const a = new PgRateWindows(pool());
    const b = new PgRateWindows(pool());
    const w: RateWindow = { bucket: 'hammer', limit: 5, windowMs: 200 };
    const starts: number[] = [];
    let refusals = 0;
    const worker = async (windows: PgRateWindows, reserve: number): Promise<void> => {
      const until = performance.now() + 1500;
      while (performance.now() < until) {
        const r = await windows.tryAcquire(w, { holdMs: 300, reserve });
        if (!r.ok) {
          refusals++;
          await sleep(Math.min(r.waitMs, 10));
          continue;
        }
        // The start is after the server took the slot; the answer before the server frees it: both inside the hold.
        starts.push(performance.now());
        await sleep(Math.random() * 20);
        await windows.release(r.ticket, w.windowMs);
      }
    };
    await Promise.all([
      worker(a, 0),
      worker(a, 0),
      worker(a, 2),
      worker(a, 1),
      worker(b, 0),
      worker(b, 0),
      worker(b, 2),
      worker(b, 1),
    ]);
    expect(refusals).toBeGreaterThan(0);
    // 1.5 s at 5 per ~220 ms: the budget was used, not just respected.
    expect(starts.length).toBeGreaterThanOrEqual(25);
    expect(mostInAnyWindow(starts, w.windowMs)).toBeLessThanOrEqual(5);
  });

  it('a background caller leaves `reserve` slots free; the other replica takes them', async () => {
    const a = new PgRateWindows(pool());
    const b = new PgRateWindows(pool());
    const w: RateWindow = { bucket: 'reserve', limit: 6, windowMs: 1000 };
    let got = 0;
    for (;;) {
      const r = await a.tryAcquire(w, { holdMs: 1200, reserve: 2 });
      if (!r.ok) {
        // Told to wait for the third slot to free, about a hold from now.
        expect(r.waitMs).toBeGreaterThan(1000);
        expect(r.waitMs).toBeLessThanOrEqual(1200);
        break;
      }
      got++;
    }
    expect(got).toBe(4);
    expect((await b.tryAcquire(w, { holdMs: 1200 })).ok).toBe(true);
    expect((await b.tryAcquire(w, { holdMs: 1200 })).ok).toBe(true);
    expect((await b.tryAcquire(w, { holdMs: 1200 })).ok).toBe(false);
  });

  it('concurrent background callers together still leave the reserve free', async () => {
    const ws = [new PgRateWindows(pool()), new PgRateWindows(pool())];
    const w: RateWindow = { bucket: 'reserve-race', limit: 12, windowMs: 1000 };
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (ws[i % 2] as PgRateWindows).tryAcquire(w, { holdMs: 1200, reserve: 2 })),
    );
    const taken = results.filter((r) => r.ok).length;
    expect(taken).toBeLessThanOrEqual(10);
    // What is left are the two reserved: a person's request takes both, and then none is left.
    let people = 0;
    while ((await (ws[0] as PgRateWindows).tryAcquire(w, { holdMs: 1200 })).ok) people++;
    expect(taken + people).toBe(12);
    expect(people).toBeGreaterThanOrEqual(2);
  });

  it("a pause from one replica holds the other's acquires until it ends", async () => {
    const a = new PgRateWindows(pool());
    const b = new PgRateWindows(pool());
    const w: RateWindow = { bucket: 'paused', limit: 3, windowMs: 100 };
    // Seconds long, so the check that it still holds a moment later is not outrun by a slow machine.
    const pausedUntil = Date.now() + 4000;
    await a.pause(w.bucket, pausedUntil);
    const r = await b.tryAcquire(w, { holdMs: 150 });
    const askedBy = Date.now();
    expect(r.ok).toBe(false);
    // The wait is what is left of the pause when it was asked (between the statements, however slow the machine).
    expect(r.ok ? 0 : r.waitMs).toBeGreaterThanOrEqual(pausedUntil - askedBy - CLOCK_SLACK_MS);
    expect(r.ok ? 0 : r.waitMs).toBeLessThanOrEqual(4000 + CLOCK_SLACK_MS);
    await a.pause(w.bucket, Date.now() + 50); // a shorter pause never shortens it
    await sleep(200);
    expect((await b.tryAcquire(w, { holdMs: 150 })).ok).toBe(false);
    await sleep(Math.max(0, pausedUntil - Date.now()));
    // The server times the pause from when its statement ran (a length from then): on a busy machine, a little after
    // `pausedUntil`. Asked again until it has ended; it must end.
    let freed = false;
    for (let i = 0; i < 100 && !freed; i++) {
      freed = (await b.tryAcquire(w, { holdMs: 150 })).ok;
      if (!freed) await sleep(20);
    }
    expect(freed).toBe(true);
  });

  it('a holder that never releases frees its slot after holdMs; its late release leaves the next holder alone', async () => {
    const a = new PgRateWindows(pool());
    const b = new PgRateWindows(pool());
    const w: RateWindow = { bucket: 'dead-holder', limit: 2, windowMs: 100 };
    const held: SlotTicket[] = [];
    const heldFrom = Date.now();
    for (let i = 0; i < 2; i++) {
      const r = await a.tryAcquire(w, { holdMs: 400 });
      if (r.ok) held.push(r.ticket);
    }
    expect(held).toHaveLength(2);
    const refused = await b.tryAcquire(w, { holdMs: 400 });
    const askedBy = Date.now();
    expect(refused.ok).toBe(false);
    const waitMs = refused.ok ? 0 : refused.waitMs;
    // Until the first hold ends, as far as the time between the statements lets the test know it.
    expect(waitMs).toBeGreaterThanOrEqual(heldFrom + 400 - askedBy - CLOCK_SLACK_MS);
    expect(waitMs).toBeLessThanOrEqual(400 + CLOCK_SLACK_MS);
    await sleep(waitMs + 5);
    const next = await b.tryAcquire(w, { holdMs: 5000 });
    expect(next.ok).toBe(true);
    // The dead holder's release arrives late: it must not free the slot someone else holds now.
    for (const t of held) await a.release(t, 0);
    const c = await b.tryAcquire(w, { holdMs: 5000 });
    expect(c.ok).toBe(true); // the other slot (its release did free it: it was free already)
    expect((await b.tryAcquire(w, { holdMs: 5000 })).ok).toBe(false);
  });

  it('a larger limit later adds slots to an existing bucket', async () => {
    const a = new PgRateWindows(pool());
    const w: RateWindow = { bucket: 'grows', limit: 1, windowMs: 1000 };
    expect((await a.tryAcquire(w, { holdMs: 1000 })).ok).toBe(true);
    expect((await a.tryAcquire(w, { holdMs: 1000 })).ok).toBe(false);
    expect((await a.tryAcquire({ ...w, limit: 3 }, { holdMs: 1000 })).ok).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------------------

interface Watched {
  l: PgLeadership;
  seen: boolean[];
}

function leadership(opts: Partial<ConstructorParameters<typeof PgLeadership>[0]> = {}): Watched {
  const l = new PgLeadership({ connectionString: url, retryMs: 200, keepAliveMs: 100, leaseMs: 1000, ...opts });
  const seen: boolean[] = [];
  l.onChange((v) => seen.push(v));
  cleanups.push(() => l.stop());
  return { l, seen };
}

/** A leader-lease competitor in a process of its own (test/support/leader-process.ts). */
function leaderProcess(): {
  proc: ChildProcess;
  lines(): string[];
  waitFor(line: string, ms: number): Promise<number>;
} {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'test/support/leader-process.ts', url], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  const lines = (): string[] => out.split('\n').filter(Boolean);
  cleanups.push(async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGCONT');
    proc.kill('SIGKILL');
    await exited;
  });
  return { proc, lines, waitFor: (line, ms) => waitFor(line, () => lines().includes(line), ms) };
}

/** Ends the session holding the leader lock, as a dead host or a database restart would. */
async function terminateLeaderSession(): Promise<number> {
  const admin = pools[0] as pg.Pool;
  const { rows } = await admin.query<{ n: number }>(
    `SELECT count(pg_terminate_backend(l.pid))::integer AS n FROM pg_locks l
     WHERE l.locktype = 'advisory' AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  );
  return rows[0]?.n ?? 0;
}

describe('PgLeadership', () => {
  it('of two replicas exactly one leads', async () => {
    const a = leadership();
    const b = leadership();
    await waitFor('one leads', () => a.l.isLeader() || b.l.isLeader(), 3000);
    await sleep(600); // several retries of the other
    expect([a.l.isLeader(), b.l.isLeader()].filter(Boolean)).toHaveLength(1);
    expect([...a.seen, ...b.seen]).toEqual([true]);
  });

  it("when the leader's session ends, it stops leading at once and the other takes over within the retry interval", async () => {
    const a = leadership();
    await waitFor('a leads', () => a.l.isLeader(), 3000);
    const b = leadership();
    await sleep(300);
    expect(b.l.isLeader()).toBe(false);
    expect(await terminateLeaderSession()).toBe(1);
    const tookOver = await waitFor('b leads', () => b.l.isLeader(), 2000);
    expect(tookOver).toBeLessThan(200 + 300); // retryMs plus a little
    await waitFor('a knows', () => a.seen.includes(false), 1000);
    expect(a.l.isLeader()).toBe(false);
    expect(a.seen).toEqual([true, false]);
    // a reconnects as a follower and stays one.
    await sleep(500);
    expect(a.l.isLeader()).toBe(false);
    expect(b.l.isLeader()).toBe(true);
  });

  it('stop() hands over at once (not after the retry interval)', async () => {
    const a = leadership({ retryMs: 5000 });
    await waitFor('a leads', () => a.l.isLeader(), 3000);
    const b = leadership({ retryMs: 5000 });
    await sleep(300); // b has tried once and listens
    expect(b.l.isLeader()).toBe(false);
    const t0 = performance.now();
    await a.l.stop();
    expect(a.l.isLeader()).toBe(false);
    expect(a.seen).toEqual([true, false]);
    await waitFor('b leads', () => b.l.isLeader(), 4000);
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('each change of hands draws a larger epoch; a leader whose epoch was overtaken stops at its next keepalive', async () => {
    const a = leadership();
    await waitFor('a leads', () => a.l.isLeader(), 3000);
    const first = a.l.epoch()!;
    expect(first).toBeGreaterThan(0);
    const b = leadership();
    expect(b.l.epoch()).toBeUndefined();
    expect(await terminateLeaderSession()).toBe(1);
    await waitFor('b leads', () => b.l.isLeader(), 3000);
    expect(a.l.epoch()).toBeUndefined();
    const second = b.l.epoch()!;
    expect(second).toBeGreaterThan(first);
    // Another term began elsewhere (its lock on another session: not possible with one lock, but the epoch says so).
    await (pools[0] as pg.Pool).query("SELECT nextval('leader_epochs')");
    await waitFor('b knows it was overtaken', () => b.seen.includes(false), 2000);
    // (It may lead again at once, in a new term of its own.)
    expect(b.l.epoch()).not.toBe(second);
  });

  it('a SIGKILLed leader process: the other takes over within the retry interval', async () => {
    const child = leaderProcess();
    await child.waitFor('leader true', 10_000);
    const b = leadership();
    await sleep(300);
    expect(b.l.isLeader()).toBe(false);
    child.proc.kill('SIGKILL');
    const tookOver = await waitFor('b leads', () => b.l.isLeader(), 2000);
    expect(tookOver).toBeLessThan(200 + 300);
  });

  it('a stalled leader (SIGSTOP): the server ends its idle session after the lease, the other takes over, and the woken one sees false first', async () => {
    const child = leaderProcess();
    await child.waitFor('leader true', 10_000);
    const b = leadership({ leaseMs: 500 });
    await sleep(300);
    expect(b.l.isLeader()).toBe(false);
    child.proc.kill('SIGSTOP');
    const tookOver = await waitFor('b leads', () => b.l.isLeader(), 3000);
    // idle_session_timeout (the lease, 500 ms) plus a retry (200 ms), give or take the last keepalive
    expect(tookOver).toBeLessThan(500 + 200 + 400);
    child.proc.kill('SIGCONT');
    await child.waitFor('leader false', 2000);
    await sleep(500);
    expect(child.lines()).toEqual(['leader true', 'woke false', 'leader false']);
    expect(b.l.isLeader()).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe('two outreach limiters on one shared budget against the simulator (12/s)', () => {
  let sim: Simulator;

  beforeEach(async () => {
    sim = await startSimulator({ rateLimitPerSecond: 12 });
    cleanups.push(() => sim.close());
  });

  function replica(): { client: OutreachClient; limiter: RateLimiter } {
    const coordination = openCoordination({ kind: 'postgres', sql: pool(), url });
    const limiter = new RateLimiter({
      shared: { windows: coordination.windows, bucket: outreachBucket(sim.apiKey) },
    });
    const client = new OutreachClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, limiter });
    cleanups.push(async () => {
      await client.close();
      await limiter.stop();
      await coordination.close();
    });
    return { client, limiter };
  }

  it('keeps the combined starts ≤ 12 in every second with no 429, and serves people first', async () => {
    const agent = sim.control.addAgent({ name: 'Replicas' });
    const integration = sim.control.addIntegration({ agentId: agent.id, type: 'phone_call' });
    const campaign = sim.control.seedCampaign({ name: 'R', agentId: agent.id, integrationId: integration.id });
    const id = Number(campaign.id);
    const a = replica();
    const b = replica();
    sim.control.clearRequests();

    const t0 = performance.now();
    const background = [
      ...Array.from({ length: 24 }, () => a.client.getCampaign(id, { priority: 'poller' })),
      ...Array.from({ length: 24 }, () => b.client.getCampaign(id, { priority: 'bulk' })),
    ];
    await sleep(1200); // both replicas' background lanes are using the whole budget
    expect(a.limiter.queued() + b.limiter.queued()).toBeGreaterThan(20);
    // A person's commands on either replica: served from the reserve, not behind the 30-odd queued.
    const people = await Promise.all([
      (async () => {
        const s = performance.now();
        await onBehalfOf('U1', () => a.client.getCampaign(id));
        return performance.now() - s;
      })(),
      (async () => {
        const s = performance.now();
        await onBehalfOf('U2', () => b.client.getCampaign(id));
        return performance.now() - s;
      })(),
    ]);
    for (const ms of people) expect(ms).toBeLessThan(500);
    expect(a.limiter.queued() + b.limiter.queued()).toBeGreaterThan(10);
    await Promise.all(background);
    const seconds = (performance.now() - t0) / 1000;

    const reqs = sim.control.requests();
    expect(reqs).toHaveLength(50);
    expect(reqs.filter((r) => r.status === 429)).toEqual([]);
    expect(
      mostInAnyWindow(
        reqs.map((r) => Date.parse(r.at)),
        1000,
      ),
    ).toBeLessThanOrEqual(12);
    // The two together, not each, are held to 12/s: 50 requests need more than 3 windows.
    expect(seconds).toBeGreaterThan(3);
  });

  it('a 429 on one replica pauses the other', async () => {
    const a = replica();
    const b = replica();
    sim.control.injectFaults({ status: 429, retryAfter: 1, match: /^GET / });
    const agent = sim.control.addAgent({ name: 'P' });
    const integration = sim.control.addIntegration({ agentId: agent.id, type: 'phone_call' });
    const campaign = sim.control.seedCampaign({ name: 'P', agentId: agent.id, integrationId: integration.id });
    const id = Number(campaign.id);
    sim.control.clearRequests();
    await a.client.getCampaign(id); // 429, retried after 1 s, then 200
    const first = sim.control.requests();
    expect(first.map((r) => r.status)).toEqual([429, 200]);
    sim.control.clearRequests();
    sim.control.injectFaults({ status: 429, retryAfter: 2, match: /^GET / });
    const t0 = Date.now();
    const pending = a.client.getCampaign(id);
    await waitFor('the 429', () => sim.control.requests().length === 1, 2000);
    await sleep(100);
    // b's request waits for a's pause (2 s), though b itself never saw a 429.
    await b.client.getCampaign(id);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1900);
    await pending;
  });
});
