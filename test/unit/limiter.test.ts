/**
 * The shared rate limiter, checked on its own timeline: when it started each request, on its own clock.
 *
 * Most tests run the limiter on jest's fake timers (a virtual clock that moves only when every timer due has run), so
 * what the limiter decides is exact and the same on a quiet or a loaded machine. The tests through the real client
 * and an HTTP stub run on the real clock and read the limiter's own record of each start and each pause (a
 * `RateLimiter` that notes them, see `RecordedLimiter`): a server's arrival times would move with the machine's load
 * (a request delayed on its way lands next to the one after it), the limiter's starts do not.
 */
import { jest } from '@jest/globals';
import type { Priority } from '../../src/outreach/api.js';
import { OutreachClient } from '../../src/outreach/client.js';
import {
  LimiterStoppedError,
  RateLimiter,
  sharedLimiter,
  type RateLimiterOptions,
} from '../../src/outreach/limiter.js';
import { campaignDetail, maxInAnyWindow, startStub, type Stub } from '../support/stub-outreach.js';

const KEY = 'limiter-test-key-0123456789';

// ---------------------------------------------------------------------------------------------------------------
// On the virtual clock

interface Start {
  id: number;
  priority: Priority;
  /** performance.now() when the limiter started the request (virtual time). */
  at: number;
}

/**
 * A limiter on jest's fake clock, and requests through it that note when they start and are answered `answerMs`
 * (virtual) later. `settle()` runs the clock until nothing is left to do.
 */
function onVirtualClock(opts: RateLimiterOptions) {
  const limiter = new RateLimiter(opts);
  virtualLimiters.push(limiter);
  const starts: Start[] = [];
  const t0 = performance.now();
  const request = (id: number, priority: Priority = 'interactive', person?: string, answerMs = 5) =>
    limiter.schedule(
      priority,
      () => {
        starts.push({ id, priority, at: performance.now() - t0 });
        return new Promise<number>((resolve) => setTimeout(() => resolve(id), answerMs));
      },
      undefined,
      person,
    );
  const times = (filter: (s: Start) => boolean = () => true) => starts.filter(filter).map((s) => s.at);
  const inRange = (lo: number, hi: number) => (s: Start) => s.id >= lo && s.id < hi;
  const settle = async <T>(pending: Promise<T>): Promise<T> => {
    await jest.runAllTimersAsync();
    return pending;
  };
  return { limiter, starts, request, times, inRange, settle };
}

const virtualLimiters: RateLimiter[] = [];

describe('on the virtual clock', () => {
  beforeEach(() => {
    // Promises and process.nextTick stay real: the HTTP-free requests here only need timers and the clock.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
  });
  afterEach(async () => {
    await Promise.all(virtualLimiters.splice(0).map((l) => l.stop()));
    jest.useRealTimers();
  });

  describe('sliding window', () => {
    it('lets no window hold more than perSecond requests under 100 concurrent callers (fast constants)', async () => {
      const v = onVirtualClock({ perSecond: 12, windowMs: 200 });
      const ids = Array.from({ length: 100 }, (_, i) => i + 1);
      const got = await v.settle(Promise.all(ids.map((id) => v.request(id, 'bulk'))));
      expect(got).toEqual(ids);
      expect(v.starts).toHaveLength(100);
      expect(maxInAnyWindow(v.times(), 200)).toBeLessThanOrEqual(12);
      // and it is not needlessly slow: full bursts of 12 do happen
      expect(maxInAnyWindow(v.times(), 200)).toBe(12);
    });

    it('keeps at most 12 requests in any 1-second window at the real settings', async () => {
      const v = onVirtualClock({}); // the defaults: 12 per 1000 ms, the service's limit
      await v.settle(Promise.all(Array.from({ length: 30 }, (_, i) => v.request(i + 1))));
      const times = v.times();
      expect(times).toHaveLength(30);
      expect(maxInAnyWindow(times, 1000)).toBe(12);
      // 30 requests at 12/s span more than two windows
      expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(2000);
    });

    it('does not keep a slot longer than the window while a slow response is pending', async () => {
      // 3 slow requests (answered after 400 ms) must not stop a 4th from starting after one window of 100 ms.
      const v = onVirtualClock({ perSecond: 3, windowMs: 100, marginMs: 30 });
      await v.settle(Promise.all([1, 2, 3, 4].map((id) => v.request(id, 'interactive', undefined, id < 4 ? 400 : 0))));
      const [a, , , d] = v.times() as [number, number, number, number];
      expect(d - a).toBeGreaterThanOrEqual(100);
      expect(d - a).toBeLessThan(400);
    });
  });

  describe('priorities', () => {
    it('starts an interactive request before the queued bulk ones, and a poller before bulk', async () => {
      const v = onVirtualClock({ perSecond: 2, windowMs: 100, marginMs: 0 });
      const bulk = Array.from({ length: 8 }, (_, i) => v.request(100 + i, 'bulk'));
      const poller = v.request(200, 'poller');
      const interactive = v.request(300, 'interactive');
      await v.settle(Promise.all([...bulk, poller, interactive]));
      // The first bulk request took a free slot at once. Requests start one per turn of the event loop: by the next
      // turn the interactive and poller requests were queued too, and went first; then the rest of bulk.
      expect(v.starts.map((s) => s.id)).toEqual([100, 300, 200, 101, 102, 103, 104, 105, 106, 107]);
    });
  });

  describe('fair share: floors for the poller and uploads, turns for people', () => {
    it('under a flood of commands the poller still gets 3 of 12 slots per window and uploads 1', async () => {
      const v = onVirtualClock({ perSecond: 12, windowMs: 200 });
      // 100 people's requests queued first (ids 1000+), then 9 of the poller (2000+) and 4 of an upload (3000+).
      const flood = Array.from({ length: 100 }, (_, i) => v.request(1000 + i));
      const poller = Array.from({ length: 9 }, (_, i) => v.request(2000 + i, 'poller'));
      const bulk = Array.from({ length: 4 }, (_, i) => v.request(3000 + i, 'bulk'));
      await v.settle(Promise.all([...flood, ...poller, ...bulk]));
      const t0 = Math.min(...v.times());
      const pollerLast = Math.max(...v.times(v.inRange(2000, 3000))) - t0;
      const bulkLast = Math.max(...v.times(v.inRange(3000, 4000))) - t0;
      const floodLast = Math.max(...v.times(v.inRange(1000, 2000))) - t0;
      // The first window went to the flood (nothing else was waiting); then 3 poller requests per window: windows 2-4.
      expect(pollerLast).toBeLessThan(4 * 200);
      // 1 upload request per window: windows 2-5; the flood, 8 per window meanwhile, is still going.
      expect(bulkLast).toBeLessThan(5 * 200);
      expect(floodLast).toBeGreaterThan(bulkLast);
      // People still go first: in each of those windows the flood had 8 slots.
      expect(maxInAnyWindow(v.times(v.inRange(1000, 2000)), 200)).toBeGreaterThanOrEqual(8);
      expect(maxInAnyWindow(v.times(v.inRange(2000, 3000)), 200)).toBeLessThanOrEqual(3 + 1);
      expect(maxInAnyWindow(v.times(), 200)).toBeLessThanOrEqual(12);
    });

    it('with nobody else waiting, people and uploads each get all 12 slots', async () => {
      const v = onVirtualClock({ perSecond: 12, windowMs: 200 });
      await v.settle(Promise.all(Array.from({ length: 24 }, (_, i) => v.request(i + 1, 'bulk'))));
      expect(maxInAnyWindow(v.times(), 200)).toBe(12);
    });

    it("one person's burst holds at most half the slots: another person's request starts at once", async () => {
      const v = onVirtualClock({ perSecond: 12, windowMs: 300 });
      const burst = Array.from({ length: 40 }, (_, i) => v.request(1000 + i, 'interactive', 'U0BURST'));
      await jest.advanceTimersByTimeAsync(50);
      const asked = performance.now();
      let answered = -1;
      const other = Promise.all([v.request(2000, 'interactive', 'U0OTHER'), v.request(2001, 'interactive', 'U0OTHER')]);
      void other.then(() => (answered = performance.now() - asked));
      await v.settle(Promise.all([other, ...burst]));
      expect(answered).toBeGreaterThanOrEqual(0);
      expect(answered).toBeLessThan(150); // not a window (300 ms) or more behind the burst
      // The burst never had more than 6 requests in any window, the service never more than 12.
      expect(maxInAnyWindow(v.times(v.inRange(1000, 2000)), 300)).toBe(6);
      expect(maxInAnyWindow(v.times(), 300)).toBeLessThanOrEqual(12);
    });

    it('people with requests waiting take turns', async () => {
      const v = onVirtualClock({ perSecond: 2, windowMs: 100, marginMs: 0, perPersonSlots: 2 });
      const a = Array.from({ length: 6 }, (_, i) => v.request(100 + i, 'interactive', 'U0A'));
      const b = Array.from({ length: 3 }, (_, i) => v.request(200 + i, 'interactive', 'U0B'));
      const c = v.request(300, 'interactive', 'U0C');
      await v.settle(Promise.all([...a, ...b, c]));
      // A's first two took the free slots; then B, C and A in turns, in order within each person.
      expect(v.starts.map((s) => s.id)).toEqual([100, 101, 200, 300, 102, 201, 103, 202, 104, 105]);
    });
  });

  describe('429 pauses everyone', () => {
    it('counts 429s that answer requests already in flight as one, not as consecutive backoffs', async () => {
      // 6 requests are all on the wire before any answer comes back, then all get 429 without Retry-After; backoff
      // base 200 ms. Escalating for each would pause for up to 200 x 2^5 ms; one event pauses for at most 200 ms.
      // (What the client does with a 429: tells the limiter, then asks again through it.)
      const limiter = new RateLimiter({ perSecond: 12, windowMs: 50, marginMs: 10, backoffBaseMs: 200 });
      virtualLimiters.push(limiter);
      const pauses: { at: number; ms: number }[] = [];
      let allSent!: () => void;
      const allArrived = new Promise<void>((r) => (allSent = r));
      const retried = Array.from({ length: 6 }, (_, i) =>
        limiter
          .schedule('interactive', async () => {
            if (i === 5) allSent();
            await allArrived;
          })
          .then(() => {
            pauses.push({ at: performance.now(), ms: limiter.rateLimited() });
            return limiter.schedule('interactive', async () => performance.now());
          }),
      );
      await jest.runAllTimersAsync();
      const retries = await Promise.all(retried);
      expect(pauses).toHaveLength(6);
      // One pause of half to all of 200 ms; the later 429s are told what is left of it, none a longer backoff.
      const first = pauses[0]!;
      expect(first.ms).toBeGreaterThanOrEqual(100);
      for (const p of pauses) expect(p.ms).toBeLessThanOrEqual(200);
      expect(Math.min(...retries) - first.at).toBeGreaterThanOrEqual(first.ms);
      expect(Math.max(...retries) - first.at).toBeLessThan(1000);
    });
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Through the client and a real HTTP stub, on the real clock

/** A RateLimiter that notes, on its own clocks, when it started each request and when a 429 paused it. */
class RecordedLimiter extends RateLimiter {
  /** Date.now() and performance.now() when each request started (its slot was given). */
  readonly starts: { wall: number; hr: number }[] = [];
  /** Date.now() just before each 429 paused the limiter, and the pause it got. */
  readonly pauses: { from: number; ms: number }[] = [];
  private firstPause!: () => void;
  /** Resolves once a 429 paused the limiter. */
  readonly paused = new Promise<void>((r) => (this.firstPause = r));

  override schedule<T>(priority: Priority, task: () => Promise<T>, signal?: AbortSignal, person?: string): Promise<T> {
    const noted = () => {
      this.starts.push({ wall: Date.now(), hr: performance.now() });
      return task();
    };
    return super.schedule(priority, noted, signal, person);
  }

  override rateLimited(retryAfterMs?: number): number {
    const from = Date.now();
    const ms = super.rateLimited(retryAfterMs);
    this.pauses.push({ from, ms });
    this.firstPause();
    return ms;
  }

  /** Starts given while the pause was on (none may be: it began at `from` or later and lasted at least `ms`). */
  startsDuring(p: { from: number; ms: number }): number[] {
    return this.starts.map((s) => s.wall).filter((t) => t > p.from && t < p.from + p.ms);
  }
}

let stub: Stub;
const clients: OutreachClient[] = [];
const limiters: RateLimiter[] = [];

function setup(opts: RateLimiterOptions): { client: OutreachClient; limiter: RecordedLimiter } {
  const limiter = new RecordedLimiter(opts);
  const client = new OutreachClient({ baseUrl: stub.baseUrl, apiKey: KEY, limiter, retryBaseMs: 5 });
  limiters.push(limiter);
  clients.push(client);
  return { client, limiter };
}

/** Answers GET /campaigns/{id} with that campaign. */
function echoCampaign(): void {
  stub.setHandler((r) => {
    const id = Number(r.path.split('/')[2]);
    return { status: 200, json: { success: true, campaign: campaignDetail({ id }) } };
  });
}

describe('through the client, against an HTTP stub', () => {
  beforeEach(async () => {
    stub = await startStub();
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(limiters.splice(0).map((l) => l.stop()));
    await stub.close();
  });

  it('every request reaches the service, never more than perSecond started in any window (100 callers)', async () => {
    echoCampaign();
    const { client, limiter } = setup({ perSecond: 12, windowMs: 200 });
    const ids = Array.from({ length: 100 }, (_, i) => i + 1);
    const got = await Promise.all(ids.map((id) => client.getCampaign(id, { priority: 'bulk' })));
    expect(got.map((c) => c.id)).toEqual(ids);
    expect(stub.requests).toHaveLength(100);
    expect(limiter.starts).toHaveLength(100);
    expect(
      maxInAnyWindow(
        limiter.starts.map((s) => s.hr),
        200,
      ),
    ).toBeLessThanOrEqual(12);
  });

  it('a 429 with Retry-After: nothing starts during it, then every request finishes', async () => {
    stub.setHandler((r) => {
      if (r.n === 24) {
        return { status: 429, headers: { 'retry-after': '1' }, json: { success: false, error: 'RATE_LIMITED' } };
      }
      return { status: 200, json: { success: true, campaign: campaignDetail({ id: Number(r.path.split('/')[2]) }) } };
    });
    const { client, limiter } = setup({ perSecond: 12, windowMs: 100, marginMs: 10 });
    const ids = Array.from({ length: 60 }, (_, i) => i + 1);
    const got = await Promise.all(ids.map((id) => client.getCampaign(id, { priority: 'poller' })));
    expect(got).toHaveLength(60);
    expect(stub.requests).toHaveLength(61); // one retry
    expect(limiter.starts).toHaveLength(61);
    expect(limiter.pauses).toEqual([{ from: expect.any(Number) as unknown, ms: 1000 }]);
    // Requests already started when the 429 came back were started before it; nothing else until the pause ends.
    expect(limiter.startsDuring(limiter.pauses[0]!)).toEqual([]);
    // the retried request is among those after the pause (everything started after the 429 was, see above)
    const retried = stub.requests.filter((r) => r.path === stub.requests[24]?.path);
    expect(retried).toHaveLength(2);
    expect(limiter.starts.filter((s) => s.wall >= limiter.pauses[0]!.from + 1000).length).toBeGreaterThanOrEqual(1);
    expect(limiter.pausedForMs()).toBe(0);
  });

  it('without Retry-After pauses everyone for an exponential backoff', async () => {
    stub.setHandler((r) => {
      if (r.n === 15) return { status: 429, json: { success: false, error: 'RATE_LIMITED' } };
      return { status: 200, json: { success: true, campaign: campaignDetail() } };
    });
    const { client, limiter } = setup({ perSecond: 12, windowMs: 50, marginMs: 5, backoffBaseMs: 400 });
    await Promise.all(Array.from({ length: 40 }, (_, i) => client.getCampaign(i + 1)));
    // backoff with jitter: between half and all of 400 ms, and nothing started during it
    expect(limiter.pauses).toHaveLength(1);
    const pause = limiter.pauses[0]!;
    expect(pause.ms).toBeGreaterThanOrEqual(200);
    expect(pause.ms).toBeLessThanOrEqual(400);
    expect(limiter.startsDuring(pause)).toEqual([]);
    expect(stub.requests).toHaveLength(41);
  });

  it('pauses the limiter shared by another client of the same key', async () => {
    stub.setHandler((r) => {
      if (r.n === 0) {
        return { status: 429, headers: { 'retry-after': '1' }, json: { success: false, error: 'RATE_LIMITED' } };
      }
      return { status: 200, json: { success: true, campaign: campaignDetail() } };
    });
    const { client: a, limiter } = setup({ perSecond: 12, windowMs: 100 });
    const b = new OutreachClient({ baseUrl: stub.baseUrl, apiKey: KEY, limiter });
    clients.push(b);
    const first = a.getCampaign(1);
    await limiter.paused; // the 429 has been answered
    const other = b.getCampaign(2);
    await Promise.all([first, other]);
    expect(stub.requests).toHaveLength(3);
    const pause = limiter.pauses[0]!;
    expect(pause.ms).toBe(1000);
    // Both b's request and a's retry started once the pause was over.
    expect(limiter.starts).toHaveLength(3);
    for (const s of limiter.starts.slice(1)) expect(s.wall - pause.from).toBeGreaterThanOrEqual(1000);
  });

  describe('queue control', () => {
    it('drops a queued request whose caller aborts: it never reaches the service', async () => {
      echoCampaign();
      const { client, limiter } = setup({ perSecond: 1, windowMs: 200, marginMs: 0 });
      const first = client.getCampaign(1);
      const ac = new AbortController();
      const second = client.getCampaign(2, { signal: ac.signal });
      ac.abort(new Error('user gave up'));
      await expect(second).rejects.toThrow('user gave up');
      await first;
      // The one slot is given back a window after the answer: had the second still been queued, it would start then.
      while (limiter.held() > 0) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setImmediate(r));
      expect(limiter.queued()).toBe(0);
      expect(limiter.started()).toBe(1);
      expect(stub.requests.map((r) => r.path)).toEqual(['/campaigns/1']);
    });

    it('rejects queued requests when stopped', async () => {
      const limiter = new RateLimiter({ perSecond: 1, windowMs: 10_000 });
      const ran: number[] = [];
      const a = limiter.schedule('bulk', async () => ran.push(1));
      const b = limiter.schedule('bulk', async () => ran.push(2));
      await a;
      await limiter.stop();
      await expect(b).rejects.toBeInstanceOf(LimiterStoppedError);
      await expect(limiter.schedule('interactive', async () => 1)).rejects.toBeInstanceOf(LimiterStoppedError);
      expect(ran).toEqual([1]);
    });
  });

  describe('sharedLimiter', () => {
    it('gives one limiter per API key in the process', async () => {
      const a = sharedLimiter('key-a-0000000000');
      const b = sharedLimiter('key-b-0000000000');
      limiters.push(a, b);
      expect(sharedLimiter('key-a-0000000000')).toBe(a);
      expect(b).not.toBe(a);
      // clients built without a limiter use the shared one
      const c = new OutreachClient({ baseUrl: stub.baseUrl, apiKey: 'key-a-0000000000' });
      clients.push(c);
      expect(c.limiter).toBe(a);
      // a stopped limiter leaves the registry
      await a.stop();
      expect(sharedLimiter('key-a-0000000000')).not.toBe(a);
      limiters.push(sharedLimiter('key-a-0000000000'));
    });
  });
});
