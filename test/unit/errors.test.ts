/**
 * Error bodies of every shape read into OutreachError, protocol errors naming the field, the sentence shown to
 * people for every error key, and the API key kept out of all of it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { OutreachClient } from '../../src/outreach/client.js';
import { translator } from '../../src/i18n/translator.js';
import { OutreachError, OutreachInputError, fieldErrorsOf, parseErrorBody } from '../../src/outreach/errors.js';
import { RateLimiter } from '../../src/outreach/limiter.js';
import { ERROR_KEYS, type ErrorKey } from '../../src/outreach/schemas.js';
import { englishErrorText, ERROR_KEY_SENTENCES } from '../../src/render/service-error.js';
import { normalizeErrorFieldPath, UNSPECIFIED_ERROR_STATUS } from '../../src/outreach/unspecified.js';
import { campaignItem, startStub, type Stub, type StubReply } from '../support/stub-outreach.js';

const KEY = 'sk_live_SECRET_9f8e7d6c5b4a';

/** The catalog's sentence of each error key of the campaign envelope, in `locale`. */
function keySentences(locale: 'en' | 'es'): Record<ErrorKey, string> {
  const t = translator(locale);
  return Object.fromEntries(ERROR_KEYS.map((k) => [k, t.t(ERROR_KEY_SENTENCES[k])])) as Record<ErrorKey, string>;
}
const ERROR_SENTENCES = keySentences('en');

/** The field errors of `e`, a field without the service's message getting the error's English sentence. */
const fieldErrorsIn = (e: OutreachError) => fieldErrorsOf(e, englishErrorText(e));

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

function reply(r: StubReply): void {
  stub.setHandler(() => r);
}

async function failure(p: Promise<unknown>): Promise<OutreachError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(OutreachError);
  return e as OutreachError;
}

function campaignError(status: number, key: string, extra: Record<string, unknown> = {}): StubReply {
  return { status, json: { success: false, error: key, message: `service says ${key}`, field: '', ...extra } };
}

describe('ERROR_KEY_SENTENCES', () => {
  it.each(['en', 'es'] as const)('has one distinct, complete sentence for every error key (%s)', (locale) => {
    expect(Object.keys(ERROR_KEY_SENTENCES).sort()).toEqual([...ERROR_KEYS].sort());
    const sentences = keySentences(locale);
    for (const k of ERROR_KEYS) {
      const s = sentences[k];
      expect(s.length).toBeGreaterThan(20);
      expect(s).toMatch(/^[A-ZÁÉÍÓÚÑ¿¡].*\.$/);
    }
    expect(new Set(Object.values(sentences)).size).toBe(ERROR_KEYS.length);
  });

  it.each([...ERROR_KEYS])('turns a %s answer into a sentence for a person', async (key) => {
    reply(campaignError(UNSPECIFIED_ERROR_STATUS[key] ?? 400, key));
    const e = await failure(client.getCampaign(5));
    expect(e.kind).toBe('service');
    expect(e.key).toBe(key);
    expect(e.serviceMessage).toBe(`service says ${key}`);
    const s = englishErrorText(e);
    expect(s).toMatch(/^[A-Z].*\.$/);
    expect(s).not.toMatch(/undefined|null|\[object/);
  });
});

describe('campaign error envelope', () => {
  it('reads INVALID_STATUS_TRANSITION with the current status and valid targets', async () => {
    reply(
      campaignError(409, 'INVALID_STATUS_TRANSITION', {
        current_status: 'inactive',
        valid_targets: ['resume', 'archive'],
      }),
    );
    const e = await failure(client.campaignAction(5, 'activate'));
    expect(e).toMatchObject({
      status: 409,
      key: 'INVALID_STATUS_TRANSITION',
      currentStatus: 'inactive',
      validTargets: ['resume', 'archive'],
      action: 'activate',
      endpoint: 'POST /campaigns/{id}/activate',
    });
    expect(englishErrorText(e)).toBe(
      "The campaign is inactive, so it can't be activated. To restart a paused campaign, resume it. It can be resumed or archived.",
    );
  });

  it('words valid targets given as statuses too', async () => {
    reply(campaignError(409, 'INVALID_STATUS_TRANSITION', { current_status: 'finished', valid_targets: ['archived'] }));
    const e = await failure(client.campaignAction(5, 'pause'));
    expect(englishErrorText(e)).toBe("The campaign is finished, so it can't be paused. It can be archived.");
  });

  it('says the plan limit was reached, naming the action', async () => {
    reply(campaignError(402, 'BILLING_LIMIT_REACHED'));
    const e = await failure(client.campaignAction(5, 'resume'));
    expect(e.status).toBe(402);
    expect(englishErrorText(e)).toBe(
      "The organization's plan limit has been reached, so the campaign can't be resumed; ask an admin to raise the plan or pause another campaign.",
    );
  });

  it('names the immutable field', async () => {
    reply(campaignError(400, 'IMMUTABLE_FIELD', { field: 'cycles.mode' }));
    const e = await failure(client.updateCampaign(5, { name: 'x' }));
    expect(e.field).toBe('cycles.mode');
    expect(englishErrorText(e)).toBe(
      'The setting "cycles.mode" can\'t be changed once the campaign exists; create a new campaign to change it.',
    );
  });

  it('names what was not found', async () => {
    reply(campaignError(404, 'CONTACT_NOT_FOUND'));
    expect(englishErrorText(await failure(client.getContact(5, 7)))).toBe(
      'Contact 7 of campaign 5 was not found; it may have been deleted, or the id may be wrong.',
    );
    reply({ status: 404, json: { error: 404, message: 'Not found.' } });
    expect(englishErrorText(await failure(client.getCall('c-42')))).toBe(
      'Call c-42 was not found; it may have been deleted, or the id may be wrong.',
    );
    expect(englishErrorText(await failure(client.getCampaign(8)))).toBe(
      'Campaign 8 was not found; it may have been deleted, or the id may be wrong.',
    );
    reply(campaignError(404, 'AGENT_NOT_FOUND'));
    const e = await failure(
      client.createCampaign({ name: 'x', agent_id: 'ag-9', integration_id: 'in-1', integration_type: 'whatsapp' }),
    );
    expect(englishErrorText(e)).toMatch(/^Agent ag-9 was not found;/);
  });

  it('explains a contact that cannot be deleted', async () => {
    reply(campaignError(409, 'CONTACT_NOT_DELETABLE'));
    const e = await failure(client.deleteContact(5, 7));
    expect(e.endpoint).toBe('DELETE /campaigns/{id}/contacts/{contact_id}');
    expect(englishErrorText(e)).toBe(
      "Contact 7 can't be deleted because it has already been worked on; only contacts still queued or failed can be deleted.",
    );
  });

  it('passes on the reason of an INVALID_REQUEST', async () => {
    reply({
      status: 400,
      json: { success: false, error: 'INVALID_REQUEST', message: 'first_message is not allowed for whatsapp.' },
    });
    const e = await failure(
      client.createCampaign({ name: 'x', agent_id: 'a', integration_id: 'i', integration_type: 'whatsapp' }),
    );
    expect(englishErrorText(e)).toBe(
      'The outreach service refused the request: first_message is not allowed for whatsapp.',
    );
  });
});

describe('field errors from both shapes (fieldErrorsOf)', () => {
  const create = () =>
    client.createCampaign({ name: 'x', agent_id: 'a', integration_id: 'i', integration_type: 'phone_call' });

  it('reads the campaign envelope of an invalid field: the field, its message, a sentence naming it', async () => {
    reply({
      status: 400,
      json: { success: false, error: 'INVALID_REQUEST', message: 'Ensure this value is at most 5.', field: 'retries' },
    });
    const e = await failure(create());
    expect(e).toMatchObject({
      key: 'INVALID_REQUEST',
      field: 'retries',
      serviceMessage: 'Ensure this value is at most 5.',
    });
    expect(fieldErrorsIn(e)).toEqual({ fields: { retries: ['Ensure this value is at most 5.'] }, nonField: [] });
    expect(englishErrorText(e)).toBe(
      'The outreach service refused the request: retries: Ensure this value is at most 5.',
    );
  });

  it('drops a message prefix that repeats the field, and does not name the field twice', async () => {
    reply({
      status: 400,
      json: { success: false, error: 'INVALID_REQUEST', message: 'name: Too long.', field: 'name' },
    });
    const e = await failure(create());
    expect(fieldErrorsIn(e).fields).toEqual({ name: ['Too long.'] });
    expect(englishErrorText(e)).toBe('The outreach service refused the request: name: Too long.');
  });

  it('an envelope field without a message still names the field', async () => {
    reply({ status: 400, json: { success: false, error: 'INVALID_REQUEST', field: 'message_limit' } });
    const e = await failure(create());
    const sentence = 'The outreach service refused the request: the value of message_limit is not valid.';
    expect(englishErrorText(e)).toBe(sentence);
    expect(fieldErrorsIn(e).fields).toEqual({ message_limit: [sentence] });
  });

  it('reads the validation body: fields, and non_field_errors apart; empty lists dropped', async () => {
    reply({
      status: 400,
      json: { 'contacts[0].name': ['Not a valid string.'], if_duplicate: [], non_field_errors: ['Too many items.'] },
    });
    const e = await failure(client.addContacts(5, { contacts: [{ contact: '+525512345678' }] }));
    expect(fieldErrorsIn(e)).toEqual({
      fields: { 'contacts.0.name': ['Not a valid string.'] },
      nonField: ['Too many items.'],
    });
  });

  it('an envelope without a field has no field errors', async () => {
    reply({ status: 400, json: { success: false, error: 'INVALID_REQUEST', message: 'Malformed JSON body.' } });
    expect(fieldErrorsIn(await failure(create()))).toEqual({ fields: {}, nonField: [] });
  });

  it.each([
    ['cycles.max_iterations', 'cycles.max_iterations'],
    ['/cycles/max_iterations', 'cycles.max_iterations'],
    ['$.cycles.max_iterations', 'cycles.max_iterations'],
    ['cycles[max_iterations]', 'cycles.max_iterations'],
    ["cycles['cooldown_minutes']", 'cycles.cooldown_minutes'],
    ['cycles__cooldown_minutes', 'cycles.cooldown_minutes'],
    ['cycle_max_iterations', 'cycles.max_iterations'],
    ['cycle_schedule_start_date', 'cycles.schedule_start_date'],
    ['cycle_filter_statuses[0]', 'cycles.filter_statuses.0'],
    ['scheduling[mon][startTime]', 'scheduling.mon.startTime'],
    [' name ', 'name'],
    ['non_field_errors', 'non_field_errors'],
    ['cycle_current_iteration', 'cycle_current_iteration'],
  ])('reads the field path %j as %j', (raw, path) => {
    expect(normalizeErrorFieldPath(raw)).toBe(path);
  });
});

describe('generic envelope and validation body', () => {
  it('reads a 401 generic envelope and points to OUTREACH_API_KEY', async () => {
    reply({ status: 401, json: { error: 401, message: 'Invalid API key.' } });
    const e = await failure(client.getCampaign(5));
    expect(e.status).toBe(401);
    expect(e.key).toBeUndefined();
    expect(e.serviceMessage).toBe('Invalid API key.');
    expect(englishErrorText(e)).toBe(
      'The outreach service refused the API key; ask an admin to check OUTREACH_API_KEY.',
    );
  });

  it('reads a validation body with field and non-field errors', async () => {
    reply({
      status: 400,
      json: { contacts: ['This field is required.'], non_field_errors: ['Too many items.'] },
    });
    const e = await failure(client.addContacts(5, { contacts: [{ contact: '+525512345678' }] }));
    expect(e.fieldErrors).toEqual({ contacts: ['This field is required.'], non_field_errors: ['Too many items.'] });
    expect(englishErrorText(e)).toBe(
      'The outreach service refused the input: contacts: This field is required; Too many items.',
    );
  });

  it.each([
    [403, { error: 403, message: 'nope' }, ERROR_SENTENCES.FORBIDDEN],
    [429, { error: 429 }, ERROR_SENTENCES.RATE_LIMITED],
    [500, { error: 500 }, ERROR_SENTENCES.SERVER_ERROR],
    [503, { error: 503 }, 'The outreach service is temporarily unavailable; try again in a few minutes.'],
  ])('has a fallback sentence for HTTP %i', async (status, json, sentence) => {
    reply({ status, json });
    // PATCH: not retried on 503; maxRetries is 0 for 429
    expect(englishErrorText(await failure(client.updateCampaign(5, { name: 'x' })))).toBe(sentence);
  });

  it('tells how long to wait after a 429 with Retry-After', async () => {
    reply({ status: 429, headers: { 'retry-after': '3' }, json: { success: false, error: 'RATE_LIMITED' } });
    const e = await failure(client.getCampaign(5));
    expect(e.retryAfterSeconds).toBe(3);
    expect(englishErrorText(e)).toBe(
      'The outreach service is receiving too many requests right now; try again in 3 seconds.',
    );
  });

  it('drops an HTML error page but keeps a short plain-text one', async () => {
    reply({ status: 502, text: '<html><body><h1>502 Bad Gateway</h1></body></html>' });
    const e = await failure(client.updateCampaign(5, { name: 'x' }));
    expect(e.status).toBe(502);
    expect(e.serviceMessage).toBeUndefined();
    expect(parseErrorBody('upstream connect error')).toEqual({ serviceMessage: 'upstream connect error' });
  });
});

describe('protocol errors', () => {
  it('names the endpoint and the field path of a response that does not match the schema', async () => {
    reply({
      status: 200,
      json: {
        total_count: 1,
        campaigns: [campaignItem({ id: 'abc' })],
        pagination: { has_next: false, has_previous: false },
      },
    });
    const e = await failure(client.listCampaigns());
    expect(e.kind).toBe('protocol');
    expect(e.message).toContain('GET /campaigns');
    expect(e.message).toContain('campaigns[0].id: expected number');
    expect(englishErrorText(e)).toBe(
      "The outreach service sent an answer this app doesn't understand; the details are in the app's logs.",
    );
  });

  it('names a missing nested field and an unknown enum value', async () => {
    reply({ status: 200, json: { success: true, contact: { id: 1, status: 'queue' } } });
    const e = await failure(client.getContact(1, 1));
    expect(e.message).toContain('GET /campaigns/{id}/contacts/{contact_id}');
    expect(e.message).toContain('contact.contact: expected string');
    reply({ status: 200, json: [{ thread_id: 't', type: 'fax', sent_by: 'AI', sent_at: 'x' }] });
    const m = await failure(client.getMessages('t'));
    expect(m.message).toContain('[0].type: expected one of');
  });

  it('rejects a success body that is not JSON', async () => {
    reply({ status: 200, text: 'OK' });
    const e = await failure(client.getThread('t1'));
    expect(e.kind).toBe('protocol');
    expect(e.message).toBe('GET /thread/{id} returned an unexpected response: the body of HTTP 200 is not JSON');
  });
});

describe('secrets', () => {
  function expectNoKey(err: unknown): void {
    const texts = [
      String(err),
      (err as Error).message,
      (err as Error).stack ?? '',
      JSON.stringify(err),
      inspect(err, { depth: 10 }),
      englishErrorText(err),
    ];
    for (const t of texts) expect(t).not.toContain(KEY);
  }

  it('never lets the API key into an error, even when the service echoes it', async () => {
    const echo = (auth: string): StubReply[] => [
      { status: 401, json: { error: 401, message: `Invalid credentials: ${auth}` } },
      { status: 400, json: { success: false, error: 'INVALID_REQUEST', message: `bad ${auth}`, field: auth } },
      {
        status: 409,
        json: { success: false, error: 'INVALID_STATUS_TRANSITION', current_status: auth, valid_targets: [auth] },
      },
      { status: 400, json: { [auth]: [`key ${auth} refused`], non_field_errors: [auth] } },
      { status: 500, text: `internal error for ${auth}` },
    ];
    const errors: unknown[] = [];
    for (let i = 0; i < 5; i++) {
      stub.setHandler((r) => echo(String(r.headers.authorization))[i] as StubReply);
      errors.push(await failure(client.campaignAction(3, 'pause')));
    }
    // the stub really did get the key, and echoed it
    expect(stub.requests[0]?.headers.authorization).toBe(`api-key ${KEY}`);
    expect((errors[0] as OutreachError).serviceMessage).toBe('Invalid credentials: api-key [redacted]');
    for (const e of errors) expectNoKey(e);
  });

  it('keeps the key out of timeout, network and input errors', async () => {
    stub.setHandler(() => 'hang');
    const slow = new OutreachClient({
      baseUrl: stub.baseUrl,
      apiKey: KEY,
      limiter,
      maxRetries: 0,
      responseTimeoutMs: 80,
    });
    const timeout = await failure(slow.getCampaign(1));
    await slow.close();
    expect(timeout.kind).toBe('timeout');
    expectNoKey(timeout);

    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const down = new OutreachClient({
      baseUrl: `http://127.0.0.1:${port}/api/v1.0`,
      apiKey: KEY,
      limiter,
      maxRetries: 0,
    });
    const network = await failure(down.getCampaign(1));
    await down.close();
    expect(network.kind).toBe('network');
    expectNoKey(network);

    const badKey = `${KEY} \n`;
    let input: unknown;
    try {
      new OutreachClient({ baseUrl: stub.baseUrl, apiKey: badKey, limiter });
    } catch (e) {
      input = e;
    }
    expect(input).toBeInstanceOf(OutreachInputError);
    expectNoKey(input);
  });

  it('never repeats the raw message of an unknown error to a person', () => {
    expect(englishErrorText(new Error(`db password ${KEY}`))).toBe(
      "Something unexpected went wrong; the details are in the app's logs.",
    );
  });
});
