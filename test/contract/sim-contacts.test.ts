/** Simulator: add contacts in batch (per-item results, duplicates, limits), Idempotency-Key, list/get/delete. */
import { BatchResult, ContactEnvelope, ContactList, ValidationErrorBody } from '../../src/outreach/schemas.js';
import { startSimulator } from '../../src/sim/index.js';
import {
  apiFor,
  createCampaign,
  manualClock,
  phoneBody,
  phones,
  seedAgent,
  startFixture,
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

const [P1, P2, P3] = phones(3) as [string, string, string];

describe('POST /campaigns/{id}/contacts', () => {
  it('processes every item on its own and reports each by index', async () => {
    const id = await createCampaign(fx, phoneBody(fx));
    const r = await fx.api.post(`/campaigns/${id}/contacts`, {
      contacts: [
        { contact: P1, name: 'Rosa Díaz', context: 'saldo $500', extracted_data: { plan: 'A' }, f_id: 'ext-1' },
        { name: 'Sin número' },
        { contact: '' },
        { contact: '5512345678' },
        { contact: '+52 55 1234 5678' },
        { contact: '+0525512345678' },
        { contact: '+5255123' },
        { contact: 5512345678 },
        'not an object',
        { contact: P1, name: 'Repetido en el lote' },
        { contact: P2 },
      ],
    });
    expect(r.status).toBe(200);
    const body = BatchResult.parse(r.body);
    expect(body.success).toBe(true);
    expect(body.summary).toEqual({ created: 2, updated: 0, skipped_duplicate: 1, failed: 8 });
    expect(body.results.map((x) => [x.index, x.status, x.error])).toEqual([
      [0, 'created', null],
      [1, 'failed', 'MISSING_CONTACT'],
      [2, 'failed', 'MISSING_CONTACT'],
      [3, 'failed', 'INVALID_PHONE_NUMBER'],
      [4, 'failed', 'INVALID_PHONE_NUMBER'],
      [5, 'failed', 'INVALID_PHONE_NUMBER'],
      [6, 'failed', 'INVALID_PHONE_NUMBER'],
      [7, 'failed', 'INVALID_PHONE_NUMBER'],
      [8, 'failed', 'MISSING_CONTACT'],
      [9, 'skipped_duplicate', null],
      [10, 'created', null],
    ]);
    expect(body.results[0]).toMatchObject({ id: '1', contact: P1 });
    expect(body.results[9]?.id).toBe('1');
    expect(body.results[3]?.contact).toBe('5512345678');

    const got = await fx.api.get(`/campaigns/${id}/contacts/1`);
    expect(ContactEnvelope.parse(got.body).contact).toEqual({
      id: 1,
      f_id: 'ext-1',
      name: 'Rosa Díaz',
      contact: P1,
      status: 'queue',
      context: 'saldo $500',
      retries: 0,
      has_follow_up: false,
      call_count: 0,
      billed_duration: 0,
      last_call_at: null,
      extracted_data: { plan: 'A' },
      tags: [],
    });
    // Automatic move (our choice): a pending campaign with contacts is ready.
    expect((await fx.api.get(`/campaigns/${id}`)).body.campaign.status).toBe('ready');
  });

  it('with if_duplicate=update overwrites name, context, extracted_data and f_id (also within a batch)', async () => {
    const id = await createCampaign(fx, phoneBody(fx));
    await fx.api.post(`/campaigns/${id}/contacts`, {
      contacts: [{ contact: P1, name: 'Viejo', context: 'c0', extracted_data: { a: '1' }, f_id: 'f0' }],
    });
    fx.sim.control.setContactStatus(id, 1, 'answered');
    const r = await fx.api.post(`/campaigns/${id}/contacts`, {
      if_duplicate: 'update',
      contacts: [
        { contact: P1, name: 'Nuevo', context: 'c1', extracted_data: { b: '2' }, f_id: 'f1' },
        { contact: P2, name: 'Primero' },
        { contact: P2, name: 'Segundo' },
      ],
    });
    expect(r.body.summary).toEqual({ created: 1, updated: 2, skipped_duplicate: 0, failed: 0 });
    expect(r.body.results.map((x: { status: string }) => x.status)).toEqual(['updated', 'created', 'updated']);
    const c1 = (await fx.api.get(`/campaigns/${id}/contacts/1`)).body.contact;
    expect(c1).toMatchObject({
      name: 'Nuevo',
      context: 'c1',
      extracted_data: { b: '2' },
      f_id: 'f1',
      status: 'answered',
    });
    expect((await fx.api.get(`/campaigns/${id}/contacts/2`)).body.contact.name).toBe('Segundo');

    const skip = await fx.api.post(`/campaigns/${id}/contacts`, { contacts: [{ contact: P1, name: 'Otro' }] });
    expect(skip.body.results[0]).toMatchObject({ status: 'skipped_duplicate', id: '1' });
    expect((await fx.api.get(`/campaigns/${id}/contacts/1`)).body.contact.name).toBe('Nuevo');
  });

  it('takes up to 1000 contacts per request; more is a validation error', async () => {
    const id = await createCampaign(fx, phoneBody(fx));
    const many = (n: number, start = 0) => phones(n, start).map((contact) => ({ contact }));
    const over = await fx.api.post(`/campaigns/${id}/contacts`, { contacts: many(1001) });
    expect(over.status).toBe(400);
    expect(Object.keys(ValidationErrorBody.parse(over.body))).toEqual(['contacts', 'non_field_errors']);
    expect(over.body.contacts[0]).toMatch(/1000/);
    expect((await fx.api.get(`/campaigns/${id}/contacts`)).body.total_count).toBe(0);

    const full = await fx.api.post(`/campaigns/${id}/contacts`, { contacts: many(1000) });
    expect(full.status).toBe(200);
    expect(full.body.summary.created).toBe(1000);
    expect(full.body.results).toHaveLength(1000);
  });

  it.each([
    [{}, 'contacts'],
    [{ contacts: [] }, 'contacts'],
    [{ contacts: 'x' }, 'contacts'],
    [{ contacts: [{ contact: P1 }], if_duplicate: 'replace' }, 'if_duplicate'],
    [{ contacts: [{ contact: P1, extracted_data: { n: 1 } }] }, 'contacts.0.extracted_data'],
    [{ contacts: [{ contact: P1 }, { contact: P2, name: 7 }] }, 'contacts.1.name'],
  ])('rejects the malformed body %j at %s', async (body, field) => {
    const id = await createCampaign(fx, phoneBody(fx));
    const r = await fx.api.post(`/campaigns/${id}/contacts`, body);
    expect(r.status).toBe(400);
    expect(r.body[field]).toHaveLength(1);
    expect(r.body.non_field_errors).toEqual([]);
  });

  it('answers 400 with non_field_errors for a body that is not JSON, 404 for an unknown campaign', async () => {
    const id = await createCampaign(fx, phoneBody(fx));
    const r = await fx.api.post(`/campaigns/${id}/contacts`, '{contacts:');
    expect(r.status).toBe(400);
    expect(r.body.non_field_errors[0]).toMatch(/JSON/);
    const miss = await fx.api.post('/campaigns/77/contacts', { contacts: [{ contact: P1 }] });
    expect([miss.status, miss.body.error]).toEqual([404, 'NOT_FOUND']);
  });

  it('fails items with SERVER_ERROR when told to (control.failContactItems)', async () => {
    const id = await createCampaign(fx, phoneBody(fx));
    fx.sim.control.failContactItems(new RegExp(`^\\${P2}$`));
    const r = await fx.api.post(`/campaigns/${id}/contacts`, { contacts: [{ contact: P1 }, { contact: P2 }] });
    expect(r.body.results.map((x: { error: string | null }) => x.error)).toEqual([null, 'SERVER_ERROR']);
    fx.sim.control.failContactItems(null);
    const again = await fx.api.post(`/campaigns/${id}/contacts`, { contacts: [{ contact: P2 }] });
    expect(again.body.results[0].status).toBe('created');
  });

  it('refuses contacts for a finished campaign (409 CAMPAIGN_FINISHED)', async () => {
    const id = await createCampaign(fx, phoneBody(fx));
    fx.sim.control.setCampaignStatus(id, 'finished');
    const r = await fx.api.post(`/campaigns/${id}/contacts`, { contacts: [{ contact: P1 }] });
    expect([r.status, r.body.error]).toEqual([409, 'CAMPAIGN_FINISHED']);
  });
});

describe('Idempotency-Key', () => {
  it('replays add-contacts with the original status and body and adds nothing', async () => {
    const id = await createCampaign(fx, phoneBody(fx));
    const send = (key: string, contacts: unknown[]) =>
      fx.api.post(`/campaigns/${id}/contacts`, { contacts }, { 'Idempotency-Key': key });
    const first = await send('k-1', [{ contact: P1 }, { contact: 'bad' }]);
    const replay = await send('k-1', [{ contact: P1 }, { contact: P2 }, { contact: P3 }]);
    expect(replay.status).toBe(first.status);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect((await fx.api.get(`/campaigns/${id}/contacts`)).body.total_count).toBe(1);

    const fresh = await send('k-2', [{ contact: P1 }]);
    expect(fresh.body.results[0].status).toBe('skipped_duplicate');

    // The key is scoped to the path: the same key on another campaign is a new request.
    const other = await createCampaign(fx, phoneBody(fx));
    const elsewhere = await fx.api.post(
      `/campaigns/${other}/contacts`,
      { contacts: [{ contact: P1 }] },
      { 'Idempotency-Key': 'k-1' },
    );
    expect(elsewhere.body.results[0].status).toBe('created');
    expect(fx.sim.control.requests().filter((x) => x.replayed)).toHaveLength(1);
  });

  it('replays campaign creation (also its errors) and creates no duplicate', async () => {
    const key = '6f9619ff-8b86-4011-b42d-00c04fc964ff';
    const a = await fx.api.post('/campaigns', phoneBody(fx), { 'Idempotency-Key': key });
    const b = await fx.api.post('/campaigns', phoneBody(fx, { name: 'changed' }), { 'Idempotency-Key': key });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body).toEqual(a.body);
    expect((await fx.api.get('/campaigns')).body.total_count).toBe(1);

    const bad = await fx.api.post('/campaigns', phoneBody(fx, { retries: 9 }), { 'Idempotency-Key': 'k-bad' });
    const badAgain = await fx.api.post('/campaigns', phoneBody(fx), { 'Idempotency-Key': 'k-bad' });
    expect([bad.status, badAgain.status]).toEqual([400, 400]);
    expect(badAgain.body).toEqual(bad.body);
    // Without a key every POST creates.
    await fx.api.post('/campaigns', phoneBody(fx));
    await fx.api.post('/campaigns', phoneBody(fx));
    expect((await fx.api.get('/campaigns')).body.total_count).toBe(3);
  });

  it('keeps keys per organization and for 24 hours', async () => {
    const clock = manualClock();
    const sim = await startSimulator({ clock: clock.now, orgs: { ka: 'oa', kb: 'ob' }, rateLimitPerSecond: false });
    try {
      const make = (org: string) => {
        const agent = sim.control.addAgent({ name: 'x', org });
        const integ = sim.control.addIntegration({ agentId: agent.id, type: 'phone_call' });
        return { name: 'x', agent_id: agent.id, integration_id: integ.id, integration_type: 'phone_call' };
      };
      const bodyA = make('oa');
      const bodyB = make('ob');
      const a = apiFor(sim.baseUrl, 'ka');
      const b = apiFor(sim.baseUrl, 'kb');
      const h = { 'Idempotency-Key': 'same' };
      const first = await a.post('/campaigns', bodyA, h);
      expect((await b.post('/campaigns', bodyB, h)).body.campaign.id).not.toBe(first.body.campaign.id);
      clock.advance(24 * 3600_000 - 1);
      expect((await a.post('/campaigns', bodyA, h)).body.campaign.id).toBe(first.body.campaign.id);
      clock.advance(1);
      expect((await a.post('/campaigns', bodyA, h)).body.campaign.id).not.toBe(first.body.campaign.id);
    } finally {
      await sim.close();
    }
  });
});

describe('GET /campaigns/{id}/contacts', () => {
  it('pages by number: total_count on page 0 only, next_page / previous_page', async () => {
    const id = await createCampaign(fx, phoneBody(fx));
    await fx.api.post(`/campaigns/${id}/contacts`, { contacts: phones(45).map((contact) => ({ contact })) });
    const pages = [];
    for (let page = 0; page < 3; page++) {
      const r = await fx.api.get(`/campaigns/${id}/contacts?page=${page}&page_size=20`);
      expect(r.status).toBe(200);
      pages.push(ContactList.parse(r.body));
    }
    expect(pages.map((p) => p.total_count)).toEqual([45, null, null]);
    expect(pages.map((p) => p.contacts.length)).toEqual([20, 20, 5]);
    expect(pages.map((p) => p.pagination)).toEqual([
      { has_next: true, has_previous: false, next_page: 1, previous_page: null },
      { has_next: true, has_previous: true, next_page: 2, previous_page: 0 },
      { has_next: false, has_previous: true, next_page: null, previous_page: 1 },
    ]);
    expect(pages.flatMap((p) => p.contacts.map((c) => c.id))).toEqual(Array.from({ length: 45 }, (_, i) => i + 1));
    const dflt = await fx.api.get(`/campaigns/${id}/contacts`);
    expect(dflt.body.contacts).toHaveLength(20);
    const beyond = await fx.api.get(`/campaigns/${id}/contacts?page=25000&page_size=100`);
    expect(beyond.body.contacts).toEqual([]);
    expect(beyond.body.pagination).toMatchObject({ has_next: false, previous_page: 24999 });
  });

  it('filters by status', async () => {
    const id = await createCampaign(fx, phoneBody(fx));
    await fx.api.post(`/campaigns/${id}/contacts`, { contacts: phones(5).map((contact) => ({ contact })) });
    fx.sim.control.setContactStatus(id, 2, 'voicemail');
    fx.sim.control.setContactStatus(id, 4, 'voicemail');
    const r = await fx.api.get(`/campaigns/${id}/contacts?status=voicemail`);
    expect(r.body.total_count).toBe(2);
    expect(r.body.contacts.map((c: { id: number }) => c.id)).toEqual([2, 4]);
    expect((await fx.api.get(`/campaigns/${id}/contacts?status=queue`)).body.total_count).toBe(3);
  });

  it.each([
    ['status=done', 'INVALID_STATUS'],
    ['page_size=0', 'INVALID_REQUEST'],
    ['page_size=101', 'INVALID_REQUEST'],
    ['page=-1', 'INVALID_REQUEST'],
    ['page=25001', 'INVALID_REQUEST'],
    ['page=one', 'INVALID_REQUEST'],
  ])('rejects %s with 400 %s naming the parameter', async (q, key) => {
    const id = await createCampaign(fx, phoneBody(fx));
    const r = await fx.api.get(`/campaigns/${id}/contacts?${q}`);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, error: key, field: q.split('=')[0] });
  });
});

describe('GET / DELETE /campaigns/{id}/contacts/{contact_id}', () => {
  it('deletes contacts in queue or failed (204, no body) and refuses the others with 409', async () => {
    const id = await createCampaign(fx, phoneBody(fx));
    await fx.api.post(`/campaigns/${id}/contacts`, { contacts: phones(6).map((contact) => ({ contact })) });
    const statuses = ['queue', 'failed', 'sending', 'answered', 'converted', 'voicemail'];
    statuses.forEach((s, i) => fx.sim.control.setContactStatus(id, i + 1, s));
    for (const [i, s] of statuses.entries()) {
      const r = await fx.api.del(`/campaigns/${id}/contacts/${i + 1}`);
      if (s === 'queue' || s === 'failed') {
        expect(r.status).toBe(204);
        expect(r.body).toBeUndefined();
        const gone = await fx.api.get(`/campaigns/${id}/contacts/${i + 1}`);
        expect([gone.status, gone.body.error]).toEqual([404, 'CONTACT_NOT_FOUND']);
      } else {
        expect(r.status).toBe(409);
        expect(r.body).toMatchObject({ success: false, error: 'CONTACT_NOT_DELETABLE' });
        expect(r.body.message).toContain(s);
      }
    }
    // A deleted number can be added again.
    const re = await fx.api.post(`/campaigns/${id}/contacts`, { contacts: [{ contact: phones(1)[0] }] });
    expect(re.body.results[0]).toMatchObject({ status: 'created', id: '7' });
  });

  it('answers 404 CONTACT_NOT_FOUND for unknown contacts', async () => {
    const id = await createCampaign(fx, phoneBody(fx));
    for (const path of [`/campaigns/${id}/contacts/5`, `/campaigns/${id}/contacts/x`]) {
      expect((await fx.api.get(path)).body.error).toBe('CONTACT_NOT_FOUND');
      const d = await fx.api.del(path);
      expect([d.status, d.body.error]).toEqual([404, 'CONTACT_NOT_FOUND']);
    }
  });

  it('formats last_call_at as "YYYY-MM-DD HH:MM:SS" once called', async () => {
    const id = await createCampaign(fx, phoneBody(fx));
    await fx.api.post(`/campaigns/${id}/contacts`, { contacts: [{ contact: P1 }] });
    fx.sim.control.createCall(id, { contactId: 1 });
    const c = (await fx.api.get(`/campaigns/${id}/contacts/1`)).body.contact;
    expect(c.last_call_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(c).toMatchObject({ status: 'sending', call_count: 1 });
  });
});
