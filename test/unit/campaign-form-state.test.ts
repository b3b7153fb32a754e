/**
 * The campaign form's submitted state -> API input: every rule of the spec answered under its block, only changed
 * fields in an edit, and the service's refusals mapped back to the blocks they concern.
 */
import { OutreachError } from '../../src/outreach/errors.js';
import type { CampaignDetail } from '../../src/outreach/schemas.js';
import {
  FORM_BLOCKS,
  campaignFormView,
  CYCLES_ON,
  defaultFormValues,
  formValuesFromCampaign,
  inputBlockIds,
  type FormDirectory,
  type FormValues,
  decodeMetadata,
} from '../../src/render/campaign-form.js';
import {
  blockForField,
  formValuesFromState,
  mapServiceError,
  parseTagIds,
  validateCreate,
  validateEdit,
} from '../../src/slack/campaign-form/state.js';
import { stateValue } from '../../src/emulator/slack-driver.js';
import { submissionKey } from '../../src/slack/campaign-form/once.js';
import { editFormView, fixedSettingsOf, rebuiltFormView } from '../../src/slack/campaign-form/open.js';

type Json = Record<string, unknown>;

const AGENT = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const OTHER_AGENT = '1b4e28ba-2fa1-41d2-883f-0016d3cca427';
const directory: FormDirectory = {
  agents: [
    {
      id: AGENT,
      name: 'Sofía',
      integrations: [
        { id: 'int-phone', type: 'phone_call' },
        { id: 'int-wa', type: 'whatsapp' },
      ],
    },
    { id: OTHER_AGENT, name: 'Max', integrations: [{ id: 'int-max', type: 'phone_call' }] },
  ],
};

/** state.values the way Slack sends them for `view`, holding `values` (what a person chose / typed). */
function stateFor(view: Json, values: FormValues): Json {
  const out: Json = {};
  for (const b of view.blocks as Json[]) {
    if (b.type !== 'input') continue;
    const id = b.block_id as string;
    const el = b.element as Json;
    const v = values[id];
    const one = typeof v === 'string' ? v : null;
    const many = Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
    let s: Json;
    switch (el.type) {
      case 'plain_text_input':
        s = stateValue.text(one);
        break;
      case 'number_input':
        s = stateValue.number(one);
        break;
      case 'static_select':
        s = stateValue.staticSelect(one);
        break;
      case 'radio_buttons':
        s = stateValue.radio(one);
        break;
      case 'checkboxes':
        s = stateValue.checkboxes(many);
        break;
      case 'multi_static_select':
        s = stateValue.multiStaticSelect(many);
        break;
      case 'timepicker':
        s = stateValue.time(one);
        break;
      case 'datepicker':
        s = stateValue.date(one);
        break;
      default:
        throw new Error(`unexpected element ${String(el.type)}`);
    }
    out[id] = { [el.action_id as string]: s };
  }
  return out;
}

function createView(values: FormValues, dir = directory): Json {
  return campaignFormView({ mode: 'create', values, directory: dir, metadata: { mode: 'create' } }) as unknown as Json;
}

/** Builds the form for `values`, "submits" it through Slack's state shape, and validates the result. */
function submitCreate(values: FormValues, dir = directory) {
  const view = createView(values, dir);
  const parsed = formValuesFromState(stateFor(view, values));
  return validateCreate(parsed, { directory: dir, visible: new Set(inputBlockIds(view)) });
}

const phone: FormValues = {
  ...defaultFormValues(),
  [FORM_BLOCKS.channel]: 'phone_call',
  [FORM_BLOCKS.name]: '  Spring renewals  ',
  [FORM_BLOCKS.agent]: AGENT,
  [FORM_BLOCKS.integration]: 'int-phone',
};

function errorsOf(values: FormValues, dir = directory): Record<string, string> {
  const r = submitCreate(values, dir);
  if (r.ok) throw new Error(`expected errors, got ${JSON.stringify(r.input)}`);
  return r.errors;
}

describe('formValuesFromState', () => {
  it('reads every element type under action_id = block_id and drops empty ones', () => {
    const v = formValuesFromState({
      name: { name: stateValue.text('x') },
      description: { description: stateValue.text(null) },
      retries: { retries: stateValue.number('3') },
      timezone: { timezone: stateValue.staticSelect('UTC') },
      integration_type: { integration_type: stateValue.radio('whatsapp') },
      'scheduling.days': { 'scheduling.days': stateValue.checkboxes(['mon']) },
      'cycles.filter_statuses': { 'cycles.filter_statuses': stateValue.multiStaticSelect([]) },
      'scheduling.mon.startTime': { 'scheduling.mon.startTime': stateValue.time('09:00') },
      'cycles.schedule_start_date': { 'cycles.schedule_start_date': stateValue.date('2026-01-02') },
      weird: { weird: 'not an object' },
    });
    expect(v).toEqual({
      name: 'x',
      retries: '3',
      timezone: 'UTC',
      integration_type: 'whatsapp',
      'scheduling.days': ['mon'],
      'scheduling.mon.startTime': '09:00',
      'cycles.schedule_start_date': '2026-01-02',
    });
    expect(formValuesFromState('garbage')).toEqual({});
  });
});

describe('validateCreate: a valid form becomes the API body', () => {
  it('phone call with schedule and scheduled cycles', () => {
    const r = submitCreate({
      ...phone,
      [FORM_BLOCKS.description]: 'desc',
      [FORM_BLOCKS.retries]: '0',
      [FORM_BLOCKS.messageLimit]: '10000',
      [FORM_BLOCKS.firstMessage]: 'Hola',
      [FORM_BLOCKS.template]: 'stale value from WhatsApp',
      'scheduling.days': ['mon', 'tue'],
      'scheduling.mon.startTime': '09:00',
      'scheduling.mon.stopTime': '18:00',
      'scheduling.tue.startTime': '09:00',
      'scheduling.tue.stopTime': '18:00',
      'scheduling.sat.startTime': '10:00',
      'scheduling.sat.stopTime': '12:00',
      [FORM_BLOCKS.cyclesEnabled]: [CYCLES_ON],
      [FORM_BLOCKS.cyclesMode]: 'scheduled',
      [FORM_BLOCKS.maxIterations]: '12',
      [FORM_BLOCKS.cooldownMinutes]: '1440',
      [FORM_BLOCKS.filterStatuses]: ['converted', 'voicemail'],
      [FORM_BLOCKS.filterTags]: 'tag-1, tag-2 tag-1',
      'cycles.schedule.days': ['fri'],
      'cycles.schedule.fri.startTime': '08:00',
      'cycles.schedule.fri.stopTime': '12:00',
      [FORM_BLOCKS.cyclesStartDate]: '2026-04-01',
      [FORM_BLOCKS.cyclesEndDate]: '2026-04-01',
    });
    expect(r).toEqual({
      ok: true,
      input: {
        name: 'Spring renewals',
        agent_id: AGENT,
        integration_id: 'int-phone',
        integration_type: 'phone_call',
        description: 'desc',
        timezone: 'America/Mexico_City',
        retries: 0,
        message_limit: 10000,
        first_message: 'Hola',
        scheduling: {
          mon: { startTime: '09:00', stopTime: '18:00', active: true },
          tue: { startTime: '09:00', stopTime: '18:00', active: true },
          sat: { startTime: '10:00', stopTime: '12:00', active: false },
        },
        cycles: {
          enabled: true,
          mode: 'scheduled',
          max_iterations: 12,
          cooldown_minutes: 1440,
          filter_statuses: ['converted', 'voicemail'],
          filter_tags: ['tag-1', 'tag-2'],
          schedule: { fri: { startTime: '08:00', stopTime: '12:00', active: true } },
          schedule_start_date: '2026-04-01',
          schedule_end_date: '2026-04-01',
        },
      },
    });
  });

  it('WhatsApp: templates, never first_message or cycles', () => {
    const r = submitCreate({
      ...phone,
      [FORM_BLOCKS.channel]: 'whatsapp',
      [FORM_BLOCKS.integration]: 'int-wa',
      [FORM_BLOCKS.template]: ' welcome_v2 ',
      [FORM_BLOCKS.templateAlt]: 'welcome_alt',
      [FORM_BLOCKS.firstMessage]: 'stale value from phone',
      [FORM_BLOCKS.cyclesEnabled]: [CYCLES_ON],
      [FORM_BLOCKS.maxIterations]: '99',
    });
    expect(r.ok && r.input).toEqual({
      name: 'Spring renewals',
      agent_id: AGENT,
      integration_id: 'int-wa',
      integration_type: 'whatsapp',
      timezone: 'America/Mexico_City',
      retries: 1,
      message_limit: 250,
      template: 'welcome_v2',
      template_alt: 'welcome_alt',
    });
  });

  it('cooldown mode never sends the cycle schedule or dates', () => {
    const r = submitCreate({
      ...phone,
      [FORM_BLOCKS.cyclesEnabled]: [CYCLES_ON],
      [FORM_BLOCKS.cyclesMode]: 'cooldown',
      'cycles.schedule.fri.startTime': '08:00',
      'cycles.schedule.fri.stopTime': '12:00',
      [FORM_BLOCKS.cyclesStartDate]: '2026-04-01',
    });
    expect(r.ok && r.input.cycles).toEqual({ enabled: true, mode: 'cooldown' });
  });

  it('typed ids are used when nothing is picked, and may repeat the picked one', () => {
    const r = submitCreate({
      ...phone,
      [FORM_BLOCKS.agent]: undefined,
      [FORM_BLOCKS.agentTyped]: ` ${OTHER_AGENT} `,
      [FORM_BLOCKS.integration]: undefined,
      [FORM_BLOCKS.integrationTyped]: 'int-unknown',
    });
    expect(r.ok && [r.input.agent_id, r.input.integration_id]).toEqual([OTHER_AGENT, 'int-unknown']);
    expect(submitCreate({ ...phone, [FORM_BLOCKS.agentTyped]: AGENT }).ok).toBe(true);
  });

  it('blank numbers use the service defaults (left out)', () => {
    const r = submitCreate({ ...phone, [FORM_BLOCKS.retries]: undefined, [FORM_BLOCKS.messageLimit]: undefined });
    expect(r.ok && 'retries' in r.input).toBe(false);
    expect(r.ok && 'message_limit' in r.input).toBe(false);
  });
});

describe('validateCreate: every rule answered on its block', () => {
  const cases: [string, FormValues, string, RegExp][] = [
    ['channel missing', { ...phone, [FORM_BLOCKS.channel]: undefined }, 'integration_type', /channel/],
    ['name missing', { ...phone, [FORM_BLOCKS.name]: '   ' }, 'name', /name/],
    ['agent missing', { ...phone, [FORM_BLOCKS.agent]: undefined }, 'agent_id', /agent/],
    [
      'agent typed not a UUID',
      { ...phone, [FORM_BLOCKS.agent]: undefined, [FORM_BLOCKS.agentTyped]: 'sofia' },
      'agent_id_typed',
      /UUID/,
    ],
    [
      'picked and typed agents differ',
      { ...phone, [FORM_BLOCKS.agentTyped]: OTHER_AGENT },
      'agent_id_typed',
      /keep only one/,
    ],
    ['integration missing', { ...phone, [FORM_BLOCKS.integration]: undefined }, 'integration_id', /integration/],
    [
      'integration of another agent',
      { ...phone, [FORM_BLOCKS.integrationTyped]: 'int-max', [FORM_BLOCKS.integration]: undefined },
      'integration_id_typed',
      /belongs to agent Max/,
    ],
    [
      'integration of the other channel',
      { ...phone, [FORM_BLOCKS.integration]: 'int-wa' },
      'integration_id',
      /WhatsApp integration/,
    ],
    ['retries above 5', { ...phone, [FORM_BLOCKS.retries]: '6' }, 'retries', /0 to 5/],
    ['retries negative', { ...phone, [FORM_BLOCKS.retries]: '-1' }, 'retries', /0 to 5/],
    ['retries not whole', { ...phone, [FORM_BLOCKS.retries]: '1.5' }, 'retries', /whole number/],
    ['message limit 0', { ...phone, [FORM_BLOCKS.messageLimit]: '0' }, 'message_limit', /1 to 10,000/],
    ['message limit above 10000', { ...phone, [FORM_BLOCKS.messageLimit]: '10001' }, 'message_limit', /1 to 10,000/],
    ['unknown timezone', { ...phone, [FORM_BLOCKS.timezone]: 'Mars/Olympus' }, 'timezone', /timezone/],
    [
      'ticked day without start',
      { ...phone, 'scheduling.days': ['wed'], 'scheduling.wed.stopTime': '10:00' },
      'scheduling.wed.startTime',
      /Wednesday is ticked/,
    ],
    [
      'ticked day without stop',
      { ...phone, 'scheduling.days': ['wed'], 'scheduling.wed.startTime': '10:00' },
      'scheduling.wed.stopTime',
      /stop time/,
    ],
    [
      'stop before start',
      { ...phone, 'scheduling.thu.startTime': '18:00', 'scheduling.thu.stopTime': '09:00' },
      'scheduling.thu.stopTime',
      /later than the start/,
    ],
    [
      'max_iterations below 2',
      { ...phone, [FORM_BLOCKS.cyclesEnabled]: [CYCLES_ON], [FORM_BLOCKS.maxIterations]: '1' },
      'cycles.max_iterations',
      /2 to 12/,
    ],
    [
      'max_iterations above 12',
      { ...phone, [FORM_BLOCKS.cyclesEnabled]: [CYCLES_ON], [FORM_BLOCKS.maxIterations]: '13' },
      'cycles.max_iterations',
      /2 to 12/,
    ],
    [
      'cooldown above 1440',
      { ...phone, [FORM_BLOCKS.cyclesEnabled]: [CYCLES_ON], [FORM_BLOCKS.cooldownMinutes]: '1441' },
      'cycles.cooldown_minutes',
      /0 to 1,440/,
    ],
    [
      'cycle end before start',
      {
        ...phone,
        [FORM_BLOCKS.cyclesEnabled]: [CYCLES_ON],
        [FORM_BLOCKS.cyclesMode]: 'scheduled',
        [FORM_BLOCKS.cyclesStartDate]: '2026-05-02',
        [FORM_BLOCKS.cyclesEndDate]: '2026-05-01',
      },
      'cycles.schedule_end_date',
      /before they start/,
    ],
    [
      'cycle schedule day ticked without times',
      {
        ...phone,
        [FORM_BLOCKS.cyclesEnabled]: [CYCLES_ON],
        [FORM_BLOCKS.cyclesMode]: 'scheduled',
        'cycles.schedule.days': ['sun'],
      },
      'cycles.schedule.sun.startTime',
      /Sunday is ticked/,
    ],
  ];
  it.each(cases)('%s', (_name, values, block, message) => {
    const errors = errorsOf(values);
    expect(Object.keys(errors)).toContain(block);
    expect(errors[block]).toMatch(message);
  });

  it('typed agent error goes to the typed field when no agent list is shown', () => {
    const errors = errorsOf({ ...phone, [FORM_BLOCKS.agent]: undefined }, { agents: [] });
    expect(Object.keys(errors)).toEqual(expect.arrayContaining(['agent_id_typed', 'integration_id_typed']));
  });

  it('invalid values sent by a tampered client are refused, not passed on', () => {
    const view = createView({ ...phone, [FORM_BLOCKS.cyclesEnabled]: [CYCLES_ON] });
    const state = stateFor(view, { ...phone, [FORM_BLOCKS.cyclesEnabled]: [CYCLES_ON] });
    (state[FORM_BLOCKS.filterStatuses] as Json)[FORM_BLOCKS.filterStatuses] = stateValue.multiStaticSelect(['read']);
    (state['scheduling.mon.startTime'] as Json)['scheduling.mon.startTime'] = stateValue.time('25:00');
    const r = validateCreate(formValuesFromState(state), { directory, visible: new Set(inputBlockIds(view)) });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors[FORM_BLOCKS.filterStatuses]).toMatch(/not a phone contact status/);
      expect(r.errors['scheduling.mon.startTime']).toMatch(/not a time/);
    }
  });

  it('a channel-exclusive field of the other channel is never sent, even if the state carries it', () => {
    const view = createView(phone);
    const state = stateFor(view, phone);
    state[FORM_BLOCKS.template] = { [FORM_BLOCKS.template]: stateValue.text('tpl') };
    state[FORM_BLOCKS.cyclesEnabled] = { [FORM_BLOCKS.cyclesEnabled]: stateValue.checkboxes([CYCLES_ON]) };
    const r = validateCreate(formValuesFromState(state), { directory, visible: new Set(inputBlockIds(view)) });
    expect(r.ok && 'template' in r.input).toBe(false);
    const wa = { ...phone, [FORM_BLOCKS.channel]: 'whatsapp', [FORM_BLOCKS.integration]: 'int-wa' };
    const waView = createView(wa);
    const waState = stateFor(waView, wa);
    waState[FORM_BLOCKS.firstMessage] = { [FORM_BLOCKS.firstMessage]: stateValue.text('hola') };
    waState[FORM_BLOCKS.cyclesEnabled] = { [FORM_BLOCKS.cyclesEnabled]: stateValue.checkboxes([CYCLES_ON]) };
    const w = validateCreate(formValuesFromState(waState), { directory, visible: new Set(inputBlockIds(waView)) });
    expect(w.ok && Object.keys(w.input).filter((k) => k === 'first_message' || k === 'cycles')).toEqual([]);
  });

  it('parses tag ids separated by commas, spaces and new lines', () => {
    expect(parseTagIds(' a,b ;c\nd  a ')).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('validateEdit: only changed fields, immutable ones never', () => {
  const c: CampaignDetail = {
    id: 12,
    name: 'Spring',
    status: 'active',
    integration: { id: 'int-phone', type: 'phone_call' },
    agent: { id: AGENT, name: 'Sofía' },
    created_at: '2026-03-01T10:00:00Z',
    scheduling: { mon: { startTime: '09:00:00', stopTime: '18:00:00', active: true } },
    cycles: {
      enabled: true,
      mode: 'cooldown',
      max_iterations: 3,
      cooldown_minutes: 30,
      filter_statuses: ['converted'],
    },
    timezone: 'America/Bogota',
    retries: 2,
    message_limit: 500,
    first_message: 'Hola\r\nqué tal',
    description: null,
  };

  function submitEdit(change: FormValues, campaign = c) {
    const view = editFormView(campaign) as unknown as Json;
    const meta = decodeMetadata(view.private_metadata as string)!;
    const values = { ...formValuesFromCampaign(campaign), ...change };
    for (const [k, v] of Object.entries(change)) if (v === undefined) delete values[k];
    const parsed = formValuesFromState(stateFor(view, values));
    return validateEdit(parsed, meta.fixed!, meta.initial!, new Set(inputBlockIds(view)));
  }

  it('nothing changed: empty patch (times shown as HH:MM and CRLF text do not count as changes)', () => {
    expect(submitEdit({})).toEqual({ ok: true, patch: {}, changed: [] });
  });

  it('sends exactly the changed fields', () => {
    const r = submitEdit({
      [FORM_BLOCKS.name]: 'Spring 2',
      [FORM_BLOCKS.retries]: '5',
      [FORM_BLOCKS.maxIterations]: '4',
      [FORM_BLOCKS.filterTags]: 't1',
    });
    expect(r).toEqual({
      ok: true,
      patch: { name: 'Spring 2', retries: 5, cycles: { max_iterations: 4, filter_tags: ['t1'] } },
      changed: ['name', 'retries', 'cycles.max_iterations', 'cycles.filter_tags'],
    });
  });

  it('a schedule change sends the whole week; unticking a day keeps its hours as off', () => {
    const r = submitEdit({ 'scheduling.days': undefined });
    expect(r.ok && r.patch).toEqual({ scheduling: { mon: { startTime: '09:00', stopTime: '18:00', active: false } } });
  });

  it('a cleared description is sent as empty', () => {
    const r = submitEdit({ [FORM_BLOCKS.description]: undefined }, { ...c, description: 'old' });
    expect(r.ok && r.patch).toEqual({ description: '' });
  });

  it('validates changed fields only, and requires numbers once set', () => {
    const r = submitEdit({ [FORM_BLOCKS.retries]: undefined, [FORM_BLOCKS.messageLimit]: '0' });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors.retries).toMatch(/Enter the retries/);
      expect(r.errors.message_limit).toMatch(/1 to 10,000/);
    }
    // A stored value the form would refuse does not block editing something else.
    expect(submitEdit({ [FORM_BLOCKS.name]: 'ok' }, { ...c, retries: 9 }).ok).toBe(true);
  });

  it('never sends agent, integration, channel, cycles enabled or mode', () => {
    const r = submitEdit({ [FORM_BLOCKS.name]: 'x', [FORM_BLOCKS.cooldownMinutes]: '0' });
    expect(r.ok && r.patch).toEqual({ name: 'x', cycles: { cooldown_minutes: 0 } });
    expect(JSON.stringify(r)).not.toMatch(/agent_id|integration_id|integration_type|enabled|"mode"/);
  });

  it('WhatsApp and cycle-less campaigns offer no cycles and no first message', () => {
    const wa = {
      ...c,
      integration: { id: 'w', type: 'whatsapp' as const },
      cycles: { enabled: false },
      template: 'a',
      first_message: null,
    };
    expect(fixedSettingsOf(wa)).toEqual({ channel: 'whatsapp', cyclesEnabled: false, cyclesMode: null });
    const r = submitEdit({ [FORM_BLOCKS.template]: 'b' }, wa);
    expect(r.ok && r.patch).toEqual({ template: 'b' });
  });
});

describe('service errors mapped back to blocks', () => {
  const view = createView({
    ...phone,
    [FORM_BLOCKS.cyclesEnabled]: [CYCLES_ON],
    [FORM_BLOCKS.cyclesMode]: 'scheduled',
  });
  const visible = new Set(inputBlockIds(view));
  const err = (init: Partial<ConstructorParameters<typeof OutreachError>[0]>) =>
    new OutreachError({ kind: 'service', endpoint: 'POST /campaigns', status: 400, ...init });

  it('field paths find their block', () => {
    expect(blockForField('name', phone, visible)).toBe('name');
    expect(blockForField('scheduling.mon.startTime', phone, visible)).toBe('scheduling.mon.startTime');
    expect(blockForField('scheduling.mon', phone, visible)).toBe('scheduling.mon.stopTime');
    expect(blockForField('scheduling.mon.active', phone, visible)).toBe('scheduling.days');
    expect(blockForField('scheduling', phone, visible)).toBe('scheduling.days');
    expect(blockForField('cycles.schedule.fri.stopTime', phone, visible)).toBe('cycles.schedule.fri.stopTime');
    expect(blockForField('cycles.filter_statuses.0', phone, visible)).toBe('cycles.filter_statuses');
    expect(blockForField('cycles', phone, visible)).toBe('cycles.enabled');
    expect(blockForField('agent_id', phone, visible)).toBe('agent_id');
    expect(blockForField('agent_id', { ...phone, [FORM_BLOCKS.agentTyped]: 'x' }, visible)).toBe('agent_id_typed');
    expect(blockForField('non_field_errors', phone, visible)).toBeUndefined();
  });

  it('INVALID_REQUEST with a field, validation bodies, not-found keys', () => {
    expect(
      mapServiceError(
        err({ key: 'INVALID_REQUEST', field: 'first_message', serviceMessage: 'not allowed' }),
        phone,
        visible,
      ),
    ).toEqual({
      errors: { first_message: 'not allowed' },
      general: [],
    });
    const v = mapServiceError(
      err({
        fieldErrors: { name: ['too long'], 'scheduling.tue.stopTime': ['bad'], non_field_errors: [], weird: ['x'] },
      }),
      phone,
      visible,
    );
    expect(v).toEqual({ errors: { name: 'too long', 'scheduling.tue.stopTime': 'bad' }, general: ['weird: x'] });
    const a = mapServiceError(
      err({ key: 'AGENT_NOT_FOUND', status: 404, subject: { what: 'campaign', agentId: AGENT } }),
      phone,
      visible,
    );
    expect(Object.keys(a.errors)).toEqual(['agent_id']);
    expect(a.errors.agent_id).toContain(AGENT);
    const i = mapServiceError(
      err({ key: 'INTEGRATION_NOT_FOUND', status: 404 }),
      { ...phone, [FORM_BLOCKS.integrationTyped]: 'zz' },
      visible,
    );
    expect(Object.keys(i.errors)).toEqual(['integration_id_typed']);
  });

  it('the campaign envelope and the validation body land on the same block, in any path spelling', () => {
    const envelope = (field: string, message: string) =>
      mapServiceError(err({ key: 'INVALID_REQUEST', field, serviceMessage: message }), phone, visible);
    const body = (fieldErrors: Record<string, string[]>) => mapServiceError(err({ fieldErrors }), phone, visible);
    const cases: [field: string, spellings: string[]][] = [
      ['name', ['name', '/name']],
      ['retries', ['retries']],
      ['message_limit', ['message_limit', '$.message_limit']],
      ['cycles.max_iterations', ['cycles.max_iterations', 'cycle_max_iterations', 'cycles[max_iterations]']],
      ['cycles.cooldown_minutes', ['cycles.cooldown_minutes', '/cycles/cooldown_minutes', 'cycles__cooldown_minutes']],
    ];
    for (const [block, spellings] of cases) {
      for (const f of spellings) {
        expect(envelope(f, `${f}: Out of range.`)).toEqual({ errors: { [block]: 'Out of range.' }, general: [] });
        expect(body({ [f]: ['Out of range.'], non_field_errors: [] })).toEqual({
          errors: { [block]: 'Out of range.' },
          general: [],
        });
      }
    }
    // A field the form does not show goes to the general sentence, with its path.
    expect(envelope('priority', 'Unknown field.')).toEqual({ errors: {}, general: ['priority: Unknown field.'] });
  });

  it('billing limit and unplaceable fields become a general sentence', () => {
    const b = mapServiceError(err({ key: 'BILLING_LIMIT_REACHED', status: 402 }), phone, visible);
    expect(b.errors).toEqual({});
    expect(b.general[0]).toMatch(/plan limit/);
    const imm = mapServiceError(err({ key: 'IMMUTABLE_FIELD', field: 'agent_id' }), phone, new Set(['name']));
    expect(imm.errors).toEqual({});
    expect(imm.general[0]).toMatch(/agent_id/);
    expect(mapServiceError(new Error('boom'), phone, visible).general).toHaveLength(1);
  });
});

describe('reshaping the form', () => {
  it("switching channel keeps typed values, hides the other channel's fields and brings them back", () => {
    const v0 = { ...phone, [FORM_BLOCKS.firstMessage]: 'Hola', [FORM_BLOCKS.description]: 'kept' };
    const view0 = createView(v0);
    const asSubmitted = (view: Json, values: FormValues) => ({
      ...(view as object),
      id: 'V1',
      state: { values: stateFor(view, values) },
    });
    const action = (value: string) => ({
      type: 'radio_buttons',
      block_id: FORM_BLOCKS.channel,
      action_id: FORM_BLOCKS.channel,
      selected_option: { value },
    });

    const view1 = rebuiltFormView(asSubmitted(view0, v0) as never, directory, action('whatsapp')) as unknown as Json;
    const ids1 = inputBlockIds(view1);
    expect(ids1).toContain('template');
    expect(ids1).not.toContain('first_message');
    const desc = (view1.blocks as Json[]).find((b) => b.block_id === FORM_BLOCKS.description)!;
    expect((desc.element as Json).initial_value).toBe('kept');
    // The integration picked for phone is not WhatsApp's: dropped from the choice.
    expect(
      ((view1.blocks as Json[]).find((b) => b.block_id === FORM_BLOCKS.integration)!.element as Json).initial_option,
    ).toBeUndefined();

    const v1 = {
      ...formValuesFromState(
        stateFor(view1, { ...v0, [FORM_BLOCKS.channel]: 'whatsapp', [FORM_BLOCKS.integration]: undefined }),
      ),
      [FORM_BLOCKS.template]: 'tpl',
    };
    const view2 = rebuiltFormView(asSubmitted(view1, v1) as never, directory, action('phone_call')) as unknown as Json;
    const first = (view2.blocks as Json[]).find((b) => b.block_id === FORM_BLOCKS.firstMessage)!;
    expect((first.element as Json).initial_value).toBe('Hola');
    expect(JSON.parse(view2.private_metadata as string).stash).toMatchObject({ template: 'tpl' });
  });
});

describe('submission key', () => {
  it('is a stable UUID for the same view, person and content, and differs otherwise', () => {
    const k = submissionKey('V1', 'U1', { a: 1 });
    expect(k).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(submissionKey('V1', 'U1', { a: 1 })).toBe(k);
    expect(submissionKey('V1', 'U2', { a: 1 })).not.toBe(k);
    expect(submissionKey('V2', 'U1', { a: 1 })).not.toBe(k);
    expect(submissionKey('V1', 'U1', { a: 2 })).not.toBe(k);
  });
});
