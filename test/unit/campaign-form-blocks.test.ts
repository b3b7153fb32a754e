/**
 * The campaign form's view builders against Slack's limits (100 blocks per modal, 24-character title, option and
 * group counts, option text/value lengths, 3,000-character private_metadata) and its one-to-one block_id = API field
 * mapping. Every view is also run through the Block Kit checker the fake Slack uses.
 */
import type { CampaignDetail } from '../../src/outreach/schemas.js';
import {
  FORM_BLOCKS,
  campaignFormView,
  CYCLES_ON,
  defaultFormValues,
  editTitle,
  encodeMetadata,
  finishedReadOnlyView,
  formValuesFromCampaign,
  inputBlockIds,
  integrationChoices,
  agentOptions,
  submitProblemView,
  timeZoneOptionGroups,
  timeZones,
  type FormDirectory,
  type FormValues,
} from '../../src/render/campaign-form.js';
import { campaignCreatedMessage, campaignUpdatedMessage } from '../../src/render/feedback.js';
import { validateBlocks, validateView, viewByteLength } from '../../src/emulator/block-kit-limits.js';
import { editFormView } from '../../src/slack/campaign-form/open.js';
import { LOCALES } from '../../src/i18n/locale.js';
import { translator, type Translator } from '../../src/i18n/translator.js';

type Json = Record<string, unknown>;

const AGENT = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

function dir(agents = 2, integrationsEach = 2): FormDirectory {
  return {
    agents: Array.from({ length: agents }, (_, a) => ({
      id: `${String(a).padStart(8, '0')}-7425-40de-944b-e07fc1f90ae7`,
      name: `Agent ${a} ${'x'.repeat(a % 3 === 0 ? 120 : 3)}`,
      integrations: Array.from({ length: integrationsEach }, (_, i) => ({
        id: `int-${a}-${i}`,
        type: i % 2 === 0 ? ('phone_call' as const) : ('whatsapp' as const),
      })),
    })),
  };
}

function createIn(values: FormValues, directory: FormDirectory = dir(), t: Translator = translator('en')) {
  return campaignFormView(
    {
      mode: 'create',
      values,
      directory,
      metadata: { mode: 'create', postTo: 'C1' },
    },
    t,
  ) as unknown as Json;
}

const create = (values: FormValues, directory?: FormDirectory) => createIn(values, directory);

function blocks(view: Json): Json[] {
  return view.blocks as Json[];
}

function block(view: Json, id: string): Json | undefined {
  return blocks(view).find((b) => b.block_id === id);
}

function element(view: Json, id: string): Json {
  const b = block(view, id);
  if (!b) throw new Error(`no block ${id}`);
  return b.element as Json;
}

const fullPhone: FormValues = {
  ...defaultFormValues(),
  [FORM_BLOCKS.channel]: 'phone_call',
  [FORM_BLOCKS.cyclesEnabled]: [CYCLES_ON],
  [FORM_BLOCKS.cyclesMode]: 'scheduled',
};

function campaign(over: Partial<CampaignDetail> = {}): CampaignDetail {
  return {
    id: 12,
    name: 'Spring <renewals> & more',
    status: 'ready',
    integration: { id: 'int-phone-1', type: 'phone_call' },
    agent: { id: AGENT, name: 'Sofía' },
    created_at: '2026-03-01T10:00:00Z',
    scheduling: {
      mon: { startTime: '09:00', stopTime: '18:00', active: true },
      tue: { startTime: '09:00:00', stopTime: '18:00:00', active: true },
      sat: { startTime: '10:00', stopTime: '14:00', active: false },
    },
    cycles: {
      enabled: true,
      mode: 'scheduled',
      max_iterations: 3,
      cooldown_minutes: 30,
      filter_statuses: ['converted'],
      schedule: { fri: { startTime: '08:00', stopTime: '12:00', active: true } },
      schedule_start_date: '2026-04-01',
      schedule_end_date: '2026-05-01',
    },
    timezone: 'America/Bogota',
    retries: 2,
    message_limit: 500,
    first_message: 'Hola',
    description: 'desc',
    ...over,
  };
}

// Every limit holds in both languages (Spanish runs about 20 % longer).
describe.each(LOCALES)('campaign form view: Slack limits (%s)', (locale) => {
  const t = translator(locale);
  const create = (values: FormValues, directory?: FormDirectory) => createIn(values, directory, t);
  const cases: [string, Json][] = [
    ['create, no channel yet', create(defaultFormValues())],
    ['create, phone with scheduled cycles (largest)', create(fullPhone)],
    ['create, phone with cooldown cycles', create({ ...fullPhone, [FORM_BLOCKS.cyclesMode]: 'cooldown' })],
    ['create, WhatsApp', create({ ...defaultFormValues(), [FORM_BLOCKS.channel]: 'whatsapp' })],
    ['create, no known agents', create(fullPhone, { agents: [] })],
    ['create, 150 agents with 3 integrations each', create(fullPhone, dir(150, 3))],
    ['edit, phone with scheduled cycles', editFormView(campaign(), 'C1', t) as unknown as Json],
    [
      'edit, WhatsApp',
      editFormView(
        campaign({ integration: { id: 'w1', type: 'whatsapp' }, cycles: null, template: 't' }),
        undefined,
        t,
      ) as unknown as Json,
    ],
    [
      'edit, phone without cycles',
      editFormView(campaign({ cycles: { enabled: false } }), undefined, t) as unknown as Json,
    ],
  ];

  it.each(cases)('%s is a valid modal within every limit', (_name, view) => {
    expect(validateView(view, 'modal')).toEqual([]);
    expect(blocks(view).length).toBeLessThanOrEqual(100);
    expect(((view.title as Json).text as string).length).toBeLessThanOrEqual(24);
    expect((view.private_metadata as string).length).toBeLessThanOrEqual(3000);
    const ids = blocks(view)
      .map((b) => b.block_id)
      .filter(Boolean);
    expect(new Set(ids).size).toBe(ids.length);
    // action_id = block_id on every input: the whole form speaks API field names.
    for (const b of blocks(view).filter((x) => x.type === 'input'))
      expect((b.element as Json).action_id).toBe(b.block_id);
  });

  it('the largest form still leaves room under 100 blocks', () => {
    expect(blocks(create(fullPhone)).length).toBeLessThan(80);
  });

  it('edit titles fit in 24 characters for any id', () => {
    for (const id of [12, 123456789, 123456789012345]) expect(editTitle(id, t).length).toBeLessThanOrEqual(24);
    if (locale === 'en') {
      expect(editTitle(12)).toBe('Edit campaign #12');
      expect(editTitle(123456789)).toBe('Edit campaign #123456789');
      expect(editTitle(123456789012345)).toBe('Edit #123456789012345');
    }
  });

  it('agent and integration selects keep to 100 options / 100 groups and 75-character texts and values', () => {
    const big = dir(150, 3);
    big.agents[0]!.integrations = Array.from({ length: 130 }, (_, i) => ({
      id: `i-${i}`,
      type: 'phone_call' as const,
    }));
    big.agents[0]!.integrations.push({ id: `long-${'z'.repeat(80)}`, type: 'phone_call' });
    const agents = agentOptions(big);
    expect(agents.length).toBe(100);
    const grouped = integrationChoices(big, undefined, undefined);
    expect(grouped.option_groups!.length).toBeLessThanOrEqual(100);
    for (const g of grouped.option_groups!) {
      expect(g.options.length).toBeLessThanOrEqual(100);
      for (const o of g.options) {
        expect(o.text.text.length).toBeLessThanOrEqual(75);
        expect(o.value.length).toBeLessThanOrEqual(75);
      }
    }
    const one = integrationChoices(big, big.agents[0]!.id, 'phone_call');
    expect(one.options!.length).toBeLessThanOrEqual(100);
    expect(one.options!.every((o) => !o.value.startsWith('long-'))).toBe(true);
    expect(validateView(create(fullPhone, big), 'modal')).toEqual([]);
  });

  it('the view stays under 250 kB even with a huge directory', () => {
    const huge = dir(150, 120);
    expect(viewByteLength(create(fullPhone, huge))).toBeLessThan(150_000);
    expect(viewByteLength(create({ ...fullPhone, [FORM_BLOCKS.agent]: huge.agents[1]!.id }, huge))).toBeLessThan(
      150_000,
    );
    const grouped = integrationChoices(huge, undefined, undefined).option_groups!;
    expect(grouped.reduce((n, g) => n + g.options.length, 0)).toBe(300);
    expect(grouped.every((g) => g.options.length > 0)).toBe(true);
  });

  it('timezones: every zone offered, grouped by region, at most 100 per group, default Mexico City', () => {
    const groups = timeZoneOptionGroups();
    expect(groups.length).toBeLessThanOrEqual(100);
    for (const g of groups) expect(g.options.length).toBeLessThanOrEqual(100);
    const values = groups.flatMap((g) => g.options.map((o) => o.value));
    expect(new Set(values).size).toBe(values.length);
    expect(values.sort()).toEqual([...timeZones()].sort());
    expect(values).toContain('UTC');
    expect(groups.filter((g) => g.label.startsWith('America')).length).toBeGreaterThanOrEqual(2);
    const tz = element(create(defaultFormValues()), FORM_BLOCKS.timezone);
    expect((tz.initial_option as Json).value).toBe('America/Mexico_City');
  });

  it('a timezone alias from an existing campaign is still offered and preselected', () => {
    const view = create({ ...defaultFormValues(), [FORM_BLOCKS.timezone]: 'US/Eastern' });
    expect(validateView(view, 'modal')).toEqual([]);
    expect((element(view, FORM_BLOCKS.timezone).initial_option as Json).value).toBe('US/Eastern');
  });

  it('metadata stays within 3,000 characters by dropping the largest stashed values', () => {
    const meta = encodeMetadata({
      mode: 'create',
      postTo: 'C1',
      stash: { [FORM_BLOCKS.firstMessage]: 'x'.repeat(2990), [FORM_BLOCKS.template]: 'keep' },
    });
    expect(meta.length).toBeLessThanOrEqual(3000);
    expect(JSON.parse(meta).stash).toEqual({ [FORM_BLOCKS.template]: 'keep' });
  });

  it('long texts from existing campaigns are cut to the input limits rather than breaking the view', () => {
    const view = editFormView(
      campaign({ name: 'n'.repeat(400), first_message: 'f'.repeat(5000) }),
      undefined,
      t,
    ) as unknown as Json;
    expect(validateView(view, 'modal')).toEqual([]);
    // Too long to show in an input: kept out of the form (a cut value would be saved cut), with a note saying so.
    expect(inputBlockIds(view)).not.toContain('first_message');
    expect(inputBlockIds(view)).not.toContain('name');
    expect(JSON.stringify(view.blocks)).toContain(locale === 'en' ? '5,000 characters long' : '5,000 caracteres');
  });
});

describe('campaign form view: fields', () => {
  it('input block ids are the API fields', () => {
    const ids = inputBlockIds(create(fullPhone));
    for (const f of [
      'integration_type',
      'name',
      'description',
      'agent_id',
      'integration_id',
      'timezone',
      'retries',
      'message_limit',
      'first_message',
      'scheduling.mon.startTime',
      'scheduling.sun.stopTime',
      'cycles.enabled',
      'cycles.mode',
      'cycles.max_iterations',
      'cycles.cooldown_minutes',
      'cycles.filter_statuses',
      'cycles.filter_tags',
      'cycles.schedule.wed.startTime',
      'cycles.schedule_start_date',
      'cycles.schedule_end_date',
    ]) {
      expect(ids).toContain(f);
    }
  });

  it("shows only the chosen channel's fields", () => {
    const none = inputBlockIds(create(defaultFormValues()));
    const phone = inputBlockIds(create({ ...defaultFormValues(), [FORM_BLOCKS.channel]: 'phone_call' }));
    const wa = inputBlockIds(
      create({ ...defaultFormValues(), [FORM_BLOCKS.channel]: 'whatsapp', [FORM_BLOCKS.cyclesEnabled]: [CYCLES_ON] }),
    );
    for (const f of ['first_message', 'template', 'template_alt', 'cycles.enabled']) expect(none).not.toContain(f);
    expect(phone).toContain('first_message');
    expect(phone).toContain('cycles.enabled');
    expect(phone).not.toContain('template');
    expect(phone).not.toContain('template_alt');
    expect(wa).toContain('template');
    expect(wa).toContain('template_alt');
    expect(wa).not.toContain('first_message');
    expect(wa.some((b) => b.startsWith('cycles.'))).toBe(false);
  });

  it('cooldown mode hides the cycle schedule and dates; scheduled mode shows them', () => {
    const cooldown = inputBlockIds(create({ ...fullPhone, [FORM_BLOCKS.cyclesMode]: 'cooldown' }));
    expect(cooldown).toContain('cycles.cooldown_minutes');
    expect(cooldown.some((b) => b.startsWith('cycles.schedule'))).toBe(false);
    const off = inputBlockIds(create({ ...fullPhone, [FORM_BLOCKS.cyclesEnabled]: [] }));
    expect(off).toContain('cycles.enabled');
    expect(off).not.toContain('cycles.mode');
  });

  it('channel, agent and cycles choices dispatch actions so the form can reshape', () => {
    const view = create(fullPhone);
    for (const id of ['integration_type', 'agent_id', 'cycles.enabled', 'cycles.mode']) {
      expect(block(view, id)!.dispatch_action).toBe(true);
    }
    expect(block(view, 'name')!.dispatch_action).toBeUndefined();
  });

  it('integrations are offered only under their own agent and channel', () => {
    const d = dir(3, 4);
    const agent = d.agents[1]!;
    const view = create(
      { ...defaultFormValues(), [FORM_BLOCKS.channel]: 'whatsapp', [FORM_BLOCKS.agent]: agent.id },
      d,
    );
    const opts = (element(view, FORM_BLOCKS.integration).options as Json[]).map((o) => o.value);
    expect(opts).toEqual(agent.integrations.filter((i) => i.type === 'whatsapp').map((i) => i.id));
    const grouped = element(
      create({ ...defaultFormValues(), [FORM_BLOCKS.channel]: 'phone_call' }, d),
      FORM_BLOCKS.integration,
    );
    const groups = grouped.option_groups as Json[];
    expect(groups.length).toBe(3);
    expect(((groups[0]!.options as Json[])[0] as Json).value).toBe('int-0-0');
  });

  it('without known agents the form asks for typed ids only', () => {
    const ids = inputBlockIds(create(fullPhone, { agents: [] }));
    expect(ids).not.toContain('agent_id');
    expect(ids).not.toContain('integration_id');
    expect(ids).toContain('agent_id_typed');
    expect(ids).toContain('integration_id_typed');
  });

  it('edit: prefilled, fixed settings read-only, immutable fields not inputs', () => {
    const view = editFormView(campaign(), 'C1') as unknown as Json;
    const ids = inputBlockIds(view);
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
    expect(ids).toContain('cycles.schedule.fri.startTime');
    const text = JSON.stringify(blocks(view).filter((b) => b.type !== 'input'));
    expect(text).toContain('Sofía');
    expect(text).toContain('int-phone-1');
    expect(text).toContain('On (scheduled)');
    expect(element(view, FORM_BLOCKS.name).initial_value).toBe('Spring <renewals> & more');
    expect(element(view, 'scheduling.tue.startTime').initial_time).toBe('09:00');
    expect(((element(view, 'scheduling.days').initial_options as Json[]) ?? []).map((o) => o.value)).toEqual([
      'mon',
      'tue',
    ]);
    expect(element(view, 'scheduling.sat.startTime').initial_time).toBe('10:00');
    expect((element(view, FORM_BLOCKS.timezone).initial_option as Json).value).toBe('America/Bogota');
    expect(element(view, FORM_BLOCKS.retries).initial_value).toBe('2');
    expect(((element(view, FORM_BLOCKS.filterStatuses).initial_options as Json[]) ?? []).map((o) => o.value)).toEqual([
      'converted',
    ]);
    expect(element(view, FORM_BLOCKS.cyclesStartDate).initial_date).toBe('2026-04-01');
    const meta = JSON.parse(view.private_metadata as string);
    expect(meta).toMatchObject({
      mode: 'edit',
      campaignId: 12,
      postTo: 'C1',
      fixed: { channel: 'phone_call', cyclesEnabled: true, cyclesMode: 'scheduled' },
    });
  });

  it('formValuesFromCampaign drops empty values', () => {
    const v = formValuesFromCampaign(campaign({ description: '', cycles: null }));
    expect(v[FORM_BLOCKS.description]).toBeUndefined();
    expect(v[FORM_BLOCKS.cyclesEnabled]).toBeUndefined();
  });

  it('the finished and problem views are valid and offer no submit', () => {
    const f = finishedReadOnlyView(campaign({ status: 'finished' })) as unknown as Json;
    expect(validateView(f, 'modal')).toEqual([]);
    expect(f.submit).toBeUndefined();
    expect(JSON.stringify(f)).toContain('read-only');
    expect(JSON.stringify(f)).toContain('&lt;renewals&gt; &amp; more');
    expect(validateView(submitProblemView('x <y>', ['name: too long']), 'modal')).toEqual([]);
  });
});

describe('result messages', () => {
  it('created: summary, schedule in words, Activate (confirm), Upload contacts, Watch here (confirm)', () => {
    const msg = campaignCreatedMessage(campaign(), 'U1');
    expect(validateBlocks(msg.blocks, 'message')).toEqual([]);
    const text = JSON.stringify(msg.blocks);
    expect(text).toContain('Mon-Tue 09:00-18:00');
    expect(text).toContain('&lt;renewals&gt; &amp; more');
    expect(text).not.toContain('<renewals>');
    const buttons = (msg.blocks.find((b) => b.type === 'actions') as unknown as { elements: Json[] }).elements;
    const byId = Object.fromEntries(buttons.map((b) => [b.action_id as string, b]));
    expect(byId['campaign_action:activate']).toMatchObject({ value: JSON.stringify({ id: 12, action: 'activate' }) });
    expect(byId['campaign_action:activate']!.confirm).toBeDefined();
    expect(byId['campaign_upload_open']).toMatchObject({ value: '12' });
    expect(byId['campaign_watch_here']).toMatchObject({ value: '12' });
    expect(byId['campaign_watch_here']!.confirm).toBeDefined();
  });

  it('updated: names the changed fields', () => {
    const msg = campaignUpdatedMessage(campaign(), 'U1', ['name', 'retries']);
    expect(validateBlocks(msg.blocks, 'message')).toEqual([]);
    expect(JSON.stringify(msg.blocks)).toContain('`name`, `retries`');
  });
});
