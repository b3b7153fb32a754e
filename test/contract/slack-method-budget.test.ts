// Slack's per-method budgets (src/slack/method-budget.ts) on shared rate windows, spent by real WebClients against a
// fake Slack that enforces Slack's tiers. Two budgets on one RateWindows stand for two replicas on one database.
import { WebClient, WebClientEvent } from '@slack/web-api';
import { budgetedFetch, SlackMethodBudget, type SlackCallPriority } from '../../src/slack/method-budget.js';
import { LocalRateWindows } from '../../src/store/local-coordination.js';
import { startFakeSlack, type FakeSlack } from '../../src/emulator/fake-slack.js';

let fake: FakeSlack;

beforeAll(async () => {
  fake = await startFakeSlack({ checkRawMentions: false });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

/** A WebClient whose calls spend `budget`; like the app's, it waits out a 429's Retry-After and tries again. */
function clientOf(budget: SlackMethodBudget, priority: SlackCallPriority): WebClient {
  return new WebClient(fake.botToken, {
    slackApiUrl: fake.apiUrl,
    retryConfig: { retries: 3, minTimeout: 0, maxTimeout: 0 },
    fetch: budgetedFetch(budget, { slackApiUrl: fake.apiUrl, priority }),
  });
}

describe('Slack method budgets', () => {
  it('names the buckets of a call: the method, and the channel for chat.postMessage; other methods none', () => {
    const b = new SlackMethodBudget({ windows: new LocalRateWindows() });
    expect(b.windowsFor('chat.postMessage', 'C1')).toEqual([
      { bucket: 'slack:chat.postMessage:C1', limit: 3, windowMs: 3_000 },
      { bucket: 'slack:chat.postMessage', limit: 300, windowMs: 60_000 },
    ]);
    expect(b.windowsFor('chat.update', 'C1')).toEqual([{ bucket: 'slack:chat.update', limit: 50, windowMs: 60_000 }]);
    expect(b.windowsFor('views.open')).toEqual([{ bucket: 'slack:views.open', limit: 100, windowMs: 60_000 }]);
    expect(b.windowsFor('apps.connections.open')).toEqual([]);
    // Background work leaves a tenth (at least one slot) to people.
    expect([b.reserveOf(50, 'background'), b.reserveOf(3, 'background'), b.reserveOf(50, 'person')]).toEqual([5, 1, 0]);
  });

  it("tells background work its share of a method's budget over an interval, at the budget's time scale", () => {
    const real = new SlackMethodBudget({ windows: new LocalRateWindows() });
    // 300 posts a minute, less the tenth kept for people: 270 a minute, 135 in a 30 s poll interval.
    expect(real.backgroundPerInterval('chat.postMessage', 60_000)).toBe(270);
    expect(real.backgroundPerInterval('chat.postMessage', 30_000)).toBe(135);
    expect(real.backgroundPerInterval('chat.update', 30_000)).toBe(22);
    expect(real.backgroundPerInterval('chat.postMessage', 10)).toBe(1);
    expect(real.backgroundPerInterval('apps.connections.open', 30_000)).toBeUndefined();
    const fast = new SlackMethodBudget({ windows: new LocalRateWindows(), timeScale: 10 });
    expect(fast.backgroundPerInterval('chat.postMessage', 3_000)).toBe(135);
  });

  it('keeps two replicas together within the tier: 0 × 429 where unbudgeted clients get them', async () => {
    // Time ×20: Tier 3's 50 a minute is 50 in any 3 s.
    fake.setTierLimits({ timeScale: 20 });
    const first = await new WebClient(fake.botToken, { slackApiUrl: fake.apiUrl }).chat.postMessage({
      channel: 'C1',
      text: 'x',
    });
    const update = (c: WebClient, i: number) => c.chat.update({ channel: 'C1', ts: first.ts as string, text: `${i}` });

    // Without budgets, two clients of 40 updates each run into Slack's limit.
    const bare = () =>
      new WebClient(fake.botToken, {
        slackApiUrl: fake.apiUrl,
        retryConfig: { retries: 0 },
        rejectRateLimitedCalls: true,
      });
    const [a, b] = [bare(), bare()];
    await Promise.allSettled(Array.from({ length: 40 }, (_, i) => [update(a, i), update(b, i)]).flat());
    expect(fake.counts()['chat.update']?.ratelimited).toBeGreaterThan(0);

    fake.reset();
    fake.setTierLimits({ timeScale: 20 });
    const again = await new WebClient(fake.botToken, { slackApiUrl: fake.apiUrl }).chat.postMessage({
      channel: 'C1',
      text: 'x',
    });
    const windows = new LocalRateWindows();
    const replicas = [0, 1].map((i) =>
      clientOf(new SlackMethodBudget({ windows, timeScale: 20, maxRequestMs: 60_000 }), i ? 'person' : 'background'),
    );
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        replicas.map((c) => c.chat.update({ channel: 'C1', ts: again.ts as string, text: `${i}` })),
      ).flat(),
    );
    expect(fake.counts()['chat.update']).toEqual({ calls: 80, ratelimited: 0 });
    // 80 calls at 50 per 3 s take more than one window.
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_000);
  }, 20_000);

  it("never makes a person's call wait behind the background backlog", async () => {
    fake.setTierLimits({ timeScale: 60 }); // Tier 3: 50 in any second
    const posted = await new WebClient(fake.botToken, { slackApiUrl: fake.apiUrl }).chat.postMessage({
      channel: 'C1',
      text: 'x',
    });
    const windows = new LocalRateWindows();
    // Windows of 2 s in the budget (time ×30) against the fake's 1 s: the budget is the stricter of the two.
    const budget = new SlackMethodBudget({ windows, timeScale: 30, maxRequestMs: 60_000 });
    const background = clientOf(budget, 'background');
    const person = clientOf(budget, 'person');
    const backlog = Array.from({ length: 120 }, (_, i) =>
      background.chat.update({ channel: 'C1', ts: posted.ts as string, text: `bg ${i}` }),
    );
    await new Promise((r) => setTimeout(r, 100));
    const t0 = Date.now();
    await person.chat.update({ channel: 'C1', ts: posted.ts as string, text: 'a person' });
    const personMs = Date.now() - t0;
    await Promise.all(backlog);
    // The backlog takes three windows (45 of 50 slots each); the person's call went out within the first.
    expect(personMs).toBeLessThan(500);
    expect(fake.counts()['chat.update']).toEqual({ calls: 121, ratelimited: 0 });
  }, 20_000);

  it("paces chat.postMessage per channel and pauses a bucket for a 429's Retry-After on every replica", async () => {
    fake.setPostMessageRateLimit({ burst: 3, perSecond: 1 });
    const windows = new LocalRateWindows();
    const [a, b] = [0, 1].map(() => clientOf(new SlackMethodBudget({ windows }), 'background'));
    // Six background posts into one channel from two replicas: two per window of 3 s (the third slot is left to
    // people), none refused by the channel's pace.
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 3 }, (_, i) => [
        (a as WebClient).chat.postMessage({ channel: 'C1', text: `a${i}` }),
        (b as WebClient).chat.postMessage({ channel: 'C1', text: `b${i}` }),
      ]).flat(),
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_000);
    expect(fake.counts()['chat.postMessage']).toEqual({ calls: 6, ratelimited: 0 });

    // Slack says 429 (another app's traffic, a stricter limit): the other replica waits for Retry-After too.
    fake.failNext('chat.update', { status: 429, retryAfter: 1 });
    const ts = fake.messages('C1')[0]?.ts as string;
    const limited = new Promise((r) => (a as WebClient).once(WebClientEvent.RATE_LIMITED, r));
    const refused = (a as WebClient).chat.update({ channel: 'C1', ts, text: 'first' });
    await limited;
    const t0 = Date.now();
    await (b as WebClient).chat.update({ channel: 'C1', ts, text: 'second' });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    await refused;
  }, 20_000);

  it('goes ahead unbudgeted when the shared windows cannot be reached', async () => {
    const broken = {
      tryAcquire: () => Promise.reject(new Error('database down')),
      release: () => Promise.resolve(),
      pause: () => Promise.resolve(),
    };
    const c = clientOf(new SlackMethodBudget({ windows: broken }), 'person');
    expect((await c.chat.postMessage({ channel: 'C1', text: 'still works' })).ok).toBe(true);
  });
});
