/**
 * The campaign form (create and edit) and the views around it (the messages posted after it are in feedback.ts).
 *
 * Every input block's `block_id` is the API field it sets (`name`, `retries`, `scheduling.mon.startTime`,
 * `cycles.max_iterations`, ...), and its element's `action_id` is the same string, so the form, the submitted state,
 * the service's error fields and the API body all use one vocabulary. Views are rebuilt (views.update) with the same
 * ids, which is what makes Slack keep what the person typed.
 *
 * The form's values travel as `FormValues`: a flat map block_id -> string or string[] (what Slack's state holds),
 * never a half-converted API body. Converting to API input and validating is src/slack/campaign-form/state.ts's job.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  CHANNEL_TYPES,
  DAYS,
  PHONE_CONTACT_STATUSES,
  type CampaignDetail,
  type ChannelType,
  type CyclesMode,
  type Day,
  type Schedule,
} from '../outreach/schemas.js';
import { DEFAULT_CYCLES_MODE, DEFAULT_TIMEZONE, normalizeScheduleTime } from '../outreach/unspecified.js';
import { LOCALES, type Locale } from '../i18n/locale.js';
import { translator, type MessageKey, type Translator } from '../i18n/translator.js';
import { decodeJson, FORM_CALLBACK_ID, FORM_INFO_CALLBACK_ID } from './ids.js';
import { campaignStateLabel, channelLabel, contactStatusLabel, ENGLISH, NONE } from './format.js';
import {
  cleanLabel,
  context,
  fieldSections,
  header,
  inputBlock,
  LIMITS,
  mrkdwnSection,
  plainLabel,
  plainText,
  raw,
  RawMrkdwn,
  truncate,
} from './mrkdwn.js';
import { tmd } from './text.js';
import type { InputBlock, KnownBlock, View } from './types.js';

// ---------------------------------------------------------------------------------------------------------------
// Ids

export type WeekPrefix = 'scheduling' | 'cycles.schedule';

/** The form's input blocks by what they set: block id = action id = the API field path. */
export const FORM_BLOCKS = {
  channel: 'integration_type',
  name: 'name',
  description: 'description',
  agent: 'agent_id',
  agentTyped: 'agent_id_typed',
  integration: 'integration_id',
  integrationTyped: 'integration_id_typed',
  timezone: 'timezone',
  retries: 'retries',
  messageLimit: 'message_limit',
  firstMessage: 'first_message',
  template: 'template',
  templateAlt: 'template_alt',
  cyclesEnabled: 'cycles.enabled',
  cyclesMode: 'cycles.mode',
  maxIterations: 'cycles.max_iterations',
  cooldownMinutes: 'cycles.cooldown_minutes',
  filterStatuses: 'cycles.filter_statuses',
  filterTags: 'cycles.filter_tags',
  cyclesStartDate: 'cycles.schedule_start_date',
  cyclesEndDate: 'cycles.schedule_end_date',
} as const;

/** `scheduling.days` / `cycles.schedule.days`: the checkboxes of the days a schedule runs. */
export function daysBlock(prefix: WeekPrefix): string {
  return `${prefix}.days`;
}
/** `scheduling.mon.startTime` etc. */
export function timeBlock(prefix: WeekPrefix, day: Day, which: 'startTime' | 'stopTime'): string {
  return `${prefix}.${day}.${which}`;
}

/** The elements that rebuild the form when used (channel first, agent narrows integrations, cycles on/mode). */
const DISPATCHING_BLOCKS = [
  FORM_BLOCKS.channel,
  FORM_BLOCKS.agent,
  FORM_BLOCKS.cyclesEnabled,
  FORM_BLOCKS.cyclesMode,
] as const;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Matches the action ids of the dispatching inputs (each input's action_id is its block_id). */
export const DISPATCHING_PATTERN = new RegExp(`^(?:${DISPATCHING_BLOCKS.map(escapeRe).join('|')})$`);

/** Value of the single "cycles on" checkbox. */
export const CYCLES_ON = 'on';

// ---------------------------------------------------------------------------------------------------------------
// Limits of our own inputs (the spec's rules; validation repeats them on the server)

export const NAME_MAX = 255;
export const RETRIES_RANGE = [0, 5] as const;
export const MESSAGE_LIMIT_RANGE = [1, 10_000] as const;
export const MAX_ITERATIONS_RANGE = [2, 12] as const;
export const COOLDOWN_RANGE = [0, 1440] as const;
const DEFAULT_RETRIES = 1;
const DEFAULT_MESSAGE_LIMIT = 250;
/** plain_text_input max_length. */
const TEXT_MAX = 3000;
const MODAL_TITLE_MAX = 24;
const PRIVATE_METADATA_MAX = 3000;
const MAX_OPTIONS = 100;
const MAX_GROUPS = 100;
const OPTION_TEXT_MAX = LIMITS.optionText;
const OPTION_VALUE_MAX = LIMITS.optionValue;
/** Integrations offered before an agent is chosen (all agents' together). */
const MAX_GROUPED_INTEGRATIONS = 300;

// ---------------------------------------------------------------------------------------------------------------
// Values

/** What the form holds, keyed by block id: text and single choices as strings, multi choices as arrays. */
export type FormValues = Partial<Record<string, string | string[]>>;

export function textOf(v: FormValues, block: string): string {
  const x = v[block];
  return typeof x === 'string' ? x : '';
}
export function listOf(v: FormValues, block: string): string[] {
  const x = v[block];
  return Array.isArray(x) ? x : typeof x === 'string' && x !== '' ? [x] : [];
}
export function channelOf(v: FormValues): ChannelType | undefined {
  const c = textOf(v, FORM_BLOCKS.channel);
  return c === 'phone_call' || c === 'whatsapp' ? c : undefined;
}
export function cyclesOn(v: FormValues): boolean {
  return listOf(v, FORM_BLOCKS.cyclesEnabled).includes(CYCLES_ON);
}
export function cyclesModeOf(v: FormValues): CyclesMode {
  return textOf(v, FORM_BLOCKS.cyclesMode) === 'scheduled' ? 'scheduled' : 'cooldown';
}

function setWeek(v: FormValues, prefix: WeekPrefix, schedule: Schedule | null | undefined): void {
  if (!schedule) return;
  const on: string[] = [];
  for (const day of DAYS) {
    const d = schedule[day];
    if (!d) continue;
    if (d.active) on.push(day);
    if (d.startTime) v[timeBlock(prefix, day, 'startTime')] = normalizeScheduleTime(d.startTime);
    if (d.stopTime) v[timeBlock(prefix, day, 'stopTime')] = normalizeScheduleTime(d.stopTime);
  }
  v[daysBlock(prefix)] = on;
}

/** A new campaign's form: the spec's defaults filled in. */
export function defaultFormValues(): FormValues {
  return {
    [FORM_BLOCKS.timezone]: DEFAULT_TIMEZONE,
    [FORM_BLOCKS.retries]: String(DEFAULT_RETRIES),
    [FORM_BLOCKS.messageLimit]: String(DEFAULT_MESSAGE_LIMIT),
    [FORM_BLOCKS.cyclesMode]: DEFAULT_CYCLES_MODE,
  };
}

/** The edit form of an existing campaign. */
export function formValuesFromCampaign(c: CampaignDetail): FormValues {
  const v: FormValues = {
    [FORM_BLOCKS.name]: c.name,
    [FORM_BLOCKS.description]: c.description ?? '',
    [FORM_BLOCKS.timezone]: c.timezone || DEFAULT_TIMEZONE,
    [FORM_BLOCKS.retries]: c.retries === null || c.retries === undefined ? '' : String(c.retries),
    [FORM_BLOCKS.messageLimit]:
      c.message_limit === null || c.message_limit === undefined ? '' : String(c.message_limit),
    [FORM_BLOCKS.firstMessage]: c.first_message ?? '',
    [FORM_BLOCKS.template]: c.template ?? '',
    [FORM_BLOCKS.templateAlt]: c.template_alt ?? '',
  };
  if (c.integration) v[FORM_BLOCKS.channel] = c.integration.type;
  setWeek(v, 'scheduling', c.scheduling);
  const cy = c.cycles;
  if (cy?.enabled) {
    v[FORM_BLOCKS.cyclesEnabled] = [CYCLES_ON];
    v[FORM_BLOCKS.cyclesMode] = cy.mode ?? 'cooldown';
    v[FORM_BLOCKS.maxIterations] =
      cy.max_iterations === null || cy.max_iterations === undefined ? '' : String(cy.max_iterations);
    v[FORM_BLOCKS.cooldownMinutes] =
      cy.cooldown_minutes === null || cy.cooldown_minutes === undefined ? '' : String(cy.cooldown_minutes);
    v[FORM_BLOCKS.filterStatuses] = [...(cy.filter_statuses ?? [])];
    setWeek(v, 'cycles.schedule', cy.schedule);
    if (cy.schedule_start_date) v[FORM_BLOCKS.cyclesStartDate] = cy.schedule_start_date;
    if (cy.schedule_end_date) v[FORM_BLOCKS.cyclesEndDate] = cy.schedule_end_date;
  }
  // Empty strings and lists mean "nothing": drop them so the form and a submitted state compare equal.
  for (const [k, x] of Object.entries(v)) if (x === '' || (Array.isArray(x) && x.length === 0)) delete v[k];
  return v;
}

// ---------------------------------------------------------------------------------------------------------------
// Directory: agents and integrations seen in existing campaigns

interface KnownIntegration {
  id: string;
  type: ChannelType;
}
export interface KnownAgent {
  id: string;
  name?: string;
  integrations: KnownIntegration[];
}
export interface FormDirectory {
  agents: KnownAgent[];
}

// ---------------------------------------------------------------------------------------------------------------
// Metadata carried by the form view

/** What the fixed parts of a campaign are, for the edit form. */
export interface FixedSettings {
  channel: ChannelType | null;
  cyclesEnabled: boolean;
  cyclesMode: CyclesMode | null;
}

export interface FormMetadata {
  mode: 'create' | 'edit';
  /** The language the form speaks (its opener's), for its rebuilds, errors and result; absent: English. */
  lang?: Locale;
  /** Conversation to post the result in (the channel where the command was typed); none: the person's DM. */
  postTo?: string;
  campaignId?: number;
  /** Edit: the campaign's settings that cannot change. */
  fixed?: FixedSettings;
  /** Edit: fingerprint of each editable API field as prefilled, to send only what changed. */
  initial?: Record<string, string>;
  /** Values of blocks hidden by a channel / mode switch, restored if they come back (bounded, best effort). */
  stash?: FormValues;
}

/** Short fingerprint of a value (edit: was this field changed?). */
export function fingerprint(value: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(value ?? null))
    .digest('base64url')
    .slice(0, 12);
}

/** JSON of the metadata within Slack's 3,000 characters: the stash gives way first (largest values first). */
export function encodeMetadata(meta: FormMetadata): string {
  const m: FormMetadata = { ...meta, stash: meta.stash ? { ...meta.stash } : undefined };
  if (m.stash && Object.keys(m.stash).length === 0) delete m.stash;
  let out = JSON.stringify(m);
  while (out.length > PRIVATE_METADATA_MAX && m.stash) {
    const entries = Object.entries(m.stash).sort((a, b) => JSON.stringify(b[1]).length - JSON.stringify(a[1]).length);
    const first = entries[0];
    if (!first) {
      delete m.stash;
    } else {
      delete m.stash[first[0]];
      if (Object.keys(m.stash).length === 0) delete m.stash;
    }
    out = JSON.stringify(m);
  }
  if (out.length > PRIVATE_METADATA_MAX) throw new Error(`campaign form metadata is ${out.length} characters`);
  return out;
}

const FixedSchema = z.object({
  channel: z.enum(CHANNEL_TYPES).nullable(),
  cyclesEnabled: z.boolean(),
  cyclesMode: z.enum(['cooldown', 'scheduled']).nullable(),
});
/** The form's private_metadata as `decodeJson` reads it back: an edit form carries its campaign, fixed parts, prefill. */
export const FormMetadataSchema: z.ZodType<FormMetadata> = z
  .object({
    mode: z.enum(['create', 'edit']),
    lang: z.enum(LOCALES).optional(),
    postTo: z.string().max(50).optional(),
    campaignId: z.number().int().positive().optional(),
    fixed: FixedSchema.optional(),
    initial: z.record(z.string(), z.string()).optional(),
    stash: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
  })
  .refine((m) => m.mode === 'create' || (m.campaignId !== undefined && !!m.fixed && !!m.initial));

/** The words of a form: its metadata's language (English when absent). */
export function formWords(meta: Pick<FormMetadata, 'lang'> | undefined): Translator {
  return meta?.lang ? translator(meta.lang) : ENGLISH;
}

/** `{ lang }` for a form opened in `t`'s language (nothing for English: the metadata stays as it always was). */
export function formLanguage(t: Translator): Pick<FormMetadata, 'lang'> {
  return t.locale === 'en' ? {} : { lang: t.locale };
}

/** Full day names, for the form's labels and its errors. */
export const DAY_NAMES: Record<Day, MessageKey> = {
  mon: 'campaignForm.day.mon',
  tue: 'campaignForm.day.tue',
  wed: 'campaignForm.day.wed',
  thu: 'campaignForm.day.thu',
  fri: 'campaignForm.day.fri',
  sat: 'campaignForm.day.sat',
  sun: 'campaignForm.day.sun',
};

/** The form's private_metadata, or undefined when it is not ours / malformed. */
export function decodeMetadata(raw: string | undefined): FormMetadata | undefined {
  return decodeJson(FormMetadataSchema, raw) ?? undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Elements

type Opt = { text: { type: 'plain_text'; text: string; emoji: true }; value: string };

function option(text: string, value: string): Opt {
  return { text: plainText(text, OPTION_TEXT_MAX), value } as Opt;
}

interface InputSpec {
  block: string;
  label: string;
  element: Record<string, unknown>;
  hint?: string;
  optional?: boolean;
  dispatch?: boolean;
}

/** The form's input: optional unless said, its element's action id its block id (= the API field). */
function input(spec: InputSpec): KnownBlock {
  return inputBlock({
    blockId: spec.block,
    label: spec.label,
    optional: spec.optional ?? true,
    ...(spec.hint ? { hint: spec.hint } : {}),
    ...(spec.dispatch ? { dispatch: true } : {}),
    element: { ...spec.element, action_id: spec.block } as unknown as InputBlock['element'],
  });
}

function textInput(
  v: FormValues,
  block: string,
  label: string,
  t: Translator,
  opts: { hint?: string; optional?: boolean; multiline?: boolean; max?: number; placeholder?: string } = {},
): KnownBlock {
  const max = opts.max ?? TEXT_MAX;
  const element: Record<string, unknown> = { type: 'plain_text_input', max_length: max };
  if (opts.multiline) element.multiline = true;
  if (opts.placeholder) element.placeholder = plainText(opts.placeholder, 150);
  const initial = textOf(v, block);
  if (initial.length > max) {
    // Slack refuses an initial value longer than max_length, and a cut one would be saved cut: keep it out of reach.
    return context(tmd(t, 'campaignForm.tooLongToEdit', { label, length: initial.length, max }));
  }
  if (initial) element.initial_value = initial;
  return input({ block, label, element, hint: opts.hint, optional: opts.optional });
}

function numberInput(
  v: FormValues,
  block: string,
  label: string,
  [min, max]: readonly [number, number],
  hint: string,
): KnownBlock {
  const element: Record<string, unknown> = {
    type: 'number_input',
    is_decimal_allowed: false,
    min_value: String(min),
    max_value: String(max),
  };
  const initial = textOf(v, block).trim();
  if (/^-?\d+$/.test(initial)) element.initial_value = initial;
  return input({ block, label, element, hint });
}

function radio(
  v: FormValues,
  block: string,
  label: string,
  opts: Opt[],
  extra: { hint?: string; dispatch?: boolean; optional?: boolean; fallback?: string } = {},
): KnownBlock {
  const element: Record<string, unknown> = { type: 'radio_buttons', options: opts };
  const initial = opts.find((o) => o.value === (textOf(v, block) || extra.fallback));
  if (initial) element.initial_option = initial;
  const { fallback: _fallback, ...rest } = extra;
  return input({ block, label, element, ...rest });
}

function checkboxes(
  v: FormValues,
  block: string,
  label: string,
  opts: Opt[],
  extra: Partial<InputSpec> = {},
): KnownBlock {
  const element: Record<string, unknown> = { type: 'checkboxes', options: opts };
  const chosen = new Set(listOf(v, block));
  const initial = opts.filter((o) => chosen.has(o.value));
  if (initial.length) element.initial_options = initial;
  return input({ block, label, element, ...extra });
}

// ---------------------------------------------------------------------------------------------------------------
// Option lists

/** IANA zones this runtime knows, plus UTC (Intl's list leaves it out). */
export function timeZones(): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [DEFAULT_TIMEZONE];
  return zones.includes('UTC') ? zones : [...zones, 'UTC'];
}

/**
 * Time zones grouped by region ("America", "Europe", ...), each group at most 100 options (America is split in
 * parts), so a static select with built-in type-ahead can hold them all. `current` is added when unknown (an alias).
 */
export function timeZoneOptionGroups(current?: string): { label: string; options: Opt[] }[] {
  const byRegion = new Map<string, string[]>();
  const zones = timeZones();
  if (current && !zones.includes(current) && current.length <= OPTION_VALUE_MAX) zones.push(current);
  for (const z of zones) {
    const region = z.includes('/') ? (z.split('/')[0] ?? 'Other') : 'Other';
    const list = byRegion.get(region) ?? [];
    list.push(z);
    byRegion.set(region, list);
  }
  const groups: { label: string; options: Opt[] }[] = [];
  for (const [region, list] of [...byRegion.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    list.sort();
    const parts = Math.ceil(list.length / MAX_OPTIONS);
    for (let p = 0; p < parts; p++) {
      const slice = list.slice(p * MAX_OPTIONS, (p + 1) * MAX_OPTIONS);
      const label =
        parts === 1 ? region : `${region} (${zoneShort(slice[0] ?? '')}–${zoneShort(slice[slice.length - 1] ?? '')})`;
      groups.push({ label: truncate(label, 75), options: slice.map((z) => option(z.replace(/_/g, ' '), z)) });
    }
  }
  return groups.slice(0, MAX_GROUPS);
}

function zoneShort(z: string): string {
  return (z.split('/')[1] ?? z).charAt(0);
}

function agentLabel(a: KnownAgent): string {
  const short = a.id.slice(0, 8);
  const name = plainLabel(a.name ?? '', OPTION_TEXT_MAX - 12);
  return name ? `${name} · ${short}` : a.id;
}

const CHANNEL_SHORT: Record<ChannelType, MessageKey> = {
  phone_call: 'campaignForm.integrationOption.phone',
  whatsapp: 'campaignForm.integrationOption.whatsapp',
};

function integrationLabel(i: KnownIntegration, t: Translator): string {
  return truncate(t.t(CHANNEL_SHORT[i.type], { id: i.id }), OPTION_TEXT_MAX);
}

/** Agents usable as select options (value within Slack's option limit), at most 100. */
export function agentOptions(dir: FormDirectory): Opt[] {
  return dir.agents
    .filter((a) => a.id.length <= OPTION_VALUE_MAX)
    .slice(0, MAX_OPTIONS)
    .map((a) => option(agentLabel(a), a.id));
}

/**
 * Integrations offered: only those of the chosen agent (all agents', grouped by agent, when none is chosen yet),
 * and only of the chosen channel once there is one.
 */
export function integrationChoices(
  dir: FormDirectory,
  agentId: string | undefined,
  channel: ChannelType | undefined,
  t: Translator = ENGLISH,
): { options?: Opt[]; option_groups?: { label: ReturnType<typeof plainText>; options: Opt[] }[] } {
  const fits = (i: KnownIntegration) => i.id.length <= OPTION_VALUE_MAX && (!channel || i.type === channel);
  if (agentId) {
    const agent = dir.agents.find((a) => a.id === agentId);
    const opts = (agent?.integrations ?? [])
      .filter(fits)
      .slice(0, MAX_OPTIONS)
      .map((i) => option(integrationLabel(i, t), i.id));
    return opts.length ? { options: opts } : {};
  }
  const groups = dir.agents
    .map((a) => ({
      label: plainText(plainLabel(a.name ?? '', 75) || a.id, 75),
      options: a.integrations
        .filter(fits)
        .slice(0, MAX_OPTIONS)
        .map((i) => option(integrationLabel(i, t), i.id)),
    }))
    .filter((g) => g.options.length > 0)
    .slice(0, MAX_GROUPS);
  // The whole view must stay under Slack's 250 kB: past a few hundred options, choosing the agent first narrows it.
  let room = MAX_GROUPED_INTEGRATIONS;
  for (const g of groups) {
    g.options = g.options.slice(0, Math.max(0, room));
    room -= g.options.length;
  }
  while (groups.length && groups[groups.length - 1]!.options.length === 0) groups.pop();
  // Slack wants unique option values across groups; an integration belongs to one agent, so they are.
  return groups.length ? { option_groups: groups } : {};
}

// ---------------------------------------------------------------------------------------------------------------
// The form

export interface CampaignFormInput {
  mode: 'create' | 'edit';
  values: FormValues;
  directory: FormDirectory;
  metadata: FormMetadata;
  /** Edit: the campaign as loaded (fixed settings shown read-only). */
  campaign?: CampaignDetail;
}

/** "Edit campaign #12", shortened to fit the 24-character title. */
export function editTitle(id: number | undefined, t: Translator = ENGLISH): string {
  if (id === undefined) return t.t('campaignForm.title.edit');
  const tries = [
    t.t('campaignForm.title.editId', { id: String(id) }),
    t.t('campaignForm.title.editShort', { id: String(id) }),
  ];
  for (const title of tries) if (title.length <= MODAL_TITLE_MAX) return title;
  return t.t('campaignForm.title.edit');
}

function weekBlocks(v: FormValues, prefix: WeekPrefix, t: Translator): KnownBlock[] {
  const blocks: KnownBlock[] = [
    checkboxes(
      v,
      daysBlock(prefix),
      t.t(prefix === 'scheduling' ? 'campaignForm.days' : 'campaignForm.cycleDays'),
      DAYS.map((d) => option(t.t(DAY_NAMES[d]), d)),
      { hint: t.t('campaignForm.days.hint') },
    ),
  ];
  for (const day of DAYS) {
    for (const which of ['startTime', 'stopTime'] as const) {
      const block = timeBlock(prefix, day, which);
      const element: Record<string, unknown> = { type: 'timepicker' };
      const time = textOf(v, block);
      if (/^\d{2}:\d{2}$/.test(time)) element.initial_time = time;
      const label = t.t(which === 'startTime' ? 'campaignForm.dayStart' : 'campaignForm.dayStop', {
        day: t.t(DAY_NAMES[day]),
      });
      blocks.push(input({ block, label, element }));
    }
  }
  return blocks;
}

function agentBlocks(v: FormValues, dir: FormDirectory, t: Translator): KnownBlock[] {
  const blocks: KnownBlock[] = [];
  const agents = agentOptions(dir);
  const chosen = textOf(v, FORM_BLOCKS.agent);
  if (agents.length) {
    const element: Record<string, unknown> = {
      type: 'static_select',
      placeholder: plainText(t.t('campaignForm.agent.placeholder'), 150),
      options: agents,
    };
    const initial = agents.find((o) => o.value === chosen);
    if (initial) element.initial_option = initial;
    blocks.push(
      input({
        block: FORM_BLOCKS.agent,
        label: t.t('campaignForm.agent'),
        element,
        hint: t.t('campaignForm.agent.hint'),
        dispatch: true,
      }),
    );
  }
  blocks.push(
    textInput(
      v,
      FORM_BLOCKS.agentTyped,
      t.t(agents.length ? 'campaignForm.agentTyped.orId' : 'campaignForm.agentTyped'),
      t,
      {
        max: 100,
        placeholder: t.t('campaignForm.agentTyped.placeholder'),
        hint: t.t(agents.length ? 'campaignForm.agentTyped.hint' : 'campaignForm.agentTyped.hintNoAgents'),
      },
    ),
  );

  const choices = integrationChoices(dir, chosen || undefined, channelOf(v), t);
  if (choices.options || choices.option_groups) {
    const element: Record<string, unknown> = {
      type: 'static_select',
      placeholder: plainText(t.t('campaignForm.integration.placeholder'), 150),
      ...choices,
    };
    const all = choices.options ?? choices.option_groups?.flatMap((g) => g.options) ?? [];
    const initial = all.find((o) => o.value === textOf(v, FORM_BLOCKS.integration));
    if (initial) element.initial_option = initial;
    blocks.push(
      input({
        block: FORM_BLOCKS.integration,
        label: t.t('campaignForm.integration'),
        element,
        hint: t.t(chosen ? 'campaignForm.integration.hintAgent' : 'campaignForm.integration.hintGrouped'),
      }),
    );
  }
  blocks.push(
    textInput(
      v,
      FORM_BLOCKS.integrationTyped,
      t.t(
        choices.options || choices.option_groups
          ? 'campaignForm.integrationTyped.orId'
          : 'campaignForm.integrationTyped',
      ),
      t,
      { max: 200, hint: t.t('campaignForm.integrationTyped.hint') },
    ),
  );
  return blocks;
}

function timezoneBlock(v: FormValues, t: Translator): KnownBlock {
  const current = textOf(v, FORM_BLOCKS.timezone) || DEFAULT_TIMEZONE;
  const groups = timeZoneOptionGroups(current);
  const element: Record<string, unknown> = {
    type: 'static_select',
    placeholder: plainText(t.t('campaignForm.timezone.placeholder'), 150),
    option_groups: groups.map((g) => ({ label: plainText(g.label, 75), options: g.options })),
  };
  const initial = groups.flatMap((g) => g.options).find((o) => o.value === current);
  if (initial) element.initial_option = initial;
  return input({
    block: FORM_BLOCKS.timezone,
    label: t.t('campaignForm.timezone'),
    element,
    optional: false,
    hint: t.t('campaignForm.timezone.hint', { zone: DEFAULT_TIMEZONE }),
  });
}

function channelSpecificBlocks(v: FormValues, channel: ChannelType | undefined, t: Translator): KnownBlock[] {
  if (channel === 'phone_call') {
    return [
      textInput(v, FORM_BLOCKS.firstMessage, t.t('campaignForm.firstMessage'), t, {
        multiline: true,
        hint: t.t('campaignForm.firstMessage.hint'),
      }),
    ];
  }
  if (channel === 'whatsapp') {
    return [
      textInput(v, FORM_BLOCKS.template, t.t('campaignForm.template'), t, {
        max: 512,
        hint: t.t('campaignForm.template.hint'),
      }),
      textInput(v, FORM_BLOCKS.templateAlt, t.t('campaignForm.templateAlt'), t, {
        max: 512,
        hint: t.t('campaignForm.templateAlt.hint'),
      }),
    ];
  }
  return [];
}

function cyclesSettingBlocks(v: FormValues, mode: CyclesMode, t: Translator): KnownBlock[] {
  const blocks: KnownBlock[] = [
    numberInput(
      v,
      FORM_BLOCKS.maxIterations,
      t.t('campaignForm.maxIterations'),
      MAX_ITERATIONS_RANGE,
      t.t('campaignForm.maxIterations.hint', { min: MAX_ITERATIONS_RANGE[0], max: MAX_ITERATIONS_RANGE[1] }),
    ),
    numberInput(
      v,
      FORM_BLOCKS.cooldownMinutes,
      t.t('campaignForm.cooldownMinutes'),
      COOLDOWN_RANGE,
      t.t('campaignForm.cooldownMinutes.hint', { min: COOLDOWN_RANGE[0], max: COOLDOWN_RANGE[1] }),
    ),
  ];
  const statusOpts = PHONE_CONTACT_STATUSES.map((s) => option(contactStatusLabel(s), s));
  const chosen = new Set(listOf(v, FORM_BLOCKS.filterStatuses));
  const statusEl: Record<string, unknown> = {
    type: 'multi_static_select',
    placeholder: plainText(t.t('campaignForm.filterStatuses.placeholder'), 150),
    options: statusOpts,
  };
  const initial = statusOpts.filter((o) => chosen.has(o.value));
  if (initial.length) statusEl.initial_options = initial;
  blocks.push(
    input({
      block: FORM_BLOCKS.filterStatuses,
      label: t.t('campaignForm.filterStatuses'),
      element: statusEl,
      hint: t.t('campaignForm.filterStatuses.hint'),
    }),
    textInput(v, FORM_BLOCKS.filterTags, t.t('campaignForm.filterTags'), t, {
      max: 2000,
      placeholder: t.t('campaignForm.filterTags.placeholder'),
      hint: t.t('campaignForm.filterTags.hint'),
    }),
  );
  if (mode === 'scheduled') {
    blocks.push(
      context(t.t('campaignForm.cycleSchedule')),
      ...weekBlocks(v, 'cycles.schedule', t),
      datepicker(v, FORM_BLOCKS.cyclesStartDate, t.t('campaignForm.cyclesStart')),
      datepicker(v, FORM_BLOCKS.cyclesEndDate, t.t('campaignForm.cyclesEnd')),
    );
  }
  return blocks;
}

function datepicker(v: FormValues, block: string, label: string): KnownBlock {
  const element: Record<string, unknown> = { type: 'datepicker' };
  const d = textOf(v, block);
  if (/^\d{4}-\d{2}-\d{2}$/.test(d)) element.initial_date = d;
  return input({ block, label, element });
}

function modeOptions(t: Translator): Opt[] {
  return [
    option(t.t('campaignForm.mode.cooldown'), 'cooldown'),
    option(t.t('campaignForm.mode.scheduled'), 'scheduled'),
  ];
}

function createCyclesBlocks(v: FormValues, t: Translator): KnownBlock[] {
  const on = cyclesOn(v);
  const blocks: KnownBlock[] = [
    header(t.t('campaignForm.cycles')),
    checkboxes(
      v,
      FORM_BLOCKS.cyclesEnabled,
      t.t('campaignForm.repeat'),
      [option(t.t('campaignForm.repeat.option'), CYCLES_ON)],
      {
        dispatch: true,
        hint: t.t('campaignForm.repeat.hint'),
      },
    ),
  ];
  if (!on) return blocks;
  blocks.push(
    radio(v, FORM_BLOCKS.cyclesMode, t.t('campaignForm.mode'), modeOptions(t), {
      fallback: DEFAULT_CYCLES_MODE,
      dispatch: true,
      optional: false,
      hint: t.t('campaignForm.mode.hint'),
    }),
    ...cyclesSettingBlocks(v, cyclesModeOf(v), t),
  );
  return blocks;
}

function editCyclesBlocks(v: FormValues, fixed: FixedSettings, t: Translator): KnownBlock[] {
  if (fixed.channel !== 'phone_call') return [];
  if (!fixed.cyclesEnabled) return [header(t.t('campaignForm.cycles')), context(t.t('campaignForm.cyclesOffFixed'))];
  const mode = fixed.cyclesMode ?? 'cooldown';
  return [
    header(t.t('campaignForm.cycles')),
    context(t.t('campaignForm.cyclesOnFixed', { mode })),
    ...cyclesSettingBlocks(v, mode, t),
  ];
}

function fixedSettingsBlocks(c: CampaignDetail | undefined, fixed: FixedSettings, t: Translator): KnownBlock[] {
  const agentName = cleanLabel(c?.agent.name ?? '', 150);
  const agent = c
    ? agentName
      ? tmd(t, 'campaignForm.agentNamed', { name: agentName, id: c.agent.id })
      : tmd(t, 'campaignDetail.agentId', { id: c.agent.id })
    : NONE;
  const cycles = fixed.cyclesEnabled
    ? t.t('campaignForm.fixedCyclesOn', { mode: fixed.cyclesMode ?? 'cooldown' })
    : t.t('cycles.off');
  const field = (label: MessageKey, value: string | RawMrkdwn) =>
    tmd(t, 'campaignDetail.field', { label: t.t(label), value });
  return [
    ...fieldSections([
      field('campaignForm.channel', channelLabel(fixed.channel, t)),
      field('campaignDetail.agent', raw(agent)),
      field('campaignDetail.integration', c?.integration ? c.integration.id : t.t('campaignDetail.none')),
      field('campaignDetail.cycles', cycles),
    ]),
    context(t.t('campaignForm.fixedNote')),
  ];
}

/** The campaign form, for a new campaign or an existing one, in `t`'s words (`f.metadata.lang` should say which). */
export function campaignFormView(f: CampaignFormInput, t: Translator = formWords(f.metadata)): View {
  const v = f.values;
  const blocks: KnownBlock[] = [];
  let channel: ChannelType | undefined;
  if (f.mode === 'create') {
    channel = channelOf(v);
    blocks.push(
      radio(
        v,
        FORM_BLOCKS.channel,
        t.t('campaignForm.channel'),
        [option(t.t('channel.phone_call'), 'phone_call'), option(t.t('channel.whatsapp'), 'whatsapp')],
        { dispatch: true, optional: false, hint: t.t('campaignForm.channel.hint') },
      ),
    );
  } else {
    const fixed = f.metadata.fixed ?? { channel: null, cyclesEnabled: false, cyclesMode: null };
    channel = fixed.channel ?? undefined;
    blocks.push(...fixedSettingsBlocks(f.campaign, fixed, t));
  }
  blocks.push(
    textInput(v, FORM_BLOCKS.name, t.t('campaignForm.name'), t, { optional: false, max: NAME_MAX }),
    textInput(v, FORM_BLOCKS.description, t.t('campaignDetail.description'), t, { multiline: true }),
  );
  if (f.mode === 'create') blocks.push(...agentBlocks(v, f.directory, t));
  blocks.push(
    timezoneBlock(v, t),
    numberInput(
      v,
      FORM_BLOCKS.retries,
      t.t('campaignDetail.retries'),
      RETRIES_RANGE,
      t.t('campaignForm.retries.hint', { min: RETRIES_RANGE[0], max: RETRIES_RANGE[1], byDefault: DEFAULT_RETRIES }),
    ),
    numberInput(
      v,
      FORM_BLOCKS.messageLimit,
      t.t('campaignDetail.messageLimit'),
      MESSAGE_LIMIT_RANGE,
      t.t('campaignForm.messageLimit.hint', {
        min: MESSAGE_LIMIT_RANGE[0],
        max: MESSAGE_LIMIT_RANGE[1],
        byDefault: DEFAULT_MESSAGE_LIMIT,
      }),
    ),
  );
  if (f.mode === 'create' && !channel) blocks.push(context(t.t('campaignForm.chooseChannelFirst')));
  blocks.push(...channelSpecificBlocks(v, channel, t));
  blocks.push(
    header(t.t('campaignForm.weeklySchedule')),
    context(t.t('campaignForm.weeklySchedule.hint')),
    ...weekBlocks(v, 'scheduling', t),
  );
  if (channel === 'phone_call') {
    blocks.push(
      ...(f.mode === 'create'
        ? createCyclesBlocks(v, t)
        : editCyclesBlocks(v, f.metadata.fixed ?? { channel, cyclesEnabled: false, cyclesMode: null }, t)),
    );
  }
  return {
    type: 'modal',
    callback_id: FORM_CALLBACK_ID,
    title: plainText(
      f.mode === 'create' ? t.t('campaignForm.title.create') : editTitle(f.metadata.campaignId, t),
      MODAL_TITLE_MAX,
    ),
    submit: plainText(t.t(f.mode === 'create' ? 'campaignForm.submit.create' : 'campaignForm.submit.save'), 24),
    close: plainText(t.t('common.cancel'), 24),
    private_metadata: encodeMetadata(f.metadata),
    blocks,
  } as View;
}

/** Input block ids of a view (errors can only be shown under these). */
export function inputBlockIds(view: { blocks?: unknown }): string[] {
  const blocks = Array.isArray(view.blocks) ? view.blocks : [];
  return blocks
    .filter((b): b is { type: string; block_id: string } => {
      const o = b as { type?: unknown; block_id?: unknown };
      return o.type === 'input' && typeof o.block_id === 'string';
    })
    .map((b) => b.block_id);
}

// ---------------------------------------------------------------------------------------------------------------
// Small views around the form

function infoView(
  title: string,
  blocks: KnownBlock[],
  t: Translator,
  opts: { close?: string; clearOnClose?: boolean } = {},
): View {
  return {
    type: 'modal',
    callback_id: FORM_INFO_CALLBACK_ID,
    title: plainText(title, MODAL_TITLE_MAX),
    close: plainText(opts.close ?? t.t('campaignForm.close'), 24),
    ...(opts.clearOnClose ? { clear_on_close: true } : {}),
    blocks,
  } as View;
}

/** Shown at once (within the trigger's 3 seconds) while the form's data loads. `what` is our own mrkdwn. */
export function loadingView(title: string, what: string, t: Translator = ENGLISH): View {
  return infoView(title, [mrkdwnSection(tmd(t, 'campaignForm.loading', { what: raw(what) }))], t);
}

/** The form could not be opened (campaign not found, service down, ...). `sentence` is plain text. */
export function formProblemView(title: string, sentence: string, t: Translator = ENGLISH): View {
  return infoView(title, [mrkdwnSection(tmd(t, 'feedback.error', { sentence }))], t);
}

/** A finished campaign is read-only: the edit command answers with this instead of a form. */
export function finishedReadOnlyView(c: CampaignDetail, t: Translator = ENGLISH): View {
  return infoView(
    editTitle(c.id, t),
    [
      mrkdwnSection(tmd(t, 'campaignForm.finishedReadOnly', { name: cleanLabel(c.name, 200), id: String(c.id) })),
      context(
        tmd(t, 'campaignForm.stateAndChannel', {
          state: campaignStateLabel(c.status, c.archived, t),
          channel: channelLabel(c.integration?.type, t),
        }),
      ),
    ],
    t,
  );
}

/**
 * Pushed on top of the form when the service refused it for a reason no field can show (plan limit, ...). Closing
 * it goes back to the form with everything as typed. `sentence` is escaped unless it is `raw(...)` (our own text
 * with our own mentions); `fieldNotes` are escaped.
 */
export function submitProblemView(
  sentence: string | RawMrkdwn,
  fieldNotes: string[] = [],
  t: Translator = ENGLISH,
): View {
  const blocks: KnownBlock[] = [mrkdwnSection(tmd(t, 'feedback.error', { sentence }))];
  if (fieldNotes.length) {
    blocks.push(mrkdwnSection(fieldNotes.map((note) => tmd(t, 'campaignForm.fieldNote', { note })).join('\n')));
  }
  blocks.push(context(t.t('campaignForm.backToForm.note')));
  return infoView(t.t('campaignForm.title.couldNotSave'), blocks, t, { close: t.t('campaignForm.backToForm') });
}

/** Pushed when the service is slow to answer: updated with the outcome when it arrives. */
export function workingView(externalId: string, mode: 'create' | 'edit', t: Translator = ENGLISH): View {
  return {
    ...infoView(
      t.t(mode === 'create' ? 'campaignForm.title.creating' : 'campaignForm.title.saving'),
      [
        mrkdwnSection(t.t(mode === 'create' ? 'campaignForm.working.create' : 'campaignForm.working.save')),
        context(t.t('campaignForm.working.note')),
      ],
      t,
    ),
    external_id: externalId,
  } as View;
}

/** The outcome, replacing the working view; closing it closes the form too. */
export function doneView(externalId: string, text: string, t: Translator = ENGLISH): View {
  return {
    ...infoView(t.t('campaignForm.title.done'), [mrkdwnSection(text)], t, { clearOnClose: true }),
    external_id: externalId,
  } as View;
}

/** Nothing was changed in the edit form. */
export function noChangesView(id: number, t: Translator = ENGLISH): View {
  return infoView(editTitle(id, t), [mrkdwnSection(t.t('campaignForm.noChanges', { id: String(id) }))], t);
}
