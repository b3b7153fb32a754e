/**
 * Which requests the client retries, how often, and with which Idempotency-Key; timeouts and refused connections.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OutreachClient, type OutreachClientOptions } from '../../src/outreach/client.js';
import { OutreachError, OutreachInputError } from '../../src/outreach/errors.js';
import { RateLimiter } from '../../src/outreach/limiter.js';
import type { CreateCampaignInput } from '../../src/outreach/schemas.js';
import { MAX_CONTACTS_PER_BATCH } from '../../src/outreach/unspecified.js';
import { englishErrorText } from '../../src/render/service-error.js';
import { campaignDetail, startStub, type Stub, type StubReply } from '../support/stub-outreach.js';

const KEY = 'retry-test-key-abcdef123456';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let stub: Stub;
let limiter: RateLimiter;
const clients: OutreachClient[] = [];

function client(over: Partial<OutreachClientOptions> = {}): OutreachClient {
  const c = new OutreachClient({ baseUrl: stub.baseUrl, apiKey: KEY, limiter, retryBaseMs: 5, ...over });
  clients.push(c);
  return c;
}

/** Answers the replies in turn, then the last one forever. */
function sequence(...replies: StubReply[]): void {
  stub.setHandler((r) => replies[Math.min(r.n, replies.length - 1)] as StubReply);
}

async function failure(p: Promise<unknown>): Promise<OutreachError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(OutreachError);
  return e as OutreachError;
}

const created: StubReply = { status: 201, json: { success: true, campaign: campaignDetail({ id: 9 }) } };
const ok: StubReply = { status: 200, json: { success: true, campaign: campaignDetail({ id: 9 }) } };
const unavailable: StubReply = { status: 503, json: { error: 503, message: 'maintenance' } };
const input: CreateCampaignInput = {
  name: 'Spring',
  agent_id: '6f1c2d3e-4b5a-4c6d-8e7f-000000000001',
  integration_id: 'int-1',
  integration_type: 'phone_call',
};
const batchOk: StubReply = {
  status: 200,
  json: {
    success: true,
    summary: { created: 1, updated: 0, skipped_duplicate: 0, failed: 0 },
    results: [{ index: 0, status: 'created', id: '1', contact: '+525512345678' }],
  },
};

beforeEach(async () => {
  stub = await startStub();
  limiter = new RateLimiter({ perSecond: 100, windowMs: 10, marginMs: 5 });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await limiter.stop();
  await stub.close();
});

describe('idempotent POSTs', () => {
  it('retries createCampaign on 503 and 502 with the same generated Idempotency-Key, each try through the limiter', async () => {
    sequence(unavailable, { status: 502, text: '<html>bad gateway</html>' }, created);
    const c = await client().createCampaign(input);
    expect(c.id).toBe(9);
    expect(stub.requests).toHaveLength(3);
    const keys = stub.requests.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toMatch(UUID);
    expect(new Set(keys).size).toBe(1);
    expect(stub.requests.every((r) => r.method === 'POST' && r.path === '/campaigns')).toBe(true);
    expect(stub.requests[2]?.json).toEqual(input);
    expect(limiter.started()).toBe(3);
  });

  it("uses the caller's Idempotency-Key on every try, and a new one per call otherwise", async () => {
    sequence({ status: 504, text: '' }, created);
    await client().createCampaign(input, { idempotencyKey: 'caller-key-1' });
    expect(stub.requests.map((r) => r.headers['idempotency-key'])).toEqual(['caller-key-1', 'caller-key-1']);

    stub.requests.length = 0;
    sequence(created);
    const cl = client();
    await cl.createCampaign(input);
    await cl.createCampaign(input);
    const [a, b] = stub.requests.map((r) => r.headers['idempotency-key']);
    expect(a).toMatch(UUID);
    expect(b).toMatch(UUID);
    expect(a).not.toBe(b);
  });

  it('retries addContacts after a dropped connection and a 504, with the same key', async () => {
    sequence('destroy', { status: 504, text: 'gateway timeout' }, batchOk);
    const res = await client().addContacts(3, { contacts: [{ contact: '+525512345678', name: 'Ana' }] });
    expect(res.summary.created).toBe(1);
    expect(stub.requests).toHaveLength(3);
    const keys = new Set(stub.requests.map((r) => r.headers['idempotency-key']));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(UUID);
    expect(stub.requests[0]?.json).toEqual({ contacts: [{ contact: '+525512345678', name: 'Ana' }] });
  });

  it('gives up after maxRetries and reports how many attempts were made', async () => {
    sequence(unavailable);
    const e = await failure(client({ maxRetries: 2 }).createCampaign(input));
    expect(e.kind).toBe('service');
    expect(e.status).toBe(503);
    expect(e.attempts).toBe(3);
    expect(stub.requests).toHaveLength(3);
  });
});

describe('requests that are not safe to repeat', () => {
  it('does not retry PATCH on 503', async () => {
    sequence(unavailable, ok);
    const e = await failure(client().updateCampaign(9, { name: 'x' }));
    expect(e.status).toBe(503);
    expect(e.endpoint).toBe('PATCH /campaigns/{id}');
    expect(e.attempts).toBe(1);
    expect(stub.requests).toHaveLength(1);
  });

  it('does not retry a lifecycle action, a message or a new end user on 502/503/504', async () => {
    sequence({ status: 502, text: '' }, ok);
    await failure(client().campaignAction(9, 'pause'));
    sequence({ status: 504, text: '' });
    await failure(client().sendMessage({ agent_id: 'a', end_user_id: 'e', content: 'hi' }));
    await failure(client().createEndUser({ display_name: 'Ana', info: '' }));
    expect(stub.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /campaigns/9/pause',
      'POST /message',
      'POST /enduser',
    ]);
    // no Idempotency-Key where the spec documents none
    expect(stub.requests.every((r) => r.headers['idempotency-key'] === undefined)).toBe(true);
  });

  it("sends a message's Idempotency-Key when given, and still does not retry it on 502/503/504 (the spec documents no key there)", async () => {
    sequence({ status: 503, text: '' }, ok);
    const key = '5b0c7f9e-2a41-4d8e-9c3b-7e6f5a4d3c2b';
    const e = await failure(
      client().sendMessage({ agent_id: 'a', end_user_id: 'e', content: 'hi' }, { idempotencyKey: key }),
    );
    expect(e.status).toBe(503);
    expect(stub.requests).toHaveLength(1);
    expect(stub.requests[0]?.headers['idempotency-key']).toBe(key);
  });

  it('retries PATCH and a lifecycle action after a 429 (the request was not processed)', async () => {
    sequence({ status: 429, headers: { 'retry-after': '0' }, json: { success: false, error: 'RATE_LIMITED' } }, ok);
    await client().updateCampaign(9, { name: 'x' });
    expect(stub.requests).toHaveLength(2);

    stub.requests.length = 0;
    stub.setHandler((r) =>
      r.n === 0
        ? { status: 429, headers: { 'retry-after': '0' }, json: { success: false, error: 'RATE_LIMITED' } }
        : ok,
    );
    await client().campaignAction(9, 'activate');
    expect(stub.requests.map((r) => r.path)).toEqual(['/campaigns/9/activate', '/campaigns/9/activate']);
  });

  it('does not retry a PATCH that timed out (it may have been applied) and says so', async () => {
    sequence('hang');
    const e = await failure(client({ responseTimeoutMs: 150, connectTimeoutMs: 100 }).updateCampaign(9, { name: 'x' }));
    expect(e.kind).toBe('timeout');
    expect(e.mayHaveBeenApplied).toBe(true);
    expect(stub.requests).toHaveLength(1);
    expect(englishErrorText(e)).toMatch(/may or may not have been applied/);
  });
});

describe('safe methods', () => {
  it('retries GET on 504 and DELETE on 503, PUT on 502', async () => {
    sequence({ status: 504, text: '' }, ok);
    await client().getCampaign(9);
    sequence(unavailable, { status: 204 });
    stub.requests.length = 0;
    await client().deleteContact(9, 4);
    expect(stub.requests.map((r) => r.method)).toEqual(['DELETE', 'DELETE']);
    stub.requests.length = 0;
    sequence({ status: 502, text: '' }, { status: 200, json: { id: 'eu-1', display_name: 'Ana' } });
    await client().updateEndUser('eu-1', { display_name: 'Ana', info: '' });
    expect(stub.requests.map((r) => r.method)).toEqual(['PUT', 'PUT']);
  });

  it('does not retry a 500 or a 4xx', async () => {
    sequence({ status: 500, json: { success: false, error: 'SERVER_ERROR', message: 'boom' } }, ok);
    const e = await failure(client().getCampaign(9));
    expect(e.key).toBe('SERVER_ERROR');
    expect(stub.requests).toHaveLength(1);
  });

  it('gives up on repeated 429s after maxRetries', async () => {
    sequence({ status: 429, headers: { 'retry-after': '0' }, json: { success: false, error: 'RATE_LIMITED' } });
    const e = await failure(client({ maxRetries: 2 }).getCampaign(9));
    expect(e.status).toBe(429);
    expect(e.key).toBe('RATE_LIMITED');
    expect(e.retryAfterSeconds).toBe(0);
    expect(stub.requests).toHaveLength(3);
  });
});

describe('timeouts and network errors', () => {
  it('turns a server that never answers into kind "timeout", retrying a GET', async () => {
    sequence('hang');
    const started = Date.now();
    const e = await failure(client({ responseTimeoutMs: 100, connectTimeoutMs: 100, maxRetries: 1 }).getCampaign(9));
    expect(e.kind).toBe('timeout');
    expect(e.endpoint).toBe('GET /campaigns/{id}');
    expect(e.attempts).toBe(2);
    expect(stub.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(englishErrorText(e)).toBe(
      "The outreach service can't be reached right now (it did not answer in time); nothing was changed.",
    );
  });

  it('turns headers that arrive but a body that stalls into kind "timeout"', async () => {
    const slow = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"success":true,'); // and nothing more
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    const port = (slow.address() as AddressInfo).port;
    try {
      const c = new OutreachClient({
        baseUrl: `http://127.0.0.1:${port}/api/v1.0`,
        apiKey: KEY,
        limiter,
        responseTimeoutMs: 100,
        maxRetries: 0,
      });
      clients.push(c);
      const e = await failure(c.getCampaign(1));
      expect(e.kind).toBe('timeout');
    } finally {
      slow.closeAllConnections();
      await new Promise((r) => slow.close(r));
    }
  });

  it('turns a refused connection into kind "network"; even a PATCH is retried then, since nothing was sent', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const c = new OutreachClient({
      baseUrl: `http://127.0.0.1:${port}/api/v1.0/`,
      apiKey: KEY,
      limiter,
      maxRetries: 2,
      retryBaseMs: 5,
    });
    clients.push(c);
    const e = await failure(c.updateCampaign(1, { name: 'x' }));
    expect(e.kind).toBe('network');
    expect(e.code).toBe('ECONNREFUSED');
    expect(e.mayHaveBeenApplied).toBe(false);
    expect(e.attempts).toBe(3);
    expect(englishErrorText(e)).toBe("The outreach service can't be reached right now; nothing was changed.");
  });

  it('stops waiting when the caller aborts, without retrying', async () => {
    sequence('hang');
    const ac = new AbortController();
    const p = client({ responseTimeoutMs: 5000 }).getCampaign(9, { signal: ac.signal });
    setTimeout(() => ac.abort(new Error('cancelled by user')), 50);
    await expect(p).rejects.toThrow('cancelled by user');
    expect(stub.requests).toHaveLength(1);
  });
});

describe('batch size', () => {
  it(`refuses more than ${MAX_CONTACTS_PER_BATCH} contacts before sending anything`, async () => {
    sequence(batchOk);
    const many = Array.from({ length: MAX_CONTACTS_PER_BATCH + 1 }, (_, i) => ({ contact: `+52155${i}` }));
    const e = await client()
      .addContacts(1, { contacts: many })
      .catch((err: unknown) => err);
    expect(e).toBeInstanceOf(OutreachInputError);
    expect(englishErrorText(e)).toBe(
      '1001 contacts were given in one batch, but the outreach service accepts at most 1000 per request; split them into batches of 1000.',
    );
    expect(stub.requests).toHaveLength(0);
    await client().addContacts(1, { contacts: many.slice(0, MAX_CONTACTS_PER_BATCH) });
    expect(stub.requests).toHaveLength(1);
  });
});
