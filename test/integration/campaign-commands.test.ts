/**
 * `/campaign` end to end: signed requests to the real Bolt receiver, the app's answers through the fake Slack's
 * response_url, the service played by the simulator.
 */
import { startTestApp, type TestApp } from '../support/test-app.js';

type Json = Record<string, unknown>;
const ADMIN = 'U0ADMIN';
const READER = 'U0READER';

let t: TestApp;
let phoneCampaign: number;
let waCampaign: number;
let finishedCampaign: number;

function seed(tt: TestApp) {
  const { control } = tt.sim;
  const agent = control.addAgent({ name: 'Sofía' });
  const phone = control.addIntegration({ agentId: agent.id, type: 'phone_call' });
  const wa = control.addIntegration({ agentId: agent.id, type: 'whatsapp' });
  phoneCampaign = Number(
    control.seedCampaign({
      name: 'Cobranza <!channel> noviembre',
      agentId: agent.id,
      integrationId: phone.id,
      status: 'ready',
      scheduling: { mon: { startTime: '09:00', stopTime: '18:00', active: true } },
      contacts: [
        { contact: '+525512345678', name: 'Ana' },
        { contact: '+525512345679', name: 'Beto' },
      ],
    }).id,
  );
  waCampaign = Number(
    control.seedCampaign({ name: 'Bienvenida', agentId: agent.id, integrationId: wa.id, status: 'active' }).id,
  );
  finishedCampaign = Number(
    control.seedCampaign({ name: 'Old', agentId: agent.id, integrationId: phone.id, status: 'finished' }).id,
  );
  for (let i = 0; i < 25; i++)
    control.seedCampaign({ name: `Filler ${i}`, agentId: agent.id, integrationId: phone.id, status: 'pending' });
}

beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_USER_IDS: ADMIN } });
  seed(t);
});
afterAll(async () => t.close());

/** Waits for the next answer through response_url after `since` and returns its body. */
async function nextResponse(since: number): Promise<Json> {
  const use = await t.fake.waitFor(() => t.fake.responseUrlUses()[since], 5000);
  return use.body as Json;
}
const textOf = (body: Json) => JSON.stringify(body);

async function run(text: string, userId = ADMIN): Promise<Json> {
  const since = t.fake.responseUrlUses().length;
  const ack = await t.driver.command(text, { userId });
  expect(ack.status).toBe(200);
  return nextResponse(since);
}

describe('/campaign help and grammar', () => {
  it.each(['', 'help'])('"%s" answers with the usage', async (text) => {
    const body = await run(text);
    expect(body.response_type).toBe('ephemeral');
    expect(textOf(body)).toContain('list [status] [phone_call|whatsapp] [archived]');
  });

  it.each([
    ['frobnicate', 'is not a /campaign subcommand'],
    ['show', 'needs a campaign id'],
    ['show abc', 'is not a campaign id'],
    ['list bogus', 'is not a list filter'],
    ['contacts 1 nonsense', 'is not a contact status'],
    ['calls 1 queued', 'is not a call status'],
    ['pause 1 2', 'takes one campaign id'],
  ])('bad input "%s" names the problem and shows the usage', async (text, problem) => {
    const body = await run(text);
    expect(body.response_type).toBe('ephemeral');
    expect(textOf(body)).toContain(problem);
    expect(textOf(body)).toContain('/campaign');
  });
});

describe('/campaign list, show, contacts, calls', () => {
  it('lists campaigns with a next-page button that walks the cursor', async () => {
    const body = await run('list');
    const s = textOf(body);
    expect(s).toContain('Filler 24');
    expect(s).toContain('campaign_list_next');
    const blocks = body.blocks as Json[];
    expect(blocks.length).toBeLessThanOrEqual(50);
    const next = JSON.stringify(blocks).match(/"action_id":"campaign_list_next","value":"((?:[^"\\]|\\.)*)"/);
    expect(next).not.toBeNull();
    const since = t.fake.responseUrlUses().length;
    await t.driver.blockAction({
      channelId: 'C0OPS',
      actionId: 'campaign_list_next',
      value: JSON.parse(`"${next![1]}"`) as string,
      userId: ADMIN,
    });
    const page2 = textOf(await nextResponse(since));
    expect(page2).toContain('Bienvenida');
    expect(page2).not.toContain('Filler 24');
    expect(page2).not.toContain('<!channel>');
    expect(page2).toContain('&lt;!channel&gt;');
  });

  it('filters by status and channel, on our side too', async () => {
    const body = await run('list active whatsapp');
    const s = textOf(body);
    expect(s).toContain('Bienvenida');
    expect(s).not.toContain('Filler');
    expect(s).not.toContain('noviembre');
  });

  it('shows a campaign with its schedule in words', async () => {
    const s = textOf(await run(`show ${phoneCampaign}`));
    expect(s).toContain('Mon 09:00-18:00');
    expect(s).toContain(`#${phoneCampaign}`);
  });

  it('says which id was not found', async () => {
    const s = textOf(await run('show 999999'));
    expect(s).toMatch(/999999/);
    expect(s.toLowerCase()).toContain('not found');
  });

  it('pages contacts with details and remove buttons', async () => {
    const s = textOf(await run(`contacts ${phoneCampaign}`));
    expect(s).toContain('Ana');
    expect(s).toContain('contact_details');
    expect(s).toContain('contact_remove');
  });

  it('lists calls', async () => {
    const call = t.sim.control.createCall(phoneCampaign, { status: 'ended', answered_by: 'human' });
    expect(call.id).toBeDefined();
    const s = textOf(await run(`calls ${phoneCampaign}`));
    expect(s).toMatch(/Ana|Beto/);
  });
});

describe('lifecycle commands', () => {
  it('activate acts at once and posts who did what in the channel', async () => {
    const body = await run(`activate ${phoneCampaign}`);
    expect(body.response_type).toBe('in_channel');
    expect(textOf(body)).toContain(`<@${ADMIN}>`);
    expect(t.sim.control.getCampaignState(phoneCampaign)?.record.status).toBe('active');
  });

  it('an invalid transition goes only to the person, with buttons for the valid targets', async () => {
    const body = await run(`activate ${phoneCampaign}`);
    expect(body.response_type).toBe('ephemeral');
    const s = textOf(body);
    expect(s).toContain('campaign_action:pause');
    expect(t.sim.control.getCampaignState(phoneCampaign)?.record.status).toBe('active');
  });

  it('pause, resume and archive', async () => {
    expect((await run(`pause ${phoneCampaign}`)).response_type).toBe('in_channel');
    expect(t.sim.control.getCampaignState(phoneCampaign)?.record.status).toBe('inactive');
    expect((await run(`resume ${phoneCampaign}`)).response_type).toBe('in_channel');
    expect(t.sim.control.getCampaignState(phoneCampaign)?.record.status).toBe('active');
    expect((await run(`archive ${finishedCampaign}`)).response_type).toBe('in_channel');
    expect(t.sim.control.getCampaignState(finishedCampaign)?.record.archived).toBe(true);
  });

  it('402 says the plan limit is reached', async () => {
    t.sim.control.setBillingLimitReached(true);
    try {
      await run(`pause ${phoneCampaign}`);
      const body = await run(`resume ${phoneCampaign}`);
      expect(body.response_type).toBe('ephemeral');
      expect(textOf(body).toLowerCase()).toContain('plan');
    } finally {
      t.sim.control.setBillingLimitReached(false);
    }
  });

  it('a read-only person is refused and nothing changes', async () => {
    const before = t.sim.control.getCampaignState(waCampaign)?.record.status;
    const body = await run(`pause ${waCampaign}`, READER);
    expect(body.response_type).toBe('ephemeral');
    expect(textOf(body)).toContain(`<@${ADMIN}>`);
    expect(t.sim.control.getCampaignState(waCampaign)?.record.status).toBe(before);
  });

  it('service unreachable says nothing was changed', async () => {
    t.sim.control.injectFaults({ status: 503, count: 20, match: /^POST .*\/campaigns\/\d+\/pause$/ });
    try {
      const body = await run(`pause ${waCampaign}`);
      expect(body.response_type).toBe('ephemeral');
      expect(textOf(body).toLowerCase()).toMatch(/nothing was changed|try again/);
    } finally {
      t.sim.control.clearFaults();
    }
  });
});

describe('contact buttons', () => {
  it('details and remove (queue contact), then 409 for a contact that was called', async () => {
    const list = t.sim.control.getCampaignState(phoneCampaign);
    expect(list).toBeDefined();
    const contacts = t.sim.control.getCampaignState(phoneCampaign)!.contacts as Array<{ id: number; name: string }>;
    const beto = contacts.find((c) => c.name === 'Beto')!;

    let since = t.fake.responseUrlUses().length;
    await t.driver.blockAction({
      channelId: 'C0OPS',
      actionId: 'contact_details',
      value: JSON.stringify({ campaignId: phoneCampaign, contactId: beto.id }),
      userId: ADMIN,
    });
    expect(textOf(await nextResponse(since))).toContain('Beto');

    t.sim.control.setContactStatus(phoneCampaign, beto.id, 'answered');
    since = t.fake.responseUrlUses().length;
    await t.driver.blockAction({
      channelId: 'C0OPS',
      actionId: 'contact_remove',
      value: JSON.stringify({ campaignId: phoneCampaign, contactId: beto.id }),
      userId: ADMIN,
    });
    expect(textOf(await nextResponse(since)).toLowerCase()).toMatch(/queue|failed/);

    t.sim.control.setContactStatus(phoneCampaign, beto.id, 'failed');
    since = t.fake.responseUrlUses().length;
    await t.driver.blockAction({
      channelId: 'C0OPS',
      actionId: 'contact_remove',
      value: JSON.stringify({ campaignId: phoneCampaign, contactId: beto.id }),
      userId: ADMIN,
    });
    expect(textOf(await nextResponse(since))).toContain('removed');
  });
});

describe('request authenticity', () => {
  it('a bad signature or a stale timestamp is rejected with no side effect', async () => {
    const before = t.sim.control.requests().length;
    const bad = await t.driver.command(`pause ${waCampaign}`, { userId: ADMIN, badSignature: true });
    const stale = await t.driver.command(`pause ${waCampaign}`, { userId: ADMIN, staleTimestamp: true });
    expect(bad.status).toBe(401);
    expect(stale.status).toBe(401);
    // The receiver refuses them before any listener runs: by the 401, nothing was or will be done for them.
    expect(t.sim.control.requests().length).toBe(before);
  });
});
