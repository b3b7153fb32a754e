/**
 * How late new calls and waiting customers reach Slack once the app has been running a while (issue 23, item 4),
 * with the poller on its own timer: a 5 s poll interval, 50 watched campaigns in an organization of 350, a dozen of
 * them busy (a call a minute each, 60 to 120 s long, transcript lines every 20 s, a third of end users writing once
 * after the end), then for the measured minutes a campaign newly watched in three channels getting four new calls a
 * minute, and a campaign watched with `only:ended human` whose calls are answered by a machine and whose end users
 * write 30 s after the end.
 *
 * Everything runs TIME_SCALE times faster (default 5): the poll interval, the service's 12 requests/s, Slack's tiers
 * (enforced by the fake Slack) and every delay of the watch; figures are printed in production seconds. The app runs
 * in this process with the simulator and the fake Slack (its CPU is not what is measured here).
 *
 * Printed: the cycles' start-to-start period and duration (and by phase), service requests per cycle against the plan (48),
 * conversations left and campaigns deferred per cycle, new calls' creation-to-Slack latency in each channel and a
 * waiting customer's message-to-Slack latency against the target (two poll intervals plus 5 s: 15 s), 429s.
 *
 *   npm run bench -- latency          (WARM_MINUTES=5 MEASURE_MINUTES=5 TIME_SCALE=5)
 */
import { sharedLimiter } from '../src/outreach/limiter.js';
import type { CycleReport } from '../src/watch/poller.js';
import { defaultTuning, type WatchTuning } from '../src/watch/service.js';
import { runCommand, startWatchHarness, type WatchHarness } from '../test/support/watch-harness.js';

const S = Number(process.env.TIME_SCALE ?? 5);
const WARM_MINUTES = Number(process.env.WARM_MINUTES ?? 5);
const MEASURE_MINUTES = Number(process.env.MEASURE_MINUTES ?? 5);
const POLL_SECONDS = 5;
const TARGET_S = 2 * POLL_SECONDS + 5;
const FRESH_CHANNELS = ['C0BUSY0', 'C0BUSY1', 'C0BUSY2'];
const FILTERED_CHANNEL = 'C0FILTERED';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Production milliseconds as this run's. */
const scaled = (ms: number) => ms / S;
/** This run's milliseconds as production seconds. */
const prodSeconds = (ms: number) => (ms * S) / 1000;
const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : String(n));
const pass = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

function pct(values: number[], p: number): number {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

/** The watch's tuning at production values, time TIME_SCALE times faster (as the watch bench's app). */
function scaledTuning(): Partial<WatchTuning> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(defaultTuning(POLL_SECONDS))) {
    if (k.endsWith('Ms') && typeof v === 'number' && k !== 'retentionMs' && k !== 'eventTtlMs') out[k] = v / S;
  }
  return { ...(out as Partial<WatchTuning>), autoPoll: true, requestsPerSecond: 12 * S };
}

/** When each (channel, call) first appeared in Slack, by polling the fake's messages. */
function firstSeen(h: WatchHarness, channels: string[], match: (text: string) => string | undefined) {
  const seen = new Map<string, number>();
  const look = () => {
    const now = Date.now();
    for (const ch of channels) {
      for (const m of h.fake.messages(ch, { includeReplies: true })) {
        const key = match(
          m.metadata?.event_type === 'outreach_call' ? `call:${String(m.metadata.event_payload.call_id)}` : m.text,
        );
        if (key && !seen.has(`${ch} ${key}`)) seen.set(`${ch} ${key}`, now);
      }
    }
  };
  return { seen, look };
}

/** Ordinary use of a busy campaign: a call a minute, each with its transcript; a third of end users write after. */
async function busyCampaign(h: WatchHarness, id: number, offsetMs: number, until: () => boolean): Promise<void> {
  await sleep(scaled(offsetMs));
  for (let n = 0; !until(); n++) {
    void (async () => {
      const c = h.sim.control.createCall(id, { status: 'in-progress', answered_by: 'human' });
      const thread = c.thread_id as string;
      for (let s = 0; s < 60_000 + (n % 5) * 15_000; s += 20_000) {
        await sleep(scaled(20_000));
        h.sim.control.addMessage(thread, { sent_by: 'AI', content: `línea ${s}` });
        h.sim.control.addMessage(thread, { sent_by: 'EU', content: `respuesta ${s}` });
      }
      h.sim.control.updateCall(c.id as string, { status: 'ended', answered_by: 'human' });
      if (n % 3 === 0) {
        await sleep(scaled(30_000));
        h.sim.control.addMessage(thread, { sent_by: 'EU', content: '¿Me pueden llamar mañana?' });
      }
    })();
    await sleep(scaled(60_000));
  }
}

async function main(): Promise<void> {
  sharedLimiter('sim-key', { windowMs: 1000 / S, marginMs: 250 / S, backoffBaseMs: 1000 / S });
  const h = await startWatchHarness({
    tuning: scaledTuning(),
    fake: { tierLimits: { timeScale: S } },
    slackTimeScale: S,
  });
  for (let i = 0; i < 300; i++) h.phoneCampaign(1, `Other ${i}`);
  const busy: number[] = [];
  for (let i = 0; i < 12; i++) {
    const { id } = h.phoneCampaign(60, `Busy ${i}`);
    busy.push(id);
    await runCommand(h, `watch ${id}`, { channelId: `C0BUSY${i}` });
  }
  for (let i = 0; i < 36; i++) {
    const { id } = h.phoneCampaign(2, `Quiet ${i}`);
    await runCommand(h, `watch ${id}`, { channelId: `C0QUIET${i % 10}` });
    const c = h.sim.control.createCall(id, { status: 'ended', answered_by: 'human' });
    h.sim.control.addMessage(c.thread_id as string, { sent_by: 'EU', content: 'Gracias' });
  }
  const { id: filtered } = h.phoneCampaign(20, 'Filtered');
  await runCommand(h, `watch ${filtered} only:ended human`, { channelId: FILTERED_CHANNEL });
  let stop = false;
  for (const [k, id] of busy.entries()) void busyCampaign(h, id, k * 5_000, () => stop);
  console.log(`warming up: ${WARM_MINUTES} minutes of ordinary use (TIME_SCALE ${S})`);
  await sleep(scaled(WARM_MINUTES * 60_000));

  const { id: fresh } = h.phoneCampaign(4 * MEASURE_MINUTES + 4, 'Fresh');
  for (const ch of FRESH_CHANNELS) await runCommand(h, `watch ${fresh}`, { channelId: ch });
  const created = new Map<string, number>();
  const written = new Map<string, number>();
  const calls = firstSeen(h, FRESH_CHANNELS, (k) => (created.has(k) ? k : undefined));
  const lines = firstSeen(h, [FILTERED_CHANNEL], (text) => [...written.keys()].find((w) => text.includes(w)));
  // The poller keeps its last 100 reports: the measured ones are collected as they come.
  const measured: CycleReport[] = [];
  let lastSeen = h.svc.poller.reports.at(-1)?.startedAt ?? 0;
  const watcher = setInterval(() => {
    calls.look();
    lines.look();
    const fresh = h.svc.poller.reports.filter((r) => r.startedAt > lastSeen);
    measured.push(...fresh);
    lastSeen = fresh.at(-1)?.startedAt ?? lastSeen;
  }, scaled(250));
  const measuredUntil = Date.now() + scaled(MEASURE_MINUTES * 60_000);
  for (let m = 0; Date.now() < measuredUntil; m++) {
    for (let i = 0; i < 4; i++)
      created.set(`call:${String(h.sim.control.createCall(fresh, { status: 'in-progress' }).id)}`, Date.now());
    // A machine answers; the filter leaves the call out; 30 s after its end the end user writes.
    void (async () => {
      const c = h.sim.control.createCall(filtered, { status: 'in-progress', answered_by: 'machine' });
      await sleep(scaled(10_000));
      h.sim.control.updateCall(c.id as string, { status: 'ended', answered_by: 'machine' });
      await sleep(scaled(30_000));
      const text = `Sigo esperando respuesta ${m}`;
      h.sim.control.addMessage(c.thread_id as string, { sent_by: 'EU', content: text });
      written.set(text, Date.now());
    })();
    await sleep(scaled(60_000));
  }
  // Time for the last ones to arrive (or be counted late).
  await sleep(scaled(45_000));
  clearInterval(watcher);
  stop = true;
  report(measured, h, { calls: calls.seen, created, lines: lines.seen, written });
  await h.close();
  process.exit(0);
}

function latencies(seen: Map<string, number>, since: Map<string, number>, channels: string[]): number[] {
  return [...since].flatMap(([k, at]) =>
    channels.map((ch) => {
      const t = seen.get(`${ch} ${k}`);
      return t === undefined ? Infinity : prodSeconds(t - at);
    }),
  );
}

function report(
  cycles: CycleReport[],
  h: WatchHarness,
  m: {
    calls: Map<string, number>;
    created: Map<string, number>;
    lines: Map<string, number>;
    written: Map<string, number>;
  },
): void {
  const periods = cycles.slice(1).map((c, i) => prodSeconds(c.startedAt - cycles[i]!.startedAt));
  const durations = cycles.map((c) => prodSeconds(c.durationMs));
  const requests = cycles.map((c) => Object.values(c.requests).reduce((a, b) => a + b, 0));
  const plan = h.svc.poller.cycleRequests();
  const newCalls = latencies(m.calls, m.created, FRESH_CHANNELS);
  const waiting = latencies(m.lines, m.written, [FILTERED_CHANNEL]);
  const ratelimited = Object.values(h.fake.counts()).reduce((n, c) => n + c.ratelimited, 0);
  console.log(`\n${cycles.length} cycles measured (poll interval ${POLL_SECONDS} s), in production seconds:`);
  console.log(
    `  cycle period       p50 ${fmt(pct(periods, 50))}  p99 ${fmt(pct(periods, 99))}  max ${fmt(Math.max(...periods))}`,
  );
  console.log(
    `  cycle duration     p50 ${fmt(pct(durations, 50))}  p99 ${fmt(pct(durations, 99))}  max ${fmt(Math.max(...durations))}`,
  );
  console.log(`  requests per cycle p50 ${pct(requests, 50)}  max ${Math.max(...requests)}  (plan ${plan})`);
  const phases = (['listings', 'checks', 'conversations', 'housekeeping'] as const).map((p) => {
    const v = cycles.map((c) => prodSeconds(c.phasesMs[p]));
    return `${p} ${fmt(pct(v, 50))}/${fmt(Math.max(...v))}`;
  });
  console.log(`  phases p50/max     ${phases.join(', ')}`);
  const left = cycles.map((c) => c.conversationsLeft);
  console.log(
    `  conversations left p50 ${pct(left, 50)}  max ${Math.max(...left)}; campaigns deferred max ${Math.max(...cycles.map((c) => c.deferredCampaigns))}`,
  );
  console.log(
    `  new calls → Slack  p50 ${fmt(pct(newCalls, 50))}  p99 ${fmt(pct(newCalls, 99))}  max ${fmt(Math.max(...newCalls))}  (${newCalls.length} call × channel)`,
  );
  console.log(
    `  waiting customer   p50 ${fmt(pct(waiting, 50))}  max ${fmt(Math.max(...waiting))}  (${waiting.length} messages)`,
  );
  console.log(
    `  Slack 429s ${ratelimited}; running calls held by the open cap now ${h.svc.delivery.newCallsWaiting().held}`,
  );
  console.log(
    `\n  ${pass(pct(periods, 50) <= POLL_SECONDS * 1.1)} cycles start one interval apart (p50 ≤ ${fmt(POLL_SECONDS * 1.1)} s)`,
  );
  console.log(`  ${pass(Math.max(...requests) <= plan)} every cycle within its ${plan} requests`);
  console.log(`  ${pass(Math.max(...newCalls) <= TARGET_S)} every new call in every channel within ${TARGET_S} s`);
  console.log(`  ${pass(Math.max(...waiting) <= TARGET_S)} every waiting customer's message within ${TARGET_S} s`);
  console.log(`  ${pass(ratelimited === 0)} no 429 from Slack`);
}

await main();
