/** Simulator: rate limit (429 + Retry-After), fault and latency injection, request log, the /_sim/ HTTP mirror. */
import { CampaignErrorBody, GenericErrorBody } from '../../src/outreach/schemas.js';
import { RATE_LIMITED_ENDPOINTS } from '../../src/outreach/unspecified.js';
import { startSimulator, type Simulator } from '../../src/sim/index.js';
import { apiFor, createCampaign, manualClock, phoneBody, phones, startFixture, type Fixture } from '../support/sim.js';

describe('rate limit', () => {
  it('answers 429 RATE_LIMITED with Retry-After beyond 12 requests in a second', async () => {
    // On a clock the test holds still: the 20 requests fall in one second however long the machine takes for them.
    const clock = manualClock();
    const fx = await startFixture({ clock: clock.now, rateLimitPerSecond: 12 });
    try {
      fx.sim.control.setRateLimit(false);
      const id = await createCampaign(fx, phoneBody(fx));
      fx.sim.control.setRateLimit(12);
      const results = await Promise.all(Array.from({ length: 20 }, () => fx.api.get(`/campaigns/${id}`)));
      const limited = results.filter((r) => r.status === 429);
      expect(results.filter((r) => r.status === 200)).toHaveLength(12);
      expect(limited).toHaveLength(8);
      for (const r of limited) {
        expect(CampaignErrorBody.parse(r.body)).toMatchObject({ success: false, error: 'RATE_LIMITED' });
        const retryAfter = r.headers.get('retry-after') as string;
        expect(retryAfter).toMatch(/^\d+$/);
        expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      }
      // Endpoints outside RATE_LIMITED_ENDPOINTS are not limited.
      const lists = await Promise.all(Array.from({ length: 30 }, () => fx.api.get('/campaigns')));
      expect(lists.every((r) => r.status === 200)).toBe(true);
    } finally {
      await fx.sim.close();
    }
  });

  it('uses a sliding one-second window per API key, counting accepted requests only', async () => {
    const clock = manualClock();
    const sim = await startSimulator({ clock: clock.now, orgs: { k1: 'o', k2: 'o' } });
    try {
      const a = apiFor(sim.baseUrl, 'k1');
      const b = apiFor(sim.baseUrl, 'k2');
      const hit = (api = a) => api.get('/campaigns/1/contacts');
      for (let i = 0; i < 6; i++) expect((await hit()).status).toBe(404);
      clock.advance(500);
      for (let i = 0; i < 6; i++) expect((await hit()).status).toBe(404);
      let r = await hit();
      expect([r.status, r.headers.get('retry-after')]).toEqual([429, '1']);
      expect((await hit(b)).status).toBe(404); // other key, own window
      clock.advance(499); // 999 ms after the first six: still 12 in the window
      expect((await hit()).status).toBe(429);
      clock.advance(1); // the first six leave the window
      for (let i = 0; i < 6; i++) expect((await hit()).status).toBe(404);
      r = await hit();
      expect(r.status).toBe(429);
      sim.control.setRateLimit(false);
      for (let i = 0; i < 30; i++) expect((await hit()).status).toBe(404);
    } finally {
      await sim.close();
    }
  });

  it('limits exactly the endpoints of RATE_LIMITED_ENDPOINTS', async () => {
    const clock = manualClock();
    const fx = await startFixture({ clock: clock.now, rateLimitPerSecond: 1 });
    try {
      fx.sim.control.setRateLimit(false);
      const id = await createCampaign(fx, phoneBody(fx));
      await fx.api.post(`/campaigns/${id}/contacts`, { contacts: [{ contact: phones(1)[0] }] });
      fx.sim.control.setRateLimit(1);
      const eu = (await fx.api.post('/enduser', { display_name: 'x' })).body.id;
      const calls: [string, string, string, unknown?][] = [
        ['createCampaign', 'POST', '/campaigns', phoneBody(fx)],
        ['listCampaigns', 'GET', '/campaigns'],
        ['getCampaign', 'GET', `/campaigns/${id}`],
        ['updateCampaign', 'PATCH', `/campaigns/${id}`, { name: 'y' }],
        ['campaignAction', 'POST', `/campaigns/${id}/archive`],
        ['addContacts', 'POST', `/campaigns/${id}/contacts`, { contacts: [{ contact: phones(1)[0] }] }],
        ['listContacts', 'GET', `/campaigns/${id}/contacts`],
        ['getContact', 'GET', `/campaigns/${id}/contacts/1`],
        ['deleteContact', 'DELETE', `/campaigns/${id}/contacts/99`],
        ['listCampaignCalls', 'GET', `/campaigns/${id}/calls`],
        ['getEndUser', 'GET', `/enduser/${eu}`],
        ['sendMessage', 'POST', '/message', { agent_id: fx.agentId, end_user_id: eu, content: 'x' }],
      ];
      for (const [name, method, path, body] of calls) {
        clock.advance(1000);
        const first = await fx.api.req(method, path, body);
        const second = await fx.api.req(method, path, body);
        expect([name, first.status === 429]).toEqual([name, false]);
        const limited = (RATE_LIMITED_ENDPOINTS as readonly string[]).includes(name);
        expect([name, second.status === 429]).toEqual([name, limited]);
      }
    } finally {
      await fx.sim.close();
    }
  });
});

describe('fault and latency injection', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture();
  });
  afterAll(() => fx.sim.close());
  beforeEach(() => {
    fx.sim.control.clearFaults();
    fx.sim.control.clearRequests();
  });

  it('fails `count` matching requests, then answers normally', async () => {
    const id = await createCampaign(fx, phoneBody(fx));
    fx.sim.control.injectFaults({ status: 503, count: 2, match: new RegExp(`^GET /api/v1.0/campaigns/${id}$`) });
    expect((await fx.api.get('/campaigns')).status).toBe(200); // not matching
    for (let i = 0; i < 2; i++) {
      const r = await fx.api.get(`/campaigns/${id}`);
      expect(r.status).toBe(503);
      expect(r.headers.get('content-type')).toBe('text/html');
      expect(r.body).toContain('503');
    }
    expect((await fx.api.get(`/campaigns/${id}`)).status).toBe(200);
  });

  it('shapes 500 like the route family, 429 with Retry-After, 502 as an HTML gateway page', async () => {
    const id = await createCampaign(fx, phoneBody(fx));
    fx.sim.control.injectFaults([
      { status: 500, match: /campaigns/ },
      { status: 500, match: /enduser/ },
      { status: 429, retryAfter: 7 },
      { status: 502 },
      { status: 503, retryAfter: 3, body: { error: 503, message: 'mantenimiento' } },
    ]);
    const c500 = await fx.api.get(`/campaigns/${id}`);
    expect([c500.status, CampaignErrorBody.parse(c500.body).error]).toEqual([500, 'SERVER_ERROR']);
    const g500 = await fx.api.get('/enduser/x');
    expect([g500.status, GenericErrorBody.parse(g500.body).error]).toEqual([500, 500]);
    const r429 = await fx.api.get('/call/x');
    expect([r429.status, r429.headers.get('retry-after'), r429.body.error]).toEqual([429, '7', 'RATE_LIMITED']);
    const r502 = await fx.api.get('/campaigns');
    expect([r502.status, typeof r502.body]).toEqual([502, 'string']);
    const r503 = await fx.api.get('/campaigns');
    expect([r503.status, r503.headers.get('retry-after'), r503.body]).toEqual([
      503,
      '3',
      { error: 503, message: 'mantenimiento' },
    ]);
    expect((await fx.api.get('/campaigns')).status).toBe(200);
  });

  it('"before" faults do not process the request; "after" faults process it and lose the response', async () => {
    const before = (await fx.api.get('/campaigns')).body.total_count;
    fx.sim.control.injectFaults({ status: 502, match: /^POST \/api\/v1\.0\/campaigns$/ });
    expect((await fx.api.post('/campaigns', phoneBody(fx))).status).toBe(502);
    expect((await fx.api.get('/campaigns')).body.total_count).toBe(before);

    fx.sim.control.injectFaults({ status: 502, when: 'after', match: /^POST \/api\/v1\.0\/campaigns$/ });
    const key = { 'Idempotency-Key': 'retry-me' };
    expect((await fx.api.post('/campaigns', phoneBody(fx), key)).status).toBe(502);
    expect((await fx.api.get('/campaigns')).body.total_count).toBe(before + 1);
    const retry = await fx.api.post('/campaigns', phoneBody(fx), key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect((await fx.api.get('/campaigns')).body.total_count).toBe(before + 1);
  });

  it('injects faults before authentication (a gateway answers first)', async () => {
    fx.sim.control.injectFaults({ status: 503 });
    const r = await apiFor(fx.sim.baseUrl, 'wrong-key').get('/campaigns');
    expect(r.status).toBe(503);
    expect((await apiFor(fx.sim.baseUrl, 'wrong-key').get('/campaigns')).status).toBe(401);
  });

  it('delays matching requests by the set latency', async () => {
    const list = /^GET \/api\/v1\.0\/campaigns$/;
    fx.sim.control.setLatencyMs(200, list);
    const t0 = Date.now();
    await fx.api.get('/campaigns');
    // A lower bound only: a loaded machine makes it longer, never shorter.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(190);
    // 0 removes the rule: a rule of an hour, removed, delays nothing (left in place, it would hold the request past
    // the test's timeout).
    fx.sim.control.setLatencyMs(3_600_000, list);
    fx.sim.control.setLatencyMs(0, list);
    expect((await fx.api.get('/campaigns')).status).toBe(200);
  });

  it("a hold counts a client's retry of a held request once with it (the same Idempotency-Key)", async () => {
    const id = await createCampaign(fx, phoneBody(fx));
    const held = fx.sim.control.hold(new RegExp(`^POST /api/v1\\.0/campaigns/${id}/contacts$`));
    const [first, second] = phones(2);
    const batch = (key: string, contact: string | undefined, signal?: AbortSignal) =>
      fetch(`${fx.sim.baseUrl}/campaigns/${id}/contacts`, {
        method: 'POST',
        headers: {
          Authorization: `api-key ${fx.sim.apiKey}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': key,
        },
        body: JSON.stringify({ contacts: [{ contact }] }),
        ...(signal ? { signal } : {}),
      });
    try {
      // The client stops waiting for its first try (as at its response timeout) and sends it again, with its key.
      const gaveUp = new AbortController();
      const tried = batch('batch-1', first, gaveUp.signal);
      await held.arrived;
      gaveUp.abort();
      await expect(tried).rejects.toThrow();
      const retried = batch('batch-1', first);
      const other = batch('batch-2', second);
      while (held.seen() < 3) await new Promise((r) => setTimeout(r, 5));
      // Two requests wait: the batch (tried twice) and the other one.
      expect(held.held()).toBe(2);
      held.release();
      expect([(await retried).status, (await other).status]).toEqual([200, 200]);
      expect(held.held()).toBe(0);
      expect(fx.sim.control.getCampaignState(id)?.contacts).toHaveLength(2);
    } finally {
      held.release();
    }
  });

  it('records requests without the API key value', async () => {
    const id = await createCampaign(fx, phoneBody(fx));
    fx.sim.control.clearRequests();
    await fx.api.post(
      `/campaigns/${id}/contacts`,
      { contacts: [{ contact: phones(1)[0] }] },
      { 'Idempotency-Key': 'k' },
    );
    await fx.api.get(`/campaigns/${id}/contacts?page=0&status=queue`);
    await apiFor(fx.sim.baseUrl, null).get('/campaigns');
    const log = fx.sim.control.requests();
    expect(log).toHaveLength(3);
    expect(log[0]).toMatchObject({
      method: 'POST',
      path: `/api/v1.0/campaigns/${id}/contacts`,
      query: {},
      body: { contacts: [{ contact: phones(1)[0] }] },
      status: 200,
      route: 'addContacts',
      org: 'org-sim',
      replayed: false,
    });
    expect(log[0]?.headers['idempotency-key']).toBe('k');
    expect(log[0]?.headers.authorization).toBe('api-key [redacted]');
    expect(JSON.stringify(log)).not.toContain(fx.sim.apiKey);
    expect(log[1]).toMatchObject({ method: 'GET', query: { page: '0', status: 'queue' }, route: 'listContacts' });
    expect(log[2]).toMatchObject({ status: 401, org: null });
    fx.sim.control.clearRequests();
    expect(fx.sim.control.requests()).toEqual([]);
  });
});

describe('/_sim/ HTTP control mirror', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ rateLimitPerSecond: false });
  });
  afterAll(() => sim.close());
  const control = async (method: string, name: string, body?: unknown) => {
    const r = await fetch(`${sim.origin}/_sim/${name}`, {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json()) as { result?: any; error?: string } }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };

  it('sets up agents and campaigns, injects faults and reads the log over HTTP', async () => {
    const info = await control('GET', '');
    expect(info.body.result).toMatchObject({ baseUrl: sim.baseUrl, apiKey: sim.apiKey });
    expect(info.body.result.methods).toContain('injectFaults');

    const agent = (await control('POST', 'addAgent', { name: 'Vía HTTP' })).body.result;
    const integ = (await control('POST', 'addIntegration', { agentId: agent.id, type: 'phone_call' })).body.result;
    const api = apiFor(sim.baseUrl, sim.apiKey);
    const created = await api.post('/campaigns', {
      name: 'x',
      agent_id: agent.id,
      integration_id: integ.id,
      integration_type: 'phone_call',
    });
    expect(created.status).toBe(201);
    const id = created.body.campaign.id;
    await api.post(`/campaigns/${id}/contacts`, { contacts: [{ contact: phones(1)[0] }] });
    expect((await control('POST', 'createCall', [id, { status: 'ended', duration: 30 }])).status).toBe(200);
    expect((await control('GET', `campaigns/${id}`)).body.result.calls).toHaveLength(1);

    expect((await control('POST', 'injectFaults', { status: 503, match: '^GET .*/campaigns$' })).status).toBe(200);
    expect((await api.get(`/campaigns/${id}`)).status).toBe(200);
    expect((await api.get('/campaigns')).status).toBe(503);

    await control('POST', 'setAgentReply', { reply: ['uno', 'dos'] });
    const eu = (await api.post('/enduser', { display_name: 'x' })).body;
    const sent = await api.post('/message', { agent_id: agent.id, end_user_id: eu.id, content: 'hola' });
    expect(sent.body.messages.map((m: { content: string }) => m.content)).toEqual(['uno', 'dos']);

    const log = (await control('GET', 'requests')).body.result;
    expect(log.length).toBeGreaterThan(3);
    expect(log.every((r: { path: string }) => !r.path.startsWith('/_sim'))).toBe(true);
    await control('DELETE', 'requests');
    expect((await control('GET', 'requests')).body.result).toEqual([]);

    expect((await control('POST', 'nope')).status).toBe(404);
    expect((await control('POST', 'createCall', [9999])).status).toBe(400);
    expect((await control('POST', 'reset')).status).toBe(200);
    expect((await api.get('/campaigns')).body.total_count).toBe(0);
  });
});
