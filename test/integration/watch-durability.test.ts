/**
 * Nothing lost, nothing posted twice: across restarts (the state file), service failures (500, 429, timeouts),
 * Slack 429s, and a Slack answer lost after the message was posted.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { LogLevel, WebClient } from '@slack/web-api';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { OutreachClient } from '../../src/outreach/client.js';
import { RateLimiter } from '../../src/outreach/limiter.js';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { createAudit } from '../../src/slack/audit.js';
import { Languages } from '../../src/slack/locale.js';
import type { AppDeps } from '../../src/slack/deps.js';
import { createPermissions } from '../../src/slack/permissions.js';
import { openEmbeddedStore } from '../../src/store/embedded/store.js';
import { createWatch } from '../../src/slack/watch/create.js';
import type { WatchService } from '../../src/watch/service.js';
import { startFakeSlack, type FakeSlack } from '../../src/emulator/fake-slack.js';
import {
  callMessages,
  eventually,
  FAST_TUNING,
  runCommand,
  startWatchHarness,
  type WatchHarness,
} from '../support/watch-harness.js';

const CH = 'C0OPS';

/** Every call has exactly one top-level message, and no thread holds the same reply twice. */
function expectNoDuplicates(fake: FakeSlack, channel: string, callIds: string[]) {
  for (const id of callIds) {
    const msgs = callMessages(fake, channel, id);
    expect(msgs).toHaveLength(1);
    const texts = fake.threadReplies(channel, msgs[0]!.ts).map((r) => r.text);
    expect(new Set(texts).size).toBe(texts.length);
  }
}

describe('restarts', () => {
  let h: WatchHarness;
  beforeEach(async () => {
    h = await startWatchHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('posts nothing twice and loses nothing across restarts, including work recorded but not yet shown', async () => {
    const { id } = h.phoneCampaign(6);
    await runCommand(h, `watch ${id}`, { channelId: CH });
    const calls = [0, 1, 2].map(() => h.sim.control.createCall(id, { status: 'in-progress' }));
    for (const c of calls)
      h.sim.control.addMessage(c.thread_id as string, { sent_by: 'AI', content: `Hola ${c.id as string}` });
    await h.cycle();
    await h.cycle();

    // Changes while the app is down.
    await h.restart();
    h.sim.control.updateCall(calls[0]!.id as string, { status: 'ended', answered_by: 'human' });
    h.sim.control.addMessage(calls[1]!.thread_id as string, { sent_by: 'EU', content: 'after restart' });
    const late = h.sim.control.createCall(id, { status: 'in-progress' });
    await h.cycle();
    await h.cycle();

    // Slack fails every post for a while: the poller records the new call, delivery cannot show it.
    const unshown = h.sim.control.createCall(id, { status: 'in-progress' });
    h.fake.failNext('chat.postMessage', { status: 500 }, 1000);
    const refusedBefore = h.fake.calls('chat.postMessage').filter((c) => c.status === 500).length;
    await h.svc.pollNow();
    // Delivery tried (and Slack refused): the call is recorded, not shown.
    await eventually(
      () => h.fake.calls('chat.postMessage').filter((c) => c.status === 500).length,
      (n) => n > refusedBefore,
      20_000,
    );
    expect(callMessages(h.fake, CH, unshown.id as string)).toHaveLength(0);
    // Restart with Slack back: the recorded call is shown from the state file alone (the cursor had moved on).
    await h.restart();
    h.fake.clearFailures();
    await h.svc.delivery.idle();
    await eventually(
      () => callMessages(h.fake, CH, unshown.id as string),
      (m) => m.length === 1,
    );
    await h.cycle();
    await h.restart();
    await h.cycle();

    const all = [...calls, late, unshown].map((c) => c.id as string);
    expectNoDuplicates(h.fake, CH, all);
    expect(callMessages(h.fake, CH, calls[0]!.id as string)[0]!.text).toContain('Ended');
    const t1 = h.fake.threadReplies(CH, callMessages(h.fake, CH, calls[1]!.id as string)[0]!.ts).map((r) => r.text);
    expect(t1.filter((t) => t.includes('after restart'))).toHaveLength(1);
    expect(t1.filter((t) => t.includes(`Hola ${calls[1]!.id as string}`))).toHaveLength(1);
  });
});

describe('failures of the service and of Slack', () => {
  let sim: Simulator;
  let fake: FakeSlack;
  let svc: WatchService;
  let dir: string;
  let deps: AppDeps;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'watch-f-'));
    sim = await startSimulator({ port: 0, rateLimitPerSecond: false });
    fake = await startFakeSlack({ botUserId: 'UBOT', botId: 'BBOT' });
    const logger = createLogger('silent');
    const config = {
      outreach: { mode: 'live', baseUrl: sim.baseUrl, apiKey: sim.apiKey },
      pollIntervalSeconds: 5,
      retentionDays: 7,
    } as Config;
    const store = await openEmbeddedStore(join(dir, 'state'));
    deps = {
      config,
      // Short timeouts and retry delays so a timeout test takes a second, not a minute.
      outreach: new OutreachClient({
        baseUrl: sim.baseUrl,
        apiKey: sim.apiKey,
        responseTimeoutMs: 300,
        maxRetries: 1,
        retryBaseMs: 10,
        retryMaxDelayMs: 20,
        limiter: new RateLimiter({ perSecond: 1000 }),
      }),
      store,
      logger,
      permissions: createPermissions({ adminUserIds: [] }),
      audit: createAudit(logger),
      languages: new Languages({ store, defaultLocale: 'en', logger }),
    };
    svc = createWatch(
      deps,
      new WebClient('xoxb-test', { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 }, logLevel: LogLevel.ERROR }),
      { ...FAST_TUNING },
    );
    await svc.start();
  });
  afterEach(async () => {
    await svc.stop();
    await deps.store.close();
    await fake.close();
    await sim.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function cycle() {
    const r = await svc.pollNow();
    await svc.delivery.idle();
    return r;
  }

  function campaign(n = 3) {
    const agent = sim.control.addAgent({ name: 'A' });
    const integ = sim.control.addIntegration({ agentId: agent.id, type: 'phone_call' });
    const c = sim.control.seedCampaign({
      name: `C${Math.random()}`,
      agentId: agent.id,
      integrationId: integ.id,
      status: 'active',
      contacts: Array.from({ length: n }, (_, i) => ({
        contact: `+5255${String(30000000 + i + Math.floor(Math.random() * 1e6) * 10).slice(0, 8)}`,
        name: `P${i}`,
      })),
    });
    return c.id as number;
  }

  async function watch(id: number, channel = CH) {
    const now = new Date(Date.now() - 1000).toISOString();
    await svc.state.subscriptions.put(`${id}/${channel}`, {
      campaignId: id,
      channelId: channel,
      createdBy: 'U0ALICE',
      createdAt: now,
      startFrom: now,
      kind: 'phone_call',
    });
  }

  it('keeps polling the other campaigns when one fails, and catches up on the failed one later', async () => {
    const a = campaign();
    const b = campaign();
    await watch(a);
    await watch(b);
    const ca = sim.control.createCall(a, { status: 'in-progress' });
    const cb = sim.control.createCall(b, { status: 'in-progress' });
    sim.control.injectFaults({ status: 500, match: new RegExp(`/campaigns/${a}/calls`), count: 10 });
    const r1 = await cycle();
    expect(r1.failedCampaigns).toEqual([a]);
    expect(callMessages(fake, CH, cb.id as string)).toHaveLength(1);
    expect(callMessages(fake, CH, ca.id as string)).toHaveLength(0);
    // Its cursor did not move (a 5xx says the service is unwell: nothing is written for it, see watch-outage).
    expect((await svc.state.cursors.get(String(a)))?.newestCreatedAt).toBeUndefined();
    sim.control.clearFaults();
    await cycle();
    expectNoDuplicates(fake, CH, [ca.id as string, cb.id as string]);
    expect((await svc.state.cursors.get(String(a)))?.failures).toBe(0);
  });

  it('survives 500s, 429s and timeouts from the service with nothing lost or doubled', async () => {
    const id = campaign(8);
    await watch(id);
    const ids: string[] = [];
    const faults = [
      () => sim.control.injectFaults({ status: 500, match: /\/calls$/, count: 3 }),
      () => sim.control.injectFaults({ status: 429, retryAfter: 0, match: /\/calls$/, count: 3 }),
      () => sim.control.setLatencyMs(2500, /\/calls$/),
      () => sim.control.injectFaults({ status: 503, match: /\/message\//, count: 3 }),
    ];
    const failed: number[][] = [];
    for (const fault of faults) {
      const c = sim.control.createCall(id, { status: 'in-progress' });
      sim.control.addMessage(c.thread_id as string, { sent_by: 'AI', content: `hello ${c.id as string}` });
      ids.push(c.id as string);
      fault();
      failed.push((await cycle()).failedCampaigns);
      sim.control.clearFaults();
      sim.control.setLatencyMs(0, /\/calls$/);
      sim.control.updateCall(c.id as string, { status: 'ended', answered_by: 'human' });
      await cycle();
      await cycle();
    }
    // The listing faults really made the cycle fail (the client's own retries were not enough).
    expect(failed).toEqual([[id], [id], [id], []]);
    expectNoDuplicates(fake, CH, ids);
    for (const id2 of ids) {
      const m = callMessages(fake, CH, id2)[0]!;
      expect(m.text).toContain('Ended');
      expect(fake.threadReplies(CH, m.ts).filter((r) => r.text.includes(`hello ${id2}`))).toHaveLength(1);
    }
  });

  it('survives Slack 429s (honouring Retry-After) and a lost answer to a post that Slack did make', async () => {
    const id = campaign(4);
    await watch(id);
    fake.failNext('chat.postMessage', { status: 429, retryAfter: 1 }, 2);
    const c1 = sim.control.createCall(id, { status: 'in-progress' });
    const started = Date.now();
    await cycle();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900); // two waits of Retry-After: 1
    expect(callMessages(fake, CH, c1.id as string)).toHaveLength(1);
    // Between the 429 and the retry nothing hammered Slack.
    expect(fake.calls('chat.postMessage').length).toBeLessThanOrEqual(3);

    // The post reaches Slack but its answer is lost (HTTP 500 after applying): found by its metadata, not re-posted.
    fake.failNext('chat.postMessage', { status: 500, afterApply: true });
    const c2 = sim.control.createCall(id, { status: 'in-progress' });
    await cycle();
    expect(callMessages(fake, CH, c2.id as string)).toHaveLength(1);
    expect(fake.calls('conversations.history').length).toBeGreaterThan(0);
    // ...and the mapping points at it: the next change updates that message.
    sim.control.updateCall(c2.id as string, { status: 'ended', answered_by: 'human' });
    fake.failNext('chat.update', { status: 429, retryAfter: 1 });
    await cycle();
    const m = callMessages(fake, CH, c2.id as string);
    expect(m).toHaveLength(1);
    expect(m[0]!.text).toContain('Ended');
  });
});
