/** Simulator: calls (list, single, recording), threads, messages, POST /message, end users, analytics. */
import {
  Call,
  CallList,
  EndUser,
  GenericErrorBody,
  MessageList,
  SendMessageResult,
  Thread,
} from '../../src/outreach/schemas.js';
import { startSimulator } from '../../src/sim/index.js';
import {
  apiFor,
  createCampaign,
  manualClock,
  phoneBody,
  phones,
  startFixture,
  waBody,
  type Fixture,
} from '../support/sim.js';

const clock = manualClock('2026-03-02T15:00:00.000Z');
let fx: Fixture;
beforeAll(async () => {
  fx = await startFixture({ clock: clock.now });
});
afterAll(() => fx.sim.close());
beforeEach(() => {
  fx.sim.control.reset();
  clock.set('2026-03-02T15:00:00.000Z');
  const agent = fx.sim.control.addAgent({ name: 'Ana Torres' });
  fx.agentId = agent.id;
  fx.phoneId = fx.sim.control.addIntegration({ agentId: agent.id, type: 'phone_call' }).id;
  fx.waId = fx.sim.control.addIntegration({ agentId: agent.id, type: 'whatsapp' }).id;
});

async function campaignWithContacts(n: number, extra: Record<string, unknown> = {}): Promise<number> {
  const id = await createCampaign(fx, phoneBody(fx, extra));
  const contacts = phones(n).map((contact, i) => ({ contact, name: `Contacto ${i + 1}`, f_id: `F${i + 1}` }));
  await fx.api.post(`/campaigns/${id}/contacts`, { contacts });
  return id;
}

describe('calls', () => {
  it('moves a call through its statuses; ending fills the end fields and updates the contact', async () => {
    const id = await campaignWithContacts(2);
    const c = fx.sim.control;
    const call = c.createCall(id, { contactId: 2 });
    expect(call).toMatchObject({ status: 'created', answered_by: 'unknown', ended_by: '', recording_url: null });
    c.updateCall(call.id as string, { status: 'queued' });
    c.updateCall(call.id as string, { status: 'ringing' });
    clock.advance(5_000);
    c.updateCall(call.id as string, { status: 'in-progress' });
    clock.advance(95_000);
    const ended = c.updateCall(call.id as string, {
      status: 'ended',
      extracted_data: { resultado: 'pagará' },
      tags: ['pago'],
    });
    expect(ended).toMatchObject({
      status: 'ended',
      answered_by: 'human',
      started_at: '2026-03-02T15:00:05.000Z',
      ended_at: '2026-03-02T15:01:40.000Z',
      duration: 95,
      billed_duration: 120,
      ended_by: 'agent',
      ended_reason: 'completed',
      recording_url: `/api/v1.0/call/${call.id}/recording`,
      contact: { id: 2, f_id: 'F2', name: 'Contacto 2', phone_number: phones(2)[1], status: 'answered' },
      extracted_data: { resultado: 'pagará' },
      tags: ['pago'],
    });
    expect(ended.policy_evaluation).toMatchObject({ completed: true, policies_evaluated_count: 3, score: 100 });

    const contact = (await fx.api.get(`/campaigns/${id}/contacts/2`)).body.contact;
    expect(contact).toMatchObject({
      status: 'answered',
      call_count: 1,
      billed_duration: 120,
      last_call_at: '2026-03-02 15:00:00',
      extracted_data: { resultado: 'pagará' },
      tags: ['pago'],
    });

    const list = await fx.api.get(`/campaigns/${id}/calls`);
    expect(list.status).toBe(200);
    const parsed = CallList.parse(list.body);
    expect(parsed.calls).toHaveLength(1);
    expect(parsed.calls[0]).toEqual(ended);
  });

  it('retries a contact that did not answer while it has retries left, then fails it', async () => {
    const id = await campaignWithContacts(1, { retries: 1 });
    const c = fx.sim.control;
    const first = c.createCall(id, { status: 'busy' });
    expect(first).toMatchObject({
      status: 'busy',
      ended_by: '',
      ended_reason: 'busy',
      duration: 0,
      billed_duration: 0,
    });
    expect(first.ended_at).toEqual(expect.any(String));
    let contact = (await fx.api.get(`/campaigns/${id}/contacts/1`)).body.contact;
    expect(contact).toMatchObject({ status: 'retrying', retries: 1 });
    c.createCall(id, { status: 'no-answer' });
    contact = (await fx.api.get(`/campaigns/${id}/contacts/1`)).body.contact;
    expect(contact).toMatchObject({ status: 'failed', retries: 1, call_count: 2 });
  });

  it('records voicemail for calls answered by a machine, and lets the test choose the contact status', async () => {
    const id = await campaignWithContacts(2);
    fx.sim.control.createCall(id, { status: 'ended', answered_by: 'machine', duration: 20 });
    fx.sim.control.createCall(id, { status: 'ended', duration: 200, contactStatus: 'converted' });
    const statuses = (await fx.api.get(`/campaigns/${id}/contacts`)).body.contacts.map(
      (x: { status: string }) => x.status,
    );
    expect(statuses).toEqual(['voicemail', 'converted']);
  });

  it('lists newest first, filters by status, answered_by and created after/before, and pages', async () => {
    const id = await campaignWithContacts(30, { retries: 5 });
    const c = fx.sim.control;
    const made: { id: string; status: string; at: string }[] = [];
    for (let i = 0; i < 25; i++) {
      const status = (['ended', 'busy', 'no-answer', 'failed', 'in-progress'] as const)[i % 5] ?? 'ended';
      const call = c.createCall(id, { contactId: i + 1, status });
      made.push({ id: call.id as string, status, at: call.created_at as string });
      clock.advance(60_000);
    }
    const newestFirst = [...made].reverse();
    const walk: string[] = [];
    for (let page = 0; page < 3; page++) {
      const r = await fx.api.get(`/campaigns/${id}/calls?page=${page}&page_size=10`);
      const l = CallList.parse(r.body);
      expect(l.total_count).toBe(25);
      expect(l.pagination).toEqual({
        page_index: page,
        page_size: 10,
        has_next: page < 2,
        has_previous: page > 0,
        next_page: page < 2 ? page + 1 : null,
        previous_page: page > 0 ? page - 1 : null,
      });
      walk.push(...l.calls.map((x) => x.id));
    }
    expect(walk).toEqual(newestFirst.map((x) => x.id));

    const ids = async (q: string) =>
      (await fx.api.get(`/campaigns/${id}/calls?${q}`)).body.calls.map((x: Call) => x.id);
    expect(await ids('status=busy&page_size=100')).toEqual(
      newestFirst.filter((x) => x.status === 'busy').map((x) => x.id),
    );
    // Ended calls default to answered_by human; the others stay unknown.
    expect(await ids('answered_by=human&page_size=100')).toEqual(
      newestFirst.filter((x) => x.status === 'ended').map((x) => x.id),
    );
    expect(await ids('answered_by=unknown&page_size=100')).toHaveLength(20);
    expect(await ids('answered_by=machine')).toEqual([]);
    const from = made[20]?.at as string;
    expect(await ids(`created_after=${encodeURIComponent(from)}`)).toEqual(newestFirst.slice(0, 5).map((x) => x.id));
    expect(await ids(`created_before=${encodeURIComponent(made[1]?.at as string)}`)).toEqual([
      made[1]?.id,
      made[0]?.id,
    ]);
    expect(await ids('created_after=2026-03-02&created_before=2026-03-02&page_size=100')).toHaveLength(25);

    for (const [q, key] of [
      ['status=queued', 'INVALID_STATUS'],
      ['answered_by=robot', 'INVALID_REQUEST'],
      ['created_after=ayer', 'INVALID_REQUEST'],
      ['page_size=0', 'INVALID_REQUEST'],
      ['page=25001', 'INVALID_REQUEST'],
    ] as const) {
      const r = await fx.api.get(`/campaigns/${id}/calls?${q}`);
      expect([r.status, r.body.error, r.body.field]).toEqual([400, key, q.split('=')[0]]);
    }
    expect((await fx.api.get('/campaigns/999/calls')).body.error).toBe('NOT_FOUND');
  });

  it('retrieves one call with its thread (generic 404 otherwise, also for another org)', async () => {
    const id = await campaignWithContacts(1);
    const call = fx.sim.control.createCall(id, { status: 'ended' });
    const r = await fx.api.get(`/call/${call.id}`);
    expect(r.status).toBe(200);
    const parsed = Call.parse(r.body);
    expect(parsed.thread).toMatchObject({
      id: call.thread_id,
      agent: { id: fx.agentId, name: 'Ana Torres' },
      end_user: { display_name: 'Contacto 1', integration_type: 'phone_call' },
      integration: { id: fx.phoneId, type: 'phone_call' },
      active: true,
      blocked: false,
    });
    expect(r.body.contact).toBeUndefined();

    const miss = await fx.api.get('/call/nope');
    expect(miss.status).toBe(404);
    expect(GenericErrorBody.parse(miss.body).error).toBe(404);

    const sim = await startSimulator({
      orgs: { [fx.sim.apiKey]: 'org-sim', other: 'org-2' },
      rateLimitPerSecond: false,
    });
    try {
      const a = sim.control.addAgent({ name: 'A' });
      const i = sim.control.addIntegration({ agentId: a.id, type: 'phone_call' });
      const c = sim.control.seedCampaign({
        name: 'x',
        agentId: a.id,
        integrationId: i.id,
        contacts: [{ contact: phones(1)[0] as string }],
      });
      const made = sim.control.createCall(c.id as number);
      const other = apiFor(sim.baseUrl, 'other');
      for (const p of [`/call/${made.id}`, `/thread/${made.thread_id}`, `/message/${made.thread_id}`])
        expect((await other.get(p)).status).toBe(404);
      expect((await apiFor(sim.baseUrl, fx.sim.apiKey).get(`/call/${made.id}`)).status).toBe(200);
    } finally {
      await sim.close();
    }
  });

  it('serves the recording as audio/mpeg once the call ended with some duration, else 404', async () => {
    const id = await campaignWithContacts(2);
    const ended = fx.sim.control.createCall(id, { contactId: 1, status: 'ended', duration: 3 });
    const busy = fx.sim.control.createCall(id, { contactId: 2, status: 'busy' });
    expect(busy.recording_url).toBeNull();
    const r = await fetch(`${fx.sim.origin}${ended.recording_url}`, {
      headers: { Authorization: `api-key ${fx.sim.apiKey}` },
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('audio/mpeg');
    const bytes = Buffer.from(await r.arrayBuffer());
    expect(bytes.readUInt16BE(0) & 0xffe0).toBe(0xffe0); // MPEG frame sync
    expect(bytes.length).toBeGreaterThan(417 * 100);
    const none = await fx.api.get(`/call/${busy.id}/recording`);
    expect([none.status, none.body.error]).toEqual([404, 404]);
    const anon = await fetch(`${fx.sim.origin}${ended.recording_url}`);
    expect(anon.status).toBe(401);
  });
});

describe('threads and messages', () => {
  it('returns the thread and its messages oldest first', async () => {
    const id = await campaignWithContacts(1);
    const call = fx.sim.control.createCall(id);
    const t = call.thread_id as string;
    fx.sim.control.addMessage(t, { sent_by: 'AI', content: 'Hola, ¿hablo con Contacto 1?' });
    clock.advance(1000);
    fx.sim.control.addMessage(t, { sent_by: 'EU', content: 'Sí, soy yo.' });
    clock.advance(1000);
    fx.sim.control.addMessage(t, { sent_by: 'SYS', content: 'Llamada finalizada', type: 'text' });
    fx.sim.control.updateThread(t, { tags: [{ id: 'tg1', name: 'VIP', color: '#ff0000' }] });

    const thread = await fx.api.get(`/thread/${t}`);
    expect(Thread.parse(thread.body).tags).toEqual([{ id: 'tg1', name: 'VIP', color: '#ff0000' }]);
    const msgs = await fx.api.get(`/message/${t}`);
    const list = MessageList.parse(msgs.body);
    expect(list.map((m) => [m.sent_by, m.content])).toEqual([
      ['AI', 'Hola, ¿hablo con Contacto 1?'],
      ['EU', 'Sí, soy yo.'],
      ['SYS', 'Llamada finalizada'],
    ]);
    expect(list[0]).toEqual({
      thread_id: t,
      type: 'text',
      sent_by: 'AI',
      sent_at: '2026-03-02T15:00:00.000Z',
      content: 'Hola, ¿hablo con Contacto 1?',
      media: null,
      sent_by_user: null,
      read: true,
    });
    for (const p of ['/thread/nope', '/message/nope']) {
      const r = await fx.api.get(p);
      expect([r.status, r.body.error]).toEqual([404, 404]);
    }
  });

  it('POST /message finds or creates the thread, appends the message and returns the replies', async () => {
    const eu = (await fx.api.post('/enduser', { display_name: 'Lupita', info: 'cliente' })).body;
    const send = (content: string) => fx.api.post('/message', { agent_id: fx.agentId, end_user_id: eu.id, content });
    const first = await send('Hola, ¿tienen promociones?');
    expect(first.status).toBe(200);
    const r1 = SendMessageResult.parse(first.body);
    expect(r1.thread).toMatchObject({ agent: { id: fx.agentId }, end_user: { id: eu.id, display_name: 'Lupita' } });
    expect(r1.in_response_to).toMatchObject({
      sent_by: 'EU',
      content: 'Hola, ¿tienen promociones?',
      thread_id: r1.thread.id,
    });
    expect(r1.messages).toHaveLength(1);
    expect(r1.messages[0]).toMatchObject({ sent_by: 'AI', type: 'text' });

    fx.sim.control.setAgentReply((content) => [`Recibí: ${content}`, '¿Algo más?']);
    const r2 = SendMessageResult.parse((await send('Quiero pagar')).body);
    expect(r2.thread.id).toBe(r1.thread.id);
    expect(r2.messages.map((m) => m.content)).toEqual(['Recibí: Quiero pagar', '¿Algo más?']);

    fx.sim.control.setAgentReply(() => null);
    expect((await send('Gracias')).body.messages).toEqual([]);

    fx.sim.control.setAgentReply();
    fx.sim.control.updateThread(r1.thread.id, { active: false });
    expect((await send('¿Siguen ahí?')).body.messages).toEqual([]);

    const all = MessageList.parse((await fx.api.get(`/message/${r1.thread.id}`)).body);
    expect(all.map((m) => m.sent_by).join('')).toBe('EUAIEUAIAIEUEU');
  });

  it('POST /message honours an Idempotency-Key: a replay answers the same and adds nothing; a request held at a kill', async () => {
    const eu = (await fx.api.post('/enduser', { display_name: 'Lupita' })).body;
    const body = { agent_id: fx.agentId, end_user_id: eu.id, content: 'Una vez' };
    const key = { 'Idempotency-Key': '3f8d2c1b-7a6e-4b5c-9d0e-1f2a3b4c5d6e' };
    const first = await fx.api.post('/message', body, key);
    const again = await fx.api.post('/message', body, key);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const threadId = SendMessageResult.parse(first.body).thread.id;
    const count = async () =>
      MessageList.parse((await fx.api.get(`/message/${threadId}`)).body).filter((m) => m.content === 'Una vez').length;
    expect(await count()).toBe(1);

    // Held before it is handled and dropped: never handled. Held after: handled, its answer late.
    const dropped = fx.sim.control.hold(/^POST .*\/message$/, { when: 'before', once: true });
    const lost = fx.api.post('/message', { ...body, content: 'Perdido' });
    await dropped.arrived;
    dropped.drop();
    expect((await lost).status).toBe(503);
    const late = fx.sim.control.hold(/^POST .*\/message$/, { when: 'after', once: true });
    const answered = fx.api.post('/message', { ...body, content: 'Tarde' });
    await late.arrived;
    const contents = MessageList.parse((await fx.api.get(`/message/${threadId}`)).body).map((m) => m.content);
    expect(contents).toContain('Tarde');
    expect(contents).not.toContain('Perdido');
    late.release();
    expect((await answered).status).toBe(200);
  });

  it('POST /message answers 404 for an unknown agent or end user and 400 for a bad body (generic envelope)', async () => {
    const eu = (await fx.api.post('/enduser', { display_name: 'Lupita' })).body;
    const cases: [unknown, number][] = [
      [{ agent_id: 'nope', end_user_id: eu.id, content: 'x' }, 404],
      [{ agent_id: fx.agentId, end_user_id: 'nope', content: 'x' }, 404],
      [{ agent_id: fx.agentId, end_user_id: eu.id }, 400],
      [{ agent_id: fx.agentId, end_user_id: eu.id, content: 5 }, 400],
      ['[', 400],
    ];
    for (const [body, status] of cases) {
      const r = await fx.api.post('/message', body);
      expect(r.status).toBe(status);
      expect(GenericErrorBody.parse(r.body).error).toBe(status);
    }
  });
});

describe('end users', () => {
  it('creates, reads and updates end users', async () => {
    const created = await fx.api.post('/enduser', { display_name: 'Mario Pérez', info: 'VIP' });
    expect(created.status).toBe(201);
    const eu = EndUser.parse(created.body);
    expect(eu).toMatchObject({ display_name: 'Mario Pérez', info: 'VIP', integration_type: 'api' });
    expect((await fx.api.get(`/enduser/${eu.id}`)).body).toEqual(created.body);
    const put = await fx.api.put(`/enduser/${eu.id}`, { display_name: 'Mario P.', info: 'ya no VIP' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: eu.id, display_name: 'Mario P.', info: 'ya no VIP' });
    const partial = await fx.api.put(`/enduser/${eu.id}`, { info: 'solo info' });
    expect(partial.body).toMatchObject({ display_name: 'Mario P.', info: 'solo info' });
  });

  it('answers the generic envelope for bad bodies and unknown ids', async () => {
    for (const body of [{}, { display_name: '' }, { display_name: 3 }, { display_name: 'x', info: [] }]) {
      const r = await fx.api.post('/enduser', body);
      expect([r.status, r.body.error]).toEqual([400, 400]);
    }
    expect((await fx.api.get('/enduser/nope')).status).toBe(404);
    expect((await fx.api.put('/enduser/nope', { info: 'x' })).status).toBe(404);
    const eu = (await fx.api.post('/enduser', { display_name: 'x' })).body;
    expect((await fx.api.put(`/enduser/${eu.id}`, { display_name: '' })).status).toBe(400);
  });
});

describe('analytics', () => {
  it('phone: absent before the first call, then computed from calls and contacts', async () => {
    const id = await campaignWithContacts(4);
    expect((await fx.api.get(`/campaigns/${id}`)).body.campaign.analytics).toBeUndefined();
    const c = fx.sim.control;
    c.createCall(id, { contactId: 1, status: 'ended', duration: 60 });
    c.createCall(id, { contactId: 2, status: 'ended', duration: 120, contactStatus: 'converted' });
    c.createCall(id, { contactId: 3, status: 'ended', answered_by: 'machine', duration: 20 });
    c.createCall(id, { contactId: 4, status: 'ringing' });
    const a = (await fx.api.get(`/campaigns/${id}`)).body.campaign.analytics;
    expect(a).toMatchObject({
      calls: 4,
      callsInProgress: 1,
      callsEnded: 3,
      callsAnsweredByHuman: 2,
      callsAnsweredByMachine: 1,
      totalDuration: 200,
      contacts: 4,
      contactsCalled: 4,
      contactsAnswered: 2,
      contactsConverted: 1,
      contactsVoicemail: 1,
      contactsAnsweredRate: 50,
      contactsConvertedRate: 25,
    });
  });

  it('WhatsApp: absent while every contact is queued, then message lifecycle counts', async () => {
    const id = await createCampaign(fx, waBody(fx, { template: 'promo' }));
    await fx.api.post(`/campaigns/${id}/contacts`, { contacts: phones(4).map((contact) => ({ contact })) });
    expect((await fx.api.get(`/campaigns/${id}`)).body.campaign.analytics).toBeUndefined();
    ['delivered', 'read', 'converted', 'failed'].forEach((s, i) => fx.sim.control.setContactStatus(id, i + 1, s));
    const a = (await fx.api.get(`/campaigns/${id}`)).body.campaign.analytics;
    expect(a).toMatchObject({
      sent: 3,
      delivered: 3,
      read: 2,
      converted: 1,
      failed: 1,
      readRate: 66.67,
      convertedRate: 33.33,
    });
  });
});
