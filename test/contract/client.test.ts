/**
 * The client's requests (method, path, headers, query names from unspecified.ts), its checks on what comes back
 * (re-filtering when the service ignores a filter) and the iterators walking every page.
 */
import { OutreachClient } from '../../src/outreach/client.js';
import { OutreachError, OutreachInputError } from '../../src/outreach/errors.js';
import { RateLimiter } from '../../src/outreach/limiter.js';
import { CALL_LIST_PARAMS, CAMPAIGN_LIST_PARAMS, CONTACT_LIST_PARAMS } from '../../src/outreach/unspecified.js';
import {
  call,
  campaignDetail,
  campaignItem,
  contact,
  endUser,
  message,
  startStub,
  thread,
  type Stub,
  type StubRequest,
  type StubReply,
} from '../support/stub-outreach.js';

const KEY = 'client-test-key-0123456789';

let stub: Stub;
let limiter: RateLimiter;
let client: OutreachClient;

beforeEach(async () => {
  stub = await startStub();
  limiter = new RateLimiter({ perSecond: 100, windowMs: 10, marginMs: 5 });
  client = new OutreachClient({ baseUrl: stub.baseUrl, apiKey: KEY, limiter, maxRetries: 0 });
});

afterEach(async () => {
  await client.close();
  await limiter.stop();
  await stub.close();
});

function last(): StubRequest {
  const r = stub.requests[stub.requests.length - 1];
  if (!r) throw new Error('no request reached the stub');
  return r;
}

function query(r: StubRequest): Record<string, string> {
  return Object.fromEntries(r.query.entries());
}

const batch = {
  success: true,
  summary: { created: 1, updated: 0, skipped_duplicate: 0, failed: 0 },
  results: [{ index: 0, status: 'created', id: 5, contact: '+525512345678' }],
};

describe('every endpoint', () => {
  const envelope = { success: true, campaign: campaignDetail({ id: 7 }) };
  const cases: [string, (c: OutreachClient) => Promise<unknown>, string, StubReply, unknown?][] = [
    [
      'createCampaign',
      (c) => c.createCampaign({ name: 'n', agent_id: 'a', integration_id: 'i', integration_type: 'phone_call' }),
      'POST /campaigns',
      { status: 201, json: envelope },
      { name: 'n', agent_id: 'a', integration_id: 'i', integration_type: 'phone_call' },
    ],
    [
      'listCampaigns',
      (c) => c.listCampaigns(),
      'GET /campaigns',
      { status: 200, json: { total_count: 0, campaigns: [], pagination: { has_next: false, has_previous: false } } },
    ],
    ['getCampaign', (c) => c.getCampaign(7), 'GET /campaigns/7', { status: 200, json: envelope }],
    [
      'updateCampaign',
      (c) => c.updateCampaign(7, { retries: 2 }),
      'PATCH /campaigns/7',
      { status: 200, json: envelope },
      { retries: 2 },
    ],
    [
      'campaignAction',
      (c) => c.campaignAction(7, 'archive'),
      'POST /campaigns/7/archive',
      { status: 200, json: envelope },
    ],
    [
      'addContacts',
      (c) => c.addContacts(7, { contacts: [{ contact: '+525512345678' }], if_duplicate: 'update' }),
      'POST /campaigns/7/contacts',
      { status: 200, json: batch },
      { contacts: [{ contact: '+525512345678' }], if_duplicate: 'update' },
    ],
    [
      'listContacts',
      (c) => c.listContacts(7),
      'GET /campaigns/7/contacts',
      { status: 200, json: { total_count: 0, contacts: [], pagination: { has_next: false, has_previous: false } } },
    ],
    [
      'getContact',
      (c) => c.getContact(7, 3),
      'GET /campaigns/7/contacts/3',
      { status: 200, json: { success: true, contact: contact({ id: 3 }) } },
    ],
    ['deleteContact', (c) => c.deleteContact(7, 3), 'DELETE /campaigns/7/contacts/3', { status: 204 }],
    [
      'listCampaignCalls',
      (c) => c.listCampaignCalls(7),
      'GET /campaigns/7/calls',
      {
        status: 200,
        json: {
          total_count: 0,
          calls: [],
          pagination: { page_index: 0, page_size: 20, has_next: false, has_previous: false },
        },
      },
    ],
    ['getCall', (c) => c.getCall('c/1'), 'GET /call/c%2F1', { status: 200, json: call({ thread: thread() }) }],
    ['getThread', (c) => c.getThread('th-1'), 'GET /thread/th-1', { status: 200, json: thread() }],
    ['getMessages', (c) => c.getMessages('th-1'), 'GET /message/th-1', { status: 200, json: [message()] }],
    [
      'sendMessage',
      (c) => c.sendMessage({ agent_id: 'a', end_user_id: 'e', content: 'hola' }),
      'POST /message',
      { status: 200, json: { thread: thread(), messages: [message()], in_response_to: message({ sent_by: 'EU' }) } },
      { agent_id: 'a', end_user_id: 'e', content: 'hola' },
    ],
    [
      'createEndUser',
      (c) => c.createEndUser({ display_name: 'Ana', info: 'vip' }),
      'POST /enduser',
      { status: 201, json: endUser() },
      { display_name: 'Ana', info: 'vip' },
    ],
    ['getEndUser', (c) => c.getEndUser('eu-1'), 'GET /enduser/eu-1', { status: 200, json: endUser() }],
    [
      'updateEndUser',
      (c) => c.updateEndUser('eu-1', { display_name: 'Bea', info: '' }),
      'PUT /enduser/eu-1',
      { status: 200, json: endUser({ display_name: 'Bea' }) },
      { display_name: 'Bea', info: '' },
    ],
  ];

  const rows = cases.map(([name, run, route, answer, body]) => ({ name, run, route, answer, body }));
  it.each(rows)('$name sends $route', async ({ run, route, answer, body }) => {
    stub.setHandler(() => answer);
    await run(client);
    const r = last();
    expect(`${r.method} ${r.path}`).toBe(route);
    expect(r.headers.authorization).toBe(`api-key ${KEY}`);
    expect(r.json).toEqual(body);
    if (body !== undefined) expect(r.headers['content-type']).toBe('application/json');
  });

  it('covers all 17 endpoints', () => {
    expect(new Set(cases.map((c) => c[0])).size).toBe(17);
  });

  it('returns the parsed resources', async () => {
    stub.setHandler(() => ({ status: 200, json: { success: true, campaign: campaignDetail({ id: 7, extra: 1 }) } }));
    const c = await client.getCampaign(7);
    expect(c).toMatchObject({ id: 7, status: 'ready', extra: 1 });
    stub.setHandler(() => ({ status: 200, json: batch }));
    const b = await client.addContacts(7, { contacts: [{ contact: '+1' }] });
    expect(b.results[0]?.status).toBe('created');
  });
});

describe('base URL', () => {
  it('accepts a trailing slash and keeps a path prefix', async () => {
    const c = new OutreachClient({ baseUrl: `${stub.baseUrl}/`, apiKey: KEY, limiter });
    stub.setHandler(() => ({ status: 200, json: endUser() }));
    await c.getEndUser('x');
    await c.close();
    expect(last().path).toBe('/enduser/x');
  });

  it('refuses a base URL without /api/v1.0, naming the fix', () => {
    expect(() => new OutreachClient({ baseUrl: 'https://outreach.example.com', apiKey: KEY })).toThrow(
      new OutreachInputError(
        'The outreach base URL must end with /api/v1.0 (for example https://outreach.example.com/api/v1.0).',
      ),
    );
  });
});

describe('list filters', () => {
  const emptyCampaigns = { total_count: 0, campaigns: [], pagination: { has_next: false, has_previous: false } };

  it('sends the campaign list filters under the names of unspecified.ts, dates as yyyy-MM-dd', async () => {
    stub.setHandler(() => ({ status: 200, json: emptyCampaigns }));
    await client.listCampaigns({
      status: 'active',
      integrationType: 'whatsapp',
      agentId: 'ag-1',
      includeArchived: true,
      createdAfter: new Date('2026-03-01T00:00:00Z'),
      createdBefore: new Date('2026-03-31T23:00:00Z'),
      startedAfter: new Date('2026-03-02'),
      endedBefore: new Date('2026-04-01'),
      pageSize: 50,
      cursor: 'abc==',
    });
    const P = CAMPAIGN_LIST_PARAMS;
    expect(query(last())).toEqual({
      [P.status]: 'active',
      [P.integrationType]: 'whatsapp',
      [P.agentId]: 'ag-1',
      [P.includeArchived]: 'true',
      [P.createdAfter]: '2026-03-01',
      [P.createdBefore]: '2026-03-31',
      [P.startedAfter]: '2026-03-02',
      [P.endedBefore]: '2026-04-01',
      [P.pageSize]: '50',
      [P.cursor]: 'abc==',
    });
  });

  it('refuses bad filters before sending anything', async () => {
    await expect(client.listCampaigns({ pageSize: 101 })).rejects.toThrow(
      'Page size must be a whole number from 1 to 100',
    );
    await expect(
      client.listCampaigns({ createdAfter: new Date('2026-03-05'), createdBefore: new Date('2026-03-01') }),
    ).rejects.toThrow('createdAfter (2026-03-05) must be earlier than createdBefore (2026-03-01)');
    await expect(client.listContacts(1, { page: 25001 })).rejects.toThrow(
      'Page number must be a whole number from 0 to 25000',
    );
    await expect(client.getCampaign(1.5)).rejects.toBeInstanceOf(OutreachInputError);
    expect(stub.requests).toHaveLength(0);
  });

  it('filters the campaign list again when the service ignores status, agent and archived', async () => {
    stub.setHandler(() => ({
      status: 200,
      json: {
        total_count: 4,
        campaigns: [
          campaignItem({ id: 1, status: 'active', agent: { id: 'ag-1', name: 'A' } }),
          campaignItem({ id: 2, status: 'inactive', agent: { id: 'ag-1', name: 'A' } }),
          campaignItem({ id: 3, status: 'active', agent: { id: 'ag-2', name: 'B' } }),
          campaignItem({ id: 4, status: 'active', agent: { id: 'ag-1', name: 'A' }, archived: true }),
        ],
        pagination: { has_next: false, has_previous: false },
      },
    }));
    const list = await client.listCampaigns({ status: 'active', agentId: 'ag-1' });
    expect(list.campaigns.map((c) => c.id)).toEqual([1]);
    const archivedToo = await client.listCampaigns({ agentId: 'ag-1', includeArchived: true });
    expect(archivedToo.campaigns.map((c) => c.id)).toEqual([1, 2, 4]);
  });

  it('sends contact filters and filters the page again by status', async () => {
    stub.setHandler(() => ({
      status: 200,
      json: {
        total_count: 2,
        contacts: [contact({ id: 1, status: 'failed' }), contact({ id: 2, status: 'queue' })],
        pagination: { has_next: false, has_previous: false },
      },
    }));
    const list = await client.listContacts(4, { status: 'failed', page: 2, pageSize: 10 });
    const P = CONTACT_LIST_PARAMS;
    expect(query(last())).toEqual({ [P.status]: 'failed', [P.page]: '2', [P.pageSize]: '10' });
    expect(list.contacts.map((c) => c.id)).toEqual([1]);
  });

  it('sends call filters (ISO date-times) and filters the page again', async () => {
    stub.setHandler(() => ({
      status: 200,
      json: {
        total_count: 4,
        calls: [
          call({ id: 'a', status: 'ended', answered_by: 'human', created_at: '2026-03-02T10:00:00Z' }),
          call({ id: 'b', status: 'busy', answered_by: 'human', created_at: '2026-03-02T10:00:00Z' }),
          call({ id: 'c', status: 'ended', answered_by: 'machine', created_at: '2026-03-02T10:00:00Z' }),
          call({ id: 'd', status: 'ended', answered_by: 'human', created_at: '2026-02-01T10:00:00Z' }),
        ],
        pagination: { page_index: 0, page_size: 100, has_next: false, has_previous: false },
      },
    }));
    const after = new Date('2026-03-01T00:00:00Z');
    const before = new Date('2026-03-03T00:00:00Z');
    const list = await client.listCampaignCalls(4, {
      status: 'ended',
      answeredBy: 'human',
      createdAfter: after,
      createdBefore: before,
      page: 0,
      pageSize: 100,
    });
    const P = CALL_LIST_PARAMS;
    expect(query(last())).toEqual({
      [P.status]: 'ended',
      [P.answeredBy]: 'human',
      [P.createdAfter]: '2026-03-01T00:00:00.000Z',
      [P.createdBefore]: '2026-03-03T00:00:00.000Z',
      [P.page]: '0',
      [P.pageSize]: '100',
    });
    expect(list.calls.map((c) => c.id)).toEqual(['a']);
  });
});

describe('iterators', () => {
  it('walks every campaign page by next_cursor', async () => {
    const pages: Record<string, unknown> = {
      '': { campaigns: [campaignItem({ id: 1 }), campaignItem({ id: 2 })], next: 'p2' },
      p2: { campaigns: [campaignItem({ id: 3 })], next: 'p3' },
      p3: { campaigns: [campaignItem({ id: 4 })], next: null },
    };
    stub.setHandler((r) => {
      const p = pages[r.query.get(CAMPAIGN_LIST_PARAMS.cursor) ?? ''] as { campaigns: unknown[]; next: string | null };
      return {
        status: 200,
        json: {
          total_count: 4,
          campaigns: p.campaigns,
          pagination: {
            has_next: p.next !== null,
            has_previous: false,
            next_cursor: p.next ?? '',
            previous_cursor: '',
          },
        },
      };
    });
    const ids: number[] = [];
    for await (const c of client.iterateCampaigns({ status: 'ready' }, { priority: 'poller' })) ids.push(c.id);
    expect(ids).toEqual([1, 2, 3, 4]);
    expect(stub.requests.map((r) => r.query.get(CAMPAIGN_LIST_PARAMS.cursor))).toEqual([null, 'p2', 'p3']);
    expect(stub.requests.every((r) => r.query.get(CAMPAIGN_LIST_PARAMS.status) === 'ready')).toBe(true);
    expect(stub.requests[0]?.query.get(CAMPAIGN_LIST_PARAMS.pageSize)).toBe('100');
  });

  it('stops with a protocol error when a cursor leads back to a page already read', async () => {
    stub.setHandler(() => ({
      status: 200,
      json: {
        total_count: 1,
        campaigns: [campaignItem()],
        pagination: { has_next: true, has_previous: false, next_cursor: 'same' },
      },
    }));
    const seen: number[] = [];
    const e = await (async () => {
      for await (const c of client.iterateCampaigns()) seen.push(c.id);
    })().catch((err: unknown) => err);
    expect(e).toBeInstanceOf(OutreachError);
    expect((e as OutreachError).kind).toBe('protocol');
    expect(stub.requests).toHaveLength(2);
  });

  it('walks contact pages by number until has_next is false, from the given page', async () => {
    stub.setHandler((r) => {
      const page = Number(r.query.get(CONTACT_LIST_PARAMS.page));
      return {
        status: 200,
        json: {
          total_count: page === 1 ? 5 : null,
          contacts: [contact({ id: page * 10 + 1 }), contact({ id: page * 10 + 2 })],
          pagination: { has_next: page < 3, has_previous: page > 0, next_page: page + 1, previous_page: page - 1 },
        },
      };
    });
    const ids: number[] = [];
    for await (const c of client.iterateContacts(9, { page: 1, pageSize: 2 })) ids.push(c.id);
    expect(ids).toEqual([11, 12, 21, 22, 31, 32]);
    expect(stub.requests.map((r) => r.query.get(CONTACT_LIST_PARAMS.page))).toEqual(['1', '2', '3']);
    expect(stub.requests.every((r) => r.query.get(CONTACT_LIST_PARAMS.pageSize) === '2')).toBe(true);
  });

  it('walks call pages from 0, counting pages itself when next_page is missing', async () => {
    stub.setHandler((r) => {
      const page = Number(r.query.get(CALL_LIST_PARAMS.page));
      return {
        status: 200,
        json: {
          total_count: 3,
          calls: [call({ id: `call-${page}` })],
          pagination: { page_index: page, page_size: 1, has_next: page < 2, has_previous: page > 0 },
        },
      };
    });
    const ids: string[] = [];
    for await (const c of client.iterateCampaignCalls(9)) ids.push(c.id);
    expect(ids).toEqual(['call-0', 'call-1', 'call-2']);
    expect(stub.requests.map((r) => r.query.get(CALL_LIST_PARAMS.pageSize))).toEqual(['100', '100', '100']);
  });
});
