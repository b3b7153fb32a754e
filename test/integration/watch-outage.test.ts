/**
 * The service down, and campaigns gone: the poller's circuit breaker (one warning when an outage starts, one probe
 * per cycle while it lasts, one warning when it ends, then every campaign again), its per-campaign backoff, and a
 * watched campaign deleted in the service (its watches suspended, their owners told by DM).
 */
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from '@jest/globals';
import { createLogger } from '../../src/log.js';
import type { EmbeddedStore } from '../../src/store/embedded/store.js';
import {
  callMessages,
  eventually,
  runCommand,
  startWatchHarness,
  type WatchHarness,
} from '../support/watch-harness.js';

const CH = 'C0OPS';
/** A 10-minute outage at the default 5 s poll interval. */
const OUTAGE_CYCLES = 120;

interface LogLine {
  level: number;
  msg: string;
  [k: string]: unknown;
}

function captureLogs() {
  const lines: LogLine[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of String(chunk).split('\n')) if (l.trim()) lines.push(JSON.parse(l) as LogLine);
      done();
    },
  });
  const logger = createLogger('info', { destination });
  const warnings = () => lines.filter((l) => l.level >= 40);
  return { logger, lines, warnings };
}

/** The campaign a request is about. */
const campaignOf = (path: string) => /\/campaigns\/(\d+)/.exec(path)?.[1];
const listRequests = (h: WatchHarness) =>
  h.sim.control.requests().filter((r) => r.route === 'listCampaignCalls' || r.route === 'getCampaign');

describe('service outage', () => {
  let h: WatchHarness;
  afterEach(async () => {
    await h.close();
  });

  async function sixteenCampaigns(): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < 16; i++) {
      const { id } = h.phoneCampaign(2, `Campaign ${i + 1}`);
      // Set by four people (one person's burst of commands is held to a fair share).
      await runCommand(h, `watch ${id}`, { channelId: CH, userId: `U0OPS${i % 4}` });
      ids.push(id);
    }
    expect(await h.svc.state.activeSubscriptions()).toHaveLength(16);
    return ids;
  }

  /** How many state files were written, once everything so far is on disk. */
  async function stateOnDisk(): Promise<number> {
    await h.app.deps.store.flush();
    return (h.app.deps.store as EmbeddedStore).stats().filesWritten;
  }

  it('costs one warning and no state write over 10 minutes of cycles, then one warning when it ends', async () => {
    const logs = captureLogs();
    h = await startWatchHarness({ logger: logs.logger });
    const ids = await sixteenCampaigns();
    await h.cycle();

    h.sim.control.injectFaults({ status: 503, count: 1e9, match: /^GET / });
    const warningsBefore = logs.warnings().length;
    let before = await stateOnDisk();
    let stateWrites = 0;
    for (let i = 0; i < OUTAGE_CYCLES; i++) {
      await h.cycle();
      const now = await stateOnDisk();
      if (now !== before) stateWrites++;
      before = now;
    }
    const during = logs.warnings().slice(warningsBefore);
    expect(during.map((l) => l.msg)).toEqual([expect.stringContaining('outage started')]);
    expect(stateWrites).toBe(0);
    expect(h.svc.poller.breaker.open).toBe(true);

    h.sim.control.clearFaults();
    h.sim.control.clearRequests();
    await h.cycle();
    const after = logs.warnings().slice(warningsBefore + during.length);
    expect(after.map((l) => l.msg)).toEqual([expect.stringContaining('outage ended')]);
    expect(new Set(listRequests(h).map((r) => campaignOf(r.path))).size).toBe(ids.length);
  });

  it('opens after consecutive failures, then sends one probe per cycle; on recovery every campaign is polled', async () => {
    h = await startWatchHarness();
    const ids = await sixteenCampaigns();
    await h.cycle();

    h.sim.control.injectFaults({ status: 503, count: 1e9, match: /^GET / });
    h.sim.control.clearRequests();
    await h.cycle();
    // The first cycle stops sending once the breaker opens: only what was in flight, or taken up by a worker
    // before the third failure, went out.
    const first = listRequests(h).length;
    expect(first).toBeGreaterThanOrEqual(h.svc.tuning.breakerThreshold);
    expect(first).toBeLessThanOrEqual(h.svc.tuning.concurrency + h.svc.tuning.breakerThreshold - 1);
    expect(first).toBeLessThan(ids.length);
    expect(h.svc.poller.breaker.open).toBe(true);

    const probed = new Set<string>();
    for (let i = 0; i < 5; i++) {
      h.sim.control.clearRequests();
      await h.cycle();
      const reqs = h.sim.control.requests();
      expect(reqs).toHaveLength(1);
      probed.add(String(campaignOf(reqs[0]!.path)));
    }
    // The probe goes round the campaigns.
    expect(probed.size).toBe(5);

    // Calls made during the outage are shown once it ends.
    const during = h.sim.control.createCall(ids[7]!, { status: 'in-progress' });
    h.sim.control.clearFaults();
    h.sim.control.clearRequests();
    await h.cycle();
    expect(h.svc.poller.breaker.open).toBe(false);
    expect(new Set(listRequests(h).map((r) => campaignOf(r.path))).size).toBe(ids.length);
    expect(callMessages(h.fake, CH, during.id as string)).toHaveLength(1);
  });

  it('backs off a campaign that keeps failing on its own, while the others are polled every cycle', async () => {
    h = await startWatchHarness();
    const bad = h.phoneCampaign(1, 'Broken').id;
    const good = h.phoneCampaign(1, 'Fine').id;
    await runCommand(h, `watch ${bad}`, { channelId: CH });
    await runCommand(h, `watch ${good}`, { channelId: CH });
    h.sim.control.injectFaults({
      status: 500,
      count: 1e9,
      match: new RegExp(`^GET /api/v1.0/campaigns/${bad}/calls$`),
    });
    h.sim.control.clearRequests();
    const tried: number[] = [];
    for (let cycle = 0; cycle < 31; cycle++) {
      const before = h.sim.control.requests().length;
      await h.cycle();
      const asked = h.sim.control.requests().slice(before);
      if (asked.some((r) => campaignOf(r.path) === String(bad))) tried.push(cycle);
      expect(asked.some((r) => campaignOf(r.path) === String(good))).toBe(true);
    }
    // It sits out 0, 1, 3, 7 cycles after its 1st, 2nd, 3rd, 4th failure.
    expect(tried).toEqual([0, 1, 3, 7, 15]);
    // One campaign failing is not an outage.
    expect(h.svc.poller.breaker.open).toBe(false);
  });

  it('suspends the watches of a campaign deleted in the service and tells their owners', async () => {
    const logs = captureLogs();
    h = await startWatchHarness({ logger: logs.logger });
    const gone = h.phoneCampaign(1, 'Old promo').id;
    const kept = h.phoneCampaign(1, 'Spring promo').id;
    await runCommand(h, `watch ${gone}`, { channelId: CH, userId: 'U0ANN' });
    await runCommand(h, `watch ${gone}`, { channelId: 'C0SALES', userId: 'U0BOB' });
    await runCommand(h, `watch ${kept}`, { channelId: CH, userId: 'U0ANN' });
    await h.cycle();

    h.sim.control.deleteCampaign(gone);
    await h.cycle();
    for (const ch of [CH, 'C0SALES']) {
      expect((await h.svc.state.subscriptions.get(`${gone}/${ch}`))?.suspended?.error).toBe('campaign_not_found');
    }
    expect((await h.svc.state.subscriptions.get(`${kept}/${CH}`))?.suspended).toBeUndefined();
    for (const [user, ch] of [
      ['U0ANN', CH],
      ['U0BOB', 'C0SALES'],
    ] as const) {
      const dm = await eventually(
        () => h.fake.messages(user).map((m) => m.text),
        (t) => t.some((x) => x.includes('no longer exists')),
      );
      const text = dm.find((x) => x.includes('no longer exists'))!;
      expect(text).toContain(`#${gone}`);
      expect(text).toContain('Old promo');
      expect(text).toContain(`<#${ch}>`);
      expect(text).toContain(`/campaign unwatch ${gone}`);
    }

    // Not asked about again; the other campaign goes on.
    h.sim.control.clearRequests();
    const call = h.sim.control.createCall(kept, { status: 'in-progress' });
    await h.cycle();
    await h.cycle();
    const asked = h.sim.control.requests().map((r) => campaignOf(r.path));
    expect(asked).not.toContain(String(gone));
    expect(callMessages(h.fake, CH, call.id as string)).toHaveLength(1);
    expect(logs.warnings().filter((l) => /polling a campaign failed/.test(l.msg))).toHaveLength(0);
    expect(JSON.stringify(await runCommand(h, 'watching'))).toContain('deleted in the service');
  });
});
