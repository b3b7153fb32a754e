/**
 * Campaign reports. Prints:
 * - chart render time through the app's chart thread (src/reports/chart.ts: Vega-Lite → Vega → SVG → resvg PNG),
 *   median and p99 over 60 renders after a warm-up (target: p99 ≤ 300 ms), and the longest the main thread's event
 *   loop was held meanwhile (target: under 100 ms: the drawing is off the main thread);
 * - gathering the report of a 10,000-call campaign from the simulator (rate limit on: 12 requests/s, a 13th in a
 *   second is refused with 429) through the service client and its limiter at bulk priority: requests used, 429s,
 *   wall time, against the floor of requests / 12 s;
 * - the memory a gathering holds: the live heap (after a forced GC before each request) at its largest while the
 *   report of a 20,000-call, 20,000-contact campaign is gathered (the figures summed page by page), against the same
 *   pages held in lists as reports were gathered before (target: the gathering's peak well under the lists', and flat
 *   in the campaign's size apart from the ids of the contacts called in the compared periods).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { CampaignCallItem, CampaignContact } from '../src/outreach/schemas.js';
import { translator } from '../src/i18n/translator.js';
import { OutreachClient } from '../src/outreach/client.js';
import { RateLimiter } from '../src/outreach/limiter.js';
import { reportChartInput } from '../src/render/report.js';
import { ChartRenderer } from '../src/reports/chart.js';
import { gatherReport } from '../src/reports/gather.js';
import { startSimulator } from '../src/sim/index.js';
import { systemClock } from '../src/clock.js';
import { seedPhoneCampaign } from '../test/support/report-data.js';

const CALLS = 10_000;
const RENDERS = 60;

const sim = await startSimulator();
const seedStart = performance.now();
const id = seedPhoneCampaign(sim.control, { called: CALLS, queued: 500, spreadHours: 24 * 14 });
console.log(
  `seeded: ${CALLS} calls, ${CALLS + 500} contacts in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
);

// Gathering.
const client = new OutreachClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, limiter: new RateLimiter() });
sim.control.clearRequests();
const started = performance.now();
const figures = await gatherReport(client, id, { clock: systemClock, periodDays: 7 });
const seconds = (performance.now() - started) / 1000;
const sent = sim.control.requests();
const got429 = sent.filter((r) => r.status === 429).length;
const floor = figures.gathered.requests / 12;
console.log(
  `gathering: ${figures.gathered.calls} calls, ${figures.gathered.contacts} contacts in ${figures.gathered.requests} requests ` +
    `(${sent.length} sent, ${got429} answered 429) in ${seconds.toFixed(2)} s; floor at 12 requests/s: ${floor.toFixed(2)} s ` +
    `(${((seconds / floor - 1) * 100).toFixed(1)}% over)`,
);

// Rendering, through the chart thread the app uses.
const charts = new ChartRenderer();
const input = reportChartInput(figures, translator('en'));
await charts.render(input); // warm-up: the thread starts and loads Vega
const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
const times: number[] = [];
let bytes = 0;
for (let i = 0; i < RENDERS; i++) {
  const t0 = performance.now();
  bytes = (await charts.render(input)).length;
  times.push(performance.now() - t0);
}
loop.disable();
await charts.close();
times.sort((a, b) => a - b);
const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]!;
const p99 = at(0.99);
console.log(
  `chart render: median ${at(0.5).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms over ${RENDERS} renders ` +
    `(target p99 ≤ 300 ms: ${p99 <= 300 ? 'met' : 'NOT met'}); PNG ${bytes} bytes`,
);
const maxLoopMs = loop.max / 1e6;
console.log(
  `main event loop held at most ${maxLoopMs.toFixed(1)} ms while rendering (target < 100 ms: ${maxLoopMs < 100 ? 'met' : 'NOT met'})`,
);
await client.close();
await sim.close();

// Memory: a large campaign, read as fast as the simulator answers (no 12/s limit: only memory is measured here).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const BIG = 20_000;
const bigSim = await startSimulator({ rateLimitPerSecond: false });
const bigId = seedPhoneCampaign(bigSim.control, { called: BIG, queued: 0, spreadHours: 24 * 14 });
const fast = new OutreachClient({
  baseUrl: bigSim.baseUrl,
  apiKey: bigSim.apiKey,
  limiter: new RateLimiter({ perSecond: 1000 }),
});
/** The live heap above `base` now, after a full collection (MB). */
const liveMb = (base: number) => {
  gc();
  return (process.memoryUsage().heapUsed - base) / 1e6;
};
gc();
const base = process.memoryUsage().heapUsed;
let peakGather = 0;
// A full collection costs tens of ms with the simulator's campaign in the heap: one every 10 requests.
const big = await gatherReport(fast, bigId, {
  clock: systemClock,
  periodDays: 7,
  beforeRequest: async (sent) => {
    if (sent % 10 === 5) peakGather = Math.max(peakGather, liveMb(base));
  },
});
// The same pages held in lists until the end, as a report was gathered before the figures were summed page by page
// (what is held only grows: measured at the end).
const held: { contacts: CampaignContact[]; calls: CampaignCallItem[] } = { contacts: [], calls: [] };
for (let page = 0; ; page++) {
  const got = await fast.listContacts(bigId, { page, pageSize: 100 });
  held.contacts.push(...got.contacts);
  if (!got.pagination.has_next) break;
}
for (let page = 0; ; page++) {
  const got = await fast.listCampaignCalls(bigId, { page, pageSize: 100 });
  held.calls.push(...got.calls);
  if (!got.pagination.has_next) break;
}
const peakHeld = liveMb(base);
console.log(
  `gathering memory (${big.gathered.calls} calls, ${big.gathered.contacts} contacts, ${big.gathered.requests} requests): ` +
    `live heap at most ${peakGather.toFixed(1)} MB above the start, summed page by page; ` +
    `${peakHeld.toFixed(1)} MB with the pages held in lists (${held.contacts.length + held.calls.length} items) ` +
    `(target: well under the lists': ${peakGather < peakHeld / 4 ? 'met' : 'NOT met'})`,
);
await fast.close();
await bigSim.close();
