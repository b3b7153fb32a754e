/**
 * The Home tab end to end: app_home_opened and clicks in the tab sent as signed requests to the real app, the tab
 * published to the fake Slack (which validates every view against Block Kit's limits), the service played by the
 * simulator.
 */
import { jest } from '@jest/globals';
import type { FakeCall, Json } from '../../src/emulator/fake-slack.js';
import { stateValue } from '../../src/emulator/slack-driver.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import type { HomeTuning } from '../../src/slack/home/service.js';

const ADMIN = 'U0ADMIN';
const READER = 'U0READER';

let t: TestApp;
let agentA: { id: string };
let agentB: { id: string };
let phoneA: string;
let waA: string;
let phoneB: string;
let savedTuning: HomeTuning;

/**
 * How long a step may take before the test fails, and a test: a loaded machine may take seconds where a quiet one
 * takes milliseconds (each reading of the list and of the campaigns shown is paced at the service's 12 a second), and
 * only a failing test waits this long.
 */
const PATIENCE_MS = 60_000;
jest.setTimeout(3 * PATIENCE_MS);
/** The cache lifetimes of these tests: what they open "soon" after is within them however slow the machine is. */
const HOUR_MS = 3_600_000;

beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_USER_IDS: `${ADMIN},U0ONE,U0TWO` } });
  // A list or a campaign read by one test stays fresh through the next ones unless a test changes it or says so
  // (Refresh, a change through the app, `changedOutsideTheApp`, a TTL of 0 in 'a list older than the TTL').
  Object.assign(t.app.settings.home, { listTtlMs: HOUR_MS, detailTtlMs: HOUR_MS });
  savedTuning = { ...t.app.settings.home };
  const c = t.sim.control;
  agentA = c.addAgent({ name: 'Sofía' });
  agentB = c.addAgent({ name: 'Max' });
  phoneA = c.addIntegration({ agentId: agentA.id, type: 'phone_call' }).id;
  waA = c.addIntegration({ agentId: agentA.id, type: 'whatsapp' }).id;
  phoneB = c.addIntegration({ agentId: agentB.id, type: 'phone_call' }).id;
});
afterAll(async () => {
  await t.app.services.home.idle();
  await t.close();
});
afterEach(() => {
  t.sim.control.clearFaults();
  Object.assign(t.app.settings.home, savedTuning);
});

const blocksOf = (view: Json) => (view.blocks as Json[]) ?? [];
const textOf = (x: unknown) => JSON.stringify(x);
const isLoading = (view: Json) => textOf(view).includes('Reading the campaigns');
const viewOfCall = (c: FakeCall): Json =>
  (typeof c.args.view === 'string' ? JSON.parse(c.args.view) : c.args.view) as Json;

/** The Home tab of `userId` as published by the first finished (not loading) publish after harness seq `since`. */
async function homeAfter(userId: string, since: number, timeoutMs = PATIENCE_MS): Promise<Json> {
  await t.fake.waitFor(
    () =>
      t.fake
        .calls('views.publish')
        .find((c) => c.seq > since && c.ok && c.args.user_id === userId && !isLoading(viewOfCall(c))),
    timeoutMs,
  );
  // Every publish for one person runs after the one before: wait until none is under way.
  await t.fake.waitFor(() => !isLoading(t.fake.publishedHome(userId) ?? {}), timeoutMs);
  return t.fake.publishedHome(userId)!;
}

async function openHome(userId: string): Promise<Json> {
  const since = t.fake.seq();
  const ack = await t.driver.appHomeOpened({ userId });
  expect(ack.status).toBe(200);
  return homeAfter(userId, since);
}

/** Ids of the campaigns shown, in order (from the block ids of their action rows). */
function shownIds(view: Json): number[] {
  return blocksOf(view)
    .map((b) => /^home_campaign:(\d+)$/.exec(String(b.block_id ?? ''))?.[1])
    .filter((x): x is string => x !== undefined)
    .map(Number);
}

function elementsOf(view: Json, blockId: string): Json[] {
  const b = blocksOf(view).find((x) => x.block_id === blockId);
  return (b?.elements as Json[]) ?? [];
}

async function click(userId: string, opts: Omit<Parameters<TestApp['driver']['blockAction']>[0], 'view'>) {
  const view = t.fake.publishedHome(userId)!;
  const since = t.fake.seq();
  const r = await t.driver.blockAction({ ...opts, userId, view: view.id as string });
  expect(r.status).toBe(200);
  return since;
}

const listRequests = () => t.sim.control.requests().filter((r) => r.route === 'listCampaigns');
const detailRequests = () => t.sim.control.requests().filter((r) => r.route === 'getCampaign');
/**
 * Campaigns seeded straight into the simulator are a change the app cannot know of until the shared list's TTL
 * (30 s); tell it, as the audit trail does for changes made through the app.
 */
const changedOutsideTheApp = () => t.app.services.home.changed();
/** Active campaigns not archived, from the simulator's own state. */
const activeCount = () =>
  [...Array(1000).keys()]
    .map((n) => t.sim.control.getCampaignState(n)?.record)
    .filter((r) => r && r.status === 'active' && !r.archived).length;

describe('sizes: 0, 1 and 300 campaigns', () => {
  it('0 campaigns: a loading view first, then zero counts and a way to start, not an empty page', async () => {
    const since = t.fake.seq();
    await t.driver.appHomeOpened({ userId: ADMIN });
    const view = await homeAfter(ADMIN, since);
    const publishes = t.fake.calls('views.publish').filter((c) => c.seq > since && c.args.user_id === ADMIN);
    expect(isLoading(viewOfCall(publishes[0]!))).toBe(true);
    expect(view.type).toBe('home');
    expect(textOf(view)).toContain('No campaigns yet');
    expect(textOf(view)).toContain('campaign_create_open');
    expect(textOf(view)).toContain('🟢 Active\\n*0*');
    expect(shownIds(view)).toEqual([]);
  });

  it('1 campaign: name, status, channel, agent, schedule in words, analytics, actions and menu', async () => {
    const id = Number(
      t.sim.control.seedCampaign({
        name: 'Cobranza <!channel> & más',
        agentId: agentA.id,
        integrationId: phoneA,
        status: 'ready',
        timezone: 'America/Bogota',
        scheduling: {
          mon: { startTime: '09:00', stopTime: '18:00', active: true },
          tue: { startTime: '09:00', stopTime: '18:00', active: true },
        },
        contacts: [{ contact: '+525512345678', name: 'Ana' }],
      }).id,
    );
    t.sim.control.createCall(id, { status: 'ended', answered_by: 'human' });
    changedOutsideTheApp();
    const view = await openHome('U0ONE');
    expect(shownIds(view)).toEqual([id]);
    const s = textOf(view);
    expect(s).toContain('Cobranza &lt;!channel&gt; &amp; más');
    expect(s).not.toContain('<!channel>');
    expect(s).toContain('🔵 Ready');
    expect(s).toContain('📞 Phone call');
    expect(s).toContain('Agent: Sofía');
    expect(s).toContain('Mon-Tue 09:00-18:00 (America/Bogota)');
    expect(s).toContain('Not watched in any channel');
    expect(s).toMatch(/📊 \*Calls\* 1 · /);
    expect(s).toContain('*Conversion rate*');
    const row = elementsOf(view, `home_campaign:${id}`);
    const activate = row.find((e) => e.action_id === 'campaign_action:activate')!;
    expect(activate.confirm).toBeDefined();
    const archive = row.find((e) => e.action_id === 'campaign_action:archive')!;
    expect(archive.confirm).toMatchObject({ style: 'danger' });
    expect(row.some((e) => e.action_id === 'campaign_action:pause')).toBe(false);
    const menu = row.find((e) => e.type === 'overflow')!;
    expect((menu.options as Json[]).map((o) => o.value)).toEqual([
      `edit:${id}`,
      `upload:${id}`,
      `watch:${id}`,
      `calls:${id}`,
      `report:${id}`,
    ]);
  });

  it('300 campaigns: every page within 100 blocks, active first then newest, next and previous', async () => {
    const start = Date.parse('2025-01-01T00:00:00Z');
    for (let i = 0; i < 299; i++) {
      t.sim.control.seedCampaign({
        name: `Bulk ${i}`,
        agentId: i % 3 === 0 ? agentB.id : agentA.id,
        integrationId: i % 3 === 0 ? phoneB : i % 3 === 1 ? waA : phoneA,
        status: i % 10 === 0 ? 'active' : i % 10 === 1 ? 'inactive' : 'pending',
        created_at: new Date(start + i * 3600_000).toISOString(),
      });
    }
    changedOutsideTheApp();
    const user = 'U0MANY';
    let view = await openHome(user);
    expect(blocksOf(view).length).toBeLessThanOrEqual(100);
    const page1 = shownIds(view);
    expect(page1).toHaveLength(20);
    expect(textOf(view)).toContain('page 1 of 15');
    expect(textOf(view)).toContain('🟢 Active\\n*30*');

    // The expected order, from the service's own data: active first, then newest.
    const all = (await t.app.deps.outreach.listCampaigns({ pageSize: 100 })).total_count;
    expect(all).toBe(300);
    const states = [...Array(400).keys()]
      .map((n) => t.sim.control.getCampaignState(n))
      .filter((s): s is NonNullable<typeof s> => s !== undefined)
      .map((s) => s.record);
    const expected = states
      .sort(
        (a, b) =>
          Number(b.status === 'active') - Number(a.status === 'active') ||
          Date.parse(b.created_at) - Date.parse(a.created_at) ||
          b.id - a.id,
      )
      .map((r) => r.id);
    expect(page1).toEqual(expected.slice(0, 20));

    let since = await click(user, { actionId: 'home_page:next' });
    view = await homeAfter(user, since);
    expect(blocksOf(view).length).toBeLessThanOrEqual(100);
    expect(shownIds(view)).toEqual(expected.slice(20, 40));
    expect(textOf(view)).toContain('page 2 of 15');
    expect(elementsOf(view, 'home_pages').map((e) => e.action_id)).toEqual(['home_page:prev', 'home_page:next']);

    since = await click(user, { actionId: 'home_page:prev' });
    view = await homeAfter(user, since);
    expect(shownIds(view)).toEqual(expected.slice(0, 20));
    expect(elementsOf(view, 'home_pages').map((e) => e.action_id)).toEqual(['home_page:next']);
  });
});

describe('filters', () => {
  const user = 'U0FILTER';

  it('status, channel and agent as selects; the choice is kept per person', async () => {
    await openHome(user);
    let since = await click(user, { actionId: 'home_filter:status', selectedOption: { value: 'active' } });
    let view = await homeAfter(user, since);
    let ids = shownIds(view);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(t.sim.control.getCampaignState(id)!.record.status).toBe('active');

    const listsBefore = listRequests().length;
    since = await click(user, { actionId: 'home_filter:channel', selectedOption: { value: 'whatsapp' } });
    view = await homeAfter(user, since);
    // The channel is filtered by the service (list items do not carry it).
    const asked = listRequests().slice(listsBefore);
    expect(asked.length).toBeGreaterThan(0);
    expect(textOf(asked.map((r) => r.query))).toContain('whatsapp');
    ids = shownIds(view);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) {
      const r = t.sim.control.getCampaignState(id)!.record;
      expect([r.status, r.integrationType]).toEqual(['active', 'whatsapp']);
    }

    since = await click(user, { actionId: 'home_filter:channel', selectedOption: { value: 'all' } });
    await homeAfter(user, since);
    since = await click(user, { actionId: 'home_filter:agent', selectedOption: { value: agentB.id } });
    view = await homeAfter(user, since);
    ids = shownIds(view);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) {
      const r = t.sim.control.getCampaignState(id)!.record;
      expect([r.status, r.agentId]).toEqual(['active', agentB.id]);
    }
    // Counts follow the agent filter.
    const activeOfB = [...Array(400).keys()]
      .map((n) => t.sim.control.getCampaignState(n)?.record)
      .filter((r) => r && r.agentId === agentB.id && r.status === 'active' && !r.archived).length;
    expect(textOf(view)).toContain(`🟢 Active\\n*${activeOfB}*`);

    // Reopening keeps the filters (initial options); someone else's tab is unfiltered.
    view = await openHome(user);
    const filters = elementsOf(view, 'home_filters');
    const initial = (id: string) => (filters.find((e) => e.action_id === id)!.initial_option as Json).value;
    expect([initial('home_filter:status'), initial('home_filter:channel'), initial('home_filter:agent')]).toEqual([
      'active',
      'all',
      agentB.id,
    ]);
    expect(shownIds(view)).toEqual(ids);
    const other = await openHome('U0OTHER');
    expect((elementsOf(other, 'home_filters')[0]!.initial_option as Json).value).toBe('all');
  });

  it('a filter matching nothing says so and how to widen it', async () => {
    const since = await click(user, { actionId: 'home_filter:status', selectedOption: { value: 'cooldown' } });
    const view = await homeAfter(user, since);
    expect(shownIds(view)).toEqual([]);
    expect(textOf(view)).toContain('No campaigns match');
  });
});

describe('caching and failures', () => {
  it('opening the tab again soon reads nothing from the service; Refresh reads again', async () => {
    const user = 'U0CACHE';
    await openHome(user);
    const lists = listRequests().length;
    const details = detailRequests().length;
    await openHome(user);
    await openHome(user);
    expect(listRequests().length).toBe(lists);
    expect(detailRequests().length).toBe(details);

    const since = await click(user, { actionId: 'home_refresh' });
    await homeAfter(user, since);
    expect(listRequests().length).toBeGreaterThan(lists);
  });

  it('a list older than the TTL is read again', async () => {
    t.app.settings.home.listTtlMs = 0;
    const user = 'U0TTL';
    await openHome(user);
    const lists = listRequests().length;
    await openHome(user);
    expect(listRequests().length).toBeGreaterThan(lists);
  });

  it('the service failing: a clear notice, not an empty page; with an older list, that list marked as old', async () => {
    t.sim.control.injectFaults({ status: 500, count: 1000, match: /^GET .*\/campaigns$/ });
    // The shared list read before stays, marked as possibly out of date.
    const since = await click('U0CACHE', { actionId: 'home_refresh' });
    const old = await homeAfter('U0CACHE', since);
    expect(textOf(old)).toContain("I couldn't read the campaigns");
    expect(textOf(old)).toContain('may be out of date');
    expect(shownIds(old).length).toBe(20);

    // With no list kept at all: the notice, not an empty page.
    t.app.settings.home.keepListMs = 0;
    const fresh = await openHome('U0DOWN');
    const s = textOf(fresh);
    expect(s).toContain("I couldn't read the campaigns from the outreach service");
    expect(s).toContain('home_refresh');
    expect(s).not.toContain('No campaigns');
    expect(s).not.toContain('may be out of date');
    t.sim.control.clearFaults();

    const again = await click('U0DOWN', { actionId: 'home_refresh' });
    const back = await homeAfter('U0DOWN', again);
    expect(textOf(back)).not.toContain("I couldn't read");
    expect(shownIds(back).length).toBe(20);
  });
});

describe('one campaign list for every Home tab', () => {
  /** List walks the service saw: a walk's first page is the one asked without a cursor. */
  const walks = () => listRequests().filter((r) => !('cursor' in r.query)).length;

  it('Home tabs opened by several people within its lifetime cost one list walk at the service', async () => {
    // A change through the app by an admin without a Home tab: the list is out of date, and nobody reads it yet.
    const id = Number(
      t.sim.control.seedCampaign({ name: 'To pause', agentId: agentB.id, integrationId: phoneB, status: 'active' }).id,
    );
    await t.driver.command(`pause ${id}`, { userId: 'U0TWO' });
    await t.fake.waitFor(() => t.sim.control.getCampaignState(id)?.record.status === 'inactive', PATIENCE_MS);
    const walksBefore = walks();
    const pagesBefore = listRequests().length;

    const people = ['U0SHARE1', 'U0SHARE2', 'U0SHARE3', 'U0SHARE4', 'U0SHARE5'];
    const views = await Promise.all(people.map((p) => openHome(p)));
    for (const v of views) expect(shownIds(v)).toEqual(shownIds(views[0]!));
    expect(textOf(views[0])).toContain(`🟢 Active\\n*${activeCount()}*`);
    await openHome('U0SHARE6');
    await openHome('U0SHARE7');
    expect(walks() - walksBefore).toBe(1);
    // One walk: as many pages as the list has.
    const total = (await t.app.deps.outreach.listCampaigns({ pageSize: 1, includeArchived: true })).total_count;
    expect(listRequests().length - pagesBefore - 1).toBe(Math.ceil(total / 100));
  });

  it("a change made through the app is in the changer's next view, even with an older walk under way", async () => {
    const agentR = t.sim.control.addAgent({ name: 'Rita' });
    const phoneR = t.sim.control.addIntegration({ agentId: agentR.id, type: 'phone_call' }).id;
    const race = Number(
      t.sim.control.seedCampaign({
        name: 'Race',
        agentId: agentR.id,
        integrationId: phoneR,
        status: 'active',
        created_at: '2032-01-01T00:00:00.000Z',
      }).id,
    );
    // Enough campaigns for a walk of several pages (the one with the campaign first), whatever ran before.
    for (let i = 0; i < 120; i++) {
      t.sim.control.seedCampaign({
        name: `Old ${i}`,
        agentId: agentB.id,
        integrationId: phoneB,
        created_at: new Date(Date.parse('2020-01-01T00:00:00Z') + i * 60_000).toISOString(),
      });
    }
    const changer = 'U0ONE';
    await openHome(changer);
    await homeAfter(changer, await click(changer, { actionId: 'home_refresh' }));
    let view = await homeAfter(
      changer,
      await click(changer, { actionId: 'home_filter:agent', selectedOption: { value: agentR.id } }),
    );
    expect(shownIds(view)).toEqual([race]);

    // Someone else's Refresh starts a slow walk; its first page (with the campaign, still active) is read...
    const other = 'U0LATE';
    await openHome(other);
    const slowList = /^GET .*\/campaigns$/;
    t.sim.control.setLatencyMs(400, slowList);
    try {
      const from = listRequests().length;
      const otherSince = await click(other, { actionId: 'home_refresh' });
      await t.fake.waitFor(() => listRequests().length > from, PATIENCE_MS);
      // ...then the campaign is paused through the app, while that walk goes on.
      const since = t.fake.seq();
      const ack = await t.driver.command(`pause ${race}`, { userId: changer });
      expect(ack.status).toBe(200);
      view = await homeAfter(changer, since);
      expect(t.sim.control.getCampaignState(race)!.record.status).toBe('inactive');
      const row = elementsOf(view, `home_campaign:${race}`).map((e) => e.action_id);
      expect(row).toContain('campaign_action:resume');
      expect(row).not.toContain('campaign_action:pause');
      await homeAfter(other, otherSince);
    } finally {
      t.sim.control.setLatencyMs(0, slowList);
    }

    // Anyone opening the tab now sees the change, without another walk.
    const walksBefore = walks();
    const late = 'U0AFTER';
    await openHome(late);
    view = await homeAfter(
      late,
      await click(late, { actionId: 'home_filter:agent', selectedOption: { value: agentR.id } }),
    );
    expect(shownIds(view)).toEqual([race]);
    expect(textOf(view)).toContain('⏸ Inactive\\n*1*');
    expect(textOf(view)).toContain('🟢 Active\\n*0*');
    expect(walks()).toBe(walksBefore);
  });
});

describe('buttons in the tab', () => {
  let id: number;
  let agentC: { id: string };
  const user = ADMIN;

  beforeAll(() => {
    agentC = t.sim.control.addAgent({ name: 'Lupe' });
    const phoneC = t.sim.control.addIntegration({ agentId: agentC.id, type: 'phone_call' }).id;
    id = Number(
      t.sim.control.seedCampaign({
        name: 'Newest active',
        agentId: agentC.id,
        integrationId: phoneC,
        status: 'active',
        created_at: '2030-01-01T00:00:00.000Z',
        contacts: [{ contact: '+525512345600', name: 'Zoe' }],
      }).id,
    );
  });

  it('pause performs the action, answers in a DM and refreshes the tab', async () => {
    await openHome(user);
    // This person's list is cached from an earlier test (campaigns were added straight into the simulator since).
    await homeAfter(user, await click(user, { actionId: 'home_refresh' }));
    let view = await homeAfter(
      user,
      await click(user, { actionId: 'home_filter:agent', selectedOption: { value: agentC.id } }),
    );
    expect(shownIds(view)).toEqual([id]);
    const since = await click(user, { actionId: 'campaign_action:pause', blockId: `home_campaign:${id}` });
    view = await homeAfter(user, since);
    expect(t.sim.control.getCampaignState(id)!.record.status).toBe('inactive');
    const row = elementsOf(view, `home_campaign:${id}`);
    expect(row.map((e) => e.action_id)).toContain('campaign_action:resume');
    expect(row.map((e) => e.action_id)).not.toContain('campaign_action:pause');
    const dm = await t.fake.waitFor(() => t.fake.messages(user).find((m) => textOf(m).includes('paused')), PATIENCE_MS);
    expect(textOf(dm)).toContain(`<@${user}>`);
  });

  it('menu: show calls answers in a DM', async () => {
    t.sim.control.createCall(id, { status: 'ended', answered_by: 'human' });
    const before = t.fake.messages(user).length;
    await click(user, {
      actionId: 'home_campaign_menu',
      blockId: `home_campaign:${id}`,
      selectedOption: { value: `calls:${id}` },
    });
    const msg = await t.fake.waitFor(() => t.fake.messages(user)[before], PATIENCE_MS);
    expect(textOf(msg)).toContain('Zoe');
  });

  it('menu: edit opens the campaign form', async () => {
    const since = await click(user, {
      actionId: 'home_campaign_menu',
      blockId: `home_campaign:${id}`,
      selectedOption: { value: `edit:${id}` },
    });
    const form = await t.fake.waitFor(
      () =>
        t.fake.calls('views.update').find((c) => c.seq > since && textOf(c.args).includes('campaign_form')) ??
        undefined,
      PATIENCE_MS,
    );
    expect(textOf(form.args)).toContain('Newest active');
  });

  it('menu: watch asks for a channel, then the channel watches and the tab shows it', async () => {
    const since = await click(user, {
      actionId: 'home_campaign_menu',
      blockId: `home_campaign:${id}`,
      selectedOption: { value: `watch:${id}` },
    });
    const modal = await t.fake.waitFor(
      () =>
        t.fake.calls('views.open').find((c) => c.seq > since && c.ok && textOf(c.args).includes('home_watch_channel')),
      PATIENCE_MS,
    );
    const viewId = ((modal.response as Json).view as Json).id as string;
    const submitted = t.fake.seq();
    const r = await t.driver.viewSubmission({
      viewId,
      values: { home_watch_channel: { channel: stateValue.conversation('C0WATCH') } },
    });
    expect(r.viewResult).toMatchObject({ ok: true, action: 'close' });
    const view = await t.fake.waitFor(() => {
      const v = t.fake.publishedHome(user);
      return v && textOf(v).includes('Watched in <#C0WATCH>') ? v : undefined;
    }, PATIENCE_MS);
    expect(textOf(view)).toContain('Watched in <#C0WATCH>');
    const dm = await t.fake.waitFor(
      () => t.fake.calls('chat.postMessage').find((c) => c.seq > submitted && c.args.channel === user),
      PATIENCE_MS,
    );
    expect(textOf(dm.args)).toContain('now watches');
  });

  it('menu: upload contacts opens the upload form', async () => {
    const since = await click(user, {
      actionId: 'home_campaign_menu',
      blockId: `home_campaign:${id}`,
      selectedOption: { value: `upload:${id}` },
    });
    const opened = await t.fake.waitFor(
      () => t.fake.calls('views.open').find((c) => c.seq > since && c.ok && textOf(c.args).includes('campaign_upload')),
      PATIENCE_MS,
    );
    expect(textOf(opened.args)).toContain('Newest active');
  });

  it('a person who can only read sees no change buttons and is told who can change', async () => {
    const view = await openHome(READER);
    const s = textOf(view);
    expect(s).toContain(`<@${ADMIN}>`);
    expect(s).not.toContain('campaign_action:');
    expect(s).not.toContain('campaign_create_open');
    expect(s).not.toContain('"edit:');
    expect(s).toContain('"calls:');
  });
});

describe('across a restart', () => {
  it("each person's filters are kept in the app's state", async () => {
    const user = 'U0FILTER';
    const before = t.fake.publishedHome(user)!;
    const initial = (v: Json, id: string) =>
      (elementsOf(v, 'home_filters').find((e) => e.action_id === id)!.initial_option as Json).value;
    const wanted = initial(before, 'home_filter:status');
    expect(wanted).not.toBe('all');
    await t.app.services.home.idle();
    await t.restart();
    const after = await openHome(user);
    expect(initial(after, 'home_filter:status')).toBe(wanted);
    expect(initial(after, 'home_filter:agent')).toBe(initial(before, 'home_filter:agent'));
  });
});
