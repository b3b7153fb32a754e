/**
 * The campaign form's submitted state -> validated API input, and the service's refusals -> the blocks they concern.
 * Pure (no Slack, no HTTP), so every rule is unit-tested on its own.
 *
 * Every rule of the spec is checked here before the service is called, each answered under the block it concerns
 * with a sentence saying what is wrong and how to fix it. In the edit form only fields the person changed are
 * checked and sent (a campaign made elsewhere may hold values the form would refuse; editing another field must not
 * be blocked by them).
 */
import { z } from 'zod';
import type { Translator } from '../../i18n/translator.js';
import { fieldErrorsOf, OutreachError } from '../../outreach/errors.js';
import {
  DAYS,
  PHONE_CONTACT_STATUSES,
  type CreateCampaignInput,
  type CyclesInput,
  type Day,
  type Schedule,
  type UpdateCampaignInput,
} from '../../outreach/schemas.js';
import {
  CYCLE_DATE_PATTERN,
  normalizeErrorFieldPath,
  normalizeScheduleTime,
  SCHEDULE_TIME_PATTERN,
} from '../../outreach/unspecified.js';
import {
  FORM_BLOCKS,
  COOLDOWN_RANGE,
  DAY_NAMES,
  channelOf,
  cyclesModeOf,
  cyclesOn,
  daysBlock,
  fingerprint,
  listOf,
  MAX_ITERATIONS_RANGE,
  MESSAGE_LIMIT_RANGE,
  NAME_MAX,
  RETRIES_RANGE,
  textOf,
  timeBlock,
  type FixedSettings,
  type FormDirectory,
  type FormValues,
  type WeekPrefix,
} from '../../render/campaign-form.js';
import { ENGLISH, isValidTimeZone } from '../../render/format.js';
import { serviceErrorText } from '../../render/service-error.js';

// ---------------------------------------------------------------------------------------------------------------
// Slack state -> FormValues

const ElementState = z.looseObject({
  type: z.string(),
  value: z.string().nullish(),
  selected_option: z.looseObject({ value: z.string() }).nullish(),
  selected_options: z.array(z.looseObject({ value: z.string() })).nullish(),
  selected_time: z.string().nullish(),
  selected_date: z.string().nullish(),
});
const StateValues = z.record(z.string(), z.record(z.string(), z.unknown()));

/**
 * `view.state.values` -> FormValues. Each block's element is read under action_id = block_id (the form's
 * convention); a malformed entry counts as empty rather than failing the whole form.
 */
export function formValuesFromState(values: unknown): FormValues {
  const out: FormValues = {};
  const parsed = StateValues.safeParse(values ?? {});
  if (!parsed.success) return out;
  for (const [block, elements] of Object.entries(parsed.data)) {
    const raw = elements[block] ?? Object.values(elements)[0];
    const el = ElementState.safeParse(raw);
    if (!el.success) continue;
    const s = el.data;
    let v: string | string[] | undefined;
    switch (s.type) {
      case 'static_select':
      case 'radio_buttons':
      case 'external_select':
        v = s.selected_option?.value ?? undefined;
        break;
      case 'checkboxes':
      case 'multi_static_select':
        v = (s.selected_options ?? []).map((o) => o.value);
        break;
      case 'timepicker':
        v = s.selected_time ?? undefined;
        break;
      case 'datepicker':
        v = s.selected_date ?? undefined;
        break;
      default:
        v = s.value ?? undefined;
    }
    if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    out[block] = v;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Validation

export type FormErrors = Record<string, string>;

export interface FormContext {
  directory: FormDirectory;
  /** Input block ids of the submitted view: the only places an error can be shown. */
  visible: ReadonlySet<string>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The form's errors, each worded in `t` (the form's language): plain text, shown by Slack under its block. */
class Collector {
  readonly errors: FormErrors = {};
  constructor(readonly t: Translator) {}
  add(block: string, message: string): void {
    if (!(block in this.errors)) this.errors[block] = message;
  }
  get ok(): boolean {
    return Object.keys(this.errors).length === 0;
  }
}

/** Where an agent error shows: the typed field when it was used (or is the only one), else the select. */
function agentBlockOf(values: FormValues, visible: ReadonlySet<string>): string {
  return textOf(values, FORM_BLOCKS.agentTyped).trim() || !visible.has(FORM_BLOCKS.agent)
    ? FORM_BLOCKS.agentTyped
    : FORM_BLOCKS.agent;
}
function integrationBlockOf(values: FormValues, visible: ReadonlySet<string>): string {
  return textOf(values, FORM_BLOCKS.integrationTyped).trim() || !visible.has(FORM_BLOCKS.integration)
    ? FORM_BLOCKS.integrationTyped
    : FORM_BLOCKS.integration;
}

/** Which number a field holds (the catalog's `field` select names it). */
type NumberField = 'retries' | 'messageLimit' | 'rounds' | 'cooldown';

function intField(
  c: Collector,
  values: FormValues,
  block: string,
  [min, max]: readonly [number, number],
  field: NumberField,
  required: boolean,
): number | undefined {
  const raw = textOf(values, block).trim();
  const range = { field, min: String(min), max: String(max) };
  if (raw === '') {
    if (required) c.add(block, c.t.t('campaignForm.error.numberMissing', range));
    return undefined;
  }
  if (!/^-?\d+$/.test(raw)) {
    c.add(block, c.t.t('campaignForm.error.notANumber', { ...range, raw: raw.slice(0, 20) }));
    return undefined;
  }
  const n = Number(raw);
  if (n < min || n > max) {
    c.add(block, c.t.t('campaignForm.error.outOfRange', { field, min, max, n: String(n) }));
    return undefined;
  }
  return n;
}

/** A weekly schedule from its 15 blocks; undefined when no day has times. */
function weekField(c: Collector, values: FormValues, prefix: WeekPrefix): Schedule | undefined {
  const on = new Set(listOf(values, daysBlock(prefix)));
  const out: Schedule = {};
  for (const day of DAYS) {
    const startBlock = timeBlock(prefix, day, 'startTime');
    const stopBlock = timeBlock(prefix, day, 'stopTime');
    let start = textOf(values, startBlock).trim();
    let stop = textOf(values, stopBlock).trim();
    const name = c.t.t(DAY_NAMES[day]);
    for (const [time, block] of [
      [start, startBlock],
      [stop, stopBlock],
    ] as const) {
      if (time && !SCHEDULE_TIME_PATTERN.test(time)) {
        c.add(block, c.t.t('campaignForm.error.notATime', { raw: time.slice(0, 10) }));
      }
    }
    start = SCHEDULE_TIME_PATTERN.test(start) ? normalizeScheduleTime(start) : '';
    stop = SCHEDULE_TIME_PATTERN.test(stop) ? normalizeScheduleTime(stop) : '';
    if (on.has(day)) {
      if (!start) c.add(startBlock, c.t.t('campaignForm.error.dayNoStart', { day: name }));
      if (!stop) c.add(stopBlock, c.t.t('campaignForm.error.dayNoStop', { day: name }));
    }
    if (start && stop) {
      if (start >= stop) {
        c.add(stopBlock, c.t.t('campaignForm.error.stopBeforeStart', { day: name, start, stop }));
        continue;
      }
      // A day that is off but has times is sent as off, so an edit can turn a day off and keep its hours.
      out[day] = { startTime: start, stopTime: stop, active: on.has(day) };
    }
  }
  return Object.keys(out).length ? out : undefined;
}

function dateField(c: Collector, values: FormValues, block: string): string | undefined {
  const d = textOf(values, block).trim();
  if (!d) return undefined;
  if (!CYCLE_DATE_PATTERN.test(d) || Number.isNaN(Date.parse(`${d}T00:00:00Z`))) {
    c.add(block, c.t.t('campaignForm.error.notADate', { raw: d.slice(0, 20) }));
    return undefined;
  }
  return d;
}

/** Tag ids typed separated by commas, spaces or new lines; duplicates dropped. */
export function parseTagIds(raw: string): string[] {
  return [
    ...new Set(
      raw
        .split(/[\s,;]+/)
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
}

function tagsField(c: Collector, values: FormValues): string[] | undefined {
  const raw = textOf(values, FORM_BLOCKS.filterTags);
  if (!raw.trim()) return undefined;
  const tags = parseTagIds(raw);
  const bad = tags.find((t) => t.length > 100);
  if (bad) {
    c.add(FORM_BLOCKS.filterTags, c.t.t('campaignForm.error.tagTooLong', { raw: bad.slice(0, 30) }));
    return undefined;
  }
  return tags;
}

function statusesField(c: Collector, values: FormValues): string[] {
  const chosen = listOf(values, FORM_BLOCKS.filterStatuses);
  const bad = chosen.filter((s) => !(PHONE_CONTACT_STATUSES as readonly string[]).includes(s));
  if (bad.length) {
    c.add(
      FORM_BLOCKS.filterStatuses,
      c.t.t('campaignForm.error.notAContactStatus', {
        count: bad.length,
        raw: bad.join(', '),
        statuses: PHONE_CONTACT_STATUSES.join(', '),
      }),
    );
  }
  return chosen.filter((s) => !bad.includes(s));
}

/** Cycles fields other than enabled/mode. `scheduled` decides whether the schedule and dates are read at all. */
function cyclesSettings(c: Collector, values: FormValues, scheduled: boolean): Omit<CyclesInput, 'enabled' | 'mode'> {
  const out: Omit<CyclesInput, 'enabled' | 'mode'> = {};
  const max = intField(c, values, FORM_BLOCKS.maxIterations, MAX_ITERATIONS_RANGE, 'rounds', false);
  if (max !== undefined) out.max_iterations = max;
  const cool = intField(c, values, FORM_BLOCKS.cooldownMinutes, COOLDOWN_RANGE, 'cooldown', false);
  if (cool !== undefined) out.cooldown_minutes = cool;
  const statuses = statusesField(c, values);
  if (statuses.length) out.filter_statuses = statuses;
  const tags = tagsField(c, values);
  if (tags) out.filter_tags = tags;
  if (scheduled) {
    const schedule = weekField(c, values, 'cycles.schedule');
    if (schedule) out.schedule = schedule;
    const start = dateField(c, values, FORM_BLOCKS.cyclesStartDate);
    const end = dateField(c, values, FORM_BLOCKS.cyclesEndDate);
    if (start) out.schedule_start_date = start;
    if (end) out.schedule_end_date = end;
    if (start && end && start > end) {
      c.add(FORM_BLOCKS.cyclesEndDate, c.t.t('campaignForm.error.endBeforeStart', { start, end }));
    }
  }
  return out;
}

function nameField(c: Collector, values: FormValues): string | undefined {
  const name = textOf(values, FORM_BLOCKS.name).trim();
  if (!name) {
    c.add(FORM_BLOCKS.name, c.t.t('campaignForm.error.nameMissing'));
    return undefined;
  }
  if (name.length > NAME_MAX) {
    c.add(FORM_BLOCKS.name, c.t.t('campaignForm.error.nameTooLong', { length: name.length, max: NAME_MAX }));
    return undefined;
  }
  return name;
}

function timezoneField(c: Collector, values: FormValues, required: boolean): string | undefined {
  const tz = textOf(values, FORM_BLOCKS.timezone).trim();
  if (!tz) {
    if (required) c.add(FORM_BLOCKS.timezone, c.t.t('campaignForm.error.timezoneMissing'));
    return undefined;
  }
  if (!isValidTimeZone(tz)) {
    c.add(FORM_BLOCKS.timezone, c.t.t('campaignForm.error.unknownTimezone', { raw: tz.slice(0, 60) }));
    return undefined;
  }
  return tz;
}

function chosenId(
  c: Collector,
  values: FormValues,
  selectBlock: string,
  typedBlock: string,
  what: 'agent' | 'integration',
): string {
  const picked = textOf(values, selectBlock).trim();
  const typed = textOf(values, typedBlock).trim();
  if (picked && typed && picked !== typed) {
    c.add(typedBlock, c.t.t('campaignForm.error.pickedAndTyped', { what, picked, typed: typed.slice(0, 60) }));
  }
  return typed || picked;
}

/** Validates a new campaign's form; the API body when everything holds. */
export function validateCreate(
  values: FormValues,
  ctx: FormContext,
  t: Translator = ENGLISH,
): { ok: true; input: CreateCampaignInput } | { ok: false; errors: FormErrors } {
  const c = new Collector(t);
  const channel = channelOf(values);
  if (!channel) c.add(FORM_BLOCKS.channel, t.t('campaignForm.error.channelMissing'));
  const name = nameField(c, values);

  const agentBlock = agentBlockOf(values, ctx.visible);
  const integrationBlock = integrationBlockOf(values, ctx.visible);
  const agentId = chosenId(c, values, FORM_BLOCKS.agent, FORM_BLOCKS.agentTyped, 'agent');
  const integrationId = chosenId(c, values, FORM_BLOCKS.integration, FORM_BLOCKS.integrationTyped, 'integration');
  if (!agentId) c.add(agentBlock, t.t('campaignForm.error.agentMissing'));
  else if (!UUID.test(agentId)) {
    c.add(agentBlock, t.t('campaignForm.error.notAnAgentId', { raw: agentId.slice(0, 60) }));
  }
  if (!integrationId) c.add(integrationBlock, t.t('campaignForm.error.integrationMissing'));
  else {
    const owner = ctx.directory.agents.find((a) => a.integrations.some((i) => i.id === integrationId));
    const known = owner?.integrations.find((i) => i.id === integrationId);
    const agentKnown = ctx.directory.agents.find((a) => a.id === agentId);
    if (owner && agentId && owner.id !== agentId && agentKnown?.integrations.every((i) => i.id !== integrationId)) {
      c.add(
        integrationBlock,
        t.t('campaignForm.error.otherAgentsIntegration', { integration: integrationId, agent: owner.name ?? owner.id }),
      );
    } else if (known && channel && known.type !== channel) {
      c.add(
        integrationBlock,
        t.t('campaignForm.error.integrationChannel', { integration: integrationId, type: known.type, channel }),
      );
    }
  }

  const timezone = timezoneField(c, values, false);
  const retries = intField(c, values, FORM_BLOCKS.retries, RETRIES_RANGE, 'retries', false);
  const messageLimit = intField(c, values, FORM_BLOCKS.messageLimit, MESSAGE_LIMIT_RANGE, 'messageLimit', false);
  const description = textOf(values, FORM_BLOCKS.description).trim();
  const scheduling = weekField(c, values, 'scheduling');

  let cycles: CyclesInput | undefined;
  if (channel === 'phone_call' && cyclesOn(values)) {
    const mode = cyclesModeOf(values);
    cycles = { enabled: true, mode, ...cyclesSettings(c, values, mode === 'scheduled') };
  }

  if (!c.ok || !channel || !name) return { ok: false, errors: c.errors };
  const input: CreateCampaignInput = {
    name,
    agent_id: agentId,
    integration_id: integrationId,
    integration_type: channel,
  };
  if (description) input.description = description;
  if (timezone) input.timezone = timezone;
  if (retries !== undefined) input.retries = retries;
  if (messageLimit !== undefined) input.message_limit = messageLimit;
  // Channel-exclusive fields are only ever read for their own channel.
  if (channel === 'phone_call') {
    const first = textOf(values, FORM_BLOCKS.firstMessage);
    if (first.trim()) input.first_message = first.trim();
  } else {
    const template = textOf(values, FORM_BLOCKS.template).trim();
    const alt = textOf(values, FORM_BLOCKS.templateAlt).trim();
    if (template) input.template = template;
    if (alt) input.template_alt = alt;
  }
  if (scheduling) input.scheduling = scheduling;
  if (cycles) input.cycles = cycles;
  return { ok: true, input };
}

// ---------------------------------------------------------------------------------------------------------------
// Edit: which fields changed

function weekBlocks(prefix: WeekPrefix): string[] {
  return [
    daysBlock(prefix),
    ...DAYS.flatMap((d) => [timeBlock(prefix, d, 'startTime'), timeBlock(prefix, d, 'stopTime')]),
  ];
}

/** The editable API fields of a campaign and the blocks each is made of. */
function editableFields(fixed: FixedSettings): Record<string, string[]> {
  const f: Record<string, string[]> = {
    name: [FORM_BLOCKS.name],
    description: [FORM_BLOCKS.description],
    timezone: [FORM_BLOCKS.timezone],
    retries: [FORM_BLOCKS.retries],
    message_limit: [FORM_BLOCKS.messageLimit],
  };
  if (fixed.channel === 'phone_call') f.first_message = [FORM_BLOCKS.firstMessage];
  if (fixed.channel === 'whatsapp') {
    f.template = [FORM_BLOCKS.template];
    f.template_alt = [FORM_BLOCKS.templateAlt];
  }
  f.scheduling = weekBlocks('scheduling');
  if (fixed.channel === 'phone_call' && fixed.cyclesEnabled) {
    f['cycles.max_iterations'] = [FORM_BLOCKS.maxIterations];
    f['cycles.cooldown_minutes'] = [FORM_BLOCKS.cooldownMinutes];
    f['cycles.filter_statuses'] = [FORM_BLOCKS.filterStatuses];
    f['cycles.filter_tags'] = [FORM_BLOCKS.filterTags];
    if (fixed.cyclesMode === 'scheduled') {
      f['cycles.schedule'] = weekBlocks('cycles.schedule');
      f['cycles.schedule_start_date'] = [FORM_BLOCKS.cyclesStartDate];
      f['cycles.schedule_end_date'] = [FORM_BLOCKS.cyclesEndDate];
    }
  }
  return f;
}

function normalized(v: string | string[] | undefined): string | string[] | null {
  if (v === undefined) return null;
  if (Array.isArray(v)) return v.length ? [...v].sort() : null;
  return v.trim() === '' ? null : v.replace(/\r\n/g, '\n').trim();
}

/** Fingerprint of each editable field as the form holds it. */
export function fieldFingerprints(values: FormValues, fixed: FixedSettings): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, blocks] of Object.entries(editableFields(fixed))) {
    out[field] = fingerprint(blocks.map((b) => normalized(values[b])));
  }
  return out;
}

/**
 * Validates the fields the person changed and builds the PATCH body with those only. Immutable settings (agent,
 * integration, channel, cycles on/off and mode) are never part of it.
 */
export function validateEdit(
  values: FormValues,
  fixed: FixedSettings,
  initial: Record<string, string>,
  visible: ReadonlySet<string>,
  t: Translator = ENGLISH,
): { ok: true; patch: UpdateCampaignInput; changed: string[] } | { ok: false; errors: FormErrors } {
  const now = fieldFingerprints(values, fixed);
  const fields = editableFields(fixed);
  // A field the form did not show as inputs (a text too long for Slack) is never sent.
  const changed = Object.keys(now).filter(
    (f) => now[f] !== initial[f] && (fields[f] ?? []).every((b) => visible.has(b)),
  );
  const c = new Collector(t);
  const patch: UpdateCampaignInput = {};
  const cycles: NonNullable<UpdateCampaignInput['cycles']> = {};
  const has = (f: string) => changed.includes(f);

  if (has('name')) {
    const name = nameField(c, values);
    if (name) patch.name = name;
  }
  if (has('description')) patch.description = textOf(values, FORM_BLOCKS.description).trim();
  if (has('timezone')) {
    const tz = timezoneField(c, values, true);
    if (tz) patch.timezone = tz;
  }
  if (has('retries')) {
    const n = intField(c, values, FORM_BLOCKS.retries, RETRIES_RANGE, 'retries', true);
    if (n !== undefined) patch.retries = n;
  }
  if (has('message_limit')) {
    const n = intField(c, values, FORM_BLOCKS.messageLimit, MESSAGE_LIMIT_RANGE, 'messageLimit', true);
    if (n !== undefined) patch.message_limit = n;
  }
  if (has('first_message')) patch.first_message = textOf(values, FORM_BLOCKS.firstMessage).trim();
  if (has('template')) patch.template = textOf(values, FORM_BLOCKS.template).trim();
  if (has('template_alt')) patch.template_alt = textOf(values, FORM_BLOCKS.templateAlt).trim();
  // A schedule is sent whole: the days the form shows are the whole week (no days = runs any time).
  if (has('scheduling')) patch.scheduling = weekField(c, values, 'scheduling') ?? {};

  if (fixed.cyclesEnabled && fixed.channel === 'phone_call') {
    if (has('cycles.max_iterations')) {
      const n = intField(c, values, FORM_BLOCKS.maxIterations, MAX_ITERATIONS_RANGE, 'rounds', true);
      if (n !== undefined) cycles.max_iterations = n;
    }
    if (has('cycles.cooldown_minutes')) {
      const n = intField(c, values, FORM_BLOCKS.cooldownMinutes, COOLDOWN_RANGE, 'cooldown', true);
      if (n !== undefined) cycles.cooldown_minutes = n;
    }
    if (has('cycles.filter_statuses')) cycles.filter_statuses = statusesField(c, values);
    if (has('cycles.filter_tags')) {
      const tags = tagsField(c, values);
      // Tags are not shown back by the service: an empty field means "keep them", never "clear them".
      if (tags) cycles.filter_tags = tags;
    }
    if (fixed.cyclesMode === 'scheduled') {
      if (has('cycles.schedule')) cycles.schedule = weekField(c, values, 'cycles.schedule') ?? {};
      const start = has('cycles.schedule_start_date')
        ? (dateField(c, values, FORM_BLOCKS.cyclesStartDate) ?? null)
        : undefined;
      const end = has('cycles.schedule_end_date')
        ? (dateField(c, values, FORM_BLOCKS.cyclesEndDate) ?? null)
        : undefined;
      if (start !== undefined) cycles.schedule_start_date = start;
      if (end !== undefined) cycles.schedule_end_date = end;
      const s = dateField(new Collector(t), values, FORM_BLOCKS.cyclesStartDate);
      const e = dateField(new Collector(t), values, FORM_BLOCKS.cyclesEndDate);
      if ((start !== undefined || end !== undefined) && s && e && s > e) {
        c.add(FORM_BLOCKS.cyclesEndDate, t.t('campaignForm.error.endBeforeStart', { start: s, end: e }));
      }
    }
  }
  if (!c.ok) return { ok: false, errors: c.errors };
  if (Object.keys(cycles).length) patch.cycles = cycles;
  const sent = changed.filter((f) => f !== 'cycles.filter_tags' || cycles.filter_tags !== undefined);
  return { ok: true, patch, changed: sent };
}

// ---------------------------------------------------------------------------------------------------------------
// Service refusals -> blocks

const ERROR_TEXT_MAX = 300;

function clipText(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > ERROR_TEXT_MAX ? `${t.slice(0, ERROR_TEXT_MAX - 1)}…` : t;
}

/**
 * The input block that shows a service error about API field `path` (`name`, `scheduling.mon.startTime`,
 * `cycles.schedule`, `cycles.filter_statuses.0`), or undefined when the form shows no such input.
 */
export function blockForField(path: string, values: FormValues, visible: ReadonlySet<string>): string | undefined {
  const p = normalizeErrorFieldPath(path);
  if (p === 'agent_id') return visible.has(agentBlockOf(values, visible)) ? agentBlockOf(values, visible) : undefined;
  if (p === 'integration_id') {
    const b = integrationBlockOf(values, visible);
    return visible.has(b) ? b : undefined;
  }
  if (visible.has(p)) return p;
  const week =
    /^(scheduling|cycles\.schedule)(?:\.(mon|tue|wed|thu|fri|sat|sun))?(?:\.(startTime|stopTime|active))?/.exec(p);
  if (week && (p.length === week[0].length || p.charAt(week[0].length) === '.')) {
    const prefix = week[1] as WeekPrefix;
    const day = week[2] as Day | undefined;
    const which = week[3];
    let b: string;
    if (!day || which === 'active') b = daysBlock(prefix);
    else if (which === 'startTime') b = timeBlock(prefix, day, 'startTime');
    else b = timeBlock(prefix, day, 'stopTime');
    if (visible.has(b)) return b;
  }
  if (p === 'cycles') {
    if (visible.has(FORM_BLOCKS.cyclesEnabled)) return FORM_BLOCKS.cyclesEnabled;
    return [...visible].find((b) => b.startsWith('cycles.'));
  }
  // `cycles.filter_statuses.0` -> `cycles.filter_statuses`
  const parts = p.split('.');
  for (let n = parts.length - 1; n > 0; n--) {
    const prefix = parts.slice(0, n).join('.');
    if (visible.has(prefix)) return prefix;
  }
  return undefined;
}

export interface MappedServiceError {
  /** block_id -> message, for `response_action: errors`. */
  errors: FormErrors;
  /** Sentences no block can show (for an error view). */
  general: string[];
}

/** Where each part of a service refusal goes: under its block when the form shows one, else in an error view. */
export function mapServiceError(
  err: unknown,
  values: FormValues,
  visible: ReadonlySet<string>,
  t: Translator = ENGLISH,
): MappedServiceError {
  const errors: FormErrors = {};
  const general: string[] = [];
  const place = (field: string | undefined, message: string) => {
    const block = field ? blockForField(field, values, visible) : undefined;
    if (block) {
      errors[block] = errors[block] ? clipText(`${errors[block]} ${message}`) : clipText(message);
    } else {
      general.push(field ? `${field}: ${message}` : message);
    }
  };
  if (!(err instanceof OutreachError) || err.kind !== 'service') {
    return { errors, general: [serviceErrorText(err, t)] };
  }
  const sentence = serviceErrorText(err, t);
  switch (err.key) {
    case 'AGENT_NOT_FOUND':
      place(err.field ?? 'agent_id', sentence);
      return { errors, general };
    case 'INTEGRATION_NOT_FOUND':
      place(err.field ?? 'integration_id', sentence);
      return { errors, general };
    case 'INVALID_INTEGRATION_TYPE':
      place(err.field ?? 'integration_type', sentence);
      return { errors, general };
    case 'INVALID_FILTER_TAG':
      place(err.field ?? 'cycles.filter_tags', err.serviceMessage ?? sentence);
      return { errors, general };
    case 'CYCLES_NOT_ENABLED':
      place(err.field ?? 'cycles', err.serviceMessage ?? sentence);
      return { errors, general };
    case 'SCHEDULED_MODE_ONLY':
      place(err.field ?? 'cycles.mode', err.serviceMessage ?? sentence);
      return { errors, general };
    case 'BILLING_LIMIT_REACHED':
    case 'CAMPAIGN_FINISHED':
      general.push(sentence);
      return { errors, general };
    default:
      break;
  }
  // Both shapes: the campaign envelope's `field` + message, and the validation body's fields.
  const { fields, nonField } = fieldErrorsOf(err, sentence);
  for (const [field, messages] of Object.entries(fields)) place(field, messages.join(' '));
  if (nonField.length) place(undefined, nonField.join(' '));
  if (Object.keys(errors).length === 0 && general.length === 0) general.push(sentence);
  return { errors, general };
}
