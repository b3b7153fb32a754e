/**
 * Watching at scale: 200 watched campaigns (one channel each) and 10,000 calls in the simulator.
 *
 * Everything time-based runs TIME_SCALE times faster than in production (default 10): the shared limiter allows
 * 12 × scale requests/s, the poll interval is 30 s / scale, Slack's per-channel pace (enforced by the fake Slack) is
 * 1 × scale messages/s, idle times are divided too. Requests per cycle, CPU per cycle and bytes written do not
 * depend on the scale; latencies are printed both as measured and multiplied back to production time.
 *
 * Timeline: 8,000 calls already in the simulator (ended, before the watch started: never posted, and never listed
 * again once the cursors pass them), then live traffic: each cycle starts 100 calls (each with a two-message
 * conversation) and ends the calls of the previous cycle; 20 cycles make the other 2,000, then cycles drain.
 *
 *   npm run bench -- watch           (TIME_SCALE=20 npm run bench -- watch for a quicker, rougher run)
 */
import { LogLevel, WebClient } from '@slack/web-api';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../src/config.js';
import { createLogger } from '../src/log.js';
import { OutreachClient } from '../src/outreach/client.js';
import { RateLimiter } from '../src/outreach/limiter.js';
import { startSimulator } from '../src/sim/server.js';
import { createAudit } from '../src/slack/audit.js';
import type { AppDeps } from '../src/slack/deps.js';
import { createPermissions } from '../src/slack/permissions.js';
import { openLowdbStore } from '../src/store/lowdb-store.js';
import { createWatch } from '../src/slack/watch/create.js';
import { startFakeSlack } from '../test/support/fakeSlack.js';

const SCALE = Number(process.env.TIME_SCALE ?? 10);
const CAMPAIGNS = 200;
const CALLS = 10_000;
const HISTORY = 8_000;
const PER_CYCLE = 100;

function pct(values: number[], p: number): number {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}
const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'watch-bench-'));
  const stateFile = join(dir, 'state.json');
  const sim = await startSimulator({ port: 0, rateLimitPerSecond: 12 * SCALE });
  const fake = await startFakeSlack({
    botUserId: 'UBOT',
    botId: 'BBOT',
    postMessageRateLimit: { perSecond: SCALE, burst: 3, retryAfterSec: 1 },
  });
  const agent = sim.control.addAgent({ name: 'Bench agent' });
  const integ = sim.control.addIntegration({ agentId: agent.id, type: 'phone_call' });
  const contactsPer = Math.ceil(CALLS / CAMPAIGNS);
  const campaigns: number[] = [];
  for (let i = 0; i < CAMPAIGNS; i++) {
    const c = sim.control.seedCampaign({
      name: `Bench ${i}`,
      agentId: agent.id,
      integrationId: integ.id,
      status: 'active',
      contacts: Array.from({ length: contactsPer }, (_, j) => ({
        contact: `+52155${String(i * 1000 + j).padStart(8, '0')}`,
        name: `Person ${i}-${j}`,
      })),
    });
    campaigns.push(c.id as number);
  }

  const logger = createLogger('silent');
  // STORE_COALESCE_MS: how long the store gathers changes before one write (src/main.ts opens it with the default, 0).
  const coalesceMs = Number(process.env.STORE_COALESCE_MS ?? 0);
  const store = await openLowdbStore(stateFile, { coalesceMs });
  const deps: AppDeps = {
    config: { outreach: { mode: 'live', baseUrl: sim.baseUrl, apiKey: sim.apiKey }, pollIntervalSeconds: 30 } as Config,
    outreach: new OutreachClient({
      baseUrl: sim.baseUrl,
      apiKey: sim.apiKey,
      limiter: new RateLimiter({ perSecond: 12 * SCALE }),
    }),
    store,
    logger,
    permissions: createPermissions({ adminUserIds: [] }),
    audit: createAudit(logger),
  };
  const client = new WebClient('xoxb-test', { slackApiUrl: fake.apiUrl, logLevel: LogLevel.ERROR });
  const pollIntervalMs = 30_000 / SCALE;
  const svc = createWatch(deps, client, {
    autoPoll: false,
    pollIntervalMs,
    requestsPerSecond: 12 * SCALE,
    minGapMs: 1100 / SCALE,
    threadIdleMs: (30 * 60_000) / SCALE,
    overlapMs: (15 * 60_000) / SCALE,
    settleMs: (10 * 60_000) / SCALE,
    openGiveUpMs: (6 * 3600_000) / SCALE,
    threadMaxGapMs: (5 * 60_000) / SCALE,
    calmMs: (60_000 * 2) / SCALE,
    retryDelayMs: 5000 / SCALE,
    burstThreshold: 24,
  });
  await svc.start();
  // History: calls made an hour ago (simulator clock), all ended.
  const hourAgo = new Date(Date.now() - 3600_000).toISOString();
  for (let k = 0; k < HISTORY; k++) {
    const call = sim.control.createCall(campaigns[k % CAMPAIGNS]!, { created_at: hourAgo });
    sim.control.updateCall(call.id as string, { status: 'ended', answered_by: 'human', contactStatus: null });
  }
  const startFrom = new Date(Date.now() - 1000).toISOString();
  for (const id of campaigns) {
    await svc.state.subscriptions.set(`${id}/C${String(id).padStart(6, '0')}`, {
      campaignId: id,
      channelId: `C${String(id).padStart(6, '0')}`,
      createdBy: 'U0BENCH',
      createdAt: startFrom,
      startFrom,
      campaignName: `Bench ${id}`,
      kind: 'phone_call',
    });
  }

  const endedAt = new Map<string, number>();
  let running: Array<{ id: string; thread: string }> = [];
  let created = HISTORY;
  const rows: Array<{
    cycle: number;
    requests: number;
    byRoute: Record<string, number>;
    cpuMs: number;
    ms: number;
    writes: number;
    bytes: number;
  }> = [];
  let cycle = 0;
  const startedAt = Date.now();
  let writesBefore = store.writes;
  while (created < CALLS || running.length > 0 || svc.delivery.pending() > 0 || cycle < 3) {
    cycle++;
    // End the calls of the previous cycle (their conversation happened meanwhile), start new ones.
    for (const c of running) {
      sim.control.addMessage(c.thread, { sent_by: 'AI', content: 'Hola, le llamo de parte de Bench.' });
      sim.control.addMessage(c.thread, { sent_by: 'EU', content: 'Gracias, no me interesa.' });
      sim.control.updateCall(c.id, { status: 'ended', answered_by: 'human', contactStatus: null });
      endedAt.set(c.id, Date.now());
    }
    running = [];
    for (let k = 0; k < PER_CYCLE && created < CALLS; k++, created++) {
      const campaignId = campaigns[created % CAMPAIGNS]!;
      const call = sim.control.createCall(campaignId, { status: 'in-progress' });
      running.push({ id: call.id as string, thread: call.thread_id as string });
    }
    sim.control.clearRequests();
    const report = await svc.pollNow();
    const reqs = sim.control.requests();
    const byRoute: Record<string, number> = {};
    for (const r of reqs) byRoute[r.route ?? '?'] = (byRoute[r.route ?? '?'] ?? 0) + 1;
    await store.flush();
    const size = (await stat(stateFile)).size;
    const writes = store.writes - writesBefore;
    writesBefore = store.writes;
    rows.push({
      cycle,
      requests: reqs.length,
      byRoute,
      cpuMs: report.cpuMs,
      ms: report.durationMs,
      writes,
      bytes: writes * size,
    });
    // The next cycle starts one interval after this one started (or at once if it overran).
    const wait = pollIntervalMs - report.durationMs;
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (cycle > 60) break;
  }
  await svc.delivery.idle();
  const total = Date.now() - startedAt;

  const latencies: number[] = [];
  let missing = 0;
  for (const [id, at] of endedAt) {
    const shown = svc.delivery.stats.finalShownAt.get(id);
    if (shown === undefined) missing++;
    else latencies.push(shown - at);
  }

  console.log(
    `watch bench: ${CAMPAIGNS} campaigns (one channel each), ${fmt(created)} calls (${fmt(HISTORY)} before the watch, ` +
      `${fmt(created - HISTORY)} live at ${PER_CYCLE} per cycle), poll interval ${(pollIntervalMs * SCALE) / 1000} s, time scale ×${SCALE}, store coalesce ${coalesceMs} ms`,
  );
  console.log(`cycle  requests  (list calls / messages)  cycle ms  cpu ms  state writes  bytes written`);
  for (const r of rows) {
    console.log(
      `${String(r.cycle).padStart(5)}  ${String(r.requests).padStart(8)}  (${r.byRoute.listCampaignCalls ?? 0} / ${r.byRoute.getMessages ?? 0})`.padEnd(
        42,
      ) +
        `${fmt(r.ms).padStart(8)}  ${fmt(r.cpuMs).padStart(6)}  ${String(r.writes).padStart(12)}  ${fmt(r.bytes).padStart(13)}`,
    );
  }
  const steady = rows.filter((r) => r.cycle > 1 && r.cycle <= Math.ceil((CALLS - HISTORY) / PER_CYCLE));
  const avg = (f: (r: (typeof rows)[number]) => number) =>
    steady.reduce((s, r) => s + f(r), 0) / Math.max(1, steady.length);
  console.log('');
  console.log(
    `requests per cycle (steady, avg): ${fmt(
      avg((r) => r.requests),
      1,
    )}`,
  );
  console.log(
    `cpu per cycle (steady, avg): ${fmt(
      avg((r) => r.cpuMs),
      1,
    )} ms`,
  );
  console.log(
    `bytes written to the state file per cycle (steady, avg): ${fmt(avg((r) => r.bytes))} (${fmt(
      avg((r) => r.writes),
      1,
    )} writes; file now ${fmt((await stat(stateFile)).size)} bytes)`,
  );
  console.log(
    `call ended -> Slack updated: median ${fmt(pct(latencies, 50))} ms, p99 ${fmt(pct(latencies, 99))} ms measured; ` +
      `production time (×${SCALE}): median ${fmt((pct(latencies, 50) * SCALE) / 1000, 1)} s, p99 ${fmt((pct(latencies, 99) * SCALE) / 1000, 1)} s`,
  );
  console.log(`calls whose final state never reached Slack: ${missing}`);
  console.log(
    `Slack: ${fmt(svc.delivery.stats.callPosts)} call posts, ${fmt(svc.delivery.stats.callUpdates)} updates, ` +
      `${fmt(svc.delivery.stats.digestPosts + svc.delivery.stats.digestUpdates)} digest writes, ${fmt(svc.delivery.stats.conversationPosts)} conversation replies, ` +
      `${fake.calls().filter((c) => c.status === 429).length} × 429; run took ${fmt(total / 1000, 1)} s`,
  );

  await svc.stop();
  await store.close();
  await (deps.outreach as OutreachClient).close();
  await fake.close();
  await sim.close();
  if (process.env.KEEP_STATE) console.log(`state kept in ${stateFile}`);
  else await rm(dir, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
