/**
 * The campaign form (create and edit) and the views and messages around it. Pure: values in, Block Kit out.
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
import { ACTION_IDS, encodeCampaignId, FORM_CALLBACK_ID, FORM_INFO_CALLBACK_ID } from './ids.js';
import { campaignStateLabel, channelLabel, contactStatusLabel, formatCount, NONE } from './format.js';
import { lifecycleButtons } from './lifecycle.js';
import {
  actions,
  button,
  cleanLabel,
  confirmDialog,
  context,
  fallback,
  fieldSections,
  header,
  LIMITS,
  md,
  mrkdwnSection,
  plainLabel,
  plainText,
  truncate,
  type RawMrkdwn,
} from './mrkdwn.js';
import { cyclesInWords, DAY_LABELS, scheduleInWords } from './schedule.js';
import type { KnownBlock, SlackMessage, View } from './types.js';

// ---------------------------------------------------------------------------------------------------------------
// Ids

export type WeekPrefix = 'scheduling' | 'cycles.schedule';

/** Block ids (= action ids = API field paths). */
export const B = {
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
const DISPATCHING_BLOCKS = [B.channel, B.agent, B.cyclesEnabled, B.cyclesMode] as const;

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
  const c = textOf(v, B.channel);
  return c === 'phone_call' || c === 'whatsapp' ? c : undefined;
}
export function cyclesOn(v: FormValues): boolean {
  return listOf(v, B.cyclesEnabled).includes(CYCLES_ON);
}
export function cyclesModeOf(v: FormValues): CyclesMode {
  return textOf(v, B.cyclesMode) === 'scheduled' ? 'scheduled' : 'cooldown';
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
    [B.timezone]: DEFAULT_TIMEZONE,
    [B.retries]: String(DEFAULT_RETRIES),
    [B.messageLimit]: String(DEFAULT_MESSAGE_LIMIT),
    [B.cyclesMode]: DEFAULT_CYCLES_MODE,
  };
}

/** The edit form of an existing campaign. */
export function formValuesFromCampaign(c: CampaignDetail): FormValues {
  const v: FormValues = {
    [B.name]: c.name,
    [B.description]: c.description ?? '',
    [B.timezone]: c.timezone || DEFAULT_TIMEZONE,
    [B.retries]: c.retries === null || c.retries === undefined ? '' : String(c.retries),
    [B.messageLimit]: c.message_limit === null || c.message_limit === undefined ? '' : String(c.message_limit),
    [B.firstMessage]: c.first_message ?? '',
    [B.template]: c.template ?? '',
    [B.templateAlt]: c.template_alt ?? '',
  };
  if (c.integration) v[B.channel] = c.integration.type;
  setWeek(v, 'scheduling', c.scheduling);
  const cy = c.cycles;
  if (cy?.enabled) {
    v[B.cyclesEnabled] = [CYCLES_ON];
    v[B.cyclesMode] = cy.mode ?? 'cooldown';
    v[B.maxIterations] = cy.max_iterations === null || cy.max_iterations === undefined ? '' : String(cy.max_iterations);
    v[B.cooldownMinutes] =
      cy.cooldown_minutes === null || cy.cooldown_minutes === undefined ? '' : String(cy.cooldown_minutes);
    v[B.filterStatuses] = [...(cy.filter_statuses ?? [])];
    setWeek(v, 'cycles.schedule', cy.schedule);
    if (cy.schedule_start_date) v[B.cyclesStartDate] = cy.schedule_start_date;
    if (cy.schedule_end_date) v[B.cyclesEndDate] = cy.schedule_end_date;
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
const MetadataSchema = z.object({
  mode: z.enum(['create', 'edit']),
  postTo: z.string().max(50).optional(),
  campaignId: z.number().int().positive().optional(),
  fixed: FixedSchema.optional(),
  initial: z.record(z.string(), z.string()).optional(),
  stash: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
});

/** The form's private_metadata, or undefined when it is not ours / malformed. */
export function decodeMetadata(raw: string | undefined): FormMetadata | undefined {
  if (!raw) return undefined;
  try {
    const r = MetadataSchema.safeParse(JSON.parse(raw));
    if (!r.success) return undefined;
    if (r.data.mode === 'edit' && (r.data.campaignId === undefined || !r.data.fixed || !r.data.initial))
      return undefined;
    return r.data as FormMetadata;
  } catch {
    return undefined;
  }
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

function input(spec: InputSpec): KnownBlock {
  const b: Record<string, unknown> = {
    type: 'input',
    block_id: spec.block,
    label: plainText(spec.label, 2000),
    element: { ...spec.element, action_id: spec.block },
    optional: spec.optional ?? true,
  };
  if (spec.hint) b.hint = plainText(spec.hint, 2000);
  if (spec.dispatch) b.dispatch_action = true;
  return b as unknown as KnownBlock;
}

function textInput(
  v: FormValues,
  block: string,
  label: string,
  opts: { hint?: string; optional?: boolean; multiline?: boolean; max?: number; placeholder?: string } = {},
): KnownBlock {
  const max = opts.max ?? TEXT_MAX;
  const element: Record<string, unknown> = { type: 'plain_text_input', max_length: max };
  if (opts.multiline) element.multiline = true;
  if (opts.placeholder) element.placeholder = plainText(opts.placeholder, 150);
  const initial = textOf(v, block);
  if (initial.length > max) {
    // Slack refuses an initial value longer than max_length, and a cut one would be saved cut: keep it out of reach.
    return context(
      md`*${label}* is ${formatCount(initial.length)} characters long, more than this form can hold (${formatCount(max)}), so it can't be changed here and is kept as it is.`,
    );
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

const CHANNEL_SHORT: Record<ChannelType, string> = { phone_call: 'phone', whatsapp: 'WhatsApp' };

function integrationLabel(i: KnownIntegration): string {
  return truncate(`${i.id} (${CHANNEL_SHORT[i.type]})`, OPTION_TEXT_MAX);
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
): { options?: Opt[]; option_groups?: { label: ReturnType<typeof plainText>; options: Opt[] }[] } {
  const fits = (i: KnownIntegration) => i.id.length <= OPTION_VALUE_MAX && (!channel || i.type === channel);
  if (agentId) {
    const agent = dir.agents.find((a) => a.id === agentId);
    const opts = (agent?.integrations ?? [])
      .filter(fits)
      .slice(0, MAX_OPTIONS)
      .map((i) => option(integrationLabel(i), i.id));
    return opts.length ? { options: opts } : {};
  }
  const groups = dir.agents
    .map((a) => ({
      label: plainText(plainLabel(a.name ?? '', 75) || a.id, 75),
      options: a.integrations
        .filter(fits)
        .slice(0, MAX_OPTIONS)
        .map((i) => option(integrationLabel(i), i.id)),
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
export function editTitle(id: number | undefined): string {
  if (id === undefined) return 'Edit campaign';
  for (const t of [`Edit campaign #${id}`, `Edit #${id}`]) if (t.length <= MODAL_TITLE_MAX) return t;
  return 'Edit campaign';
}

function weekBlocks(v: FormValues, prefix: WeekPrefix): KnownBlock[] {
  const blocks: KnownBlock[] = [
    checkboxes(
      v,
      daysBlock(prefix),
      prefix === 'scheduling' ? 'Days it runs' : 'Days the cycles run',
      DAYS.map((d) => option(DAY_LABELS[d], d)),
      { hint: 'Each ticked day needs a start and a stop time below.' },
    ),
  ];
  for (const day of DAYS) {
    for (const which of ['startTime', 'stopTime'] as const) {
      const block = timeBlock(prefix, day, which);
      const element: Record<string, unknown> = { type: 'timepicker' };
      const t = textOf(v, block);
      if (/^\d{2}:\d{2}$/.test(t)) element.initial_time = t;
      blocks.push(input({ block, label: `${DAY_LABELS[day]} ${which === 'startTime' ? 'start' : 'stop'}`, element }));
    }
  }
  return blocks;
}

function agentBlocks(v: FormValues, dir: FormDirectory): KnownBlock[] {
  const blocks: KnownBlock[] = [];
  const agents = agentOptions(dir);
  const chosen = textOf(v, B.agent);
  if (agents.length) {
    const element: Record<string, unknown> = {
      type: 'static_select',
      placeholder: plainText('Type to search agents', 150),
      options: agents,
    };
    const initial = agents.find((o) => o.value === chosen);
    if (initial) element.initial_option = initial;
    blocks.push(
      input({
        block: B.agent,
        label: 'Agent',
        element,
        hint: 'Agents seen in existing campaigns. Not listed? Type its id in the next field.',
        dispatch: true,
      }),
    );
  }
  blocks.push(
    textInput(v, B.agentTyped, agents.length ? '…or agent id' : 'Agent id', {
      max: 100,
      placeholder: 'e.g. 7c9e6679-7425-40de-944b-e07fc1f90ae7',
      hint: agents.length
        ? "Only for an agent that isn't in the list: its public id (a UUID)."
        : "No agents seen in existing campaigns yet: type the agent's public id (a UUID).",
    }),
  );

  const choices = integrationChoices(dir, chosen || undefined, channelOf(v));
  if (choices.options || choices.option_groups) {
    const element: Record<string, unknown> = {
      type: 'static_select',
      placeholder: plainText('Type to search integrations', 150),
      ...choices,
    };
    const all = choices.options ?? choices.option_groups?.flatMap((g) => g.options) ?? [];
    const initial = all.find((o) => o.value === textOf(v, B.integration));
    if (initial) element.initial_option = initial;
    blocks.push(
      input({
        block: B.integration,
        label: 'Integration',
        element,
        hint: chosen
          ? "This agent's integrations seen in existing campaigns, for the chosen channel."
          : 'Grouped by agent: pick one that belongs to the chosen agent.',
      }),
    );
  }
  blocks.push(
    textInput(
      v,
      B.integrationTyped,
      choices.options || choices.option_groups ? '…or integration id' : 'Integration id',
      {
        max: 200,
        hint: "Only for an integration that isn't in the list. It must belong to the chosen agent.",
      },
    ),
  );
  return blocks;
}

function timezoneBlock(v: FormValues): KnownBlock {
  const current = textOf(v, B.timezone) || DEFAULT_TIMEZONE;
  const groups = timeZoneOptionGroups(current);
  const element: Record<string, unknown> = {
    type: 'static_select',
    placeholder: plainText('Type to search, e.g. Mexico', 150),
    option_groups: groups.map((g) => ({ label: plainText(g.label, 75), options: g.options })),
  };
  const initial = groups.flatMap((g) => g.options).find((o) => o.value === current);
  if (initial) element.initial_option = initial;
  return input({
    block: B.timezone,
    label: 'Timezone',
    element,
    optional: false,
    hint: `The weekly schedule is read in this zone. Default ${DEFAULT_TIMEZONE}.`,
  });
}

function channelSpecificBlocks(v: FormValues, channel: ChannelType | undefined): KnownBlock[] {
  if (channel === 'phone_call') {
    return [
      textInput(v, B.firstMessage, 'First message', {
        multiline: true,
        hint: 'What the agent says first when the call is answered. Phone calls only.',
      }),
    ];
  }
  if (channel === 'whatsapp') {
    return [
      textInput(v, B.template, 'Template', { max: 512, hint: 'Name of the approved WhatsApp template to send.' }),
      textInput(v, B.templateAlt, 'Alternate template', {
        max: 512,
        hint: 'Name of a second template, used as the alternative. WhatsApp only.',
      }),
    ];
  }
  return [];
}

function cyclesSettingBlocks(v: FormValues, mode: CyclesMode): KnownBlock[] {
  const blocks: KnownBlock[] = [
    numberInput(v, B.maxIterations, 'Rounds at most', MAX_ITERATIONS_RANGE, 'How many rounds in total: 2 to 12.'),
    numberInput(
      v,
      B.cooldownMinutes,
      'Minutes between rounds',
      COOLDOWN_RANGE,
      'Wait after a round before the next one: 0 to 1,440 (one day).',
    ),
  ];
  const statusOpts = PHONE_CONTACT_STATUSES.map((s) => option(contactStatusLabel(s), s));
  const chosen = new Set(listOf(v, B.filterStatuses));
  const statusEl: Record<string, unknown> = {
    type: 'multi_static_select',
    placeholder: plainText('Statuses to skip', 150),
    options: statusOpts,
  };
  const initial = statusOpts.filter((o) => chosen.has(o.value));
  if (initial.length) statusEl.initial_options = initial;
  blocks.push(
    input({
      block: B.filterStatuses,
      label: 'Skip contacts whose status is',
      element: statusEl,
      hint: 'Contacts in these statuses are left out of the next round.',
    }),
    textInput(v, B.filterTags, 'Skip contacts tagged with (tag ids)', {
      max: 2000,
      placeholder: 'tag ids separated by commas',
      hint: 'Thread tag ids, separated by commas or spaces. The service does not show them back once saved.',
    }),
  );
  if (mode === 'scheduled') {
    blocks.push(
      context('*Cycle schedule:* when the rounds run. Only used in scheduled mode.'),
      ...weekBlocks(v, 'cycles.schedule'),
      datepicker(v, B.cyclesStartDate, 'Cycles start on'),
      datepicker(v, B.cyclesEndDate, 'Cycles end on'),
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

const MODE_OPTIONS = [
  option('Cooldown: next round after a pause', 'cooldown'),
  option('Scheduled: rounds on a weekly schedule', 'scheduled'),
];

function createCyclesBlocks(v: FormValues): KnownBlock[] {
  const on = cyclesOn(v);
  const blocks: KnownBlock[] = [
    header('Cycles'),
    checkboxes(v, B.cyclesEnabled, 'Repeat', [option('Run the campaign again in rounds (cycles)', CYCLES_ON)], {
      dispatch: true,
      hint: 'Cycles can only be turned on now, when the campaign is created.',
    }),
  ];
  if (!on) return blocks;
  blocks.push(
    radio(v, B.cyclesMode, 'Mode', MODE_OPTIONS, {
      fallback: DEFAULT_CYCLES_MODE,
      dispatch: true,
      optional: false,
      hint: 'Fixed once the campaign exists.',
    }),
    ...cyclesSettingBlocks(v, cyclesModeOf(v)),
  );
  return blocks;
}

function editCyclesBlocks(v: FormValues, fixed: FixedSettings): KnownBlock[] {
  if (fixed.channel !== 'phone_call') return [];
  if (!fixed.cyclesEnabled) {
    return [
      header('Cycles'),
      context('Cycles are off for this campaign. They can only be turned on when a campaign is created.'),
    ];
  }
  const mode = fixed.cyclesMode ?? 'cooldown';
  return [
    header('Cycles'),
    context(`Cycles are on, in *${mode}* mode (fixed at creation).`),
    ...cyclesSettingBlocks(v, mode),
  ];
}

function fixedSettingsBlocks(c: CampaignDetail | undefined, fixed: FixedSettings): KnownBlock[] {
  const agentName = cleanLabel(c?.agent.name ?? '', 150);
  const agent = c ? (agentName ? md`${agentName} (\`${c.agent.id}\`)` : md`\`${c.agent.id}\``) : NONE;
  const cycles = fixed.cyclesEnabled ? `On (${fixed.cyclesMode ?? 'cooldown'})` : 'Off';
  return [
    ...fieldSections([
      md`*Channel*\n${channelLabel(fixed.channel)}`,
      `*Agent*\n${agent}`,
      md`*Integration*\n${c?.integration ? c.integration.id : 'none'}`,
      md`*Cycles*\n${cycles}`,
    ]),
    context('These were fixed when the campaign was created and cannot be changed.'),
  ];
}

/** The campaign form, for a new campaign or an existing one. */
export function campaignFormView(f: CampaignFormInput): View {
  const v = f.values;
  const blocks: KnownBlock[] = [];
  let channel: ChannelType | undefined;
  if (f.mode === 'create') {
    channel = channelOf(v);
    blocks.push(
      radio(v, B.channel, 'Channel', [option('📞 Phone call', 'phone_call'), option('💬 WhatsApp', 'whatsapp')], {
        dispatch: true,
        optional: false,
        hint: "Choose it first: the form then shows that channel's fields.",
      }),
    );
  } else {
    const fixed = f.metadata.fixed ?? { channel: null, cyclesEnabled: false, cyclesMode: null };
    channel = fixed.channel ?? undefined;
    blocks.push(...fixedSettingsBlocks(f.campaign, fixed));
  }
  blocks.push(
    textInput(v, B.name, 'Name', { optional: false, max: NAME_MAX }),
    textInput(v, B.description, 'Description', { multiline: true }),
  );
  if (f.mode === 'create') blocks.push(...agentBlocks(v, f.directory));
  blocks.push(
    timezoneBlock(v),
    numberInput(
      v,
      B.retries,
      'Retries',
      RETRIES_RANGE,
      `Extra attempts per contact: 0 to 5. Default ${DEFAULT_RETRIES}.`,
    ),
    numberInput(
      v,
      B.messageLimit,
      'Message limit',
      MESSAGE_LIMIT_RANGE,
      `1 to 10,000. Default ${formatCount(DEFAULT_MESSAGE_LIMIT)}.`,
    ),
  );
  if (f.mode === 'create' && !channel) {
    blocks.push(
      context(
        'Choose a channel above to see its fields: first message and cycles for phone calls, templates for WhatsApp.',
      ),
    );
  }
  blocks.push(...channelSpecificBlocks(v, channel));
  blocks.push(
    header('Weekly schedule'),
    context(
      "Tick the days it runs and give each a start and stop time (24-hour, in the campaign's timezone). No day ticked: it runs any time.",
    ),
    ...weekBlocks(v, 'scheduling'),
  );
  if (channel === 'phone_call') {
    blocks.push(
      ...(f.mode === 'create'
        ? createCyclesBlocks(v)
        : editCyclesBlocks(v, f.metadata.fixed ?? { channel, cyclesEnabled: false, cyclesMode: null })),
    );
  }
  return {
    type: 'modal',
    callback_id: FORM_CALLBACK_ID,
    title: plainText(f.mode === 'create' ? 'New campaign' : editTitle(f.metadata.campaignId), MODAL_TITLE_MAX),
    submit: plainText(f.mode === 'create' ? 'Create' : 'Save changes', 24),
    close: plainText('Cancel', 24),
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

function infoView(title: string, blocks: KnownBlock[], opts: { close?: string; clearOnClose?: boolean } = {}): View {
  return {
    type: 'modal',
    callback_id: FORM_INFO_CALLBACK_ID,
    title: plainText(title, MODAL_TITLE_MAX),
    close: plainText(opts.close ?? 'Close', 24),
    ...(opts.clearOnClose ? { clear_on_close: true } : {}),
    blocks,
  } as View;
}

/** Shown at once (within the trigger's 3 seconds) while the form's data loads. */
export function loadingView(title: string, what: string): View {
  return infoView(title, [mrkdwnSection(`⏳ ${what}`)]);
}

/** The form could not be opened (campaign not found, service down, ...). `sentence` is plain text. */
export function formProblemView(title: string, sentence: string): View {
  return infoView(title, [mrkdwnSection(md`⚠️ ${sentence}`)]);
}

/** A finished campaign is read-only: the edit command answers with this instead of a form. */
export function finishedReadOnlyView(c: CampaignDetail): View {
  return infoView(editTitle(c.id), [
    mrkdwnSection(
      md`🏁 *${cleanLabel(c.name, 200)}* (#${c.id}) is finished. Finished campaigns are read-only, so there is nothing to edit.`,
    ),
    context(md`${campaignStateLabel(c.status, c.archived)} · ${channelLabel(c.integration?.type)}`),
  ]);
}

/**
 * Pushed on top of the form when the service refused it for a reason no field can show (plan limit, ...). Closing
 * it goes back to the form with everything as typed. `sentence` is escaped unless it is `raw(...)` (our own text
 * with our own mentions).
 */
export function submitProblemView(sentence: string | RawMrkdwn, fieldNotes: string[] = []): View {
  const blocks: KnownBlock[] = [mrkdwnSection(md`⚠️ ${sentence}`)];
  if (fieldNotes.length) blocks.push(mrkdwnSection(fieldNotes.map((n) => md`• ${n}`).join('\n')));
  blocks.push(context('Close this to go back to the form: everything you typed is still there.'));
  return infoView("Couldn't save", blocks, { close: 'Back to the form' });
}

/** Pushed when the service is slow to answer: updated with the outcome when it arrives. */
export function workingView(externalId: string, mode: 'create' | 'edit'): View {
  return {
    ...infoView(mode === 'create' ? 'Creating…' : 'Saving…', [
      mrkdwnSection(
        `⏳ ${mode === 'create' ? 'Creating the campaign' : 'Saving the changes'}: the service is taking a moment.`,
      ),
      context('This view updates itself when it is done.'),
    ]),
    external_id: externalId,
  } as View;
}

/** The outcome, replacing the working view; closing it closes the form too. */
export function doneView(externalId: string, text: string): View {
  return { ...infoView('Done', [mrkdwnSection(text)], { clearOnClose: true }), external_id: externalId } as View;
}

/** Nothing was changed in the edit form. */
export function noChangesView(id: number): View {
  return infoView(editTitle(id), [mrkdwnSection(`Nothing changed, so campaign #${id} was left as it was.`)]);
}

// ---------------------------------------------------------------------------------------------------------------
// Messages posted after a change

function summaryFields(c: CampaignDetail): string[] {
  const agentName = cleanLabel(c.agent.name ?? '', 150);
  const agent = agentName ? md`${agentName}` : md`\`${c.agent.id}\``;
  const fields = [
    md`*Status*\n${campaignStateLabel(c.status, c.archived)}`,
    md`*Channel*\n${channelLabel(c.integration?.type)}`,
    `*Agent*\n${agent}`,
    md`*Integration*\n${c.integration ? c.integration.id : 'none'}`,
    md`*Schedule*\n${scheduleInWords(c.scheduling)}`,
    md`*Timezone*\n${c.timezone ?? DEFAULT_TIMEZONE}`,
  ];
  if (c.retries !== null && c.retries !== undefined) fields.push(md`*Retries*\n${formatCount(c.retries)}`);
  if (c.message_limit !== null && c.message_limit !== undefined) {
    fields.push(md`*Message limit*\n${formatCount(c.message_limit)}`);
  }
  if (c.integration?.type !== 'whatsapp') fields.push(md`*Cycles*\n${cyclesInWords(c.cycles)}`);
  else if (c.template) fields.push(md`*Template*\n${truncate(c.template, 200)}`);
  return fields.slice(0, 10);
}

/** Posted where the command was typed: the new campaign, and what to do next. */
export function campaignCreatedMessage(c: CampaignDetail, userId: string): SlackMessage {
  const name = cleanLabel(c.name, 200);
  const blocks: KnownBlock[] = [
    mrkdwnSection(md`✅ <@${userId}> created campaign *${name}* (#${c.id}).`),
    ...fieldSections(summaryFields(c)),
    actions([
      ...lifecycleButtons(c, ['activate']),
      button({ text: '📤 Upload contacts', actionId: ACTION_IDS.campaignUploadOpen, value: encodeCampaignId(c.id) }),
      button({
        text: '👀 Watch here',
        actionId: ACTION_IDS.campaignWatchHere,
        value: encodeCampaignId(c.id),
        confirm: confirmDialog({
          title: 'Watch in this channel?',
          text: md`Progress of *${cleanLabel(c.name, 80)}* (#${c.id}) will be posted in this channel until it finishes or someone unwatches it.`,
          confirm: 'Watch here',
        }),
      }),
    ]),
    context('Next: upload contacts, then activate. Activating starts contacting people.'),
  ];
  return { text: fallback(md`Campaign ${name} (#${c.id}) created`), blocks };
}

/** Posted after an edit: who changed which fields. */
export function campaignUpdatedMessage(c: CampaignDetail, userId: string, changed: string[]): SlackMessage {
  const name = cleanLabel(c.name, 200);
  const what = changed.length ? changed.map((f) => `\`${f}\``).join(', ') : 'nothing';
  const blocks: KnownBlock[] = [
    mrkdwnSection(md`✏️ <@${userId}> updated campaign *${name}* (#${c.id}): ` + truncate(what, 1500)),
    ...fieldSections(summaryFields(c)),
    actions([button({ text: 'Show', actionId: ACTION_IDS.campaignShow, value: encodeCampaignId(c.id) })]),
  ];
  return { text: fallback(md`Campaign ${name} (#${c.id}) updated`), blocks };
}
