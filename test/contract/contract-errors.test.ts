/**
 * Contract: every error condition the spec defines, produced by the real simulator and read by the real client
 * (OutreachError fields, and the catalog's English sentence, which never holds the API key); idempotent replays of create;
 * 429s absorbed by the client's retry; and the client's real limiter keeping under the simulator's real limit.
 */
import { OutreachClient } from '../../src/outreach/client.js';
import { OutreachError, OutreachInputError, fieldErrorsOf, parseErrorBody } from '../../src/outreach/errors.js';
import { RateLimiter } from '../../src/outreach/limiter.js';
import {
  CampaignErrorBody,
  GenericErrorBody,
  type CreateCampaignInput,
  type ErrorKey,
  type LifecycleAction,
  type UpdateCampaignInput,
} from '../../src/outreach/schemas.js';
import { ENGLISH } from '../../src/render/format.js';
import { englishErrorText, ERROR_KEY_SENTENCES } from '../../src/render/service-error.js';
import {
  CONTRACT_KEY,
  OTHER_ORG_KEY,
  expectHumanSentence,
  outreachError,
  phoneInput,
  phones,
  startContract,
  waInput,
  type Contract,
} from '../support/contract.js';

let ct: Contract;
beforeAll(async () => {
  ct = await startContract();
});
afterAll(() => ct.close());
beforeEach(() => ct.reset());

const campaignCount = async () => (await ct.client.listCampaigns({ includeArchived: true })).total_count;

/** A phone campaign moved straight to `status` in the simulator. */
async function campaignIn(status: 'pending' | 'active' | 'inactive' | 'finished'): Promise<number> {
  const { id } = await ct.client.createCampaign(phoneInput(ct));
  if (status !== 'pending') ct.sim.control.setCampaignStatus(id, status);
  return id;
}

describe('401 and organization scope', () => {
  const WRONG_KEY = 'wrong-key-93b1e0aa7c';

  it.each([
    ['GET /campaigns', (c: OutreachClient) => c.listCampaigns()],
    ['GET /campaigns/{id}', (c: OutreachClient) => c.getCampaign(1)],
    ['POST /campaigns', (c: OutreachClient) => c.createCampaign(phoneInput(ct))],
    ['POST /enduser', (c: OutreachClient) => c.createEndUser({ display_name: 'x', info: '' })],
  ])('%s with a wrong key -> 401, not retried, key not leaked', async (endpoint, call) => {
    const bad = ct.clientWith({ apiKey: WRONG_KEY });
    const err = await outreachError(call(bad));
    expect(err).toMatchObject({ kind: 'service', status: 401, endpoint, attempts: 1 });
    expect(err.key).toBeUndefined(); // generic envelope: numeric `error`, no key
    expect(err.serviceMessage).toBeTruthy();
    expect(englishErrorText(err)).toMatch(/API key/);
    expectHumanSentence(err, WRONG_KEY);
    expect(ct.sim.control.requests().filter((r) => r.status === 401)).toHaveLength(1);
    expect(await campaignCount()).toBe(0);
  });

  it('the 401 body is the generic envelope', async () => {
    const r = await fetch(`${ct.sim.baseUrl}/campaigns`, { headers: { authorization: `api-key ${WRONG_KEY}` } });
    expect(r.status).toBe(401);
    const text = await r.text();
    expect(GenericErrorBody.safeParse(JSON.parse(text)).success).toBe(true);
    expect(parseErrorBody(text).serviceMessage).toBeTruthy();
  });

  it("another organization's key sees none of this organization's data", async () => {
    const { id } = await ct.client.createCampaign(phoneInput(ct));
    const user = await ct.client.createEndUser({ display_name: 'Cliente', info: '' });
    const other = ct.clientWith({ apiKey: OTHER_ORG_KEY });
    expect((await other.listCampaigns()).total_count).toBe(0);
    expect(await outreachError(other.getCampaign(id))).toMatchObject({ status: 404, key: 'NOT_FOUND' });
    expect(await outreachError(other.getEndUser(user.id))).toMatchObject({ status: 404 });
    // Nor may it use this organization's agent.
    expect(await outreachError(other.createCampaign(phoneInput(ct)))).toMatchObject({
      status: 404,
      key: 'AGENT_NOT_FOUND',
    });
  });
});

describe('create campaign: 400, 404', () => {
  it.each([
    ['first_message on WhatsApp', () => waInput(ct, { first_message: 'Hola' })],
    ['template on phone', () => phoneInput(ct, { template: 'promo' })],
    ['template_alt on phone', () => phoneInput(ct, { template_alt: 'promo_alt' })],
  ])('%s -> 400 INVALID_REQUEST, nothing created', async (_label, input) => {
    const err = await outreachError(ct.client.createCampaign(input()));
    expect(err).toMatchObject({ kind: 'service', status: 400, key: 'INVALID_REQUEST', endpoint: 'POST /campaigns' });
    expect(err.serviceMessage).toBeTruthy();
    expect(englishErrorText(err)).toMatch(/^The outreach service refused the request: /);
    expectHumanSentence(err);
    expect(await campaignCount()).toBe(0);
  });

  it('several invalid fields -> 400 campaign envelope naming the first, with a sentence naming it', async () => {
    const err = await outreachError(
      ct.client.createCampaign(phoneInput(ct, { name: 'x'.repeat(256), retries: 9, message_limit: 0 })),
    );
    expect(err).toMatchObject({ kind: 'service', status: 400, key: 'INVALID_REQUEST', field: 'name' });
    expect(err.fieldErrors).toBeUndefined();
    expect(fieldErrorsOf(err, englishErrorText(err))).toEqual({
      fields: { name: [expect.stringMatching(/^Ensure .*255/)] },
      nonField: [],
    });
    const text = expectHumanSentence(err);
    expect(text).toMatch(/^The outreach service refused the request: name: Ensure .*255/);
    expect(await campaignCount()).toBe(0);
  });

  it('a contacts body the service refuses -> the validation body, read as field errors', async () => {
    const { id } = await ct.client.createCampaign(phoneInput(ct));
    // A name that is not a string passes the client (it does not check item types) and is refused by the service.
    const bad = { contact: '+525512345678', name: 7 as unknown as string };
    const err = await outreachError(ct.client.addContacts(id, { contacts: [bad] }));
    expect(err).toMatchObject({ kind: 'service', status: 400, key: undefined, field: undefined });
    expect(err.fieldErrors).toEqual({ 'contacts.0.name': [expect.any(String)], non_field_errors: [] });
    expect(fieldErrorsOf(err, englishErrorText(err))).toEqual({
      fields: { 'contacts.0.name': [expect.any(String)] },
      nonField: [],
    });
    expect(expectHumanSentence(err)).toMatch(/^The outreach service refused the input: contacts\.0\.name: /);
  });

  it('an integration_type that does not match the integration -> 400 INVALID_INTEGRATION_TYPE', async () => {
    const err = await outreachError(ct.client.createCampaign(phoneInput(ct, { integration_type: 'whatsapp' })));
    expect(err).toMatchObject({ status: 400, key: 'INVALID_INTEGRATION_TYPE' });
    expectHumanSentence(err);
  });

  it('unknown agent -> 404 AGENT_NOT_FOUND, naming the agent', async () => {
    const agentId = '3f0e8a52-9d4b-4c1e-8f7a-2b6d5c4e3a10';
    const err = await outreachError(ct.client.createCampaign(phoneInput(ct, { agent_id: agentId })));
    expect(err).toMatchObject({ status: 404, key: 'AGENT_NOT_FOUND' });
    expect(expectHumanSentence(err)).toContain(`Agent ${agentId} was not found`);
  });

  it("another agent's integration -> 404 INTEGRATION_NOT_FOUND, naming the integration", async () => {
    const other = ct.sim.control.addAgent({ name: 'Luis' });
    const foreign = ct.sim.control.addIntegration({ agentId: other.id, type: 'phone_call' }).id;
    const err = await outreachError(ct.client.createCampaign(phoneInput(ct, { integration_id: foreign })));
    expect(err).toMatchObject({ status: 404, key: 'INTEGRATION_NOT_FOUND' });
    expect(expectHumanSentence(err)).toContain(`Integration ${foreign} was not found`);
    const none = await outreachError(ct.client.createCampaign(phoneInput(ct, { integration_id: 'int-nope' })));
    expect(none).toMatchObject({ status: 404, key: 'INTEGRATION_NOT_FOUND' });
    expect(await campaignCount()).toBe(0);
  });
});

describe('invalid campaign fields: the campaign envelope read back as a field error', () => {
  const cases: [label: string, field: string, input: Partial<UpdateCampaignInput>][] = [
    ['a 256-character name', 'name', { name: 'x'.repeat(256) }],
    ['retries 6', 'retries', { retries: 6 }],
    ['message_limit 0', 'message_limit', { message_limit: 0 }],
    ['message_limit 10,001', 'message_limit', { message_limit: 10_001 }],
    ['max_iterations 1', 'cycles.max_iterations', { cycles: { max_iterations: 1 } }],
    ['max_iterations 13', 'cycles.max_iterations', { cycles: { max_iterations: 13 } }],
    ['cooldown_minutes 1,441', 'cycles.cooldown_minutes', { cycles: { cooldown_minutes: 1441 } }],
  ];

  function expectFieldError(err: OutreachError, endpoint: string, field: string): void {
    expect(err).toMatchObject({ kind: 'service', status: 400, key: 'INVALID_REQUEST', endpoint, field });
    const { fields, nonField } = fieldErrorsOf(err, englishErrorText(err));
    expect(Object.keys(fields)).toEqual([field]);
    expect(fields[field]![0]).not.toMatch(new RegExp(`^${field}:`)); // the block already names the field
    expect(nonField).toEqual([]);
    expect(expectHumanSentence(err)).toContain(`refused the request: ${field}: `);
  }

  it.each(cases)('create with %s -> INVALID_REQUEST on %s', async (_label, field, input) => {
    const { cycles, ...rest } = input;
    const body = phoneInput(ct, {
      ...rest,
      ...(cycles ? { cycles: { enabled: true, mode: 'cooldown', ...cycles } } : {}),
    } as Partial<CreateCampaignInput>);
    expectFieldError(await outreachError(ct.client.createCampaign(body)), 'POST /campaigns', field);
    expect(await campaignCount()).toBe(0);
  });

  it.each(cases)('update with %s -> INVALID_REQUEST on %s', async (_label, field, input) => {
    const { id } = await ct.client.createCampaign(
      phoneInput(ct, { cycles: { enabled: true, mode: 'cooldown', max_iterations: 3 } }),
    );
    expectFieldError(await outreachError(ct.client.updateCampaign(id, input)), 'PATCH /campaigns/{id}', field);
    expect((await ct.client.getCampaign(id)).cycles?.max_iterations).toBe(3);
  });
});

describe('402 BILLING_LIMIT_REACHED', () => {
  it('on create, activate and resume; pause and no-op resume still succeed', async () => {
    const pending = await campaignIn('pending');
    const inactive = await campaignIn('inactive');
    const active = await campaignIn('active');
    ct.sim.control.setBillingLimitReached(true);

    const create = await outreachError(ct.client.createCampaign(phoneInput(ct)));
    expect(create).toMatchObject({ status: 402, key: 'BILLING_LIMIT_REACHED' });
    expectHumanSentence(create);
    expect(await campaignCount()).toBe(3);

    const activate = await outreachError(ct.client.campaignAction(pending, 'activate'));
    expect(activate).toMatchObject({ status: 402, key: 'BILLING_LIMIT_REACHED', action: 'activate' });
    expect(expectHumanSentence(activate)).toMatch(/can't be activated/);

    const resume = await outreachError(ct.client.campaignAction(inactive, 'resume'));
    expect(resume).toMatchObject({ status: 402, key: 'BILLING_LIMIT_REACHED', action: 'resume' });
    expect(expectHumanSentence(resume)).toMatch(/can't be resumed/);

    expect((await ct.client.getCampaign(pending)).status).toBe('pending');
    expect((await ct.client.getCampaign(inactive)).status).toBe('inactive');
    expect((await ct.client.campaignAction(active, 'resume')).status).toBe('active');
    expect((await ct.client.campaignAction(active, 'pause')).status).toBe('inactive');

    ct.sim.control.setBillingLimitReached(false);
    expect((await ct.client.campaignAction(pending, 'activate')).status).toBe('active');
  });
});

describe('409 INVALID_STATUS_TRANSITION', () => {
  it.each<[string, 'pending' | 'active' | 'inactive' | 'finished', LifecycleAction, string[], RegExp]>([
    ['activate a paused campaign', 'inactive', 'activate', ['pause', 'resume', 'archive'], /resume it/],
    ['activate an active campaign', 'active', 'activate', ['pause', 'resume', 'archive'], /can't be activated/],
    ['activate a finished campaign', 'finished', 'activate', ['archive'], /It can be archived\.$/],
    ['resume a pending campaign', 'pending', 'resume', ['activate', 'archive'], /activated or archived/],
    ['pause a pending campaign', 'pending', 'pause', ['activate', 'archive'], /can't be paused/],
  ])('%s -> current_status and valid_targets', async (_label, from, action, targets, sentence) => {
    const id = await campaignIn(from);
    const err = await outreachError(ct.client.campaignAction(id, action));
    expect(err).toMatchObject({
      kind: 'service',
      status: 409,
      key: 'INVALID_STATUS_TRANSITION',
      currentStatus: from,
      validTargets: targets,
      action,
      endpoint: `POST /campaigns/{id}/${action}`,
    });
    const text = expectHumanSentence(err);
    expect(text).toContain(`The campaign is ${from}`);
    expect(text).toMatch(sentence);
    expect((await ct.client.getCampaign(id)).status).toBe(from);
  });
});

describe('400 UNKNOWN_ACTION', () => {
  it('the client refuses an unknown action locally; the simulator answers it with UNKNOWN_ACTION', async () => {
    const id = await campaignIn('pending');
    ct.sim.control.clearRequests();
    // The client checks the action before sending: nothing reaches the service.
    await expect(ct.client.campaignAction(id, 'restart' as LifecycleAction)).rejects.toThrow(OutreachInputError);
    expect(ct.sim.control.requests()).toHaveLength(0);
    const local = await ct.client.campaignAction(id, 'restart' as LifecycleAction).catch((e: unknown) => e);
    expect(englishErrorText(local)).toMatch(
      /Campaign action "restart" is not one of: activate, pause, resume, archive/,
    );

    // So the service's answer is checked raw, then read with the client's own parser and sentences.
    const r = await fetch(`${ct.sim.baseUrl}/campaigns/${id}/restart`, {
      method: 'POST',
      headers: { authorization: `api-key ${CONTRACT_KEY}` },
    });
    expect(r.status).toBe(400);
    const text = await r.text();
    const body = CampaignErrorBody.parse(JSON.parse(text));
    expect(body).toMatchObject({ success: false, error: 'UNKNOWN_ACTION' });
    const err = new OutreachError({
      kind: 'service',
      endpoint: 'POST /campaigns/{id}/restart',
      status: r.status,
      ...parseErrorBody(text, [CONTRACT_KEY]),
    });
    expect(err.key).toBe('UNKNOWN_ACTION');
    expect(expectHumanSentence(err)).toBe(ENGLISH.t(ERROR_KEY_SENTENCES.UNKNOWN_ACTION));
  });
});

describe('PATCH: IMMUTABLE_FIELD and finished campaigns', () => {
  it.each<[string, UpdateCampaignInput]>([
    ['cycles.enabled', { cycles: { enabled: false } }],
    ['cycles.mode', { cycles: { mode: 'scheduled' } } as UpdateCampaignInput],
    ['agent_id', { agent_id: '3f0e8a52-9d4b-4c1e-8f7a-2b6d5c4e3a10' } as UpdateCampaignInput],
    ['integration_id', { integration_id: 'int-other' } as UpdateCampaignInput],
    ['integration_type', { integration_type: 'whatsapp' } as UpdateCampaignInput],
  ])('%s -> IMMUTABLE_FIELD with field, campaign unchanged', async (field, patch) => {
    const c = await ct.client.createCampaign(
      phoneInput(ct, { cycles: { enabled: true, mode: 'cooldown', max_iterations: 2 } }),
    );
    const err = await outreachError(ct.client.updateCampaign(c.id, { name: 'Otro nombre', ...patch }));
    expect(err).toMatchObject({ kind: 'service', status: 400, key: 'IMMUTABLE_FIELD', field });
    expect(expectHumanSentence(err)).toContain(`The setting "${field}" can't be changed`);
    expect(await ct.client.getCampaign(c.id)).toEqual(c);
  });

  it('a finished campaign cannot be updated', async () => {
    const id = await campaignIn('finished');
    const err = await outreachError(ct.client.updateCampaign(id, { name: 'x' }));
    expect(err).toMatchObject({ status: 409, key: 'CAMPAIGN_FINISHED' });
    expectHumanSentence(err);
  });
});

describe('contacts: CONTACT_NOT_DELETABLE and batch item errors', () => {
  it.each(['sending', 'answered', 'voicemail', 'retrying', 'converted'])(
    'a contact in %s -> 409 CONTACT_NOT_DELETABLE, still there',
    async (status) => {
      const id = await campaignIn('pending');
      await ct.client.addContacts(id, { contacts: [{ contact: phones(1)[0] as string }] });
      ct.sim.control.setContactStatus(id, 1, status);
      const err = await outreachError(ct.client.deleteContact(id, 1));
      expect(err).toMatchObject({ status: 409, key: 'CONTACT_NOT_DELETABLE' });
      expect(expectHumanSentence(err)).toMatch(/^Contact 1 can't be deleted/);
      expect((await ct.client.getContact(id, 1)).status).toBe(status);
    },
  );

  it('item errors INVALID_PHONE_NUMBER, MISSING_CONTACT, SERVER_ERROR, each with a sentence', async () => {
    const id = await campaignIn('pending');
    ct.sim.control.failContactItems(/99$/);
    const r = await ct.client.addContacts(id, {
      contacts: [{ contact: '+52' }, { contact: '' }, { contact: '+525512345699' }, { contact: '+525512345600' }],
    });
    expect(r.results.map((x) => x.error ?? x.status)).toEqual([
      'INVALID_PHONE_NUMBER',
      'MISSING_CONTACT',
      'SERVER_ERROR',
      'created',
    ]);
    expect(r.summary).toEqual({ created: 1, updated: 0, skipped_duplicate: 0, failed: 3 });
    for (const x of r.results.filter((y) => y.status === 'failed')) {
      expect(ENGLISH.t(ERROR_KEY_SENTENCES[x.error as ErrorKey])).toMatch(/^[A-Z].{20,}\.$/);
    }
  });
});

describe('idempotent create', () => {
  it('the same Idempotency-Key twice creates one campaign and returns it both times', async () => {
    const key = '5b1c0c8e-6a7e-4f4e-9e38-0b0d6b7c2a11';
    const one = await ct.client.createCampaign(phoneInput(ct), { idempotencyKey: key });
    const two = await ct.client.createCampaign(phoneInput(ct, { name: 'Changed later' }), { idempotencyKey: key });
    expect(two).toEqual(one);
    expect(await campaignCount()).toBe(1);
    const reqs = ct.sim.control.requests().filter((r) => r.route === 'createCampaign');
    expect(reqs.map((r) => [r.status, r.replayed, r.headers['idempotency-key']])).toEqual([
      [201, false, key],
      [201, true, key],
    ]);
    // Without the key, the same body creates another.
    await ct.client.createCampaign(phoneInput(ct));
    expect(await campaignCount()).toBe(2);
  });

  it.each([502, 503] as const)(
    'a response lost after processing (%i) is retried with the same key: the original campaign, only one',
    async (status) => {
      ct.sim.control.injectFaults({ status, when: 'after', match: /^POST \/api\/v1\.0\/campaigns$/ });
      const c = await ct.client.createCampaign(phoneInput(ct, { name: 'Una sola vez' }));
      expect(c.name).toBe('Una sola vez');
      const reqs = ct.sim.control.requests().filter((r) => r.route === 'createCampaign');
      expect(reqs.map((r) => [r.status, r.replayed])).toEqual([
        [status, false],
        [201, true],
      ]);
      expect(reqs[1]?.headers['idempotency-key']).toBe(reqs[0]?.headers['idempotency-key']);
      const list = await ct.client.listCampaigns();
      expect(list.total_count).toBe(1);
      expect(list.campaigns[0]?.id).toBe(c.id);
    },
  );

  it('a 500 is not retried (not a retryable status) and gets a sentence', async () => {
    ct.sim.control.injectFaults({ status: 500, match: /^POST \/api\/v1\.0\/campaigns$/ });
    const err = await outreachError(ct.client.createCampaign(phoneInput(ct)));
    expect(err).toMatchObject({ status: 500, key: 'SERVER_ERROR', attempts: 1 });
    expectHumanSentence(err);
  });
});

describe('429 from the simulator', () => {
  it("a burst over the simulator's limit is absorbed by the client's retry after Retry-After", async () => {
    const id = await campaignIn('pending');
    ct.sim.control.clearRequests();
    ct.sim.control.setRateLimit(3);
    try {
      const got = await Promise.all(Array.from({ length: 6 }, () => ct.client.getCampaign(id)));
      expect(got.every((c) => c.id === id)).toBe(true);
      // The first 429 pauses the whole limiter for Retry-After (1 s), so the requests still queued wait instead of
      // drawing more 429s; each refused request was sent again and got its 200.
      const statuses = ct.sim.control.requests().map((r) => r.status);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
      expect(statuses.filter((s) => s === 200)).toHaveLength(6);
      expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    } finally {
      ct.sim.control.setRateLimit(false);
    }
  });

  it('an injected 429 on a lifecycle action is retried once the pause ends, and the action applies once', async () => {
    const id = await campaignIn('pending');
    ct.sim.control.clearRequests();
    ct.sim.control.injectFaults({ status: 429, retryAfter: 1, match: /\/activate$/ });
    expect((await ct.client.campaignAction(id, 'activate')).status).toBe('active');
    expect(ct.sim.control.requests().map((r) => r.status)).toEqual([429, 200]);
  });

  it('when retries run out, the 429 surfaces as RATE_LIMITED with Retry-After in the sentence', async () => {
    const id = await campaignIn('pending');
    const noRetry = ct.clientWith({ maxRetries: 0 });
    ct.sim.control.injectFaults({ status: 429, retryAfter: 1, match: /^GET / });
    const err = await outreachError(noRetry.getCampaign(id));
    expect(err).toMatchObject({ status: 429, key: 'RATE_LIMITED', retryAfterSeconds: 1 });
    expect(expectHumanSentence(err)).toMatch(/try again in 1 second\./);
  });
});

describe("the client's real limiter against the simulator's real limit", () => {
  it('a burst of 26 requests through new RateLimiter() gets no 429 from a 12/s simulator', async () => {
    const limiter = new RateLimiter();
    const own = await startContract({ rateLimitPerSecond: 12 }, limiter);
    try {
      const { id } = await own.client.createCampaign(phoneInput(own));
      const got = await Promise.all(Array.from({ length: 25 }, () => own.client.getCampaign(id)));
      expect(got).toHaveLength(25);
      const statuses = own.sim.control.requests().map((r) => r.status);
      expect(statuses).toHaveLength(26);
      expect(statuses.filter((s) => s === 429)).toEqual([]);
    } finally {
      await own.close();
    }
  });
});
