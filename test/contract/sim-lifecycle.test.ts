/** Simulator: the campaign state machine of the spec (lifecycle actions, no-ops, 409 bodies, 402 plan limit). */
import { CampaignEnvelope, CampaignErrorBody, type CampaignStatus } from '../../src/outreach/schemas.js';
import { createCampaign, phoneBody, seedAgent, startFixture, waBody, type Fixture } from '../support/sim.js';

let fx: Fixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(() => fx.sim.close());
beforeEach(() => {
  fx.sim.control.reset();
  seedAgent(fx);
});

async function campaignIn(status: CampaignStatus): Promise<number> {
  const id = await createCampaign(fx, phoneBody(fx));
  if (status !== 'pending') fx.sim.control.setCampaignStatus(id, status);
  return id;
}

/** The spec's table: next status, or 409 when the current status is not a source of the action. */
const TABLE: Record<string, Record<CampaignStatus, CampaignStatus | 409>> = {
  activate: { pending: 'active', ready: 'active', cooldown: 'active', active: 409, inactive: 409, finished: 409 },
  pause: { active: 'inactive', cooldown: 'inactive', inactive: 'inactive', pending: 409, ready: 409, finished: 409 },
  resume: { inactive: 'active', active: 'active', pending: 409, ready: 409, cooldown: 409, finished: 409 },
  archive: {
    pending: 'pending',
    ready: 'ready',
    active: 'active',
    inactive: 'inactive',
    cooldown: 'cooldown',
    finished: 'finished',
  },
};
/** Actions that succeed from each status (what valid_targets lists). */
const VALID: Record<CampaignStatus, string[]> = {
  pending: ['activate', 'archive'],
  ready: ['activate', 'archive'],
  cooldown: ['activate', 'pause', 'archive'],
  active: ['pause', 'resume', 'archive'],
  inactive: ['pause', 'resume', 'archive'],
  finished: ['archive'],
};

const cases = Object.entries(TABLE).flatMap(([action, row]) =>
  Object.entries(row).map(([from, to]) => [action, from as CampaignStatus, to] as const),
);

describe('POST /campaigns/{id}/{action}', () => {
  it.each(cases)('%s from %s -> %s', async (action, from, to) => {
    const id = await campaignIn(from);
    const r = await fx.api.post(`/campaigns/${id}/${action}`);
    if (to === 409) {
      expect(r.status).toBe(409);
      const body = CampaignErrorBody.parse(r.body);
      expect(body).toMatchObject({ success: false, error: 'INVALID_STATUS_TRANSITION', current_status: from });
      expect(body.valid_targets).toEqual(VALID[from]);
      expect(body.message).toContain(action);
      expect((await fx.api.get(`/campaigns/${id}`)).body.campaign.status).toBe(from);
    } else {
      expect(r.status).toBe(200);
      const { success, campaign } = CampaignEnvelope.parse(r.body);
      expect(success).toBe(true);
      expect(campaign.status).toBe(to);
      expect(campaign.archived).toBe(action === 'archive');
    }
  });

  it('tells to use resume when activating a paused campaign', async () => {
    const id = await campaignIn('inactive');
    const r = await fx.api.post(`/campaigns/${id}/activate`);
    expect(r.body.message).toMatch(/resume/);
  });

  it('archives once and treats a second archive as a no-op success; archived campaigns still move', async () => {
    const id = await campaignIn('ready');
    expect((await fx.api.post(`/campaigns/${id}/archive`)).body.campaign).toMatchObject({
      archived: true,
      status: 'ready',
    });
    expect((await fx.api.post(`/campaigns/${id}/archive`)).body.campaign).toMatchObject({
      archived: true,
      status: 'ready',
    });
    expect((await fx.api.post(`/campaigns/${id}/activate`)).body.campaign.status).toBe('active');
  });

  it('sets started_at on activation (seen on the list item)', async () => {
    const id = await campaignIn('pending');
    const before = (await fx.api.get('/campaigns')).body.campaigns[0];
    expect(before.started_at).toBeNull();
    await fx.api.post(`/campaigns/${id}/activate`);
    const after = (await fx.api.get('/campaigns')).body.campaigns[0];
    expect(Number.isNaN(Date.parse(after.started_at))).toBe(false);
    expect(after.ended_at).toBeNull();
  });

  it('starts iteration 1 of a cycles campaign on activation', async () => {
    const id = await createCampaign(fx, phoneBody(fx, { cycles: { enabled: true, max_iterations: 2 } }));
    await fx.api.post(`/campaigns/${id}/activate`);
    const item = (await fx.api.get('/campaigns')).body.campaigns[0];
    expect(item.cycle_current_iteration).toBe(1);
    expect(item.cycle_last_iteration_at).toEqual(expect.any(String));
  });

  it('answers 400 UNKNOWN_ACTION for other actions and 404 for unknown campaigns', async () => {
    const id = await campaignIn('ready');
    for (const action of ['start', 'stop', 'finish', 'ACTIVATE']) {
      const r = await fx.api.post(`/campaigns/${id}/${action}`);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ success: false, error: 'UNKNOWN_ACTION' });
    }
    const r = await fx.api.post('/campaigns/999/activate');
    expect([r.status, r.body.error]).toEqual([404, 'NOT_FOUND']);
  });

  it('ignores a request body on actions', async () => {
    const id = await campaignIn('ready');
    const r = await fx.api.post(`/campaigns/${id}/activate`, { status: 'finished' });
    expect(r.body.campaign.status).toBe('active');
  });
});

describe('plan limit (402 BILLING_LIMIT_REACHED)', () => {
  it('blocks create, activate and resume; no-op resume, pause and archive still succeed', async () => {
    const ready = await campaignIn('ready');
    const paused = await campaignIn('inactive');
    const active = await campaignIn('active');
    fx.sim.control.setBillingLimitReached(true);

    for (const [method, path, body] of [
      ['POST', '/campaigns', phoneBody(fx)],
      ['POST', '/campaigns', waBody(fx)],
      ['POST', `/campaigns/${ready}/activate`, undefined],
      ['POST', `/campaigns/${paused}/resume`, undefined],
    ] as const) {
      const r = await fx.api.req(method, path, body);
      expect(r.status).toBe(402);
      expect(CampaignErrorBody.parse(r.body)).toMatchObject({ success: false, error: 'BILLING_LIMIT_REACHED' });
    }
    expect((await fx.api.get('/campaigns?include_archived=true')).body.total_count).toBe(3);
    expect((await fx.api.post(`/campaigns/${active}/resume`)).status).toBe(200);
    expect((await fx.api.post(`/campaigns/${active}/pause`)).status).toBe(200);
    expect((await fx.api.post(`/campaigns/${ready}/archive`)).status).toBe(200);
    // An invalid transition is still 409, not 402.
    expect((await fx.api.post(`/campaigns/${paused}/activate`)).status).toBe(409);

    fx.sim.control.setBillingLimitReached(false);
    expect((await fx.api.post(`/campaigns/${paused}/resume`)).body.campaign.status).toBe('active');
  });

  it('can be reached for one organization only', async () => {
    fx.sim.control.setBillingLimitReached(true, 'org-elsewhere');
    expect((await fx.api.post('/campaigns', phoneBody(fx))).status).toBe(201);
    fx.sim.control.setBillingLimitReached(true, fx.sim.control.apiKeys[fx.sim.apiKey]);
    expect((await fx.api.post('/campaigns', phoneBody(fx))).status).toBe(402);
  });

  it('applies numeric plan limits: campaigns held and campaigns active at once', async () => {
    fx.sim.control.setPlanLimits({ maxActiveCampaigns: 1, maxCampaigns: 3 });
    const a = await campaignIn('ready');
    const b = await campaignIn('ready');
    expect((await fx.api.post(`/campaigns/${a}/activate`)).status).toBe(200);
    expect((await fx.api.post(`/campaigns/${b}/activate`)).status).toBe(402);
    await fx.api.post(`/campaigns/${a}/pause`);
    expect((await fx.api.post(`/campaigns/${b}/activate`)).status).toBe(200);
    expect((await fx.api.post(`/campaigns/${a}/resume`)).status).toBe(402);

    await createCampaign(fx, phoneBody(fx));
    expect((await fx.api.post('/campaigns', phoneBody(fx))).status).toBe(402);
    await fx.api.post(`/campaigns/${a}/archive`);
    expect((await fx.api.post('/campaigns', phoneBody(fx))).status).toBe(201);
  });
});
