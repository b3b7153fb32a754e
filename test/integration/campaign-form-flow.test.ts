/**
 * The campaign form end to end: `/campaign create` and `/campaign edit` through signed requests to the real app,
 * modals and messages in the fake Slack, the service played by the simulator.
 */
import type { Json } from '../../src/emulator/fake-slack.js';
import { stateValue } from '../../src/emulator/slack-driver.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const ADMIN = 'U0ADMIN';
const READER = 'U0READER';
const CHANNEL = 'C0OPS';

let t: TestApp;
let sofia: { id: string };
let max: { id: string };
let sofiaPhone: string;
let sofiaWa: string;
let maxPhone: string;

beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_USER_IDS: ADMIN } });
  const c = t.sim.control;
  sofia = c.addAgent({ name: 'Sofía' });
  max = c.addAgent({ name: 'Max' });
  sofiaPhone = c.addIntegration({ agentId: sofia.id, type: 'phone_call' }).id;
  sofiaWa = c.addIntegration({ agentId: sofia.id, type: 'whatsapp' }).id;
  maxPhone = c.addIntegration({ agentId: max.id, type: 'phone_call' }).id;
  // Existing campaigns are where the form learns agents and integrations from.
  c.seedCampaign({ name: 'Seen phone', agentId: sofia.id, integrationId: sofiaPhone });
  c.seedCampaign({ name: 'Seen WhatsApp', agentId: sofia.id, integrationId: sofiaWa });
  c.seedCampaign({ name: 'Seen Max', agentId: max.id, integrationId: maxPhone });
});
afterAll(async () => t.close());
afterEach(() => {
  t.sim.control.clearFaults();
  t.sim.control.setBillingLimitReached(false);
});

const blocksOf = (view: Json) => (view.blocks as Json[]) ?? [];
const inputIds = (view: Json) =>
  blocksOf(view)
    .filter((b) => b.type === 'input')
    .map((b) => b.block_id as string);
const requests = (route: string) => t.sim.control.requests().filter((r) => r.route === route);

/** Opens the create form with the command and returns the form view's id once it is there. */
async function openCreate(userId = ADMIN): Promise<string> {
  const seq = t.fake.seq();
  const ack = await t.driver.command('create', { userId, channelId: CHANNEL });
  expect(ack.status).toBe(200);
  return newForm(userId, seq);
}

/** The form opened after harness sequence `seq` (the ack comes before the app opens the modal). */
async function newForm(userId: string, seq: number): Promise<string> {
  const opened = await t.fake.waitFor(() => t.fake.calls('views.open').find((c) => c.seq > seq && c.ok), 5000);
  const id = ((opened.response as Json).view as Json).id as string;
  await t.fake.waitFor(
    () => t.fake.openViews(userId).find((v) => v.id === id && v.callback_id === 'campaign_form'),
    5000,
  );
  return id;
}

/**
 * state.values of an open view as Slack holds them when nobody touched it: each input's initial value (the app
 * rebuilds its views with the current values as initial ones, so this is the form's current state).
 */
function currentState(view: Json): Json {
  const out: Json = {};
  for (const b of blocksOf(view)) {
    if (b.type !== 'input') continue;
    const el = b.element as Json;
    const id = el.action_id as string;
    let v: Json;
    switch (el.type) {
      case 'plain_text_input':
      case 'number_input':
        v = { type: el.type, value: el.initial_value ?? null };
        break;
      case 'static_select':
      case 'radio_buttons':
        v = { type: el.type, selected_option: el.initial_option ?? null };
        break;
      case 'checkboxes':
      case 'multi_static_select':
        v = { type: el.type, selected_options: el.initial_options ?? [] };
        break;
      case 'timepicker':
        v = { type: el.type, selected_time: el.initial_time ?? null };
        break;
      case 'datepicker':
        v = { type: el.type, selected_date: el.initial_date ?? null };
        break;
      default:
        throw new Error(`unexpected element ${String(el.type)}`);
    }
    out[b.block_id as string] = { [id]: v };
  }
  return out;
}

/** A choice in the open form that reshapes it; resolves with the updated view. */
async function choose(viewId: string, blockId: string, value: string | string[], typed: Json = {}): Promise<Json> {
  const view = t.fake.view(viewId)!;
  const before = view.hash;
  const chosen = Array.isArray(value)
    ? stateValue.checkboxes(value)
    : blockId === 'integration_type' || blockId === 'cycles.mode'
      ? stateValue.radio(value)
      : stateValue.staticSelect(value);
  const r = await t.driver.blockAction({
    view: viewId,
    actionId: blockId,
    ...(Array.isArray(value) ? { selectedOptions: value.map((v) => ({ value: v })) } : { selectedOption: { value } }),
    stateValues: { ...currentState(view), ...typed, [blockId]: { [blockId]: chosen } },
  });
  expect(r.status).toBe(200);
  return t.fake.waitFor(() => {
    const v = t.fake.view(viewId);
    return v && v.hash !== before ? v : undefined;
  }, 5000);
}

const text = (v: string) => stateValue.text(v);
const entry = (block: string, value: Json) => ({ [block]: { [block]: value } });

function values(...entries: Json[]): Json {
  return Object.assign({}, ...entries);
}

/**
 * Waits for a new top-level message in the channel after `count` messages whose blocks contain `containing`. Posts
 * go through Slack's per-channel budget, so an earlier test's summary may still arrive after `count`.
 */
function nextMessage(channel: string, count: number, containing: string): Promise<Json> {
  return t.fake.waitFor(
    () =>
      t.fake
        .messages(channel)
        .slice(count)
        .find((m) => JSON.stringify(m.blocks).includes(containing)) as unknown as Json | undefined,
    10_000,
  );
}

const weekdays = ['mon', 'tue', 'wed', 'thu', 'fri'];
const weekdayTimes = () =>
  values(
    entry('scheduling.days', stateValue.checkboxes(weekdays)),
    ...weekdays.flatMap((d) => [
      entry(`scheduling.${d}.startTime`, stateValue.time('09:00')),
      entry(`scheduling.${d}.stopTime`, stateValue.time('18:00')),
    ]),
  );

describe('create', () => {
  it('phone call: channel first, cycles, schedule; one POST with exactly the form; a summary in the channel', async () => {
    const viewId = await openCreate();
    const first = t.fake.view(viewId)!;
    expect(inputIds(first)).not.toContain('first_message');
    expect(inputIds(first)).not.toContain('cycles.enabled');

    const typed = values(entry('name', text('Cobranza <marzo> & co')), entry('description', text('Primera ola')));
    const phone = await choose(viewId, 'integration_type', 'phone_call', typed);
    expect(inputIds(phone)).toEqual(expect.arrayContaining(['first_message', 'cycles.enabled']));
    expect(inputIds(phone)).not.toContain('template');
    // Typed values survive the reshaping.
    const name = blocksOf(phone).find((b) => b.block_id === 'name')!;
    expect((name.element as Json).initial_value).toBe('Cobranza <marzo> & co');

    await choose(viewId, 'agent_id', sofia.id);
    const withCycles = await choose(viewId, 'cycles.enabled', ['on']);
    expect(inputIds(withCycles)).toEqual(expect.arrayContaining(['cycles.mode', 'cycles.max_iterations']));
    expect(inputIds(withCycles).some((b) => b.startsWith('cycles.schedule'))).toBe(false);
    const integration = blocksOf(withCycles).find((b) => b.block_id === 'integration_id')!;
    expect(((integration.element as Json).options as Json[]).map((o) => o.value)).toEqual([sofiaPhone]);

    const since = t.fake.messages(CHANNEL).length;
    const r = await t.driver.viewSubmission({
      viewId,
      values: values(
        typed,
        entry('integration_id', stateValue.staticSelect(sofiaPhone)),
        entry('retries', stateValue.number('3')),
        entry('first_message', text('Hola, te llamo de parte de Acme.')),
        weekdayTimes(),
        entry('cycles.max_iterations', stateValue.number('4')),
        entry('cycles.cooldown_minutes', stateValue.number('90')),
        entry('cycles.filter_statuses', stateValue.multiStaticSelect(['converted', 'answered'])),
        entry('cycles.filter_tags', text('tag-vip, tag-dnc')),
      ),
    });
    expect(r.status).toBe(200);
    expect(r.viewResult).toMatchObject({ ok: true, action: 'close' });

    const posts = requests('createCampaign');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(posts[0]!.body).toEqual({
      name: 'Cobranza <marzo> & co',
      agent_id: sofia.id,
      integration_id: sofiaPhone,
      integration_type: 'phone_call',
      description: 'Primera ola',
      timezone: 'America/Mexico_City',
      retries: 3,
      message_limit: 250,
      first_message: 'Hola, te llamo de parte de Acme.',
      scheduling: Object.fromEntries(weekdays.map((d) => [d, { startTime: '09:00', stopTime: '18:00', active: true }])),
      cycles: {
        enabled: true,
        mode: 'cooldown',
        max_iterations: 4,
        cooldown_minutes: 90,
        filter_statuses: ['converted', 'answered'],
        filter_tags: ['tag-vip', 'tag-dnc'],
      },
    });

    const msg = await nextMessage(CHANNEL, since, 'Cobranza');
    const shown = JSON.stringify(msg.blocks);
    expect(shown).toContain('Cobranza &lt;marzo&gt; &amp; co');
    expect(shown).toContain('Mon-Fri 09:00-18:00');
    expect(shown).toContain('campaign_action:activate');
    expect(shown).toContain('campaign_upload_open');
    expect(shown).toContain('campaign_watch_here');
  });

  it('WhatsApp from the "New campaign" button: templates only, never first_message or cycles', async () => {
    const before = requests('createCampaign').length;
    const seq = t.fake.seq();
    const click = await t.driver.blockAction({ actionId: 'campaign_create_open', userId: ADMIN, channelId: CHANNEL });
    expect(click.status).toBe(200);
    const viewId = await newForm(ADMIN, seq);
    const wa = await choose(viewId, 'integration_type', 'whatsapp');
    expect(inputIds(wa)).toEqual(expect.arrayContaining(['template', 'template_alt']));
    expect(inputIds(wa).filter((b) => b === 'first_message' || b.startsWith('cycles.'))).toEqual([]);

    const since = t.fake.messages(CHANNEL).length;
    const r = await t.driver.viewSubmission({
      viewId,
      values: values(
        entry('name', text('Bienvenida')),
        entry('agent_id_typed', text(sofia.id)),
        entry('integration_id_typed', text(sofiaWa)),
        entry('timezone', stateValue.staticSelect('America/Bogota')),
        entry('template', text('welcome_v2')),
        entry('template_alt', text('welcome_alt')),
      ),
    });
    expect(r.viewResult).toMatchObject({ ok: true, action: 'close' });
    const posts = requests('createCampaign').slice(before);
    expect(posts.map((p) => p.body)).toEqual([
      {
        name: 'Bienvenida',
        agent_id: sofia.id,
        integration_id: sofiaWa,
        integration_type: 'whatsapp',
        timezone: 'America/Bogota',
        retries: 1,
        message_limit: 250,
        template: 'welcome_v2',
        template_alt: 'welcome_alt',
      },
    ]);
    expect(JSON.stringify((await nextMessage(CHANNEL, since, 'Bienvenida')).blocks)).toContain('Bienvenida');
  });

  it('switching channel back and forth keeps what was typed for each channel', async () => {
    const viewId = await openCreate();
    await choose(viewId, 'integration_type', 'phone_call', values(entry('name', text('Ida y vuelta'))));
    const wa = await choose(
      viewId,
      'integration_type',
      'whatsapp',
      values(entry('name', text('Ida y vuelta')), entry('first_message', text('Hola'))),
    );
    expect(inputIds(wa)).not.toContain('first_message');
    const back = await choose(
      viewId,
      'integration_type',
      'phone_call',
      values(entry('name', text('Ida y vuelta')), entry('template', text('tpl'))),
    );
    const first = blocksOf(back).find((b) => b.block_id === 'first_message')!;
    expect((first.element as Json).initial_value).toBe('Hola');
    const name = blocksOf(back).find((b) => b.block_id === 'name')!;
    expect((name.element as Json).initial_value).toBe('Ida y vuelta');
  });

  it('scheduled cycles show their schedule and dates; cooldown hides them', async () => {
    const viewId = await openCreate();
    await choose(viewId, 'integration_type', 'phone_call');
    await choose(viewId, 'cycles.enabled', ['on']);
    const scheduled = await choose(viewId, 'cycles.mode', 'scheduled');
    expect(inputIds(scheduled)).toEqual(
      expect.arrayContaining(['cycles.schedule.days', 'cycles.schedule.mon.startTime', 'cycles.schedule_start_date']),
    );
    const cooldown = await choose(viewId, 'cycles.mode', 'cooldown');
    expect(inputIds(cooldown).some((b) => b.startsWith('cycles.schedule'))).toBe(false);
  });
});

describe('validation in the modal', () => {
  let viewId: string;
  const base = () =>
    values(
      entry('name', text('Validada')),
      entry('agent_id', stateValue.staticSelect(sofia.id)),
      entry('integration_id', stateValue.staticSelect(sofiaPhone)),
    );

  beforeAll(async () => {
    viewId = await openCreate();
    await choose(viewId, 'integration_type', 'phone_call');
    await choose(viewId, 'cycles.enabled', ['on']);
    await choose(viewId, 'cycles.mode', 'scheduled');
  });

  const cases: [string, () => Json, string, RegExp][] = [
    ['blank name', () => values(base(), entry('name', text(''))), 'name', /Give the campaign a name/],
    ['name over 255', () => values(base(), entry('name', text('n'.repeat(256)))), 'name', /255/],
    [
      'no agent',
      () => values(base(), entry('agent_id', stateValue.staticSelect(null))),
      'agent_id',
      /Choose the agent/,
    ],
    [
      'agent id not a UUID',
      () => values(base(), entry('agent_id', stateValue.staticSelect(null)), entry('agent_id_typed', text('sofia'))),
      'agent_id_typed',
      /UUID/,
    ],
    [
      'no integration',
      () => values(base(), entry('integration_id', stateValue.staticSelect(null))),
      'integration_id',
      /Choose the integration/,
    ],
    [
      'integration of another agent',
      () =>
        values(
          base(),
          entry('integration_id', stateValue.staticSelect(null)),
          entry('integration_id_typed', text(maxPhone)),
        ),
      'integration_id_typed',
      /belongs to agent Max/,
    ],
    [
      'integration of the other channel',
      () =>
        values(
          base(),
          entry('integration_id', stateValue.staticSelect(null)),
          entry('integration_id_typed', text(sofiaWa)),
        ),
      'integration_id_typed',
      /WhatsApp integration/,
    ],
    ['retries 6', () => values(base(), entry('retries', stateValue.number('6'))), 'retries', /0 to 5/],
    [
      'message limit 0',
      () => values(base(), entry('message_limit', stateValue.number('0'))),
      'message_limit',
      /1 to 10,000/,
    ],
    [
      'message limit 10001',
      () => values(base(), entry('message_limit', stateValue.number('10001'))),
      'message_limit',
      /1 to 10,000/,
    ],
    [
      'unknown timezone',
      () => values(base(), entry('timezone', stateValue.staticSelect('Mars/Olympus'))),
      'timezone',
      /not a timezone/,
    ],
    [
      'ticked day without times',
      () => values(base(), entry('scheduling.days', stateValue.checkboxes(['sat']))),
      'scheduling.sat.startTime',
      /Saturday is ticked/,
    ],
    [
      'stop before start',
      () =>
        values(
          base(),
          entry('scheduling.fri.startTime', stateValue.time('18:00')),
          entry('scheduling.fri.stopTime', stateValue.time('08:00')),
        ),
      'scheduling.fri.stopTime',
      /later than the start/,
    ],
    [
      'max_iterations 1',
      () => values(base(), entry('cycles.max_iterations', stateValue.number('1'))),
      'cycles.max_iterations',
      /2 to 12/,
    ],
    [
      'max_iterations 13',
      () => values(base(), entry('cycles.max_iterations', stateValue.number('13'))),
      'cycles.max_iterations',
      /2 to 12/,
    ],
    [
      'cooldown 1441',
      () => values(base(), entry('cycles.cooldown_minutes', stateValue.number('1441'))),
      'cycles.cooldown_minutes',
      /0 to 1,440/,
    ],
    [
      'cycle end before start',
      () =>
        values(
          base(),
          entry('cycles.schedule_start_date', stateValue.date('2026-06-02')),
          entry('cycles.schedule_end_date', stateValue.date('2026-06-01')),
        ),
      'cycles.schedule_end_date',
      /before they start/,
    ],
    [
      'cycle day ticked without times',
      () => values(base(), entry('cycles.schedule.days', stateValue.checkboxes(['mon']))),
      'cycles.schedule.mon.startTime',
      /Monday is ticked/,
    ],
  ];

  it.each(cases)(
    '%s: answered on its block, nothing created, the form stays open',
    async (_name, state, block, message) => {
      const before = t.sim.control.requests().length;
      const r = await t.driver.viewSubmission({ viewId, values: state(), allowEmptyRequired: true });
      expect(r.status).toBe(200);
      const ack = r.json as { response_action: string; errors: Record<string, string> };
      expect(ack.response_action).toBe('errors');
      expect(ack.errors[block]).toMatch(message);
      expect(r.viewResult).toMatchObject({ ok: true, action: 'errors' });
      expect(
        t.sim.control
          .requests()
          .slice(before)
          .filter((q) => q.method !== 'GET'),
      ).toEqual([]);
      expect(t.fake.openViews(ADMIN).map((v) => v.id)).toContain(viewId);
    },
  );

  it('a missing channel is answered on the channel block', async () => {
    const other = await openCreate();
    const r = await t.driver.viewSubmission({
      viewId: other,
      values: values(base(), entry('integration_type', stateValue.radio(null))),
      allowEmptyRequired: true,
    });
    expect((r.json as Json).errors).toMatchObject({ integration_type: expect.stringMatching(/channel/) });
  });
});

describe('service refusals', () => {
  async function phoneForm(): Promise<string> {
    const viewId = await openCreate();
    await choose(viewId, 'integration_type', 'phone_call');
    return viewId;
  }
  const named = (name: string) => entry('name', text(name));

  it('AGENT_NOT_FOUND lands under the agent field, and the fixed form then goes through', async () => {
    const viewId = await phoneForm();
    const ghost = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const r = await t.driver.viewSubmission({
      viewId,
      values: values(
        named('Fantasma'),
        entry('agent_id_typed', text(ghost)),
        entry('integration_id_typed', text(sofiaPhone)),
      ),
    });
    const ack = r.json as { response_action: string; errors: Record<string, string> };
    expect(ack.response_action).toBe('errors');
    expect(Object.keys(ack.errors)).toEqual(['agent_id_typed']);
    expect(ack.errors.agent_id_typed).toContain(ghost);
    // The person fixes the agent and submits the same view again: created once.
    const fixed = await t.driver.viewSubmission({
      viewId,
      values: values(
        named('Fantasma'),
        entry('agent_id_typed', text(sofia.id)),
        entry('integration_id_typed', text(sofiaPhone)),
      ),
    });
    expect(fixed.viewResult).toMatchObject({ ok: true, action: 'close' });
  });

  it('INTEGRATION_NOT_FOUND lands under the integration field', async () => {
    const viewId = await phoneForm();
    const r = await t.driver.viewSubmission({
      viewId,
      values: values(
        named('Sin integración'),
        entry('agent_id', stateValue.staticSelect(sofia.id)),
        entry('integration_id_typed', text('int-nope')),
      ),
    });
    expect((r.json as Json).errors).toEqual({ integration_id_typed: expect.stringMatching(/int-nope|integration/i) });
  });

  it('BILLING_LIMIT_REACHED is shown in a view on top of the form, which keeps its input', async () => {
    const viewId = await phoneForm();
    t.sim.control.setBillingLimitReached(true);
    const state = values(
      named('Sin saldo'),
      entry('agent_id', stateValue.staticSelect(sofia.id)),
      entry('integration_id', stateValue.staticSelect(sofiaPhone)),
    );
    const r = await t.driver.viewSubmission({ viewId, values: state });
    expect(r.viewResult).toMatchObject({ ok: true, action: 'push' });
    expect(JSON.stringify(r.viewResult!.view)).toMatch(/plan limit/);
    expect(t.fake.openViews(ADMIN).map((v) => v.id)).toContain(viewId);
    expect(
      requests('createCampaign')
        .filter((q) => (q.body as Json).name === 'Sin saldo')
        .every((q) => q.status === 402),
    ).toBe(true);

    // The plan is raised; the same content is submitted again and now goes through (the key moved on).
    t.sim.control.setBillingLimitReached(false);
    t.fake.closeView(r.viewResult!.view!.id as string);
    const again = await t.driver.viewSubmission({ viewId, values: state });
    expect(again.viewResult).toMatchObject({ ok: true, action: 'close' });
    const sent = requests('createCampaign').filter((q) => (q.body as Json).name === 'Sin saldo');
    expect(sent.map((q) => q.status)).toEqual([402, 201]);
    expect(sent[0]!.headers['idempotency-key']).not.toBe(sent[1]!.headers['idempotency-key']);
  });

  // The form checks every limit of the spec itself, so these refusals come from a service stricter than the spec
  // (played by an injected 400 answered before the simulator's own checks), in each of the spec's two shapes.
  const refuseNextCreate = (body: Json) =>
    t.sim.control.injectFaults({ status: 400, match: /^POST \/api\/v1\.0\/campaigns$/, body });

  it('the campaign envelope naming `name` lands under the name block; fixed, the form goes through once', async () => {
    const viewId = await phoneForm();
    refuseNextCreate({
      success: false,
      error: 'INVALID_REQUEST',
      message: 'name: A campaign named "Duplicada" already exists.',
      field: 'name',
    });
    const state = (name: string) =>
      values(
        named(name),
        entry('agent_id', stateValue.staticSelect(sofia.id)),
        entry('integration_id', stateValue.staticSelect(sofiaPhone)),
      );
    const r = await t.driver.viewSubmission({ viewId, values: state('Duplicada') });
    expect(r.json).toEqual({
      response_action: 'errors',
      errors: { name: 'A campaign named "Duplicada" already exists.' },
    });
    expect(t.fake.openViews(ADMIN).map((v) => v.id)).toContain(viewId);
    const fixed = await t.driver.viewSubmission({ viewId, values: state('Duplicada 2') });
    expect(fixed.viewResult).toMatchObject({ ok: true, action: 'close' });
    const sent = requests('createCampaign').filter((q) => String((q.body as Json).name).startsWith('Duplicada'));
    expect(sent.map((q) => [(q.body as Json).name, q.status])).toEqual([
      ['Duplicada', 400],
      ['Duplicada 2', 201],
    ]);
  });

  it('the validation body naming `name` lands under the same block', async () => {
    const viewId = await phoneForm();
    refuseNextCreate({ name: ['Ensure this field has no more than 100 characters.'], non_field_errors: [] });
    const r = await t.driver.viewSubmission({
      viewId,
      values: values(
        named('y'.repeat(120)),
        entry('agent_id', stateValue.staticSelect(sofia.id)),
        entry('integration_id', stateValue.staticSelect(sofiaPhone)),
      ),
    });
    expect(r.json).toEqual({
      response_action: 'errors',
      errors: { name: 'Ensure this field has no more than 100 characters.' },
    });
  });

  it('a field refusal without a field the form shows is explained over the form', async () => {
    const viewId = await phoneForm();
    refuseNextCreate({ success: false, error: 'INVALID_REQUEST', message: 'Too many campaigns today.' });
    const r = await t.driver.viewSubmission({
      viewId,
      values: values(
        named('Sin campo'),
        entry('agent_id', stateValue.staticSelect(sofia.id)),
        entry('integration_id', stateValue.staticSelect(sofiaPhone)),
      ),
    });
    expect(r.viewResult).toMatchObject({ ok: true, action: 'push' });
    expect(JSON.stringify(r.viewResult!.view)).toContain('Too many campaigns today');
  });

  it('a wrong channel for a typed integration is refused by the service and shown on the channel', async () => {
    const viewId = await phoneForm();
    // Max's integrations are all phone; a WhatsApp one made after the form loaded is unknown to the app.
    const newWa = t.sim.control.addIntegration({ agentId: max.id, type: 'whatsapp' }).id;
    const r = await t.driver.viewSubmission({
      viewId,
      values: values(
        named('Canal'),
        entry('agent_id', stateValue.staticSelect(max.id)),
        entry('integration_id_typed', text(newWa)),
      ),
    });
    expect((r.json as Json).errors).toEqual({ integration_type: expect.stringMatching(/whatsapp/) });
  });
});

describe('exactly one campaign per submission', () => {
  it('a double submit creates one campaign and posts one message', async () => {
    const viewId = await openCreate();
    await choose(viewId, 'integration_type', 'phone_call');
    const state = values(
      entry('name', text('Doble clic')),
      entry('agent_id', stateValue.staticSelect(sofia.id)),
      entry('integration_id', stateValue.staticSelect(sofiaPhone)),
    );
    const since = t.fake.messages(CHANNEL).length;
    const [a, b] = await Promise.all([
      t.driver.viewSubmission({ viewId, values: state }),
      t.driver.viewSubmission({ viewId, values: state }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const created = t.sim.control
      .requests()
      .filter((q) => q.route === 'createCampaign' && (q.body as Json).name === 'Doble clic');
    expect(new Set(created.map((q) => q.headers['idempotency-key'])).size).toBe(1);
    const list = await t.driver.command('list', { userId: ADMIN });
    expect(list.status).toBe(200);
    const all = t.sim.control.requests().filter((q) => q.route === 'createCampaign' && q.status === 201 && !q.replayed);
    expect(all.filter((q) => (q.body as Json).name === 'Doble clic')).toHaveLength(1);
    // The summary goes through Slack's per-channel budget, so an earlier test's message may come first: wait for
    // this one, then long enough for a second one to have shown up.
    const summaries = () =>
      t.fake
        .messages(CHANNEL)
        .slice(since)
        .filter((m) => JSON.stringify(m.blocks).includes('Doble clic'));
    for (const start = Date.now(); summaries().length === 0 && Date.now() - start < 10_000;) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(summaries()).toHaveLength(1);
  });

  it('a lost response is retried with the same key: the service replays, nothing is duplicated', async () => {
    const viewId = await openCreate();
    await choose(viewId, 'integration_type', 'phone_call');
    t.sim.control.injectFaults({ status: 503, match: /^POST \/api\/v1\.0\/campaigns$/, when: 'after', retryAfter: 0 });
    const r = await t.driver.viewSubmission({
      viewId,
      values: values(
        entry('name', text('Respuesta perdida')),
        entry('agent_id', stateValue.staticSelect(sofia.id)),
        entry('integration_id', stateValue.staticSelect(sofiaPhone)),
      ),
    });
    expect(r.viewResult).toMatchObject({ ok: true, action: 'close' });
    const sent = requests('createCampaign').filter((q) => (q.body as Json).name === 'Respuesta perdida');
    expect(sent.length).toBe(2);
    expect(sent[1]!.replayed).toBe(true);
    expect(sent[0]!.headers['idempotency-key']).toBe(sent[1]!.headers['idempotency-key']);
    // Its summary reaches the channel after the view closed (after the submission is recorded in the store).
    await t.fake.waitFor(
      () => t.fake.messages(CHANNEL).find((m) => JSON.stringify(m.blocks).includes('Respuesta perdida')),
      5000,
    );
  });

  it('a slow service: the ack goes out in time with a working view, replaced by the outcome', async () => {
    const viewId = await openCreate();
    await choose(viewId, 'integration_type', 'phone_call');
    const saved = t.app.settings.campaignForm.ackBudgetMs;
    t.app.settings.campaignForm.ackBudgetMs = 50;
    t.sim.control.setLatencyMs(400, /^POST \/api\/v1\.0\/campaigns$/);
    try {
      const since = t.fake.messages(CHANNEL).length;
      const r = await t.driver.viewSubmission({
        viewId,
        values: values(
          entry('name', text('Lenta')),
          entry('agent_id', stateValue.staticSelect(sofia.id)),
          entry('integration_id', stateValue.staticSelect(sofiaPhone)),
        ),
      });
      expect(r.respondedAt - r.sentAt).toBeLessThan(400);
      expect(r.viewResult).toMatchObject({ ok: true, action: 'push' });
      const working = r.viewResult!.view!;
      expect(JSON.stringify(working)).toContain('Creating');
      const done = await t.fake.waitFor(() => {
        const v = t.fake.view(working.id as string);
        return v && JSON.stringify(v.blocks).includes('was created') ? v : undefined;
      }, 5000);
      expect(done.clear_on_close).toBe(true);
      expect(JSON.stringify((await nextMessage(CHANNEL, since, 'Lenta')).blocks)).toContain('Lenta');
      expect(requests('createCampaign').filter((q) => (q.body as Json).name === 'Lenta')).toHaveLength(1);
    } finally {
      t.app.settings.campaignForm.ackBudgetMs = saved;
      t.sim.control.setLatencyMs(0, /^POST \/api\/v1\.0\/campaigns$/);
    }
  });
});

describe('edit', () => {
  let id: number;
  beforeAll(() => {
    id = Number(
      t.sim.control.seedCampaign({
        name: 'Editable',
        agentId: sofia.id,
        integrationId: sofiaPhone,
        retries: 2,
        timezone: 'America/Bogota',
        first_message: 'Hola',
        scheduling: { mon: { startTime: '09:00', stopTime: '18:00', active: true } },
        cycles: {
          enabled: true,
          mode: 'scheduled',
          max_iterations: 3,
          schedule: { fri: { startTime: '08:00', stopTime: '12:00', active: true } },
        },
      }).id,
    );
  });

  async function openEdit(campaignId: number): Promise<Json> {
    const seq = t.fake.seq();
    const ack = await t.driver.command(`edit ${campaignId}`, { userId: ADMIN, channelId: CHANNEL });
    expect(ack.status).toBe(200);
    const opened = await t.fake.waitFor(() => t.fake.calls('views.open').find((c) => c.seq > seq && c.ok), 5000);
    const viewId = ((opened.response as Json).view as Json).id as string;
    return t.fake.waitFor(() => {
      const v = t.fake.openViews(ADMIN).find((x) => x.id === viewId);
      return v && !JSON.stringify(v.blocks).includes('Loading') ? v : undefined;
    }, 5000);
  }

  it('prefilled; immutable settings shown, not editable; only changed fields are sent', async () => {
    const view = await openEdit(id);
    expect(view.callback_id).toBe('campaign_form');
    const ids = inputIds(view);
    for (const f of [
      'integration_type',
      'agent_id',
      'agent_id_typed',
      'integration_id',
      'integration_id_typed',
      'cycles.enabled',
      'cycles.mode',
    ]) {
      expect(ids).not.toContain(f);
    }
    expect(ids).toEqual(expect.arrayContaining(['cycles.schedule.fri.startTime', 'first_message']));
    const fixedText = JSON.stringify(blocksOf(view).filter((b) => b.type !== 'input'));
    expect(fixedText).toContain('Sofía');
    expect(fixedText).toContain(sofiaPhone);

    const since = t.fake.messages(CHANNEL).length;
    const r = await t.driver.viewSubmission({
      viewId: view.id as string,
      values: values(entry('name', text('Editada')), entry('cycles.max_iterations', stateValue.number('5'))),
    });
    expect(r.viewResult).toMatchObject({ ok: true, action: 'close' });
    const patches = requests('updateCampaign');
    expect(patches.map((p) => p.body)).toEqual([{ name: 'Editada', cycles: { max_iterations: 5 } }]);
    const msg = await nextMessage(CHANNEL, since, 'cycles.max_iterations');
    expect(JSON.stringify(msg.blocks)).toContain('`name`, `cycles.max_iterations`');
    expect(t.sim.control.getCampaignState(id)!.record).toMatchObject({
      name: 'Editada',
      retries: 2,
      timezone: 'America/Bogota',
    });
  });

  it.each([
    [
      'the campaign envelope',
      { success: false, error: 'INVALID_REQUEST', message: 'Must be at most 8.', field: 'cycles.max_iterations' },
      'cycles.max_iterations',
      'Must be at most 8.',
    ],
    [
      'the campaign envelope with a flat field name',
      { success: false, error: 'INVALID_REQUEST', message: 'Must be at most 8.', field: 'cycle_max_iterations' },
      'cycles.max_iterations',
      'Must be at most 8.',
    ],
    [
      'the validation body',
      { 'cycles.max_iterations': ['Must be at most 8.'], non_field_errors: [] },
      'cycles.max_iterations',
      'Must be at most 8.',
    ],
  ])('a PATCH refused with %s shows on the block of the field', async (_label, body, block, message) => {
    const view = await openEdit(id);
    t.sim.control.injectFaults({ status: 400, match: new RegExp(`^PATCH /api/v1\\.0/campaigns/${id}$`), body });
    const r = await t.driver.viewSubmission({
      viewId: view.id as string,
      values: entry('cycles.max_iterations', stateValue.number('10')),
    });
    expect(r.json).toEqual({ response_action: 'errors', errors: { [block]: message } });
    expect(t.sim.control.getCampaignState(id)!.record.cycles.max_iterations).not.toBe(10);
  });

  it('nothing changed: no PATCH, the form says so', async () => {
    const before = requests('updateCampaign').length;
    const view = await openEdit(id);
    const r = await t.driver.viewSubmission({ viewId: view.id as string });
    expect(r.viewResult).toMatchObject({ ok: true, action: 'update' });
    expect(JSON.stringify(r.viewResult!.view)).toContain('Nothing changed');
    expect(requests('updateCampaign')).toHaveLength(before);
  });

  it('a finished campaign answers that it is read-only and offers no form', async () => {
    const done = Number(
      t.sim.control.seedCampaign({
        name: 'Terminada',
        agentId: sofia.id,
        integrationId: sofiaPhone,
        status: 'finished',
      }).id,
    );
    const before = requests('updateCampaign').length;
    const view = await openEdit(done);
    expect(view.callback_id).not.toBe('campaign_form');
    expect(view.submit).toBeNull();
    expect(JSON.stringify(view.blocks)).toContain('read-only');
    expect(requests('updateCampaign')).toHaveLength(before);
  });

  it('finished while the form was open: the refusal is shown over the form', async () => {
    const other = Number(
      t.sim.control.seedCampaign({ name: 'Por terminar', agentId: sofia.id, integrationId: sofiaPhone }).id,
    );
    const view = await openEdit(other);
    t.sim.control.setCampaignStatus(other, 'finished');
    const r = await t.driver.viewSubmission({ viewId: view.id as string, values: entry('name', text('Tarde')) });
    expect(r.viewResult).toMatchObject({ ok: true, action: 'push' });
    expect(JSON.stringify(r.viewResult!.view)).toMatch(/finished/);
  });

  it('an unknown campaign answers what went wrong', async () => {
    const ack = await t.driver.command('edit 999999', { userId: ADMIN, channelId: CHANNEL });
    expect(ack.status).toBe(200);
    const v = await t.fake.waitFor(() => {
      const x = t.fake.openViews(ADMIN).find((y) => JSON.stringify(y.title).includes('#999999'));
      return x && JSON.stringify(x.blocks).includes('not found') ? x : undefined;
    }, 5000);
    expect(v.submit).toBeNull();
  });
});

describe('permissions', () => {
  it('a read-only person cannot open the form', async () => {
    const since = t.fake.responseUrlUses().length;
    await t.driver.command('create', { userId: READER, channelId: CHANNEL });
    const use = await t.fake.waitFor(() => t.fake.responseUrlUses()[since], 5000);
    expect(JSON.stringify(use.body)).toContain("can't create campaigns");
    expect(t.fake.openViews(READER)).toEqual([]);
  });

  it('a submission by a read-only person is refused on the server, nothing created', async () => {
    const viewId = await openCreate(ADMIN);
    await choose(viewId, 'integration_type', 'phone_call');
    const before = requests('createCampaign').length;
    const r = await t.driver.viewSubmission({
      viewId,
      userId: READER,
      values: values(
        entry('name', text('Colada')),
        entry('agent_id', stateValue.staticSelect(sofia.id)),
        entry('integration_id', stateValue.staticSelect(sofiaPhone)),
      ),
    });
    expect(r.viewResult).toMatchObject({ ok: true, action: 'push' });
    expect(JSON.stringify(r.viewResult!.view)).toContain("can't create campaigns");
    expect(requests('createCampaign')).toHaveLength(before);
  });
});
