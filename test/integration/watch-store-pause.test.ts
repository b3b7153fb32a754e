/**
 * While the store cannot persist (a full disk, a database gone), nothing is posted to Slack: what would be posted
 * could not be recorded as posted, and would be posted again after a restart. Delivery resumes by itself once a probe
 * of the store succeeds (each poll cycle asks), and what waited is posted once.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { LogLevel, WebClient } from '@slack/web-api';
import type { Config } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { OutreachClient } from '../../src/outreach/client.js';
import { RateLimiter } from '../../src/outreach/limiter.js';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { createAudit } from '../../src/slack/audit.js';
import type { AppDeps } from '../../src/slack/deps.js';
import { Languages } from '../../src/slack/locale.js';
import { createPermissions } from '../../src/slack/permissions.js';
import { createWatch } from '../../src/slack/watch/create.js';
import { createMemoryStore } from '../../src/store/memory-store.js';
import type { WatchService } from '../../src/watch/service.js';
import { startFakeSlack, type FakeSlack } from '../../src/emulator/fake-slack.js';
import { SwitchableStore } from '../support/switchable-store.js';
import { callMessages, eventually, FAST_TUNING } from '../support/watch-harness.js';

const CH = 'C0OPS';

describe('delivery while the store cannot persist', () => {
  let sim: Simulator;
  let fake: FakeSlack;
  let svc: WatchService;
  let store: SwitchableStore;

  beforeEach(async () => {
    sim = await startSimulator({ port: 0, rateLimitPerSecond: false });
    fake = await startFakeSlack({ botUserId: 'UBOT', botId: 'BBOT' });
    const logger = createLogger('silent');
    store = new SwitchableStore(createMemoryStore());
    const deps: AppDeps = {
      config: {
        outreach: { mode: 'live', baseUrl: sim.baseUrl, apiKey: sim.apiKey },
        pollIntervalSeconds: 5,
        retentionDays: 7,
      } as Config,
      outreach: new OutreachClient({
        baseUrl: sim.baseUrl,
        apiKey: sim.apiKey,
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
    await store.close();
    await fake.close();
    await sim.close();
  });

  async function watchedCampaign(): Promise<number> {
    const agent = sim.control.addAgent({ name: 'A' });
    const integ = sim.control.addIntegration({ agentId: agent.id, type: 'phone_call' });
    const c = sim.control.seedCampaign({
      name: 'Paused',
      agentId: agent.id,
      integrationId: integ.id,
      status: 'active',
      contacts: [1, 2, 3].map((i) => ({ contact: `+52553000000${i}`, name: `P${i}` })),
    });
    const id = c.id as number;
    const at = new Date(Date.now() - 1000).toISOString();
    await svc.state.putSubscription({
      campaignId: id,
      channelId: CH,
      createdBy: 'U0ALICE',
      createdAt: at,
      startFrom: at,
      kind: 'phone_call',
    });
    return id;
  }

  /** The call's message appears, and two more cycles do not post it again. */
  async function shownOnce(callId: string) {
    await eventually(
      () => callMessages(fake, CH, callId),
      (m) => m.length === 1,
    );
    await cycle();
    await cycle();
    expect(callMessages(fake, CH, callId)).toHaveLength(1);
  }

  async function cycle() {
    const r = await svc.pollNow();
    await svc.delivery.idle();
    return r;
  }

  it('posts nothing while the store is not durable, and the call once after a probe succeeds', async () => {
    const id = await watchedCampaign();
    const call = sim.control.createCall(id, { status: 'in-progress' });
    store.breakNow();

    const paused = await cycle();
    expect(paused.storePaused).toBe(true);
    await cycle();
    expect(callMessages(fake, CH, call.id as string)).toHaveLength(0);
    expect(fake.calls('chat.postMessage')).toEqual([]);

    // Writes work again: the next cycle's probe finds out, and delivery resumes by itself.
    store.heal();
    expect(store.status().durable).toBe(false);
    const resumed = await cycle();
    expect(resumed.storePaused).toBeUndefined();
    expect(store.status().durable).toBe(true);
    await shownOnce(call.id as string);
  });

  it('places a call stored by a poll that died before placing its message, at the next poll', async () => {
    const id = await watchedCampaign();
    const call = sim.control.createCall(id, { status: 'in-progress' });
    // The call's record is written; the process "dies" before the post record that places its message.
    store.dieBeforeWritesTo('watch_posts');
    await cycle();
    expect(callMessages(fake, CH, call.id as string)).toHaveLength(0);
    expect(await svc.state.call(id, call.id as string)).toBeDefined();

    // The call has not changed since, so only the mark left by the unfinished poll says its message is missing.
    await cycle();
    await shownOnce(call.id as string);
  });

  it('stops a queue already waiting when the store fails, and posts what waited once it is back', async () => {
    const id = await watchedCampaign();
    const first = sim.control.createCall(id, { status: 'in-progress' });
    await cycle();
    expect(callMessages(fake, CH, first.id as string)).toHaveLength(1);

    // Slack fails posts for now, so the new call waits for a retry; then the store fails.
    const second = sim.control.createCall(id, { status: 'in-progress' });
    fake.failNext('chat.postMessage', { status: 500 }, 1000);
    await svc.pollNow();
    await eventually(
      () => svc.delivery.stats.failures,
      (n) => n >= 1,
    );
    store.breakNow();
    // A try already on its way ends (failing); from then on none may start while nothing is durable. Retries are
    // timed (50 ms): 400 ms gives several the chance to start one (a loaded machine may let fewer fire, never more).
    await svc.delivery.idle();
    const attempts = fake.calls('chat.postMessage').length;
    await new Promise((r) => setTimeout(r, 400));
    await svc.delivery.idle();
    expect(fake.calls('chat.postMessage').length).toBe(attempts);
    expect(svc.delivery.pending()).toBe(0);

    fake.clearFailures();
    store.heal();
    await cycle();
    await eventually(
      () => callMessages(fake, CH, second.id as string),
      (m) => m.length === 1,
    );
    await cycle();
    expect(callMessages(fake, CH, second.id as string)).toHaveLength(1);
    expect(callMessages(fake, CH, first.id as string)).toHaveLength(1);
  });
});
