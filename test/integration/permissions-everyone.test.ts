/**
 * ALLOW_EVERYONE_TO_CHANGE=true with the live service (here the simulator) and no admins: every full member of the
 * workspace may change campaigns, and nobody else. Guests (multi- and single-channel) and a person of another
 * organization (Slack Connect) are refused on a command, a button and the Home tab, told why in their language,
 * the refusal audited, and nothing changing reaches the service; a full member's change goes through.
 */
import { startTestApp, type TestApp } from '../support/test-app.js';
import { seedCampaign } from '../support/upload.js';

const MEMBER = 'U0MEMBER';
const MULTI_GUEST = 'U0MULTIGUEST';
const SINGLE_GUEST = 'U0SINGLEGUEST';
const OUTSIDER = 'U0OUTSIDER';
const CHANNEL = 'C0OPS';
const AUDIT = 'C0AUDIT';

let t: TestApp;
let campaign: number;

const text = (x: unknown) => JSON.stringify(x);
/** Requests that could change something at the service. */
const changing = () => t.sim.control.requests().filter((r) => r.method !== 'GET');

beforeAll(async () => {
  t = await startTestApp({
    env: { ALLOW_EVERYONE_TO_CHANGE: 'true', AUDIT_CHANNEL_ID: AUDIT },
    fake: {
      users: [
        { id: MEMBER, name: 'member' },
        { id: MULTI_GUEST, name: 'multi', isRestricted: true },
        { id: SINGLE_GUEST, name: 'single', isUltraRestricted: true, locale: 'es-MX' },
        // A member of a partner organization in a Slack Connect channel.
        { id: OUTSIDER, name: 'partner', teamId: 'T0PARTNER' },
      ],
    },
  });
  expect(t.config.outreach.mode).toBe('live');
  expect(t.config.adminUserIds).toEqual([]);
  campaign = seedCampaign(t, 'Cobranza', 'active');
});
afterAll(async () => {
  await t.app.services.home.idle();
  await t.close();
});

/** `/campaign <line>` as `userId`, and its answer through the response_url. */
async function command(line: string, userId: string): Promise<unknown> {
  const r = await t.driver.command(line, { userId, channelId: CHANNEL });
  expect(r.status).toBe(200);
  return (await t.fake.waitFor(() => t.fake.responseUrlUses().find((u) => u.url === r.responseUrl), 5000)).body;
}

const status = () => t.sim.control.getCampaignState(campaign)!.record.status;

describe.each([
  ['a multi-channel guest', MULTI_GUEST, /can't pause campaigns\. Only full members of this workspace/],
  [
    'a single-channel guest',
    SINGLE_GUEST,
    /No puedes pausar campañas\. Cambiar campañas es solo para los miembros plenos/,
  ],
  ['a person of another organization', OUTSIDER, /can't pause campaigns\. Only full members of this workspace/],
])('%s', (_who, userId, refusal) => {
  it('is refused a command: told why, audited, nothing sent to the service', async () => {
    const before = changing().length;
    const audits = t.fake.messages(AUDIT).length;
    expect(text(await command(`pause ${campaign}`, userId))).toMatch(refusal);
    const audit = await t.fake.waitFor(() => t.fake.messages(AUDIT)[audits], 5000);
    expect(audit.text).toContain(`🚫 <@${userId}>`);
    expect(audit.text).toContain('refused');
    expect(changing().slice(before)).toEqual([]);
    expect(status()).toBe('active');
  });

  it('is refused a button in a message', async () => {
    const before = changing().length;
    const r = await t.driver.blockAction({
      userId,
      channelId: CHANNEL,
      actionId: 'campaign_action:pause',
      value: JSON.stringify({ id: campaign, action: 'pause' }),
    });
    expect(r.status).toBe(200);
    const answer = await t.fake.waitFor(() => t.fake.responseUrlUses().find((u) => u.url === r.responseUrl), 5000);
    expect(text(answer.body)).toMatch(refusal);
    expect(changing().slice(before)).toEqual([]);
  });

  it('sees a read-only Home tab', async () => {
    await t.driver.appHomeOpened({ userId });
    const home = await t.fake.waitFor(() => {
      const v = t.fake.publishedHome(userId);
      return v && text(v).includes('home_filters') ? v : undefined;
    }, 8000);
    expect(text(home)).not.toContain('campaign_action:');
  });
});

describe('a full member', () => {
  it('may change, and sees the change buttons in the Home tab', async () => {
    expect(text(await command(`pause ${campaign}`, MEMBER))).toContain('paused');
    expect(status()).not.toBe('active');
    await t.driver.appHomeOpened({ userId: MEMBER });
    const home = await t.fake.waitFor(() => {
      const v = t.fake.publishedHome(MEMBER);
      return v && text(v).includes('campaign_action:') ? v : undefined;
    }, 8000);
    expect(text(home)).toContain('campaign_action:');
  });
});
