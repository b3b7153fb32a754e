/**
 * Contract: the real client against the real simulator for calls (campaign call list with its filters and
 * page-number walk, single call), threads, messages (read and send) and end users (create, get, update), plus the
 * analytics a campaign detail carries once it has activity, and the generic-envelope 404 of these endpoints.
 */
import { englishErrorText } from '../../src/render/service-error.js';
import {
  expectFields,
  expectHumanSentence,
  outreachError,
  phones,
  SPEC_FIELDS,
  startContract,
  type Contract,
} from '../support/contract.js';

let ct: Contract;
beforeAll(async () => {
  ct = await startContract();
});
afterAll(() => ct.close());
beforeEach(() => ct.reset());

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** A phone campaign with `n` contacts, seeded in the simulator. */
function phoneCampaign(n: number): number {
  const c = ct.sim.control.seedCampaign({
    name: 'Llamadas',
    agentId: ct.agentId,
    integrationId: ct.phoneId,
    status: 'active',
    retries: 0,
    contacts: phones(n).map((contact, i) => ({ contact, name: `Persona ${i}`, f_id: `f-${i}` })),
  });
  return c.id as number;
}

/**
 * Seven calls to contacts 1..7 (created on 2025-03-01 at 10:00 + i hours), with a mix of final statuses and
 * answered_by. Returns the call ids in creation order.
 */
function sevenCalls(campaignId: number): string[] {
  const plan = [
    { status: 'ended', answered_by: 'human' },
    { status: 'ended', answered_by: 'machine' },
    { status: 'busy' },
    { status: 'no-answer' },
    { status: 'ended', answered_by: 'human' },
    { status: 'in-progress', answered_by: 'human' },
    { status: 'failed' },
  ] as const;
  return plan.map((p, i) => {
    const created = `2025-03-01T${String(10 + i).padStart(2, '0')}:00:00.000Z`;
    const call = ct.sim.control.createCall(campaignId, {
      contactId: i + 1,
      created_at: created,
      started_at: created,
      ...p,
    });
    return call.id as string;
  });
}

describe('campaign calls', () => {
  it('iterateCampaignCalls walks every page, newest first, with total_count on each page', async () => {
    const id = phoneCampaign(7);
    const ids = sevenCalls(id);
    const p0 = await ct.client.listCampaignCalls(id, { pageSize: 3 });
    expect(p0.total_count).toBe(7);
    expect(p0.pagination).toMatchObject({ page_index: 0, page_size: 3, has_next: true, has_previous: false });
    for (const c of p0.calls) {
      expectFields(c, SPEC_FIELDS.call);
      expectFields(c, SPEC_FIELDS.callItemExtra);
    }
    const p2 = await ct.client.listCampaignCalls(id, { pageSize: 3, page: 2 });
    expect(p2.total_count).toBe(7);
    expect(p2.pagination).toMatchObject({ page_index: 2, has_next: false, has_previous: true, previous_page: 1 });

    ct.sim.control.clearRequests();
    const walked = await all(ct.client.iterateCampaignCalls(id, { pageSize: 3 }));
    expect(walked.map((c) => c.id)).toEqual([...ids].reverse());
    expect(ct.sim.control.requests().map((r) => r.query.page)).toEqual(['0', '1', '2']);

    // A call list item carries its contact and, once ended with a duration, the recording path.
    const first = walked.at(-1);
    expect(first?.contact).toEqual({
      id: 1,
      f_id: 'f-0',
      name: 'Persona 0',
      phone_number: phones(1)[0],
      status: 'answered',
    });
    expect(first?.recording_url).toBe(`/api/v1.0/call/${ids[0]}/recording`);
    expect(first?.policy_evaluation?.completed).toBe(true);
    expect(walked.find((c) => c.status === 'busy')?.recording_url ?? null).toBeNull();
  });

  it('status, answered-by and created range filters give the right sets', async () => {
    const id = phoneCampaign(7);
    const ids = sevenCalls(id);
    const set = async (f: Parameters<Contract['client']['iterateCampaignCalls']>[1]) => {
      const items = await all(ct.client.iterateCampaignCalls(id, { ...f, pageSize: 2 }));
      expect((await ct.client.listCampaignCalls(id, { ...f, pageSize: 2 })).total_count).toBe(items.length);
      return items.map((c) => ids.indexOf(c.id)).sort();
    };
    expect(await set({ status: 'ended' })).toEqual([0, 1, 4]);
    expect(await set({ status: 'busy' })).toEqual([2]);
    expect(await set({ status: 'no-answer' })).toEqual([3]);
    expect(await set({ status: 'in-progress' })).toEqual([5]);
    expect(await set({ status: 'failed' })).toEqual([6]);
    expect(await set({ answeredBy: 'human' })).toEqual([0, 4, 5]);
    expect(await set({ answeredBy: 'machine' })).toEqual([1]);
    expect(await set({ status: 'ended', answeredBy: 'human' })).toEqual([0, 4]);
    // Created after/before are inclusive instants (ISO 8601 date-times).
    expect(
      await set({
        createdAfter: new Date('2025-03-01T11:00:00.000Z'),
        createdBefore: new Date('2025-03-01T13:00:00.000Z'),
      }),
    ).toEqual([1, 2, 3]);
    const q = ct.sim.control.requests().at(-1)?.query;
    expect(q).toMatchObject({ created_after: '2025-03-01T11:00:00.000Z', created_before: '2025-03-01T13:00:00.000Z' });
  });

  it('a call, its thread and its messages', async () => {
    const id = phoneCampaign(2);
    const callId = ct.sim.control.createCall(id, { contactId: 2 }).id as string;
    ct.sim.control.updateCall(callId, { status: 'ringing' });
    ct.sim.control.updateCall(callId, { status: 'in-progress' });
    const inProgress = await ct.client.getCall(callId);
    expect(inProgress).toMatchObject({ id: callId, status: 'in-progress', type: 'outbound', ended_by: '' });

    const threadId = inProgress.thread_id as string;
    ct.sim.control.addMessage(threadId, { sent_by: 'AI', content: 'Hola, ¿hablo con Persona 1?' });
    ct.sim.control.addMessage(threadId, { sent_by: 'EU', content: 'Sí, soy yo.' });
    ct.sim.control.addMessage(threadId, { sent_by: 'SYS', content: 'Llamada transferida', type: 'text' });
    ct.sim.control.updateCall(callId, { status: 'ended', answered_by: 'human', duration: 95 });

    const call = await ct.client.getCall(callId);
    expectFields(call, SPEC_FIELDS.call);
    expect(call).toMatchObject({
      status: 'ended',
      answered_by: 'human',
      ended_by: 'agent',
      duration: 95,
      billed_duration: 120,
    });
    expect(call.thread).toBeTruthy();
    expectFields(call.thread as object, SPEC_FIELDS.thread);
    expect(call.thread?.id).toBe(threadId);

    const thread = await ct.client.getThread(threadId);
    expectFields(thread, SPEC_FIELDS.thread);
    expectFields(thread.end_user, SPEC_FIELDS.endUser);
    expect(thread).toMatchObject({
      agent: { id: ct.agentId, name: 'Ana Torres' },
      integration: { id: ct.phoneId, type: 'phone_call' },
      active: true,
      blocked: false,
    });
    expect(thread.end_user.display_name).toBe('Persona 1');

    const messages = await ct.client.getMessages(threadId);
    for (const m of messages) expectFields(m, SPEC_FIELDS.message);
    // Oldest first.
    expect(messages.map((m) => [m.sent_by, m.content])).toEqual([
      ['AI', 'Hola, ¿hablo con Persona 1?'],
      ['EU', 'Sí, soy yo.'],
      ['SYS', 'Llamada transferida'],
    ]);
    expect(messages.every((m) => m.thread_id === threadId)).toBe(true);

    // The contact after its call: answered, with last_call_at as "YYYY-MM-DD HH:MM:SS".
    const contact = await ct.client.getContact(id, 2);
    expect(contact).toMatchObject({ status: 'answered', call_count: 1 });
    expect(contact.last_call_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('a phone campaign detail carries call analytics once it has calls', async () => {
    const id = phoneCampaign(7);
    sevenCalls(id);
    const detail = await ct.client.getCampaign(id);
    expect(detail.analytics).toBeTruthy();
    expect(detail.analytics).toMatchObject({ calls: 7, contactsAnswered: 2 });
    expect(typeof detail.analytics?.contactsConvertedRate).toBe('number');
  });

  it('a WhatsApp campaign detail carries message analytics once a contact left the queue', async () => {
    const c = ct.sim.control.seedCampaign({
      name: 'WA',
      agentId: ct.agentId,
      integrationId: ct.waId,
      template: 'promo',
      contacts: phones(2).map((contact) => ({ contact })),
    });
    const id = c.id as number;
    ct.sim.control.setContactStatus(id, 1, 'read');
    const detail = await ct.client.getCampaign(id);
    expect(detail.analytics).toMatchObject({ sent: 1, delivered: 1, read: 1 });
    expect(typeof detail.analytics?.convertedRate).toBe('number');
  });
});

describe('end users and sending messages', () => {
  it('creates, reads and updates an end user', async () => {
    const u = await ct.client.createEndUser({ display_name: 'María <Admin> & Co', info: 'cliente VIP' });
    expectFields(u, SPEC_FIELDS.endUser);
    expect(u).toMatchObject({ display_name: 'María <Admin> & Co', info: 'cliente VIP' });
    expect(ct.sim.control.requests().at(-1)?.status).toBe(201);
    expect(await ct.client.getEndUser(u.id)).toEqual(u);
    const changed = await ct.client.updateEndUser(u.id, { display_name: 'María Pérez', info: 'cliente' });
    expect(changed).toEqual({ ...u, display_name: 'María Pérez', info: 'cliente' });
    expect(await ct.client.getEndUser(u.id)).toEqual(changed);
    expect(ct.sim.control.requests().find((r) => r.route === 'updateEndUser')?.method).toBe('PUT');
  });

  it("sends a message on behalf of an end user and gets the agent's replies", async () => {
    const u = await ct.client.createEndUser({ display_name: 'Prueba Slack', info: '' });
    ct.sim.control.setAgentReply((content) => [`Recibí: ${content}`, '¿Algo más?']);
    const r = await ct.client.sendMessage({ agent_id: ct.agentId, end_user_id: u.id, content: 'Hola agente' });
    expectFields(r.thread, SPEC_FIELDS.thread);
    expect(r.thread).toMatchObject({ agent: { id: ct.agentId }, end_user: { id: u.id }, integration: { type: 'api' } });
    expect(r.in_response_to).toMatchObject({ sent_by: 'EU', content: 'Hola agente', thread_id: r.thread.id });
    expect(r.messages.map((m) => [m.sent_by, m.content])).toEqual([
      ['AI', 'Recibí: Hola agente'],
      ['AI', '¿Algo más?'],
    ]);
    expectFields(r.in_response_to ?? {}, SPEC_FIELDS.message);
    for (const m of r.messages) expectFields(m, SPEC_FIELDS.message);

    // The second message goes to the same thread; reading the thread back gives all six, oldest first.
    const again = await ct.client.sendMessage({ agent_id: ct.agentId, end_user_id: u.id, content: 'Gracias' });
    expect(again.thread.id).toBe(r.thread.id);
    const msgs = await ct.client.getMessages(r.thread.id);
    expect(msgs.map((m) => m.content)).toEqual([
      'Hola agente',
      'Recibí: Hola agente',
      '¿Algo más?',
      'Gracias',
      'Recibí: Gracias',
      '¿Algo más?',
    ]);
  });

  it('an agent that does not answer gives an empty reply list', async () => {
    const u = await ct.client.createEndUser({ display_name: 'Silencio', info: '' });
    ct.sim.control.setAgentReply(() => null);
    const r = await ct.client.sendMessage({ agent_id: ct.agentId, end_user_id: u.id, content: 'Hola' });
    expect(r.messages).toEqual([]);
  });
});

describe('not found (generic envelope)', () => {
  it.each([
    ['GET /call/{id}', (c: Contract) => c.client.getCall('no-such-call'), /^Call no-such-call was not found/],
    ['GET /thread/{id}', (c: Contract) => c.client.getThread('no-such-thread'), /^Thread no-such-thread was not/],
    ['GET /message/{thread_id}', (c: Contract) => c.client.getMessages('nope'), /^Thread nope was not found/],
    ['GET /enduser/{id}', (c: Contract) => c.client.getEndUser('nobody'), /^End user nobody was not found/],
    [
      'PUT /enduser/{id}',
      (c: Contract) => c.client.updateEndUser('nobody', { display_name: 'x', info: '' }),
      /^End user nobody was not found/,
    ],
    ['GET /campaigns/{id}', (c: Contract) => c.client.getCampaign(999), /^Campaign 999 was not found/],
  ])('%s -> 404 with a sentence naming it', async (endpoint, call, sentence) => {
    const err = await outreachError(call(ct));
    expect(err).toMatchObject({ kind: 'service', status: 404, endpoint });
    expect(err.serviceMessage).toBeTruthy();
    expect(englishErrorText(err)).toMatch(sentence);
    expectHumanSentence(err);
  });
});
