/**
 * The shared rate limiter, checked where it matters: at the server. Request arrival times are recorded by a real
 * HTTP stub and every window is checked.
 */
import { OutreachClient } from '../../src/outreach/client.js';
import {
  LimiterStoppedError,
  RateLimiter,
  sharedLimiter,
  type RateLimiterOptions,
} from '../../src/outreach/limiter.js';
import { onBehalfOf } from '../../src/outreach/onBehalf.js';
import { campaignDetail, maxInAnyWindow, startStub, type Stub } from '../support/stubOutreach.js';

const KEY = 'limiter-test-key-0123456789';

let stub: Stub;
const clients: OutreachClient[] = [];
const limiters: RateLimiter[] = [];

function setup(opts: RateLimiterOptions): { client: OutreachClient; limiter: RateLimiter } {
  const limiter = new RateLimiter(opts);
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

beforeEach(async () => {
  stub = await startStub();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(limiters.splice(0).map((l) => l.stop()));
  await stub.close();
});

describe('sliding window', () => {
  it('lets no window hold more than perSecond requests under 100 concurrent callers (fast constants)', async () => {
    echoCampaign();
    const { client } = setup({ perSecond: 12, windowMs: 200 });
    const ids = Array.from({ length: 100 }, (_, i) => i + 1);
    const got = await Promise.all(ids.map((id) => client.getCampaign(id, { priority: 'bulk' })));
    expect(got.map((c) => c.id)).toEqual(ids);
    expect(stub.requests).toHaveLength(100);
    const times = stub.requests.map((r) => r.at);
    expect(maxInAnyWindow(times, 200)).toBeLessThanOrEqual(12);
    // and it is not needlessly slow: full bursts of 12 do happen
    expect(maxInAnyWindow(times, 200)).toBe(12);
  });

  it('keeps at most 12 requests in any 1-second window at the real settings', async () => {
    echoCampaign();
    const { client } = setup({}); // the defaults: 12 per 1000 ms, the service's limit
    const ids = Array.from({ length: 30 }, (_, i) => i + 1);
    await Promise.all(ids.map((id) => client.getCampaign(id)));
    const times = stub.requests.map((r) => r.at);
    expect(times).toHaveLength(30);
    expect(maxInAnyWindow(times, 1000)).toBe(12);
    // 30 requests at 12/s span more than two windows
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(2000);
  });

  it('does not keep a slot longer than the window while a slow response is pending', async () => {
    // 3 slow requests (held 400 ms at the server) must not stop a 4th from starting after one window of 100 ms.
    stub.setHandler((r) => ({
      status: 200,
      json: { success: true, campaign: campaignDetail({ id: Number(r.path.split('/')[2]) }) },
      delayMs: r.n < 3 ? 400 : 0,
    }));
    // marginMs 30: the stub notes a request's arrival, which a loaded machine delays by more than 10 ms.
    const { client } = setup({ perSecond: 3, windowMs: 100, marginMs: 30 });
    await Promise.all([1, 2, 3, 4].map((id) => client.getCampaign(id)));
    const [a, , , d] = stub.requests.map((r) => r.at) as [number, number, number, number];
    expect(d - a).toBeGreaterThanOrEqual(100);
    expect(d - a).toBeLessThan(400);
  });
});

describe('priorities', () => {
  it('starts an interactive request before the queued bulk ones, and a poller before bulk', async () => {
    echoCampaign();
    const { client } = setup({ perSecond: 2, windowMs: 100, marginMs: 0 });
    const bulk = Array.from({ length: 8 }, (_, i) => client.getCampaign(100 + i, { priority: 'bulk' }));
    const poller = client.getCampaign(200, { priority: 'poller' });
    const interactive = client.getCampaign(300, { priority: 'interactive' });
    await Promise.all([...bulk, poller, interactive]);
    const order = stub.requests.map((r) => Number(r.path.split('/')[2]));
    // The first bulk request took a free slot at once. Requests start one per turn of the event loop: by the next
    // turn the interactive and poller requests were queued too, and went first; then the rest of bulk.
    expect(order).toEqual([100, 300, 200, 101, 102, 103, 104, 105, 106, 107]);
  });
});

describe('fair share: floors for the poller and uploads, turns for people', () => {
  const idOf = (r: { path: string }) => Number(r.path.split('/')[2]);
  const arrivals = (lo: number, hi: number) => stub.requests.filter((r) => idOf(r) >= lo && idOf(r) < hi);

  it('under a flood of commands the poller still gets 3 of 12 slots per window and uploads 1', async () => {
    echoCampaign();
    const { client } = setup({ perSecond: 12, windowMs: 200 });
    // 100 people's requests queued first (ids 1000+), then 9 of the poller (2000+) and 4 of an upload (3000+).
    const flood = Array.from({ length: 100 }, (_, i) => client.getCampaign(1000 + i));
    const poller = Array.from({ length: 9 }, (_, i) => client.getCampaign(2000 + i, { priority: 'poller' }));
    const bulk = Array.from({ length: 4 }, (_, i) => client.getCampaign(3000 + i, { priority: 'bulk' }));
    await Promise.all([...flood, ...poller, ...bulk]);
    const t0 = Math.min(...stub.requests.map((r) => r.at));
    const pollerLast = Math.max(...arrivals(2000, 3000).map((r) => r.at)) - t0;
    const bulkLast = Math.max(...arrivals(3000, 4000).map((r) => r.at)) - t0;
    const floodLast = Math.max(...arrivals(1000, 2000).map((r) => r.at)) - t0;
    // The first window went to the flood (nothing else was waiting); then 3 poller requests per window: windows 2-4.
    expect(pollerLast).toBeLessThan(4 * 200);
    // 1 upload request per window: windows 2-5; the flood, 8 per window meanwhile, is still going.
    expect(bulkLast).toBeLessThan(5 * 200);
    expect(floodLast).toBeGreaterThan(bulkLast);
    // People still go first: in each of those windows the flood had 8 slots.
    expect(
      maxInAnyWindow(
        arrivals(1000, 2000).map((r) => r.at),
        200,
      ),
    ).toBeGreaterThanOrEqual(8);
    expect(
      maxInAnyWindow(
        arrivals(2000, 3000).map((r) => r.at),
        200,
      ),
    ).toBeLessThanOrEqual(3 + 1);
    expect(
      maxInAnyWindow(
        stub.requests.map((r) => r.at),
        200,
      ),
    ).toBeLessThanOrEqual(12);
  });

  it('with nobody else waiting, people and uploads each get all 12 slots', async () => {
    echoCampaign();
    const { client } = setup({ perSecond: 12, windowMs: 200 });
    await Promise.all(Array.from({ length: 24 }, (_, i) => client.getCampaign(i + 1, { priority: 'bulk' })));
    expect(
      maxInAnyWindow(
        stub.requests.map((r) => r.at),
        200,
      ),
    ).toBe(12);
  });

  it("one person's burst holds at most half the slots: another person's request starts at once", async () => {
    echoCampaign();
    const { client } = setup({ perSecond: 12, windowMs: 300 });
    const burst = onBehalfOf('U0BURST', () => Array.from({ length: 40 }, (_, i) => client.getCampaign(1000 + i)));
    await new Promise((r) => setTimeout(r, 50));
    const asked = performance.now();
    const other = onBehalfOf('U0OTHER', () => [client.getCampaign(2000), client.getCampaign(2001)]);
    await Promise.all(other);
    const answered = performance.now() - asked;
    expect(answered).toBeLessThan(150); // not a window (300 ms) or more behind the burst
    await Promise.all(burst);
    // The burst never had more than 6 requests in any window, the service never more than 12.
    expect(
      maxInAnyWindow(
        arrivals(1000, 2000).map((r) => r.at),
        300,
      ),
    ).toBe(6);
    expect(
      maxInAnyWindow(
        stub.requests.map((r) => r.at),
        300,
      ),
    ).toBeLessThanOrEqual(12);
  });

  it('people with requests waiting take turns', async () => {
    echoCampaign();
    const { client } = setup({ perSecond: 2, windowMs: 100, marginMs: 0, perPersonSlots: 2 });
    const a = onBehalfOf('U0A', () => Array.from({ length: 6 }, (_, i) => client.getCampaign(100 + i)));
    const b = onBehalfOf('U0B', () => Array.from({ length: 3 }, (_, i) => client.getCampaign(200 + i)));
    const c = onBehalfOf('U0C', () => client.getCampaign(300));
    await Promise.all([...a, ...b, c]);
    // A's first two took the free slots; then B, C and A in turns, in order within each person.
    expect(stub.requests.map(idOf)).toEqual([100, 101, 200, 300, 102, 201, 103, 202, 104, 105]);
  });
});

describe('429 pauses everyone', () => {
  it('sends nothing during Retry-After, then finishes every request', async () => {
    let t429 = 0;
    stub.setHandler((r) => {
      if (r.n === 24) {
        t429 = r.at;
        return { status: 429, headers: { 'retry-after': '1' }, json: { success: false, error: 'RATE_LIMITED' } };
      }
      return { status: 200, json: { success: true, campaign: campaignDetail({ id: Number(r.path.split('/')[2]) }) } };
    });
    const { client, limiter } = setup({ perSecond: 12, windowMs: 100, marginMs: 10 });
    const ids = Array.from({ length: 60 }, (_, i) => i + 1);
    const got = await Promise.all(ids.map((id) => client.getCampaign(id, { priority: 'poller' })));
    expect(got).toHaveLength(60);
    expect(stub.requests).toHaveLength(61); // one retry
    expect(t429).toBeGreaterThan(0);
    // Requests already on the wire when the 429 came back land within a few ms; nothing else until the pause ends.
    const during = stub.requests.filter((r) => r.at > t429 + 30 && r.at < t429 + 990);
    expect(during).toEqual([]);
    // the retried request is among those after the pause
    const retried = stub.requests.filter((r) => r.path === stub.requests[24]?.path);
    expect(retried).toHaveLength(2);
    expect((retried[1]?.at ?? 0) - t429).toBeGreaterThanOrEqual(990);
    expect(limiter.pausedForMs()).toBe(0);
  });

  it('without Retry-After pauses everyone for an exponential backoff', async () => {
    let t429 = 0;
    stub.setHandler((r) => {
      if (r.n === 15) {
        t429 = r.at;
        return { status: 429, json: { success: false, error: 'RATE_LIMITED' } };
      }
      return { status: 200, json: { success: true, campaign: campaignDetail() } };
    });
    const { client } = setup({ perSecond: 12, windowMs: 50, marginMs: 5, backoffBaseMs: 400 });
    await Promise.all(Array.from({ length: 40 }, (_, i) => client.getCampaign(i + 1)));
    // backoff with jitter: between half and all of 400 ms
    const during = stub.requests.filter((r) => r.at > t429 + 30 && r.at < t429 + 190);
    expect(during).toEqual([]);
    expect(stub.requests).toHaveLength(41);
  });

  it('counts 429s that answer requests already in flight as one, not as consecutive backoffs', async () => {
    // 6 requests are all on the wire before any answer comes back, then all get 429 without Retry-After; backoff
    // base 200 ms. Escalating for each would pause for up to 200 x 2^5 ms; one event pauses for at most 200 ms.
    let release: () => void = () => undefined;
    const allArrived = new Promise<void>((r) => (release = r));
    stub.setHandler(async (r) => {
      if (r.n >= 6) return { status: 200, json: { success: true, campaign: campaignDetail() } };
      if (r.n === 5) release();
      await allArrived;
      return { status: 429, json: { success: false, error: 'RATE_LIMITED' } };
    });
    const { client } = setup({ perSecond: 12, windowMs: 50, marginMs: 10, backoffBaseMs: 200 });
    await Promise.all(Array.from({ length: 6 }, (_, i) => client.getCampaign(i + 1)));
    const lastFirst = Math.max(...stub.requests.slice(0, 6).map((r) => r.at));
    const retries = stub.requests.slice(6).map((r) => r.at);
    expect(retries).toHaveLength(6);
    expect(Math.min(...retries) - lastFirst).toBeGreaterThanOrEqual(90); // paused: at least half of 200 ms
    expect(Math.max(...retries) - lastFirst).toBeLessThan(1000);
  });

  it('pauses the limiter shared by another client of the same key', async () => {
    let t429 = 0;
    stub.setHandler((r) => {
      if (r.n === 0) {
        t429 = r.at;
        return { status: 429, headers: { 'retry-after': '1' }, json: { success: false, error: 'RATE_LIMITED' } };
      }
      return { status: 200, json: { success: true, campaign: campaignDetail() } };
    });
    const { client: a, limiter } = setup({ perSecond: 12, windowMs: 100 });
    const b = new OutreachClient({ baseUrl: stub.baseUrl, apiKey: KEY, limiter });
    clients.push(b);
    const first = a.getCampaign(1);
    await new Promise((r) => setTimeout(r, 100)); // the 429 has been answered
    const other = b.getCampaign(2);
    await Promise.all([first, other]);
    expect(stub.requests).toHaveLength(3);
    for (const r of stub.requests.slice(1)) expect(r.at - t429).toBeGreaterThanOrEqual(990);
  });
});

describe('queue control', () => {
  it('drops a queued request whose caller aborts: it never reaches the service', async () => {
    echoCampaign();
    const { client } = setup({ perSecond: 1, windowMs: 200, marginMs: 0 });
    const first = client.getCampaign(1);
    const ac = new AbortController();
    const second = client.getCampaign(2, { signal: ac.signal });
    ac.abort(new Error('user gave up'));
    await expect(second).rejects.toThrow('user gave up');
    await first;
    await new Promise((r) => setTimeout(r, 250));
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
