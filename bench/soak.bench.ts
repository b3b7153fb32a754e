/**
 * Soak: the watch at full volume for many hours of production time, to show that the leader's memory stays flat and
 * that it does not fall behind (issue 23, item 2). The load of the watch bench (bench/support/watch-load.ts): 200
 * watched campaigns (one channel each), 330 calls a minute (165 per 30 s cycle, each with a two-message
 * conversation, ended by the next cycle), Slack's tiers enforced by the fake; the app as src/main.ts starts it, in a
 * process of its own run with --expose-gc.
 *
 * Time runs TIME_SCALE (default 10, the watch bench's) times faster than in production: every delay of the watch,
 * Slack's minute and the service's 12 requests/s (retention and the event memory stay as in production: 7 days,
 * 1 hour). SOAK_HOURS (default 6) hours of production are simulated: 720 cycles of 3 s, 118,800 calls, about 40
 * minutes. The watch holds a conversation for 30 minutes after its last message (threadIdleMs) and lists calls back
 * 15 minutes (overlapMs), so its memory reaches its steady state within the first hour: 6 hours is five more of it.
 * SOAK_HOURS=24 simulates the day (2,880 cycles, 475,200 calls, about 2.5 hours). A faster scale does not make the
 * day fit in an hour: a cycle's 200 listings and its conversation reads go through the service's 12 slots, each held
 * a window (1 s / scale) past its answer, and the app needs about 1 to 1.5 s of CPU a cycle, so at ×20 (1.5 s
 * cycles) the cycles overrun and the load is no longer 330 calls a minute.
 *
 * The store is PostgreSQL (BENCH_STORE=postgres, the default; a server the bench starts itself): the heap is the
 * app's own. With BENCH_STORE=embedded the embedded store keeps its records in the heap by design (src/store/
 * embedded/store.ts), and digests are kept for the retention (7 days), so its heap grows for a week.
 *
 * Printed every SOAK_EVERY cycles (default: a 24th of the run): the heap after a forced GC and the RSS; the size of
 * every long-lived map of the watch (WatchService.memoryFigures: each is let go when the poller lets its post go,
 * and capped besides, src/bounded.ts); the delivery backlog (items waiting for Slack); the share of final states
 * shown in Slack within 5 minutes of the call's end (production time) and the slowest; the app's CPU and the
 * cycle's length. Then Slack's budgets against what the load asks of them, and the targets:
 *
 * - the load at full volume: at least 95 % of 330 calls ended a minute of production time (cycles that overrun
 *   their interval, on a busy machine, lower it and the run says so);
 * - heap after GC flat within ±10 % from the first tenth of the run to the end (least-squares trend);
 * - delivery backlog bounded: the largest of the run's second half at most 10 % above the first half's (it rises
 *   while the first conversations are followed, then stays);
 * - every live call's final state in Slack within 5 minutes of its end, for the whole run.
 *
 *   npm run bench -- soak
 *   SOAK_HOURS=24 npm run bench -- soak                (the day)
 *   SOAK_HOURS=1 npm run bench -- soak                 (quicker: the steady state and a little of it)
 */
import { SlackMethodBudget } from '../src/slack/method-budget.js';
import { LocalRateWindows } from '../src/store/local-coordination.js';
import type { MethodCount } from '../src/emulator/fake-slack.js';
import { fmt, pass, pct, sleep, trend } from './support/figures.js';
import { startBenchPostgres } from './support/postgres.js';
import type { AppMemory } from './support/watch-app.js';
import { PER_CYCLE, POLL_SECONDS, startWatchLoad, type StoreKind } from './support/watch-load.js';

const SCALE = Number(process.env.TIME_SCALE ?? 10);
const HOURS = Number(process.env.SOAK_HOURS ?? 6);
const CYCLES = Math.max(20, Math.round((HOURS * 3600) / POLL_SECONDS));
const EVERY = Math.max(1, Number(process.env.SOAK_EVERY ?? Math.round(CYCLES / 24)));
const KIND: StoreKind = process.env.BENCH_STORE === 'embedded' ? 'embedded' : 'postgres';
/** The longest a final state may take from the call's end to Slack (production time). */
const FINAL_WITHIN_MS = 5 * 60_000;
const MB = 1024 * 1024;
/** Maps printed in the table (all of them are printed at the end). */
const SHOWN_MAPS: Array<[string, string]> = [
  ['delivery.conversations', 'convs'],
  ['poller.lastRead', 'reads'],
  ['delivery.unposted', 'unpost'],
  ['delivery.lastWrite', 'writes'],
  ['delivery.openCalls', 'open'],
  ['delivery.held', 'held'],
  ['delivery.queues', 'queues'],
  ['poster.lanes', 'lanes'],
];

interface Sample {
  cycle: number;
  heapMb: number;
  rssMb: number;
  maps: Record<string, number>;
  backlog: number;
  cpuMs: number;
  cycleMs: number;
  shownOk: number;
  shownLate: number;
  slowestMs: number;
}

/** What the load asks of Slack's chat.postMessage and chat.update a minute, against the watch's share of them. */
function budgetLines(minutes: number, posts: MethodCount, updates: MethodCount, finalWrites: number): string[] {
  const budget = new SlackMethodBudget({ windows: new LocalRateWindows() });
  const postShare = budget.backgroundPerInterval('chat.postMessage', 60_000)!;
  const updateShare = budget.backgroundPerInterval('chat.update', 60_000)!;
  const calls = (PER_CYCLE * 60) / POLL_SECONDS;
  // A call's final state: its own message (one post), and its thread: the intro and its two messages.
  const asked = calls + 3 * calls;
  const threadLines = posts.calls / minutes - finalWrites / minutes;
  return [
    `Slack's budgets for the watch (src/slack/method-budget.ts, less the tenth kept for people): chat.postMessage ` +
      `${fmt(postShare)} a minute, chat.update ${fmt(updateShare)} a minute`,
    `asked at ${fmt(calls)} calls a minute: ${fmt(calls)} final states + ${fmt(3 * calls)} thread lines (intro and two ` +
      `messages a call) = ${fmt(asked)} posts a minute, ${fmt(asked / postShare, 1)} times the budget: final states go ` +
      `into digests (a channel's calls since its last digest in one post) and thread lines get what is left`,
    `used: chat.postMessage ${fmt(posts.calls / minutes, 1)} a minute (${posts.ratelimited} × 429), chat.update ` +
      `${fmt(updates.calls / minutes, 1)} a minute (${updates.ratelimited} × 429); final-state writes ` +
      `${fmt(finalWrites / minutes, 1)} a minute, thread lines ${fmt(threadLines, 1)} a minute = ` +
      `${fmt((100 * threadLines) / (3 * calls), 1)} % of those asked (the floor the budget leaves)`,
  ];
}

/**
 * Where the late ones lost their time: until the poller saw the call's end (the service's side: listings and the
 * read budget), or from then until Slack had it (delivery), by how it was written.
 */
function lateLines(latencies: number[], parts: Array<{ seenMs: number; via: string }>): string[] {
  const seen = parts.map((p) => p.seenMs * SCALE);
  const after = latencies.map((ms, i) => ms - seen[i]!);
  const byVia = new Map<string, { all: number; late: number }>();
  let lateSeen = 0;
  let lateAfter = 0;
  for (const [i, ms] of latencies.entries()) {
    const via = parts[i]!.via;
    const v = byVia.get(via) ?? { all: 0, late: 0 };
    v.all++;
    if (ms > FINAL_WITHIN_MS) {
      v.late++;
      if (seen[i]! > after[i]!) lateSeen++;
      else lateAfter++;
    }
    byVia.set(via, v);
  }
  const ways = [...byVia].map(([via, v]) => `${via} ${fmt(v.all)} (${fmt(v.late)} late)`).join(', ');
  return [
    `  of which until the poller saw the end: median ${fmt(pct(seen, 50) / 1000, 1)} s, p99 ${fmt(pct(seen, 99) / 1000, 1)} ` +
      `s; from then to Slack: median ${fmt(pct(after, 50) / 1000, 1)} s, p99 ${fmt(pct(after, 99) / 1000, 1)} s`,
    `  written as: ${ways}; the late ones lost most of their time before the poller saw the end: ${fmt(lateSeen)}, ` +
      `in delivery: ${fmt(lateAfter)}`,
  ];
}

async function main() {
  const pgServer = KIND === 'postgres' ? await startBenchPostgres() : undefined;
  const load = await startWatchLoad({
    kind: KIND,
    ...(pgServer ? { pgServer } : {}),
    name: 'soak',
    scale: SCALE,
    history: 0,
    liveCycles: CYCLES,
    exposeGc: true,
  });
  const { app, sim, fake, shown, pollIntervalMs } = load;
  const samples: Sample[] = [];
  const backlog: Array<[number, number]> = [];
  let ok = false;
  try {
    console.log(
      `${fmt(HOURS, 1)} h of production at ${fmt((PER_CYCLE * 60) / POLL_SECONDS)} calls a minute: ${CYCLES} cycles of ` +
        `${POLL_SECONDS} s (${fmt(pollIntervalMs)} ms at time scale ×${SCALE}), ${fmt(CYCLES * PER_CYCLE)} calls, ` +
        `200 campaigns; store ${KIND}; a row every ${EVERY} cycles (${fmt((EVERY * POLL_SECONDS) / 60, 1)} min)`,
    );
    console.log(
      `cycle   time  heap MB  rss MB  ${SHOWN_MAPS.map(([, s]) => s.padStart(6)).join(' ')}  backlog  ` +
        `≤5 min  slowest s  cpu ms  cycle ms`,
    );
    const first = await app.usage();
    let before = first;
    let period = { cpu: 0, ms: 0, n: 0, ok: 0, late: 0, slowest: 0 };
    const startedAt = Date.now();
    let liveTo = 0;
    for (let cycle = 1; ; cycle++) {
      const cycleStart = Date.now();
      if (cycle === CYCLES + 1) liveTo = cycleStart;
      load.turn(cycle <= CYCLES);
      sim.control.clearRequests();
      const report = await app.cycle();
      const usage = await app.usage();
      const seen = shown.latencies.length;
      await shown.update();
      for (const ms of shown.latencies.slice(seen)) {
        const prod = ms * SCALE;
        if (prod <= FINAL_WITHIN_MS) period.ok++;
        else period.late++;
        period.slowest = Math.max(period.slowest, prod);
      }
      period.cpu += usage.cpuMs - before.cpuMs;
      period.ms += report.durationMs;
      period.n++;
      before = usage;
      backlog.push([cycle, usage.pending]);
      if (cycle % EVERY === 0 || cycle === CYCLES) {
        const m: AppMemory = await app.memory();
        if (!m.collected) throw new Error('the app was not started with --expose-gc');
        const s: Sample = {
          cycle,
          heapMb: m.heapUsed / MB,
          rssMb: m.rss / MB,
          maps: m.maps,
          backlog: usage.pending,
          cpuMs: period.cpu / period.n,
          cycleMs: period.ms / period.n,
          shownOk: period.ok,
          shownLate: period.late,
          slowestMs: period.slowest,
        };
        samples.push(s);
        // Production time as the app lives it (cycles that overran their interval stretch it).
        const minutes = ((Date.now() - startedAt) * SCALE) / 60_000;
        const total = s.shownOk + s.shownLate;
        console.log(
          `${String(cycle).padStart(5)}  ${`${Math.floor(minutes / 60)}:${String(Math.round(minutes % 60)).padStart(2, '0')}`.padStart(5)}  ` +
            `${fmt(s.heapMb, 1).padStart(7)}  ${fmt(s.rssMb).padStart(6)}  ` +
            `${SHOWN_MAPS.map(([k]) => fmt(s.maps[k] ?? NaN).padStart(6)).join(' ')}  ${fmt(s.backlog).padStart(7)}  ` +
            `${(total ? `${fmt((100 * s.shownOk) / total, 1)} %` : '—').padStart(7)}  ${fmt(s.slowestMs / 1000, 0).padStart(9)}  ` +
            `${fmt(s.cpuMs).padStart(6)}  ${fmt(s.cycleMs).padStart(8)}`,
        );
        period = { cpu: 0, ms: 0, n: 0, ok: 0, late: 0, slowest: 0 };
        // The fake Slack's own record of what it was sent: only the last ten minutes of production are kept.
        fake.forgetOlderThan((10 * 60_000) / SCALE);
      }
      const wait = pollIntervalMs - (Date.now() - cycleStart);
      if (wait > 0) await sleep(wait);
      if (cycle < CYCLES || load.running() > 0) continue;
      // Drain: at most 10 more cycles for the last calls' final states.
      if (shown.waiting.size === 0 || cycle > CYCLES + 10) break;
    }
    const took = Date.now() - startedAt;
    // Calls ended a minute of production time, over the cycles that started calls.
    const perMinute = (CYCLES * PER_CYCLE) / (((liveTo - startedAt) * SCALE) / 60_000);
    const last = await app.memory();
    const delivery = await app.delivery(Date.now());

    console.log('\nevery map of the watch at the end (size; `.evicted`: let go by its cap, not by its owner):');
    console.log(
      '  ' +
        Object.entries(last.maps)
          .map(([k, v]) => `${k} ${fmt(v)}`)
          .join(', '),
    );
    const from = samples.filter((s) => s.cycle >= CYCLES / 10);
    const heap = trend(from.map((s) => [s.cycle, s.heapMb]));
    const heapGrowth = heap.last / heap.first - 1;
    const live = backlog.filter(([c]) => c <= CYCLES);
    const maxOf = (part: Array<[number, number]>) => Math.max(0, ...part.map(([, n]) => n));
    const firstHalf = maxOf(live.filter(([c]) => c <= CYCLES / 2));
    const secondHalf = maxOf(live.filter(([c]) => c > CYCLES / 2));
    const latencies = shown.latencies.map((ms) => ms * SCALE);
    const late = latencies.filter((ms) => ms > FINAL_WITHIN_MS).length;
    const missing = shown.waiting.size;
    const counts = fake.counts();
    const none = { calls: 0, ratelimited: 0 };
    const minutes = (took * SCALE) / 60_000;
    console.log(
      `heap after GC: ${fmt(from[0]!.heapMb, 1)} MB at cycle ${from[0]!.cycle}, ${fmt(samples.at(-1)!.heapMb, 1)} MB at ` +
        `cycle ${samples.at(-1)!.cycle}, max ${fmt(Math.max(...samples.map((s) => s.heapMb)), 1)} MB; trend from the ` +
        `first tenth ${fmt(heap.first, 1)} -> ${fmt(heap.last, 1)} MB (${heapGrowth >= 0 ? '+' : ''}${fmt(heapGrowth * 100, 1)} %)`,
    );
    console.log(
      `delivery backlog: largest ${fmt(firstHalf)} items in the first half of the run, ${fmt(secondHalf)} in the ` +
        `second; at the end ${fmt((await app.usage()).pending)}`,
    );
    console.log(
      `call ended -> final state in Slack (production time): median ${fmt(pct(latencies, 50) / 1000, 1)} s, p99 ` +
        `${fmt(pct(latencies, 99) / 1000, 1)} s, max ${fmt(Math.max(0, ...latencies) / 1000, 1)} s; ` +
        `${fmt(latencies.length)} shown, ${fmt(late)} later than 5 min, ${fmt(missing)} never`,
    );
    for (const line of lateLines(latencies, shown.parts)) console.log(line);
    console.log(
      `Slack writes: ${fmt(delivery.callPosts)} call posts, ${fmt(delivery.callUpdates)} call updates, ` +
        `${fmt(delivery.digestPosts)} digest posts, ${fmt(delivery.digestUpdates)} digest updates, ` +
        `${fmt(delivery.conversationPosts)} thread lines; ${fmt(delivery.failures)} writes failed for now (tried again later)`,
    );
    for (const line of budgetLines(
      minutes,
      counts['chat.postMessage'] ?? none,
      counts['chat.update'] ?? none,
      delivery.callPosts + delivery.callUpdates + delivery.digestPosts + delivery.digestUpdates,
    )) {
      console.log(line);
    }
    console.log(
      `calls ended a minute of production time: ${fmt(perMinute)} (the load's ${fmt((PER_CYCLE * 60) / POLL_SECONDS)} ` +
        `when every cycle fits its interval); app RSS ${fmt(last.rss / MB)} MB; the run took ${fmt(took / 60_000, 1)} min ` +
        `(${fmt(minutes / 60, 1)} h of production)`,
    );
    const limit = Math.max(100, 1.1 * firstHalf);
    const targets: Array<[string, boolean]> = [
      [
        `at full volume: ${fmt(perMinute)} calls ended a minute (at least 95 % of ${fmt((PER_CYCLE * 60) / POLL_SECONDS)}; ` +
          `cycles that overrun their interval lower it)`,
        perMinute >= 0.95 * ((PER_CYCLE * 60) / POLL_SECONDS),
      ],
      [
        `heap after GC flat within ±10 % from the first tenth of the run to the end (${fmt(heapGrowth * 100, 1)} %)`,
        Math.abs(heapGrowth) <= 0.1,
      ],
      [
        `delivery backlog bounded: the largest of the second half of the run at most 10 % above the first half's ` +
          `(${fmt(secondHalf)} against ${fmt(firstHalf)})`,
        secondHalf <= limit,
      ],
      [
        `every final state in Slack within 5 min of the call's end, for the whole run (${fmt(late)} later, ` +
          `${fmt(missing)} never)`,
        late === 0 && missing === 0,
      ],
    ];
    console.log('targets:');
    for (const [what, good] of targets) console.log(`  ${pass(good)}  ${what}`);
    ok = targets.every(([, good]) => good);
  } finally {
    await load.close();
    await pgServer?.stop();
  }
  console.log(`\nsoak bench: ${pass(ok)}`);
  if (!ok) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
