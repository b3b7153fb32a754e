/**
 * Campaign reports. Prints:
 * - chart render time through the app's chart thread (src/reports/chart.ts: Vega-Lite → Vega → SVG → resvg PNG),
 *   median and p99 over 60 renders after a warm-up (target: p99 ≤ 300 ms), and the longest the main thread's event
 *   loop was held meanwhile (target: under 100 ms: the drawing is off the main thread);
 * - gathering the report of a 10,000-call campaign from the simulator (rate limit on: 12 requests/s, a 13th in a
 *   second is refused with 429) through the service client and its limiter at bulk priority: requests used, 429s,
 *   wall time, against the floor of requests / 12 s.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { translator } from '../src/i18n/translator.js';
import { OutreachClient } from '../src/outreach/client.js';
import { RateLimiter } from '../src/outreach/limiter.js';
import { reportChartInput } from '../src/render/report.js';
import { ChartRenderer } from '../src/reports/chart.js';
import { gatherReport } from '../src/reports/gather.js';
import { startSimulator } from '../src/sim/index.js';
import { systemClock } from '../src/clock.js';
import { seedPhoneCampaign } from '../test/support/reportData.js';

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
