/** Simulator: campaign create / retrieve / update / list over real HTTP, auth, org scoping and unknown routes. */
import { CampaignEnvelope, CampaignErrorBody, CampaignList, GenericErrorBody } from '../../src/outreach/schemas.js';
import { startSimulator } from '../../src/sim/index.js';
import {
  apiFor,
  createCampaign,
  manualClock,
  phoneBody,
  seedAgent,
  startFixture,
  waBody,
  type Fixture,
} from '../support/sim.js';

let fx: Fixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(() => fx.sim.close());
beforeEach(() => {
  fx.sim.control.reset();
  seedAgent(fx);
});

const hours = { startTime: '09:00', stopTime: '18:00', active: true };

describe('POST /campaigns', () => {
  it('creates a phone campaign with the defaults of the spec', async () => {
    const r = await fx.api.post('/campaigns', phoneBody(fx));
    expect(r.status).toBe(201);
    const { success, campaign } = CampaignEnvelope.parse(r.body);
    expect(success).toBe(true);
    expect(campaign).toMatchObject({
      name: 'Cobranza marzo',
      status: 'pending',
      integration: { id: fx.phoneId, type: 'phone_call' },
      agent: { id: fx.agentId, name: 'Ana Torres' },
      retries: 1,
      message_limit: 250,
      timezone: 'America/Mexico_City',
      cycles: { enabled: false },
      archived: false,
    });
    expect(campaign.analytics).toBeUndefined();
    expect(Number.isNaN(Date.parse(campaign.created_at))).toBe(false);
  });

  it('creates a WhatsApp campaign with templates and a schedule', async () => {
    const r = await fx.api.post(
      '/campaigns',
      waBody(fx, {
        template: 'promo',
        template_alt: 'promo_b',
        timezone: 'Europe/Madrid',
        scheduling: { mon: hours, sat: { startTime: '10:00:00', stopTime: '14:00:00', active: false } },
      }),
    );
    expect(r.status).toBe(201);
    expect(r.body.campaign).toMatchObject({
      integration: { type: 'whatsapp' },
      template: 'promo',
      template_alt: 'promo_b',
      timezone: 'Europe/Madrid',
      scheduling: { mon: hours, sat: { startTime: '10:00:00', active: false } },
    });
  });

  it('answers the campaign envelope naming the first missing field, in the order of the body table', async () => {
    let r = await fx.api.post('/campaigns', {});
    expect([r.status, r.body]).toEqual([
      400,
      { success: false, error: 'INVALID_REQUEST', message: 'name: This field is required.', field: 'name' },
    ]);
    r = await fx.api.post('/campaigns', { name: 'x', agent_id: fx.agentId });
    expect(r.body).toMatchObject({ error: 'INVALID_REQUEST', field: 'integration_id' });
    r = await fx.api.post('/campaigns', { name: 'x', agent_id: fx.agentId, integration_id: fx.phoneId });
    expect(r.body).toMatchObject({ error: 'INVALID_REQUEST', field: 'integration_type' });
  });

  it('answers the campaign envelope without a field for malformed JSON and non-object bodies', async () => {
    for (const bad of ['{"name": ', '[1,2]', '"x"']) {
      const r = await fx.api.post('/campaigns', bad);
      expect(r.status).toBe(400);
      expect(CampaignErrorBody.parse(r.body)).toMatchObject({ success: false, error: 'INVALID_REQUEST' });
      expect(r.body.message).toEqual(expect.any(String));
      expect(r.body).not.toHaveProperty('field');
      expect(r.body).not.toHaveProperty('non_field_errors');
    }
  });

  it.each([
    ['name', 'x'.repeat(256), 'x'.repeat(255)],
    ['name', '   ', 'ok'],
    ['retries', -1, 0],
    ['retries', 6, 5],
    ['retries', 2.5, 2],
    ['retries', '2', 3],
    ['message_limit', 0, 1],
    ['message_limit', 10001, 10000],
    ['timezone', 'Mars/Olympus', 'America/Bogota'],
    ['timezone', 'not a zone', 'UTC'],
  ])('rejects a bad %s (case %#) and accepts a value at its limit', async (field, bad, good) => {
    const r = await fx.api.post('/campaigns', phoneBody(fx, { [field]: bad }));
    expect(r.status).toBe(400);
    expect(Object.keys(r.body).sort()).toEqual(['error', 'field', 'message', 'success']);
    expect(r.body).toMatchObject({ success: false, error: 'INVALID_REQUEST', field });
    expect(r.body.message).toMatch(new RegExp(`^${field}: \\S`));
    const okRes = await fx.api.post('/campaigns', phoneBody(fx, { [field]: good }));
    expect(okRes.status).toBe(201);
    expect(okRes.body.campaign[field]).toBe(good);
  });

  it.each([
    [{ mon: { startTime: '9am', stopTime: '18:00', active: true } }, 'scheduling.mon.startTime'],
    [{ mon: { startTime: '09:00', stopTime: '24:00', active: true } }, 'scheduling.mon.stopTime'],
    [{ mon: { startTime: '18:00', stopTime: '09:00', active: true } }, 'scheduling.mon'],
    [{ mon: { startTime: '09:00', stopTime: '18:00' } }, 'scheduling.mon.active'],
    [{ monday: hours }, 'scheduling.monday'],
    [[hours], 'scheduling'],
  ])('rejects schedule %j at %s', async (scheduling, field) => {
    const r = await fx.api.post('/campaigns', phoneBody(fx, { scheduling }));
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, error: 'INVALID_REQUEST', field });
  });

  it('rejects a field exclusive to the other channel with INVALID_REQUEST naming it', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [waBody(fx, { first_message: 'Hola' }), 'first_message'],
      [phoneBody(fx, { template: 't' }), 'template'],
      [phoneBody(fx, { template_alt: 't2' }), 'template_alt'],
    ];
    for (const [body, field] of cases) {
      const r = await fx.api.post('/campaigns', body);
      expect(r.status).toBe(400);
      expect(CampaignErrorBody.parse(r.body)).toMatchObject({ success: false, error: 'INVALID_REQUEST', field });
      expect(r.body.message).toContain(field);
    }
  });

  it('rejects an unsupported integration type, and one not matching the integration', async () => {
    let r = await fx.api.post('/campaigns', phoneBody(fx, { integration_type: 'sms' }));
    expect([r.status, r.body.error]).toEqual([400, 'INVALID_INTEGRATION_TYPE']);
    r = await fx.api.post('/campaigns', phoneBody(fx, { integration_type: 'whatsapp' }));
    expect([r.status, r.body.error]).toEqual([400, 'INVALID_INTEGRATION_TYPE']);
  });

  it('answers 404 AGENT_NOT_FOUND / INTEGRATION_NOT_FOUND (the integration must belong to the agent)', async () => {
    let r = await fx.api.post('/campaigns', phoneBody(fx, { agent_id: '00000000-0000-4000-8000-000000000000' }));
    expect([r.status, r.body.error]).toEqual([404, 'AGENT_NOT_FOUND']);
    r = await fx.api.post('/campaigns', phoneBody(fx, { integration_id: 'nope' }));
    expect([r.status, r.body.error]).toEqual([404, 'INTEGRATION_NOT_FOUND']);
    const other = fx.sim.control.addAgent({ name: 'Otro' });
    const foreign = fx.sim.control.addIntegration({ agentId: other.id, type: 'phone_call' });
    r = await fx.api.post('/campaigns', phoneBody(fx, { integration_id: foreign.id }));
    expect([r.status, r.body.error]).toEqual([404, 'INTEGRATION_NOT_FOUND']);
    // An agent of another organization does not exist for this one.
    const outsider = fx.sim.control.addAgent({ name: 'Fuera', org: 'org-other' });
    r = await fx.api.post('/campaigns', phoneBody(fx, { agent_id: outsider.id }));
    expect([r.status, r.body.error]).toEqual([404, 'AGENT_NOT_FOUND']);
  });

  describe('cycles', () => {
    it('defaults the mode to cooldown and hides filter_tags on the detail (the list shows them)', async () => {
      const r = await fx.api.post(
        '/campaigns',
        phoneBody(fx, {
          cycles: {
            enabled: true,
            max_iterations: 3,
            cooldown_minutes: 0,
            filter_statuses: ['converted'],
            filter_tags: ['tag-1'],
          },
        }),
      );
      expect(r.status).toBe(201);
      expect(r.body.campaign.cycles).toEqual({
        enabled: true,
        mode: 'cooldown',
        max_iterations: 3,
        cooldown_minutes: 0,
        filter_statuses: ['converted'],
        schedule: null,
        schedule_start_date: null,
        schedule_end_date: null,
      });
      const list = await fx.api.get('/campaigns');
      expect(list.body.campaigns[0]).toMatchObject({
        cycle_enabled: true,
        cycle_max_iterations: 3,
        cycle_cooldown_minutes: 0,
        cycle_filter_statuses: ['converted'],
        cycle_filter_tags: ['tag-1'],
        cycle_current_iteration: 0,
      });
    });

    it('accepts the scheduled mode with its schedule and dates', async () => {
      const cycles = {
        enabled: true,
        mode: 'scheduled',
        max_iterations: 12,
        cooldown_minutes: 1440,
        schedule: { tue: hours },
        schedule_start_date: '2026-04-01',
        schedule_end_date: '2026-04-30',
      };
      const r = await fx.api.post('/campaigns', phoneBody(fx, { cycles }));
      expect(r.status).toBe(201);
      const { filter_tags: _f, ...shown } = { ...cycles, filter_statuses: [], filter_tags: [] };
      expect(r.body.campaign.cycles).toEqual(shown);
    });

    it.each([
      [{ max_iterations: 1 }, 'cycles.max_iterations'],
      [{ max_iterations: 13 }, 'cycles.max_iterations'],
      [{ cooldown_minutes: -1 }, 'cycles.cooldown_minutes'],
      [{ cooldown_minutes: 1441 }, 'cycles.cooldown_minutes'],
      [{ mode: 'weekly' }, 'cycles.mode'],
      [{ filter_statuses: 'converted' }, 'cycles.filter_statuses'],
      [{ mode: 'scheduled', schedule_start_date: '01/04/2026' }, 'cycles.schedule_start_date'],
    ])('rejects %j with INVALID_REQUEST naming %s', async (extra, field) => {
      const r = await fx.api.post('/campaigns', phoneBody(fx, { cycles: { enabled: true, ...extra } }));
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ success: false, error: 'INVALID_REQUEST', field });
    });

    it('rejects schedule fields in cooldown mode (explicit or default) with SCHEDULED_MODE_ONLY', async () => {
      for (const [cycles, field] of [
        [{ enabled: true, mode: 'cooldown', schedule: { mon: hours } }, 'cycles.schedule'],
        [{ enabled: true, schedule_start_date: '2026-04-01' }, 'cycles.schedule_start_date'],
        [{ enabled: true, mode: 'cooldown', schedule_end_date: '2026-04-01' }, 'cycles.schedule_end_date'],
      ] as const) {
        const r = await fx.api.post('/campaigns', phoneBody(fx, { cycles }));
        expect(r.status).toBe(400);
        expect(r.body).toMatchObject({ success: false, error: 'SCHEDULED_MODE_ONLY', field });
      }
    });

    it('rejects cycles on WhatsApp, unknown filter statuses and empty filter tags', async () => {
      let r = await fx.api.post('/campaigns', waBody(fx, { cycles: { enabled: true } }));
      expect(r.body).toMatchObject({ error: 'INVALID_REQUEST', field: 'cycles' });
      r = await fx.api.post('/campaigns', phoneBody(fx, { cycles: { enabled: true, filter_statuses: ['gone'] } }));
      expect([r.status, r.body.error, r.body.field]).toEqual([400, 'INVALID_STATUS', 'cycles.filter_statuses']);
      r = await fx.api.post('/campaigns', phoneBody(fx, { cycles: { enabled: true, filter_tags: [''] } }));
      expect([r.status, r.body.error]).toEqual([400, 'INVALID_FILTER_TAG']);
    });

    it('ignores the rest of the block when cycles are not enabled', async () => {
      const r = await fx.api.post('/campaigns', waBody(fx, { cycles: { enabled: false, max_iterations: 99 } }));
      expect(r.status).toBe(201);
      expect(r.body.campaign.cycles).toMatchObject({ enabled: false, max_iterations: null });
    });
  });
});

describe('GET /campaigns/{id}', () => {
  it('retrieves a campaign; unknown ids and other organizations get 404 NOT_FOUND', async () => {
    const id = await createCampaign(fx, phoneBody(fx));
    const r = await fx.api.get(`/campaigns/${id}`);
    expect(r.status).toBe(200);
    expect(CampaignEnvelope.parse(r.body).campaign.id).toBe(id);
    for (const path of ['/campaigns/999', '/campaigns/abc']) {
      const miss = await fx.api.get(path);
      expect(miss.status).toBe(404);
      expect(CampaignErrorBody.parse(miss.body).error).toBe('NOT_FOUND');
    }
  });

  it('scopes data per organization (one key per org)', async () => {
    const sim = await startSimulator({ orgs: { 'key-a': 'org-a', 'key-b': 'org-b' }, rateLimitPerSecond: false });
    try {
      const a = apiFor(sim.baseUrl, 'key-a');
      const b = apiFor(sim.baseUrl, 'key-b');
      expect(sim.apiKey).toBe('key-a');
      const agent = sim.control.addAgent({ name: 'A', org: 'org-a' });
      const integ = sim.control.addIntegration({ agentId: agent.id, type: 'phone_call' });
      const body = { name: 'x', agent_id: agent.id, integration_id: integ.id, integration_type: 'phone_call' };
      const created = await a.post('/campaigns', body);
      expect(created.status).toBe(201);
      const id = created.body.campaign.id;
      expect((await a.get(`/campaigns/${id}`)).status).toBe(200);
      expect((await b.get(`/campaigns/${id}`)).status).toBe(404);
      expect((await b.patch(`/campaigns/${id}`, { name: 'y' })).status).toBe(404);
      expect((await b.post(`/campaigns/${id}/activate`)).status).toBe(404);
      expect((await b.get(`/campaigns/${id}/contacts`)).status).toBe(404);
      expect((await b.get('/campaigns')).body.total_count).toBe(0);
      expect((await a.get('/campaigns')).body.total_count).toBe(1);
      // org-b cannot use org-a's agent either.
      expect((await b.post('/campaigns', body)).body.error).toBe('AGENT_NOT_FOUND');
    } finally {
      await sim.close();
    }
  });
});

describe('authentication and unknown routes', () => {
  it('answers 401 with the generic envelope without a valid "api-key <key>" header', async () => {
    const cases: Record<string, string>[] = [
      {},
      { Authorization: 'api-key wrong' },
      { Authorization: `Bearer ${fx.sim.apiKey}` },
      { Authorization: fx.sim.apiKey },
    ];
    const anon = apiFor(fx.sim.baseUrl, null);
    for (const headers of cases) {
      for (const path of ['/campaigns', '/call/x', '/enduser/x']) {
        const r = await anon.get(path, headers);
        expect(r.status).toBe(401);
        expect(GenericErrorBody.parse(r.body).error).toBe(401);
        expect(r.body.message).toMatch(/api-key/i);
      }
    }
  });

  it('answers 404 (generic) for unknown paths and 405 for a known path with another method', async () => {
    let r = await fx.api.get('/nothing-here');
    expect([r.status, r.body.error]).toEqual([404, 404]);
    r = await apiFor(fx.sim.origin, fx.sim.apiKey).get('/api/v2/campaigns');
    expect([r.status, r.body.error]).toEqual([404, 404]);
    r = await fx.api.req('DELETE', '/campaigns');
    expect([r.status, r.body.error]).toEqual([405, 405]);
    expect(r.headers.get('allow')).toBe('POST, GET');
  });

  it('accepts a trailing slash', async () => {
    expect((await fx.api.get('/campaigns/')).status).toBe(200);
  });
});

describe('PATCH /campaigns/{id}', () => {
  it('updates the settable fields and returns the detail', async () => {
    const id = await createCampaign(fx, phoneBody(fx, { scheduling: { mon: hours } }));
    const r = await fx.api.patch(`/campaigns/${id}`, {
      name: 'Nuevo nombre',
      description: 'd',
      timezone: 'America/Monterrey',
      retries: 0,
      message_limit: 10000,
      first_message: 'Hola',
      scheduling: { fri: hours },
    });
    expect(r.status).toBe(200);
    expect(CampaignEnvelope.parse(r.body).campaign).toMatchObject({
      name: 'Nuevo nombre',
      description: 'd',
      timezone: 'America/Monterrey',
      retries: 0,
      message_limit: 10000,
      first_message: 'Hola',
      scheduling: { fri: hours },
    });
    expect(r.body.campaign.scheduling.mon).toBeUndefined();
    expect((await fx.api.get(`/campaigns/${id}`)).body.campaign.name).toBe('Nuevo nombre');
  });

  it.each([
    [{ agent_id: 'x' }, 'agent_id'],
    [{ integration_id: 'x' }, 'integration_id'],
    [{ integration_type: 'phone_call' }, 'integration_type'],
    [{ cycles: { enabled: true } }, 'cycles.enabled'],
    [{ cycles: { mode: 'scheduled' } }, 'cycles.mode'],
  ])('rejects %j with IMMUTABLE_FIELD naming %s', async (patch, field) => {
    const id = await createCampaign(fx, phoneBody(fx, { cycles: { enabled: true } }));
    const r = await fx.api.patch(`/campaigns/${id}`, patch);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, error: 'IMMUTABLE_FIELD', field });
  });

  it('applies the create rules: ranges, channel-exclusive fields, cycles', async () => {
    const plain = await createCampaign(fx, phoneBody(fx));
    let r = await fx.api.patch(`/campaigns/${plain}`, { retries: 9 });
    expect([r.status, r.body.error, r.body.field]).toEqual([400, 'INVALID_REQUEST', 'retries']);
    r = await fx.api.patch(`/campaigns/${plain}`, { name: '' });
    expect(r.body).toMatchObject({ error: 'INVALID_REQUEST', field: 'name' });
    r = await fx.api.patch(`/campaigns/${plain}`, { template: 't' });
    expect(r.body).toMatchObject({ error: 'INVALID_REQUEST', field: 'template' });
    r = await fx.api.patch(`/campaigns/${plain}`, { cycles: { max_iterations: 3 } });
    expect([r.status, r.body.error]).toEqual([400, 'CYCLES_NOT_ENABLED']);

    const cyc = await createCampaign(fx, phoneBody(fx, { cycles: { enabled: true, filter_tags: ['a'] } }));
    r = await fx.api.patch(`/campaigns/${cyc}`, {
      cycles: { max_iterations: 5, cooldown_minutes: 15, filter_tags: ['b'] },
    });
    expect(r.status).toBe(200);
    expect(r.body.campaign.cycles).toMatchObject({
      enabled: true,
      mode: 'cooldown',
      max_iterations: 5,
      cooldown_minutes: 15,
    });
    expect(fx.sim.control.getCampaignState(cyc)?.record.cycles.filter_tags).toEqual(['b']);
    r = await fx.api.patch(`/campaigns/${cyc}`, { cycles: { schedule: { mon: hours } } });
    expect(r.body).toMatchObject({ error: 'SCHEDULED_MODE_ONLY', field: 'cycles.schedule' });
    r = await fx.api.patch(`/campaigns/${cyc}`, { cycles: { max_iterations: 20 } });
    expect(r.body).toMatchObject({ error: 'INVALID_REQUEST', field: 'cycles.max_iterations' });
  });

  it('refuses to update a finished campaign (409 CAMPAIGN_FINISHED)', async () => {
    const id = await createCampaign(fx, phoneBody(fx));
    fx.sim.control.setCampaignStatus(id, 'finished');
    const r = await fx.api.patch(`/campaigns/${id}`, { name: 'x' });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ success: false, error: 'CAMPAIGN_FINISHED' });
  });

  it('answers 404 for an unknown campaign', async () => {
    const r = await fx.api.patch('/campaigns/4242', { name: 'x' });
    expect([r.status, r.body.error]).toEqual([404, 'NOT_FOUND']);
  });
});

describe('GET /campaigns', () => {
  const DAY = 86_400_000;
  /** Seeds `n` campaigns created one day apart, newest last (ids ascend with time). */
  function seedMany(n: number, startIso = '2026-01-01T10:00:00.000Z') {
    const ids: number[] = [];
    for (let i = 0; i < n; i++) {
      const d = fx.sim.control.seedCampaign({
        name: `c${i}`,
        agentId: fx.agentId,
        integrationId: i % 3 === 0 ? fx.waId : fx.phoneId,
        created_at: new Date(Date.parse(startIso) + i * DAY).toISOString(),
      });
      ids.push(d.id as number);
    }
    return ids;
  }

  it('walks every page with next_cursor and back with previous_cursor, newest first', async () => {
    const ids = seedMany(45);
    const seen: number[] = [];
    const cursors: (string | null)[] = [null];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r = await fx.api.get(`/campaigns?page_size=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(r.status).toBe(200);
      const list = CampaignList.parse(r.body);
      expect(list.total_count).toBe(45);
      expect(list.pagination.has_previous).toBe(pages > 0);
      seen.push(...list.campaigns.map((c) => c.id));
      cursor = list.pagination.has_next ? (list.pagination.next_cursor as string) : null;
      if (cursor) cursors.push(cursor);
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());

    // From the last page, previous_cursor gives back the middle page.
    const last = await fx.api.get(`/campaigns?page_size=20&cursor=${encodeURIComponent(cursors[2] as string)}`);
    expect(last.body.campaigns).toHaveLength(5);
    expect(last.body.pagination).toMatchObject({ has_next: false, next_cursor: null, has_previous: true });
    const back = await fx.api.get(
      `/campaigns?page_size=20&cursor=${encodeURIComponent(last.body.pagination.previous_cursor)}`,
    );
    expect(back.body.campaigns.map((c: { id: number }) => c.id)).toEqual(seen.slice(20, 40));
  });

  it('limits the page size to 1..100 (default 20) and rejects a broken cursor', async () => {
    seedMany(25);
    expect((await fx.api.get('/campaigns')).body.campaigns).toHaveLength(20);
    expect((await fx.api.get('/campaigns?page_size=100')).body.campaigns).toHaveLength(25);
    for (const q of ['page_size=101', 'page_size=0', 'page_size=ten', 'cursor=not-a-cursor']) {
      const r = await fx.api.get(`/campaigns?${q}`);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ success: false, error: 'INVALID_REQUEST', field: q.split('=')[0] });
    }
  });

  it('filters by status, integration type, agent and archived', async () => {
    const ids = seedMany(6);
    fx.sim.control.setCampaignStatus(ids[1] as number, 'active');
    fx.sim.control.setCampaignStatus(ids[2] as number, 'active');
    await fx.api.post(`/campaigns/${ids[2]}/archive`);
    const other = fx.sim.control.addAgent({ name: 'Otro' });
    const otherInt = fx.sim.control.addIntegration({ agentId: other.id, type: 'phone_call' });
    const mine = fx.sim.control.seedCampaign({ name: 'o', agentId: other.id, integrationId: otherInt.id });
    const idsOf = async (q: string) =>
      ((await fx.api.get(`/campaigns?${q}`)).body.campaigns as { id: number }[]).map((c) => c.id).sort((a, b) => a - b);

    expect(await idsOf('status=active')).toEqual([ids[1]]);
    expect(await idsOf('status=active&include_archived=true')).toEqual([ids[1], ids[2]]);
    expect(await idsOf('integration_type=whatsapp')).toEqual([ids[0], ids[3]]);
    expect(await idsOf(`agent_id=${other.id}`)).toEqual([mine.id]);
    expect((await fx.api.get('/campaigns')).body.total_count).toBe(6);
    expect((await fx.api.get('/campaigns?include_archived=true')).body.total_count).toBe(7);

    for (const [q, key] of [
      ['status=running', 'INVALID_STATUS'],
      ['integration_type=sms', 'INVALID_INTEGRATION_TYPE'],
      ['include_archived=maybe', 'INVALID_REQUEST'],
    ]) {
      const r = await fx.api.get(`/campaigns?${q}`);
      expect([r.status, r.body.error]).toEqual([400, key]);
    }
  });

  it('filters created_at with createdAfter/createdBefore (dates or date-times) and the legacy names', async () => {
    const ids = seedMany(10); // 2026-01-01 .. 2026-01-10 at 10:00Z
    const idsOf = async (q: string) =>
      ((await fx.api.get(`/campaigns?${q}`)).body.campaigns as { id: number }[]).map((c) => c.id).sort((a, b) => a - b);
    expect(await idsOf('createdAfter=2026-01-03&createdBefore=2026-01-05')).toEqual(ids.slice(2, 5));
    expect(await idsOf('startDate=2026-01-03&endDate=2026-01-05')).toEqual(ids.slice(2, 5));
    expect(await idsOf('createdAfter=2026-01-09')).toEqual(ids.slice(8));
    expect(await idsOf('createdBefore=2026-01-01T10:00:00Z')).toEqual(ids.slice(0, 1));
    expect(await idsOf('createdAfter=2026-01-01T10:00:01Z&createdBefore=2026-01-02T10:00:00Z')).toEqual([ids[1]]);

    for (const q of ['createdAfter=2026-01-05&createdBefore=2026-01-05', 'startDate=2026-01-06&endDate=2026-01-05']) {
      const r = await fx.api.get(`/campaigns?${q}`);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ error: 'INVALID_REQUEST', field: 'createdAfter' });
      expect(r.body.message).toMatch(/earlier/);
    }
    for (const q of ['createdAfter=01/02/2026', 'endedBefore=2026-02-30', 'startedAfter=yesterday']) {
      const r = await fx.api.get(`/campaigns?${q}`);
      expect([r.status, r.body.field]).toEqual([400, q.split('=')[0]]);
    }
  });

  it('filters started_at / ended_at, excluding campaigns not started / not ended', async () => {
    const ids = seedMany(4);
    const c = fx.sim.control;
    const st = (id: number) => c.getCampaignState(id)?.record;
    c.setCampaignStatus(ids[0] as number, 'active');
    c.setCampaignStatus(ids[1] as number, 'active');
    c.setCampaignStatus(ids[1] as number, 'finished');
    expect(st(ids[0] as number)?.started_at).not.toBeNull();
    const today = new Date().toISOString().slice(0, 10);
    const idsOf = async (q: string) =>
      ((await fx.api.get(`/campaigns?${q}`)).body.campaigns as { id: number }[]).map((x) => x.id).sort((a, b) => a - b);
    expect(await idsOf(`startedAfter=${today}`)).toEqual([ids[0], ids[1]]);
    expect(await idsOf(`startedBefore=${today}`)).toEqual([ids[0], ids[1]]);
    expect(await idsOf(`endedBefore=${today}`)).toEqual([ids[1]]);
    expect(await idsOf('endedAfter=2000-01-01')).toEqual([ids[1]]);
    expect(await idsOf('startedAfter=2099-01-01')).toEqual([]);
  });

  it('caches total_count per filter set when configured (the service caches it 3 minutes)', async () => {
    const clock = manualClock();
    const sim = await startSimulator({ clock: clock.now, totalCountCacheMs: 180_000, rateLimitPerSecond: false });
    try {
      const api = apiFor(sim.baseUrl, sim.apiKey);
      const a = sim.control.addAgent({ name: 'A' });
      const i = sim.control.addIntegration({ agentId: a.id, type: 'phone_call' });
      const seed = () => sim.control.seedCampaign({ name: 'x', agentId: a.id, integrationId: i.id });
      seed();
      expect((await api.get('/campaigns')).body.total_count).toBe(1);
      seed();
      const stale = await api.get('/campaigns');
      expect(stale.body.total_count).toBe(1);
      expect(stale.body.campaigns).toHaveLength(2);
      expect((await api.get('/campaigns?status=pending')).body.total_count).toBe(2); // other filters: own entry
      clock.advance(180_000);
      expect((await api.get('/campaigns')).body.total_count).toBe(2);
    } finally {
      await sim.close();
    }
  });
});
