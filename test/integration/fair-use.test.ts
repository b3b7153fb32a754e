/**
 * Fair use of the service's 12 requests/s among people, end to end: signed Slack requests to the real app, the
 * service played by the simulator, the app's real shared limiter (12 per 1-second window). One person's burst must
 * not hold up another person's command or the poller, and the person over their share is told how long to wait.
 */
import { countsAgainstBudget } from '../../src/slack/middleware/fair-use.js';
import { createPersonBudget } from '../../src/slack/middleware/person-budget.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/pg-store.js';
import { PgTokenBuckets } from '../../src/store/pg-token-buckets.js';
import { freshDatabase } from '../support/postgres.js';
import { createLogger } from '../../src/log.js';
import { sharedLimiter } from '../../src/outreach/limiter.js';
import { DEFAULT_ORG } from '../../src/sim/server.js';
import { TestClock } from '../support/test-clock.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/upload.js';
import { FAST_TUNING } from '../support/watch-harness.js';

type Json = Record<string, unknown>;
const CH = 'C0OPS';
const text = (x: unknown) => JSON.stringify(x);

describe('end to end', () => {
  let h: TestApp;
  let ids: number[];
  /** A campaign no channel watches (the poller never reads it): the one the burst below shows. */
  let burstCampaign: number;
  const poller = () => h.app.services.watch;
  // The app's clock stands still (each person's share refills only when a test moves it), and the app's limiter is
  // the process-wide one of the simulator's key, made here first: a request unanswered keeps its slot until its
  // answer (up to a minute, not 250 ms), so one held at the simulator keeps its slot for as long as a test holds it.
  const KEY = 'fair-use-test-key';
  const clock = new TestClock(Date.parse('2026-03-02T15:00:00Z'));
  const limiter = sharedLimiter(KEY, { marginMs: 60_000 });
  const logLines: string[] = [];
  /** The app's log lines saying it asked `who` to wait (written once it told them, or chose not to DM again). */
  const askedToWait = (who: string) =>
    logLines.filter((l) => l.includes('over their share') && l.includes(`"user":"${who}"`)).length;

  const answerOf = (url: string) => h.fake.responseUrlUses().find((u) => u.url === url)?.body as Json | undefined;
  const answered = (url: string, timeoutMs = 20_000) => h.fake.waitFor(() => answerOf(url), timeoutMs);
  /** A `/campaign` command and its answer through response_url. */
  async function runCommand(commandText: string, opts: { userId: string; channelId?: string }): Promise<Json> {
    const r = await h.driver.command(commandText, opts);
    expect(r.status).toBe(200);
    return answered(r.responseUrl);
  }

  beforeAll(async () => {
    // Each person's share at its defaults (the test app raises them for tests about other things); polling on demand.
    h = await startTestApp({
      env: { PERSON_ACTIONS_PER_MINUTE: '60', PERSON_ACTIONS_BURST: '10' },
      sim: { orgs: { [KEY]: DEFAULT_ORG } },
      start: {
        watch: FAST_TUNING,
        clock,
        logger: createLogger('info', { destination: { write: (l: string) => void logLines.push(l) } }),
      },
    });
    const agent = h.sim.control.addAgent({ name: 'Ana Agent' });
    const phone = h.sim.control.addIntegration({ agentId: agent.id, type: 'phone_call' });
    ids = [1, 2, 3].map((i) =>
      Number(
        h.sim.control.seedCampaign({
          name: `Campaign ${i}`,
          agentId: agent.id,
          integrationId: phone.id,
          status: 'active',
          contacts: [{ contact: `+52551000000${i}`, name: `Contact ${i}` }],
        }).id,
      ),
    );
    burstCampaign = Number(
      h.sim.control.seedCampaign({ name: 'Burst campaign', agentId: agent.id, integrationId: phone.id }).id,
    );
    for (const [i, id] of ids.entries()) {
      expect(text(await runCommand(`watch ${id}`, { channelId: CH, userId: `U0SETUP${i}` }))).toContain('watch');
    }
    await poller().pollNow();
  }, 60_000);
  afterAll(async () => {
    await h.close();
    await limiter.stop();
  });

  it("one person's burst of 60 commands holds up neither another person's command nor a poll cycle", async () => {
    // Something for the poller to read.
    for (const id of ids) h.sim.control.createCall(id, { status: 'ended', answered_by: 'human' });
    const requestsBefore = h.sim.control.requests().length;
    // The burst's requests to the service are held there: what is answered meanwhile did not wait behind them.
    const burstHold = h.sim.control.hold(new RegExp(`^GET /api/v1\\.0/campaigns/${burstCampaign}$`));
    const burst = await Promise.all(
      Array.from({ length: 60 }, () => h.driver.command(`show ${burstCampaign}`, { userId: 'U0BURST' })),
    );
    for (const r of burst) expect(r.status).toBe(200);
    try {
      // The burst's requests are made on that person's behalf: 6 (half the slots) started, and the other 4 of the 10
      // the person's share let through wait their turn although the limiter has free slots.
      await until(
        async () => burstHold.held() === 6 && limiter.queued('interactive') === 4 && limiter.held() < limiter.perSecond,
        20_000,
      );

      const [other, cycle] = await Promise.all([
        runCommand(`show ${ids[1]}`, { userId: 'U0OTHER' }),
        poller().pollNow(),
      ]);
      expect(text(other)).toContain('Campaign 2');
      expect(cycle.failedCampaigns).toEqual([]);
      expect(cycle.newCalls).toBe(3);
      // Both were done while the burst's requests were still held.
      expect(burstHold.held()).toBe(6);
      expect(limiter.queued('interactive')).toBe(4);
    } finally {
      burstHold.release();
    }

    // Every command of the burst got an answer: the campaign for the first ones, a request to wait for the rest.
    const bodies = await Promise.all(burst.map((r) => answered(r.responseUrl)));
    const shown = bodies.filter((b) => text(b).includes('Burst campaign'));
    const waits = bodies.filter((b) => /please wait \d+ seconds?/.test(text(b)));
    expect(shown.length + waits.length).toBe(60);
    // The person's burst of 10, and not one more: the app's clock did not move, so nothing refilled.
    expect(shown.length).toBeGreaterThanOrEqual(10);
    expect(shown.length).toBeLessThan(15);
    expect(shown).toHaveLength(10);
    const asked = h.sim.control
      .requests()
      .slice(requestsBefore)
      .filter((r) => r.route === 'getCampaign' && r.path.endsWith(`/campaigns/${burstCampaign}`));
    expect(asked.length).toBe(shown.length);
  }, 60_000);

  it('over their share a person is told, in an ephemeral, how long to wait; after that wait it works again', async () => {
    const who = 'U0EAGER';
    const results = await Promise.all(
      Array.from({ length: 12 }, () => h.driver.command(`show ${ids[2]}`, { userId: who })),
    );
    const bodies = await Promise.all(results.map((r) => answered(r.responseUrl)));
    const refused = bodies.filter((b) => text(b).includes('please wait'));
    expect(refused.length).toBeGreaterThanOrEqual(1);
    const first = refused[0] as Json;
    expect(first.response_type).toBe('ephemeral');
    expect(text(first)).toContain('shared by everyone');
    expect(text(first)).toContain('Nothing was done for that last one');
    const secs = Number(/please wait (\d+) seconds?/.exec(text(first))?.[1]);
    expect(secs).toBeGreaterThanOrEqual(1);
    expect(secs).toBeLessThanOrEqual(2);

    // help and a mistyped command cost the service nothing: answered as usual even now.
    expect(text(await runCommand('help', { userId: who }))).toContain('list [status]');
    expect(text(await runCommand('frobnicate', { userId: who }))).toContain('is not a /campaign subcommand');

    // Still refused until the wait is over (on the app's clock), then it works.
    clock.advance(secs * 1000 - 1);
    expect(text(await runCommand(`show ${ids[2]}`, { userId: who }))).toContain('please wait');
    clock.advance(1);
    expect(text(await runCommand(`show ${ids[2]}`, { userId: who }))).toContain('Campaign 3');
  }, 30_000);

  it('Home tab buttons over the share: one DM per streak saying how long to wait, not one per click', async () => {
    const who = 'U0CLICKER';
    await h.driver.appHomeOpened({ userId: who });
    const view = await h.fake.waitFor(() => {
      const v = h.fake.publishedHome(who);
      return v && !text(v).includes('Reading the campaigns') ? v : undefined;
    }, 20_000);
    const clicks = await Promise.all(
      Array.from({ length: 14 }, () =>
        h.driver.blockAction({ userId: who, view: view.id as string, actionId: 'home_refresh' }),
      ),
    );
    for (const c of clicks) expect(c.status).toBe(200);
    // 14 clicks, a share of 10 and a clock that does not move: 4 refused, and the app said so for each.
    const dm = await h.fake.waitFor(() => h.fake.messages(who).find((m) => text(m).includes('please wait')), 20_000);
    expect(text(dm)).toMatch(/please wait \d+ seconds?/);
    // Each refusal is logged once the person was told or it was decided not to DM them again: all 4 are done then.
    await h.fake.waitFor(() => askedToWait(who) === 4, 20_000);
    expect(h.fake.messages(who).filter((m) => text(m).includes('please wait'))).toHaveLength(1);
  }, 30_000);
});

describe('what counts against a person', () => {
  it('commands that reach the service and clicks in messages or the Home tab; not help, typos, forms or events', () => {
    const command = (t: string) => ({ command: '/campaign', text: t, user_id: 'U1' });
    expect(countsAgainstBudget(command('show 3'))).toBe(true);
    expect(countsAgainstBudget(command('list active'))).toBe(true);
    expect(countsAgainstBudget(command('help'))).toBe(false);
    expect(countsAgainstBudget(command(''))).toBe(false);
    expect(countsAgainstBudget(command('show abc'))).toBe(false);
    const click = (view?: Json) => ({ type: 'block_actions', user: { id: 'U1' }, ...(view ? { view } : {}) });
    expect(countsAgainstBudget(click())).toBe(true);
    expect(countsAgainstBudget(click({ type: 'home' }))).toBe(true);
    expect(countsAgainstBudget(click({ type: 'modal' }))).toBe(false);
    expect(countsAgainstBudget({ type: 'view_submission', user: { id: 'U1' } })).toBe(false);
    expect(countsAgainstBudget({ type: 'event_callback', event: { type: 'app_home_opened', user: 'U1' } })).toBe(false);
  });
});

describe('PersonBudget', () => {
  it('lets a burst through, then one more per refill interval, each person on their own', async () => {
    let now = 0;
    const b = createPersonBudget({ perMinute: 60, burst: 3, now: () => now });
    expect([await b.take('A'), await b.take('A'), await b.take('A')]).toEqual([
      { ok: true },
      { ok: true },
      { ok: true },
    ]);
    expect(await b.take('A')).toEqual({ ok: false, waitMs: 1000 });
    expect(await b.take('B')).toEqual({ ok: true });
    now = 400;
    expect(await b.take('A')).toEqual({ ok: false, waitMs: 600 });
    now = 1000;
    expect(await b.take('A')).toEqual({ ok: true });
    now = 60_000;
    expect([await b.take('A'), await b.take('A'), await b.take('A'), (await b.take('A')).ok]).toEqual([
      { ok: true },
      { ok: true },
      { ok: true },
      false,
    ]);
  });

  it('takes several at once, or none; more than the burst costs the whole bucket', async () => {
    let now = 0;
    const b = createPersonBudget({ perMinute: 60, burst: 5, now: () => now });
    expect(await b.take('A', 3)).toEqual({ ok: true });
    expect(await b.take('A', 3)).toEqual({ ok: false, waitMs: 1000 });
    expect(await b.take('A', 2)).toEqual({ ok: true });
    expect(await b.take('A')).toEqual({ ok: false, waitMs: 1000 });
    now = 5000;
    expect(await b.take('A', 40)).toEqual({ ok: true });
    expect(await b.take('A', 40)).toEqual({ ok: false, waitMs: 5000 });
  });

  it('a DM about waiting goes out once per streak of refusals', async () => {
    let now = 0;
    const b = createPersonBudget({ perMinute: 60, burst: 1, now: () => now });
    await b.take('A');
    expect((await b.take('A')).ok).toBe(false);
    expect(await b.shouldDm('A')).toBe(true);
    expect((await b.take('A')).ok).toBe(false);
    expect(await b.shouldDm('A')).toBe(false);
    now = 1000;
    expect((await b.take('A')).ok).toBe(true);
    expect((await b.take('A')).ok).toBe(false);
    expect(await b.shouldDm('A')).toBe(true);
  });

  describe('with PostgreSQL, one bucket for every replica', () => {
    let url: string;
    let stores: PostgresStore[];
    beforeAll(async () => {
      url = await freshDatabase('budget');
      // Two replicas' stores on one database.
      stores = [await openPostgresStore(url), await openPostgresStore(url)];
    });
    afterAll(async () => {
      for (const st of stores) await st.close();
    });
    const replicas = (perMinute: number, burst: number) =>
      stores.map((st) => createPersonBudget({ perMinute, burst, shared: new PgTokenBuckets(st) }));
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

    it('takes spread over both replicas, all at once, get the burst and not one more', async () => {
      // One a minute once the burst is spent: no refill within the test.
      const [a, b] = replicas(1, 10);
      const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a! : b!).take('U0BOTH')));
      expect(answers.filter((x) => x.ok)).toHaveLength(10);
      const refused = answers.filter((x) => !x.ok);
      expect(refused).toHaveLength(30);
      for (const r of refused) expect(r).toEqual({ ok: false, waitMs: expect.any(Number) as unknown });
      // Another person has their own bucket; a count above the burst costs the whole of it.
      expect(await a!.take('U0OTHER', 40)).toEqual({ ok: true });
      expect((await b!.take('U0OTHER')).ok).toBe(false);
      expect((await a!.take('U0OTHER')).ok).toBe(false);
    });

    it("when the database fails, each replica's own count decides: still refused after the burst there", async () => {
      const gone = await openPostgresStore(url);
      await gone.close();
      const lines: string[] = [];
      const logger = createLogger('warn', { destination: { write: (l: string) => void lines.push(l) } });
      const b = createPersonBudget({ perMinute: 1, burst: 3, shared: new PgTokenBuckets(gone), logger });
      const answers = await Promise.all(Array.from({ length: 5 }, () => b.take('U0NODB')));
      expect(answers.map((x) => x.ok)).toEqual([true, true, true, false, false]);
      expect(await b.shouldDm('U0NODB')).toBe(true);
      expect(lines.filter((l) => l.includes("this replica's decides"))).toHaveLength(4);
    });

    it('one DM per streak of refusals, whichever replica refused', async () => {
      const [a, b] = replicas(1, 2);
      expect(await a!.take('U0DM', 2)).toEqual({ ok: true });
      const refused = await b!.take('U0DM');
      expect(refused.ok).toBe(false);
      expect(await b!.shouldDm('U0DM')).toBe(true);
      expect(await a!.shouldDm('U0DM')).toBe(false);
      expect(await b!.shouldDm('U0DM')).toBe(false);
    });

    it("refills by the database's clock: after the wait it gives, a take works again and starts a new streak", async () => {
      // Ten a second: each refusal's wait is at most 100 ms.
      const [a, b] = replicas(600, 1);
      let refused: { ok: false; waitMs: number } | undefined;
      for (let i = 0; i < 20 && !refused; i++) {
        const r = await (i % 2 ? a! : b!).take('U0REFILL');
        if (!r.ok) refused = r;
      }
      expect(refused!.waitMs).toBeGreaterThan(0);
      expect(refused!.waitMs).toBeLessThanOrEqual(100);
      expect(await a!.shouldDm('U0REFILL')).toBe(true);
      // Waiting what each refusal says gets the action (a replica's own count may say less than the shared one).
      let wait = refused!.waitMs;
      let taken = false;
      for (let i = 0; i < 5 && !taken; i++) {
        await sleep(wait);
        const r = await b!.take('U0REFILL');
        if (r.ok) taken = true;
        else wait = r.waitMs;
        expect(wait).toBeLessThanOrEqual(100);
      }
      expect(taken).toBe(true);
      // That accepted take ended the streak: the next refusal is told again.
      let again = false;
      for (let i = 0; i < 20 && !again; i++) again = !(await a!.take('U0REFILL')).ok;
      expect(again).toBe(true);
      expect(await b!.shouldDm('U0REFILL')).toBe(true);
    });
  });
});
