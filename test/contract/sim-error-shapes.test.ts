/**
 * Simulator conformance to the spec's error shapes (spec, Errors): campaign endpoints answer invalid fields with the
 * campaign envelope `{success: false, error: "INVALID_REQUEST", message, field}`, never with the validation body;
 * the contacts endpoint keeps the validation body `{<field>: [messages], non_field_errors: [...]}`.
 */
import { CampaignErrorBody, ValidationErrorBody } from '../../src/outreach/schemas.js';
import { createCampaign, phoneBody, seedAgent, startFixture, type Fixture, type Res } from '../support/sim.js';

let fx: Fixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(() => fx.sim.close());
beforeEach(() => {
  fx.sim.control.reset();
  seedAgent(fx);
});

/** The exact campaign envelope for an invalid field: four members, `message` naming the field. */
function expectInvalidField(r: Res, field: string): void {
  expect(r.status).toBe(400);
  expect(r.body).toEqual({
    success: false,
    error: 'INVALID_REQUEST',
    message: expect.stringMatching(new RegExp(`^${field.replace('.', '\\.')}: \\S`)) as unknown,
    field,
  });
  expect(CampaignErrorBody.safeParse(r.body).success).toBe(true);
  expect(ValidationErrorBody.safeParse(r.body).success).toBe(false);
}

const CASES: [label: string, field: string, body: Record<string, unknown>][] = [
  ['a 256-character name', 'name', { name: 'x'.repeat(256) }],
  ['retries 6', 'retries', { retries: 6 }],
  ['message_limit 0', 'message_limit', { message_limit: 0 }],
  ['message_limit 10,001', 'message_limit', { message_limit: 10_001 }],
  ['max_iterations 1', 'cycles.max_iterations', { cycles: { enabled: true, max_iterations: 1 } }],
  ['max_iterations 13', 'cycles.max_iterations', { cycles: { enabled: true, max_iterations: 13 } }],
  ['cooldown_minutes 1,441', 'cycles.cooldown_minutes', { cycles: { enabled: true, cooldown_minutes: 1441 } }],
];

describe('POST /campaigns: invalid fields -> campaign envelope', () => {
  it.each(CASES)('%s -> 400 INVALID_REQUEST naming %s, nothing created', async (_label, field, extra) => {
    const r = await fx.api.post('/campaigns', phoneBody(fx, extra));
    expectInvalidField(r, field);
    expect(fx.sim.control.requests().filter((q) => q.status === 201)).toHaveLength(0);
    expect((await fx.api.get('/campaigns')).body.total_count).toBe(0);
  });

  it('several invalid fields: the first in the order of the body table is named', async () => {
    const r = await fx.api.post(
      '/campaigns',
      phoneBody(fx, {
        name: 'x'.repeat(256),
        retries: 6,
        message_limit: 0,
        cycles: { enabled: true, max_iterations: 1 },
      }),
    );
    expectInvalidField(r, 'name');
    const next = await fx.api.post(
      '/campaigns',
      phoneBody(fx, { retries: 6, message_limit: 0, cycles: { enabled: true, max_iterations: 1 } }),
    );
    expectInvalidField(next, 'retries');
  });

  it('a malformed or non-object body -> INVALID_REQUEST without a field', async () => {
    for (const bad of ['{"name": ', '[1,2]']) {
      const r = await fx.api.post('/campaigns', bad);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ success: false, error: 'INVALID_REQUEST', message: expect.any(String) as unknown });
    }
  });
});

describe('PATCH /campaigns/{id}: invalid fields -> campaign envelope', () => {
  it.each(CASES)('%s -> 400 INVALID_REQUEST naming %s, campaign unchanged', async (_label, field, extra) => {
    const id = await createCampaign(fx, phoneBody(fx, { cycles: { enabled: true, max_iterations: 3 } }));
    const before = (await fx.api.get(`/campaigns/${id}`)).body;
    // A PATCH may not carry cycles.enabled (IMMUTABLE_FIELD): send the rest of the cycles block.
    const patch = { ...extra };
    if (typeof patch.cycles === 'object' && patch.cycles !== null) {
      const { enabled: _enabled, ...rest } = patch.cycles as Record<string, unknown>;
      patch.cycles = rest;
    }
    const r = await fx.api.patch(`/campaigns/${id}`, patch);
    expectInvalidField(r, field);
    expect((await fx.api.get(`/campaigns/${id}`)).body).toEqual(before);
  });

  it('a malformed body -> INVALID_REQUEST without a field', async () => {
    const id = await createCampaign(fx, phoneBody(fx));
    const r = await fx.api.patch(`/campaigns/${id}`, '{"retries": ');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ success: false, error: 'INVALID_REQUEST', message: expect.any(String) as unknown });
  });
});

describe('POST /campaigns/{id}/contacts keeps the validation body', () => {
  it.each([
    ['no contacts', 'contacts', {}],
    [
      'more than 1000 contacts',
      'contacts',
      { contacts: Array.from({ length: 1001 }, (_, i) => ({ contact: `+5255${i}` })) },
    ],
    ['a bad if_duplicate', 'if_duplicate', { contacts: [{ contact: '+525512345678' }], if_duplicate: 'merge' }],
    ['a non-string name', 'contacts.0.name', { contacts: [{ contact: '+525512345678', name: 7 }] }],
  ])('%s -> 400 {%s: [...], non_field_errors: []}', async (_label, field, body) => {
    const id = await createCampaign(fx, phoneBody(fx));
    const r = await fx.api.post(`/campaigns/${id}/contacts`, body);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ [field]: [expect.any(String)], non_field_errors: [] });
    expect(ValidationErrorBody.safeParse(r.body).success).toBe(true);
    expect(r.body).not.toHaveProperty('success');
  });

  it('a malformed body -> only non_field_errors', async () => {
    const id = await createCampaign(fx, phoneBody(fx));
    const r = await fx.api.post(`/campaigns/${id}/contacts`, '{"contacts": [');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ non_field_errors: [expect.stringMatching(/JSON/)] });
  });
});

describe('an injected 400 (a service stricter than the spec)', () => {
  it('answers the given body, or the envelope of the route family without one', async () => {
    const body = { success: false, error: 'INVALID_REQUEST', message: 'name: taken.', field: 'name' };
    fx.sim.control.injectFaults([
      { status: 400, match: /^POST \/api\/v1\.0\/campaigns$/, body },
      { status: 400, match: /^POST \/api\/v1\.0\/campaigns$/ },
      { status: 400, match: /^POST \/api\/v1\.0\/enduser$/ },
    ]);
    let r = await fx.api.post('/campaigns', phoneBody(fx));
    expect([r.status, r.body]).toEqual([400, body]);
    r = await fx.api.post('/campaigns', phoneBody(fx));
    expect([r.status, r.body]).toEqual([
      400,
      { success: false, error: 'INVALID_REQUEST', message: 'Invalid request (injected).' },
    ]);
    r = await fx.api.post('/enduser', { display_name: 'Ana' });
    expect([r.status, r.body]).toEqual([400, { error: 400, message: 'Invalid request (injected).' }]);
    // Nothing was created by the refused requests; the next one goes through.
    expect((await fx.api.post('/campaigns', phoneBody(fx))).status).toBe(201);
    expect((await fx.api.get('/campaigns')).body.total_count).toBe(1);
  });
});
