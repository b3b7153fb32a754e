/**
 * Ack latency of `/campaign list`: 200 signed commands to the real app while the simulator takes 1.5 s to answer.
 * Prints p50 and p99 of the time from sending a command to its HTTP answer (the ack). Target: p99 < 50 ms
 * (Slack's limit is 3,000 ms). Commands are sent 10 at a time, as a busy team would.
 */
import { startTestApp } from '../test/support/test-app.js';

const N = 200;
const CONCURRENCY = 10;

const t = await startTestApp();
t.sim.control.setRateLimit(false);
t.sim.control.setLatencyMs(1500);
const latencies: number[] = [];
let next = 0;
async function worker() {
  while (next < N) {
    next++;
    const ack = await t.driver.command('list');
    if (ack.status !== 200) throw new Error(`ack status ${ack.status}`);
    latencies.push(ack.respondedAt - ack.sentAt);
  }
}
// Warm-up (JIT, connection pools), not counted.
for (let i = 0; i < 20; i++) await t.driver.command('help');
const started = performance.now();
await Promise.all(Array.from({ length: CONCURRENCY }, worker));
const wall = performance.now() - started;
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)]!;
console.log(`acks: ${latencies.length} /campaign list commands, simulator latency 1500 ms`);
console.log(`ack latency p50: ${pct(50).toFixed(1)} ms`);
console.log(`ack latency p99: ${pct(99).toFixed(1)} ms (target < 50 ms; ${pct(99) < 50 ? 'met' : 'NOT met'})`);
console.log(`max: ${latencies[latencies.length - 1]!.toFixed(1)} ms; all ${N} sent in ${(wall / 1000).toFixed(1)} s`);
// Let the in-flight list requests finish before closing.
await new Promise((r) => setTimeout(r, 2000));
await t.close();
process.exit(0);
