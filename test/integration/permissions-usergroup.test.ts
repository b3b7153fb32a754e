/**
 * Who may change campaigns when ADMIN_USERGROUP_ID is set (members of that Slack user group, read through
 * usergroups.users.list), when Slack cannot tell us the members (nobody outside ADMIN_USER_IDS), and when neither
 * setting is given (everyone).
 */
import { startTestApp, type TestApp } from '../support/test-app.js';

const GROUP = 'S0ADMINS';
const MEMBER = 'U0MEMBER';
const LISTED = 'U0LISTED';
const READER = 'U0READER';
const CHANNEL = 'C0OPS';

const text = (x: unknown) => JSON.stringify(x);

function seed(t: TestApp): number {
  const c = t.sim.control;
  const agent = c.addAgent({ name: 'Sofía' });
  const int = c.addIntegration({ agentId: agent.id, type: 'phone_call' });
  return Number(c.seedCampaign({ name: 'Cobranza', agentId: agent.id, integrationId: int.id, status: 'active' }).id);
}

async function run(t: TestApp, line: string, userId: string): Promise<unknown> {
  const since = t.fake.responseUrlUses().length;
  await t.driver.command(line, { userId, channelId: CHANNEL });
  return (await t.fake.waitFor(() => t.fake.responseUrlUses()[since], 5000)).body;
}

describe('ADMIN_USERGROUP_ID', () => {
  let t: TestApp;
  let id: number;
  beforeAll(async () => {
    t = await startTestApp({
      env: { ADMIN_USER_IDS: LISTED, ADMIN_USERGROUP_ID: GROUP },
      fake: { usergroups: { [GROUP]: [MEMBER] } },
    });
    id = seed(t);
  });
  afterAll(async () => t.close());
  afterEach(() => t.fake.clearFailures());

  it('when Slack cannot list the group, its members are refused (nothing changes); listed admins still may', async () => {
    t.fake.failNext('usergroups.users.list', 'internal_error', Infinity);
    const body = await run(t, `pause ${id}`, MEMBER);
    expect(text(body)).toContain("can't pause campaigns");
    expect(t.sim.control.getCampaignState(id)!.record.status).toBe('active');
    expect(t.sim.control.requests().filter((r) => r.method !== 'GET')).toEqual([]);

    expect(text(await run(t, `pause ${id}`, LISTED))).toContain('paused');
    expect(t.sim.control.getCampaignState(id)!.record.status).toBe('inactive');
  });

  it('a member of the group may change; someone outside is refused and told about the group', async () => {
    expect(text(await run(t, `resume ${id}`, MEMBER))).toContain('resumed');
    expect(t.sim.control.getCampaignState(id)!.record.status).toBe('active');

    const before = t.sim.control.requests().filter((r) => r.method !== 'GET').length;
    const body = text(await run(t, `pause ${id}`, READER));
    expect(body).toContain("can't pause campaigns");
    expect(body).toContain(`<!subteam^${GROUP}>`);
    expect(body).toContain(`<@${LISTED}>`);
    expect(t.sim.control.requests().filter((r) => r.method !== 'GET')).toHaveLength(before);
    expect(t.sim.control.getCampaignState(id)!.record.status).toBe('active');
  });

  it("the group member's Home tab offers the change buttons; the reader's does not", async () => {
    await t.driver.appHomeOpened({ userId: MEMBER });
    await t.driver.appHomeOpened({ userId: READER });
    const member = await t.fake.waitFor(() => {
      const v = t.fake.publishedHome(MEMBER);
      return v && text(v).includes('home_filters') ? v : undefined;
    }, 5000);
    const reader = await t.fake.waitFor(() => {
      const v = t.fake.publishedHome(READER);
      return v && text(v).includes('home_filters') ? v : undefined;
    }, 5000);
    expect(text(member)).toContain('campaign_action:pause');
    expect(text(reader)).not.toContain('campaign_action:pause');
    expect(text(reader)).toContain(`<!subteam^${GROUP}>`);
  });
});

describe('neither ADMIN_USER_IDS nor ADMIN_USERGROUP_ID', () => {
  it('everyone may change campaigns', async () => {
    const t = await startTestApp();
    try {
      const id = seed(t);
      expect(text(await run(t, `pause ${id}`, READER))).toContain('paused');
      expect(t.sim.control.getCampaignState(id)!.record.status).toBe('inactive');
    } finally {
      await t.close();
    }
  });
});
