/**
 * A person who may only read is refused on every path that changes something (commands, buttons in messages and
 * in the Home tab, the Home tab's menu, view submissions), is told who can do it, the refusal is audited, and no
 * changing request reaches the service (checked in the simulator's request log).
 */
import type { Json } from '../../src/emulator/fake-slack.js';
import { stateValue } from '../../src/emulator/slack-driver.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const ADMIN = 'U0ADMIN';
const READER = 'U0READER';
const CHANNEL = 'C0OPS';
const AUDIT = 'C0AUDIT';

let t: TestApp;
let phone: number;
let ready: number;
let contactId: number;
let adminHome: Json;

const text = (x: unknown) => JSON.stringify(x);
/** Requests that could change something at the service. */
const changing = () => t.sim.control.requests().filter((r) => r.method !== 'GET');

beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_USER_IDS: ADMIN, AUDIT_CHANNEL_ID: AUDIT } });
  const c = t.sim.control;
  const agent = c.addAgent({ name: 'Sofía' });
  const int = c.addIntegration({ agentId: agent.id, type: 'phone_call' });
  phone = Number(
    c.seedCampaign({
      name: 'Cobranza',
      agentId: agent.id,
      integrationId: int.id,
      status: 'active',
      contacts: [{ contact: '+525512345678', name: 'Ana' }],
    }).id,
  );
  ready = Number(c.seedCampaign({ name: 'Lista', agentId: agent.id, integrationId: int.id, status: 'ready' }).id);
  contactId = (c.getCampaignState(phone)!.contacts[0] as { id: number }).id;

  // The admin watches the campaign in the channel (so "unwatch" has something to remove) and opens the Home tab.
  const since = t.fake.responseUrlUses().length;
  await t.driver.command(`watch ${phone}`, { userId: ADMIN, channelId: CHANNEL });
  await t.fake.waitFor(() => t.fake.responseUrlUses()[since], 5000);
  await t.driver.appHomeOpened({ userId: ADMIN });
  adminHome = await t.fake.waitFor(() => {
    const v = t.fake.publishedHome(ADMIN);
    return v && text(v).includes('campaign_action:pause') ? v : undefined;
  }, 5000);
});
afterAll(async () => t.close());

const subscriptions = () => t.app.deps.store.collection('watch_subscriptions').count();

/**
 * Runs `act` as the reader and returns the refusal they got (found by `reply`); checks that it names who can do it,
 * that the refusal was posted to the audit channel, and that nothing changing reached the service.
 */
async function refused(act: () => Promise<unknown>, reply: () => unknown, what: RegExp): Promise<void> {
  const before = changing().length;
  const subs = await subscriptions();
  const audits = t.fake.messages(AUDIT).length;
  await act();
  const got = await t.fake.waitFor(reply, 5000);
  expect(text(got)).toMatch(what);
  // Who can: the admin is named. (The campaign form's refusal view escapes the mention, so it shows as text
  // rather than as a name; reported to its owner. Either way the admin is named.)
  expect(text(got)).toMatch(new RegExp(`Only (<|&lt;)@${ADMIN}(>|&gt;)`));
  const audit = await t.fake.waitFor(() => t.fake.messages(AUDIT)[audits], 5000);
  expect(audit.text).toContain(`🚫 <@${READER}>`);
  expect(audit.text).toContain('refused');
  expect(changing().slice(before)).toEqual([]);
  expect(await subscriptions()).toBe(subs);
}

/** The next answer through a response_url (commands, buttons in messages). */
function nextResponse() {
  const since = t.fake.responseUrlUses().length;
  return () => t.fake.responseUrlUses()[since]?.body;
}

/** The next message in the reader's DM (Home tab buttons and modals answer there). */
function nextDm() {
  const since = t.fake.messages(READER).length;
  return () => t.fake.messages(READER)[since];
}

describe('commands', () => {
  it.each([
    [`pause {phone}`, /can't pause campaigns/],
    [`archive {phone}`, /can't archive campaigns/],
    [`activate {ready}`, /can't activate campaigns/],
    [`resume {phone}`, /can't resume campaigns/],
    ['create', /can't create campaigns/],
    [`edit {phone}`, /can't edit campaigns/],
    [`watch {ready}`, /can't watch campaigns/],
    [`unwatch {phone}`, /can't unwatch campaigns/],
    [`upload {phone}`, /can't upload contacts to campaigns/],
  ])('/campaign %s', async (cmd, what) => {
    const line = cmd.replace('{phone}', String(phone)).replace('{ready}', String(ready));
    const reply = nextResponse();
    await refused(() => t.driver.command(line, { userId: READER, channelId: CHANNEL }), reply, what);
    expect(t.fake.openViews(READER)).toEqual([]);
  });
});

describe('buttons in messages', () => {
  it.each(['pause', 'archive'])('campaign_action:%s', async (action) => {
    const reply = nextResponse();
    await refused(
      () =>
        t.driver.blockAction({
          userId: READER,
          channelId: CHANNEL,
          actionId: `campaign_action:${action}`,
          value: JSON.stringify({ id: phone, action }),
        }),
      reply,
      new RegExp(`can't ${action} campaigns`),
    );
  });

  it('contact_remove', async () => {
    const reply = nextResponse();
    await refused(
      () =>
        t.driver.blockAction({
          userId: READER,
          channelId: CHANNEL,
          actionId: 'contact_remove',
          value: JSON.stringify({ campaignId: phone, contactId }),
        }),
      reply,
      /can't remove contacts from campaigns/,
    );
    expect(t.sim.control.getCampaignState(phone)!.contacts).toHaveLength(1);
  });

  it('campaign_create_open', async () => {
    const reply = nextResponse();
    await refused(
      () => t.driver.blockAction({ userId: READER, channelId: CHANNEL, actionId: 'campaign_create_open' }),
      reply,
      /can't create campaigns/,
    );
    expect(t.fake.openViews(READER)).toEqual([]);
  });

  it('campaign_upload_open', async () => {
    const reply = nextResponse();
    await refused(
      () =>
        t.driver.blockAction({
          userId: READER,
          channelId: CHANNEL,
          actionId: 'campaign_upload_open',
          value: String(phone),
        }),
      reply,
      /can't upload contacts to campaigns/,
    );
    expect(t.fake.openViews(READER)).toEqual([]);
  });

  it('campaign_watch_here', async () => {
    const reply = nextResponse();
    await refused(
      () =>
        t.driver.blockAction({
          userId: READER,
          channelId: 'C0OTHER',
          actionId: 'campaign_watch_here',
          value: String(ready),
        }),
      reply,
      /can't watch campaigns/,
    );
  });
});

describe('the Home tab', () => {
  it('the reader sees no change buttons in their own tab', async () => {
    await t.driver.appHomeOpened({ userId: READER });
    const home = await t.fake.waitFor(() => {
      const v = t.fake.publishedHome(READER);
      return v && text(v).includes('home_filters') ? v : undefined;
    }, 5000);
    expect(text(home)).not.toContain('campaign_action:');
  });

  it.each(['activate', 'archive'])(
    'a %s button (from a tab that shows it) is refused on the server',
    async (action) => {
      const id = action === 'activate' ? ready : phone;
      const reply = nextDm();
      await refused(
        () =>
          t.driver.blockAction({
            userId: READER,
            view: adminHome,
            actionId: `campaign_action:${action}`,
            blockId: `home_campaign:${id}`,
          }),
        reply,
        new RegExp(`can't ${action} campaigns`),
      );
    },
  );

  it.each([
    ['edit', /can't edit campaigns/],
    ['watch', /can't watch campaigns/],
    ['upload', /can't upload contacts to campaigns/],
  ])('menu: %s', async (choice, what) => {
    const reply = nextDm();
    await refused(
      () =>
        t.driver.blockAction({
          userId: READER,
          view: adminHome,
          blockId: `home_campaign:${phone}`,
          actionId: 'home_campaign_menu',
          type: 'overflow',
          selectedOption: { value: `${choice}:${phone}` },
        }),
      reply,
      what,
    );
    expect(t.fake.openViews(READER)).toEqual([]);
  });
});

describe('view submissions', () => {
  /** Opens a form as the admin and returns its id once its content (not the loading view) is there. */
  async function adminForm(command: string): Promise<string> {
    const seq = t.fake.seq();
    await t.driver.command(command, { userId: ADMIN, channelId: CHANNEL });
    const opened = await t.fake.waitFor(() => t.fake.calls('views.open').find((c) => c.seq > seq && c.ok), 5000);
    const id = ((opened.response as Json).view as Json).id as string;
    await t.fake.waitFor(() => {
      const v = t.fake.openViews(ADMIN).find((x) => x.id === id);
      return v && v.callback_id === 'campaign_form' ? v : undefined;
    }, 5000);
    return id;
  }

  it.each([
    ['create', 'create'],
    ['edit', `edit {phone}`],
  ])('campaign form (%s) submitted by the reader', async (what, command) => {
    const viewId = await adminForm(command.replace('{phone}', String(phone)));
    let answer: Json | undefined;
    await refused(
      async () => {
        const r = await t.driver.viewSubmission({ viewId, userId: READER, allowEmptyRequired: true });
        answer = r.viewResult as Json;
      },
      () => answer,
      new RegExp(`can't ${what} campaigns`),
    );
    expect(answer).toMatchObject({ ok: true, action: 'push' });
  });

  it('contacts upload form submitted by the reader', async () => {
    const file = t.fake.addFile({ name: 'contacts.csv', content: 'name,phone\nAna,+525512345670\n', userId: READER });
    let answer: Json | undefined;
    await refused(
      async () => {
        const r = await t.driver.viewSubmission({
          callbackId: 'campaign_upload',
          userId: READER,
          privateMetadata: JSON.stringify({ campaignId: phone }),
          values: { file: { file: stateValue.files([file]) } },
        });
        answer = r.json as Json;
      },
      () => answer,
      /can't upload contacts/,
    );
    expect(answer).toMatchObject({ response_action: 'update' });
    // The file was not even read.
    expect(
      t.fake.calls().filter((c) => text(c.args).includes(file.id) || text(c.args).includes(file.url_private)),
    ).toEqual([]);
  });

  it('end-user edit', async () => {
    const reply = nextDm();
    await refused(
      () =>
        t.driver.viewSubmission({
          callbackId: 'watch_enduser_edit',
          userId: READER,
          privateMetadata: JSON.stringify({ endUserId: 'eu-123' }),
          values: {
            enduser_name: { value: stateValue.text('Nuevo nombre') },
            enduser_info: { value: stateValue.text('') },
          },
        }),
      reply,
      /can't edit end users of campaigns/,
    );
  });

  it('the Home tab watch modal', async () => {
    let answer: Json | undefined;
    await refused(
      async () => {
        const r = await t.driver.viewSubmission({
          callbackId: 'home_watch_channel',
          userId: READER,
          privateMetadata: String(ready),
          values: { home_watch_channel: { channel: stateValue.conversation('C0OTHER') } },
        });
        answer = r.json as Json;
      },
      () => answer,
      /can't watch campaigns/,
    );
    expect(answer).toMatchObject({ response_action: 'update' });
  });
});
