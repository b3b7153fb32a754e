/**
 * New calls on time once the app has been running a while (issue 23, item 4), through the real poller against the
 * simulator, on a clock the test moves one poll interval (5 s) before each cycle: after ordinary use (a dozen busy
 * watched campaigns with past calls, running calls and conversations, 50 watched campaigns, 320 in the
 * organization), a campaign newly watched in three channels gets each of its new calls into every channel within
 * two cycles of its creation, both for its first calls and for the next ones a minute later; every cycle keeps to the
 * requests its interval holds; and the cycle's figures are in the metrics. A message posted while its call ran is
 * given back once the call settles without a change (its policy evaluation never completed), and a call message Slack
 * refused no longer counts as a new call waiting (it sent channels to digests). Cycles start one
 * interval apart whatever they took (the poller's timer, injected).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { sharedLimiter } from '../../src/outreach/limiter.js';
import { Poller } from '../../src/watch/poller.js';
import { parseExposition } from '../support/prom-text.js';
import { callMessages, runCommand, startWatchHarness, StepClock, type WatchHarness } from '../support/watch-harness.js';

const INTERVAL = 5_000;
/** The service's 12 requests/s run 20 times faster here (the budget of a cycle is still planned at 12/s). */
const SERVICE_SCALE = 20;
sharedLimiter('sim-key', {
  windowMs: 1000 / SERVICE_SCALE,
  marginMs: 250 / SERVICE_SCALE,
  backoffBaseMs: 1000 / SERVICE_SCALE,
});

let h: WatchHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Calls of the dozen busy campaigns: one every 4 cycles each, 10 cycles long; a third of end users write after. */
class Traffic {
  private cycle = 0;
  private readonly running: Array<{ id: string; thread: string; endsAt: number; writes: boolean }> = [];
  private readonly writing: Array<{ thread: string; at: number }> = [];
  private n = 0;

  constructor(
    private readonly hh: WatchHarness,
    private readonly busy: number[],
  ) {}

  /** What happens in the service between two cycles. */
  advance(): void {
    const sim = this.hh.sim.control;
    const k = this.cycle++;
    for (const [i, campaignId] of this.busy.entries()) {
      if ((k + i) % 4 !== 0) continue;
      const c = sim.createCall(campaignId, { status: 'in-progress', answered_by: 'human' });
      const thread = c.thread_id as string;
      sim.addMessage(thread, { sent_by: 'AI', content: `Hola, llamada ${this.n}` });
      sim.addMessage(thread, { sent_by: 'EU', content: 'Sí, dígame' });
      this.running.push({ id: c.id as string, thread, endsAt: k + 10, writes: this.n++ % 3 === 0 });
    }
    for (const r of this.running.filter((x) => x.endsAt === k)) {
      sim.updateCall(r.id, { status: 'ended', answered_by: 'human' });
      if (r.writes) this.writing.push({ thread: r.thread, at: k + 2 });
    }
    for (const w of this.writing.filter((x) => x.at === k)) {
      sim.addMessage(w.thread, { sent_by: 'EU', content: '¿Me pueden llamar mañana?' });
    }
  }

  runningCalls(): number {
    return this.running.filter((r) => r.endsAt > this.cycle).length;
  }
}

describe('new calls after a while of ordinary use', () => {
  it('reach every channel within two cycles of their creation, with 50 campaigns watched and 320 in the organization', async () => {
    const clock = new StepClock(Date.now());
    // Slack's windows pass fast here (its limits are the watch-slack-budget test's): the open call messages count
    // against the cap the app takes from Slack's chat.update budget, not the updates of the last few cycles.
    h = await startWatchHarness({
      clock,
      slackTimeScale: 600,
      tuning: { pollIntervalMs: INTERVAL, requestsPerSecond: 12 },
    });
    const hh = h;
    for (let i = 0; i < 270; i++) hh.phoneCampaign(1, `Other ${i}`);
    const busy: number[] = [];
    for (let i = 0; i < 12; i++) {
      const { id } = hh.phoneCampaign(30, `Busy ${i}`);
      busy.push(id);
      await runCommand(hh, `watch ${id}`, { channelId: `C0BUSY${i}` });
    }
    const quiet: number[] = [];
    for (let i = 0; i < 37; i++) {
      const { id } = hh.phoneCampaign(3, `Quiet ${i}`);
      quiet.push(id);
      await runCommand(hh, `watch ${id}`, { channelId: `C0QUIET${i % 10}` });
    }
    // Past calls with their conversations.
    for (const id of [...busy, ...busy, ...busy, ...quiet]) {
      const c = hh.sim.control.createCall(id, { status: 'ended', answered_by: 'human' });
      hh.sim.control.addMessage(c.thread_id as string, { sent_by: 'EU', content: 'Gracias' });
    }
    const traffic = new Traffic(hh, busy);
    const step = async () => {
      traffic.advance();
      clock.at += INTERVAL;
      await hh.cycle();
    };
    for (let i = 0; i < 24; i++) await step();
    // More calls run than the 20 open messages the watch used to allow at most.
    expect(traffic.runningCalls()).toBeGreaterThan(20);

    const { id: fresh } = hh.phoneCampaign(12, 'Fresh');
    const channels = ['C0BUSY0', 'C0BUSY1', 'C0BUSY2'];
    for (const ch of channels) await runCommand(hh, `watch ${fresh}`, { channelId: ch });
    /** Four new calls (they keep running); the cycles until each is in every channel. */
    const fourNewCalls = async (): Promise<number> => {
      const ids = [0, 1, 2, 3].map(() => hh.sim.control.createCall(fresh, { status: 'in-progress' }).id as string);
      for (let n = 1; n <= 6; n++) {
        await step();
        if (ids.every((id) => channels.every((ch) => callMessages(hh.fake, ch, id).length === 1))) return n;
      }
      return Infinity;
    };
    expect(await fourNewCalls()).toBeLessThanOrEqual(2);
    for (let i = 0; i < 12; i++) await step();
    expect(await fourNewCalls()).toBeLessThanOrEqual(2);

    // Every cycle sent at most what its interval holds (4/5 of 5 s at 12/s): it ends within its interval.
    const budget = hh.svc.poller.cycleRequests();
    expect(budget).toBe(48);
    const sent = hh.svc.poller.reports.map((r) => Object.values(r.requests).reduce((a, b) => a + b, 0));
    expect(Math.max(...sent)).toBeLessThanOrEqual(budget);
    const last = hh.svc.poller.reports.at(-1)!;
    // 50 listings would leave fewer than the least 16 reads: half of the campaigns are listed each cycle, in turns.
    expect(last.deferredCampaigns).toBe(25);

    const m = parseExposition(await hh.app.metrics.text());
    expect(m.sum('outreach_slack_poll_requests_total', { endpoint: 'GET /campaigns/{id}/calls' })).toBeGreaterThan(0);
    expect(m.sum('outreach_slack_poll_requests_total', { endpoint: 'GET /message/{thread_id}' })).toBeGreaterThan(0);
    expect(m.sum('outreach_slack_poll_cycle_requests_count')).toBe(hh.svc.poller.reports.length);
    for (const phase of ['listings', 'checks', 'conversations', 'housekeeping']) {
      expect(m.sum('outreach_slack_poll_phase_seconds_count', { phase })).toBe(hh.svc.poller.reports.length);
    }
    expect(m.sum('outreach_slack_poll_conversations_total', { outcome: 'read' })).toBeGreaterThan(0);
    expect(m.sum('outreach_slack_poll_campaigns_deferred')).toBe(25);
    expect(m.find('outreach_slack_poll_conversations_left')).toHaveLength(1);
    expect(m.sum('outreach_slack_watch_new_calls_waiting', { reason: 'open_cap' })).toBe(0);
    expect(m.sum('outreach_slack_call_created_to_slack_seconds_count')).toBeGreaterThanOrEqual(24);
  }, 180_000);

  it('a call whose policy evaluation never completes gives its open message back once it settles', async () => {
    const clock = new StepClock(Date.now());
    // One message may wait for its final update at a time.
    h = await startWatchHarness({ clock, tuning: { pollIntervalMs: INTERVAL, maxOpenCalls: 1 } });
    const { id } = h.phoneCampaign(3);
    await runCommand(h, `watch ${id}`, { channelId: 'C0OPS' });
    const pending = { score: null, completed: false, completed_at: null, policies: [] };
    const first = h.sim.control.createCall(id, { status: 'ended', answered_by: 'human', policy_evaluation: pending });
    clock.at += INTERVAL;
    await h.cycle();
    // Ended, its evaluation pending: posted, and final only once the evaluation completes or settles (10 minutes).
    expect(callMessages(h.fake, 'C0OPS', first.id as string)).toHaveLength(1);
    clock.at += 11 * 60_000;
    await h.cycle();
    // It settled without a change: nothing to write, and its message owes nothing more.
    expect((await h.svc.state.call(id, first.id as string))?.final).toBe(true);
    const next = h.sim.control.createCall(id, { status: 'in-progress' });
    clock.at += INTERVAL;
    await h.cycle();
    const [msg] = callMessages(h.fake, 'C0OPS', next.id as string);
    expect(msg?.text).toContain('In progress');
    expect(h.svc.delivery.newCallsWaiting()).toEqual({ queued: 0, held: 0 });
  }, 60_000);

  it('posts Slack refused do not count as new calls waiting: later calls keep their own messages', async () => {
    // Room for 2 new call messages a poll interval over every channel; more waiting sends channels to digests.
    h = await startWatchHarness({ tuning: { workspacePostsPerInterval: 2, burstThreshold: 100 } });
    const refused = h.phoneCampaign(3, 'Refused').id;
    const later = h.phoneCampaign(3, 'Later').id;
    await runCommand(h, `watch ${refused}`, { channelId: 'C0A' });
    await runCommand(h, `watch ${later}`, { channelId: 'C0B' });
    // Slack refuses three call messages (as it does a message it cannot take): they are skipped, not retried.
    h.fake.failNext('chat.postMessage', 'msg_too_long', 3);
    for (let i = 0; i < 3; i++) h.sim.control.createCall(refused, { status: 'ended', answered_by: 'human' });
    await h.cycle();
    expect(h.svc.delivery.newCallsWaiting()).toEqual({ queued: 0, held: 0 });
    const call = h.sim.control.createCall(later, { status: 'ended', answered_by: 'human' });
    await h.cycle();
    expect(callMessages(h.fake, 'C0B', call.id as string)).toHaveLength(1);
    expect((await h.svc.state.channel('C0B')).mode).not.toBe('digest');
  }, 60_000);

  it('starts cycles one interval apart, however long each took', async () => {
    const clock = new StepClock(Date.now());
    h = await startWatchHarness({ clock, tuning: { pollIntervalMs: INTERVAL } });
    const { id } = h.phoneCampaign(2);
    await runCommand(h, `watch ${id}`, { channelId: 'C0OPS' });
    const timers: Array<{ fn: () => void; ms: number }> = [];
    // The app's own poller does not run (the harness polls only when told); this one is the same class on the
    // app's state, service and delivery, with its timer in the test's hands.
    const svc = h.svc;
    const poller = new Poller({
      state: svc.state,
      outreach: h.app.deps.outreach,
      delivery: svc.delivery,
      logger: svc.logger,
      tuning: svc.tuning,
      fingerprint: (campaignId, call, name) => svc.fingerprint(campaignId, call, name),
      resolveKind: (s) => Promise.resolve(s),
      campaignGone: () => Promise.resolve(),
      now: () => clock.now(),
      setTimer: (fn, ms) => {
        timers.push({ fn, ms });
        return () => undefined;
      },
    });
    poller.start();
    expect(timers.map((t) => t.ms)).toEqual([1000]);
    /** Fires the latest timer; the cycle takes `tookMs` on the clock. Resolves to the delay asked for the next. */
    const cycleTaking = async (tookMs: number): Promise<number> => {
      const planned = timers.length;
      timers.at(-1)!.fn();
      clock.at += tookMs;
      await poller.runCycle();
      while (timers.length === planned) await new Promise((r) => setImmediate(r));
      return timers.at(-1)!.ms;
    };
    expect(await cycleTaking(0)).toBe(INTERVAL);
    expect(await cycleTaking(3_000)).toBe(2_000);
    // One that ran over its interval is followed at once.
    expect(await cycleTaking(7_000)).toBe(0);
    await poller.stop();
    expect(poller.reports.at(-1)!.durationMs).toBe(7_000);
  }, 60_000);
});
