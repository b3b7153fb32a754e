/**
 * A process that only competes for the leader lease (`node --import tsx test/support/leader-process.ts <url>`), so a
 * test can SIGKILL or SIGSTOP a leader. It prints `leader true` / `leader false` each time what `isLeader()` says
 * changes, checked every 20 ms, and `woke true|false` at the first check after a stall (SIGSTOP then SIGCONT): what
 * code resuming a poll cycle would see before any I/O is read.
 */
import { PgLeadership } from '../../src/store/pg-coordination.js';

const url = process.argv[2];
if (!url) throw new Error('usage: leader-process.ts <postgres url>');
const leadership = new PgLeadership({ connectionString: url, retryMs: 200, keepAliveMs: 100, leaseMs: 500 });
let last = false;
let lastTick = performance.now();
setInterval(() => {
  const now = leadership.isLeader();
  // The first check after a stall (SIGSTOP, SIGCONT): what code resuming a poll cycle would see.
  if (performance.now() - lastTick > 200) process.stdout.write(`woke ${String(now)}\n`);
  lastTick = performance.now();
  if (now !== last) process.stdout.write(`leader ${String(now)}\n`);
  last = now;
}, 20);
process.on('SIGTERM', () => {
  void leadership.stop().then(() => process.exit(0));
});
