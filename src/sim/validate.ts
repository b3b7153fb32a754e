/**
 * Validation of campaign create/update bodies and of query parameters, in the order the simulator applies it:
 * types and ranges first (400 campaign envelope `INVALID_REQUEST` whose `field` names the first bad field), then the
 * rules with their own error keys (INVALID_INTEGRATION_TYPE, INVALID_REQUEST for channel-exclusive fields,
 * IMMUTABLE_FIELD, CYCLES_NOT_ENABLED, SCHEDULED_MODE_ONLY, INVALID_STATUS, INVALID_FILTER_TAG). The validation body
 * (`{field: [...], non_field_errors}`) is the contacts endpoint's shape only (spec, Errors); see contacts.ts.
 */
import { CHANNEL_TYPES, DAYS, PHONE_CONTACT_STATUSES, type ChannelType, type Schedule } from '../outreach/schemas.js';
import {
  CYCLE_DATE_PATTERN,
  DEFAULT_CYCLES_MODE,
  DEFAULT_TIMEZONE,
  SCHEDULE_TIME_PATTERN,
} from '../outreach/unspecified.js';
import { campaignError, Issues, nonFieldError } from './errors.js';
import type { CampaignRec, CampaignSettings, CyclesRec } from './model.js';

const NAME_MAX = 255;
const RETRIES_RANGE = [0, 5] as const;
const MESSAGE_LIMIT_RANGE = [1, 10000] as const;
const MAX_ITERATIONS_RANGE = [2, 12] as const;
const COOLDOWN_MINUTES_RANGE = [0, 1440] as const;
const DEFAULT_RETRIES = 1;
const DEFAULT_MESSAGE_LIMIT = 250;
/** Cycles defaults when enabled without them (not shown by the spec; our choice). */
const DEFAULT_MAX_ITERATIONS = 2;
const DEFAULT_COOLDOWN_MINUTES = 60;

export type Obj = Record<string, unknown>;

export function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Present and not null: the simulator treats an explicit `null` like an absent field. */
function given(o: Obj, key: string): boolean {
  return o[key] !== undefined && o[key] !== null;
}

/** The request body as an object, or 400 validation body (malformed JSON, array, empty): the contacts shape. */
export function requireObjectBody(body: unknown): Obj {
  if (body instanceof InvalidJson) throw nonFieldError(`Malformed JSON body: ${body.message}`);
  if (body === undefined) throw nonFieldError('No data provided: send a JSON object body.');
  if (!isObject(body)) throw nonFieldError('Invalid data: expected a JSON object.');
  return body;
}

/** The body of a campaign create/update as an object, or 400 campaign envelope `INVALID_REQUEST` (no `field`). */
function requireCampaignBody(body: unknown): Obj {
  if (body instanceof InvalidJson) throw campaignError('INVALID_REQUEST', `Malformed JSON body: ${body.message}`);
  if (body === undefined) throw campaignError('INVALID_REQUEST', 'No data provided: send a JSON object body.');
  if (!isObject(body)) throw campaignError('INVALID_REQUEST', 'Invalid data: expected a JSON object.');
  return body;
}

/** Marker for a body that is not valid JSON (kept so each route decides which error shape to answer). */
export class InvalidJson {
  constructor(readonly message: string) {}
}

/** Canonical IANA name (e.g. `America/Mexico_City`) or null when Intl does not know the zone. */
function canonicalTimeZone(tz: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(tz)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

function checkString(o: Obj, key: string, path: string, issues: Issues, opts: { required?: boolean; max?: number }) {
  const v = o[key];
  if (v === undefined || v === null) {
    if (opts.required) issues.add(path, 'This field is required.');
    return;
  }
  if (typeof v !== 'string') return issues.add(path, 'Not a valid string.');
  if (opts.required && v.trim() === '') return issues.add(path, 'This field may not be blank.');
  if (opts.max !== undefined && v.length > opts.max)
    issues.add(path, `Ensure this field has no more than ${opts.max} characters (it has ${v.length}).`);
}

function checkInt(o: Obj, key: string, path: string, issues: Issues, [min, max]: readonly [number, number]) {
  const v = o[key];
  if (v === undefined || v === null) return;
  if (typeof v !== 'number' || !Number.isInteger(v)) return issues.add(path, 'A valid integer is required.');
  if (v < min || v > max) issues.add(path, `Ensure this value is between ${min} and ${max} (got ${v}).`);
}

function checkStringArray(o: Obj, key: string, path: string, issues: Issues) {
  const v = o[key];
  if (v === undefined || v === null) return;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
    issues.add(path, 'Expected a list of strings, e.g. ["voicemail", "converted"].');
}

function checkTimeZone(o: Obj, issues: Issues) {
  const v = o.timezone;
  if (v === undefined || v === null) return;
  if (typeof v !== 'string') return issues.add('timezone', 'Not a valid string.');
  if (canonicalTimeZone(v) === null)
    issues.add('timezone', `Unknown time zone "${v}": use an IANA name such as America/Mexico_City.`);
}

/** Validates a Schedule (day keys mon..sun, each {startTime, stopTime, active}); errors under `path`. */
function checkSchedule(v: unknown, path: string, issues: Issues): void {
  if (v === undefined || v === null) return;
  if (!isObject(v)) return issues.add(path, 'Expected an object whose keys are days (mon, tue, ..., sun).');
  for (const [day, spec] of Object.entries(v)) {
    const at = `${path}.${day}`;
    if (!(DAYS as readonly string[]).includes(day)) {
      issues.add(at, `Unknown day "${day}": use mon, tue, wed, thu, fri, sat or sun.`);
      continue;
    }
    if (!isObject(spec)) {
      issues.add(at, 'Expected {startTime, stopTime, active}.');
      continue;
    }
    let times = 0;
    for (const k of ['startTime', 'stopTime'] as const) {
      const t = spec[k];
      if (t === undefined || t === null) issues.add(`${at}.${k}`, 'This field is required.');
      else if (typeof t !== 'string' || !SCHEDULE_TIME_PATTERN.test(t))
        issues.add(`${at}.${k}`, `Invalid time ${JSON.stringify(t)}: use 24-hour HH:MM, e.g. 09:00.`);
      else times++;
    }
    if (typeof spec.active !== 'boolean') issues.add(`${at}.active`, 'Must be true or false.');
    if (times === 2 && String(spec.startTime).slice(0, 8) >= String(spec.stopTime).slice(0, 8))
      issues.add(at, 'startTime must be earlier than stopTime.');
  }
}

function checkDate(o: Obj, key: string, path: string, issues: Issues) {
  const v = o[key];
  if (v === undefined || v === null) return;
  if (typeof v !== 'string' || !CYCLE_DATE_PATTERN.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`)))
    issues.add(path, `Invalid date ${JSON.stringify(v)}: use YYYY-MM-DD.`);
}

/** Type and range checks of the cycles fields other than `enabled`/`mode`. */
function checkCyclesFields(c: Obj, issues: Issues) {
  checkInt(c, 'max_iterations', 'cycles.max_iterations', issues, MAX_ITERATIONS_RANGE);
  checkInt(c, 'cooldown_minutes', 'cycles.cooldown_minutes', issues, COOLDOWN_MINUTES_RANGE);
  checkStringArray(c, 'filter_statuses', 'cycles.filter_statuses', issues);
  checkStringArray(c, 'filter_tags', 'cycles.filter_tags', issues);
  checkSchedule(c.schedule, 'cycles.schedule', issues);
  checkDate(c, 'schedule_start_date', 'cycles.schedule_start_date', issues);
  checkDate(c, 'schedule_end_date', 'cycles.schedule_end_date', issues);
  if (
    typeof c.schedule_start_date === 'string' &&
    typeof c.schedule_end_date === 'string' &&
    CYCLE_DATE_PATTERN.test(c.schedule_start_date) &&
    CYCLE_DATE_PATTERN.test(c.schedule_end_date) &&
    c.schedule_start_date > c.schedule_end_date
  )
    issues.add('cycles.schedule_end_date', 'schedule_end_date must not be before schedule_start_date.');
}

/** The rules of cycles with their own error keys (after the type checks passed). */
function checkCyclesRules(c: Obj, mode: string) {
  if (mode === 'cooldown') {
    for (const k of ['schedule', 'schedule_start_date', 'schedule_end_date']) {
      if (given(c, k))
        throw campaignError(
          'SCHEDULED_MODE_ONLY',
          `cycles.${k} applies only when cycles.mode is "scheduled"; this campaign's mode is "cooldown". Remove it.`,
          { field: `cycles.${k}` },
        );
    }
  }
  if (Array.isArray(c.filter_statuses)) {
    const bad = (c.filter_statuses as string[]).filter(
      (s) => !(PHONE_CONTACT_STATUSES as readonly string[]).includes(s),
    );
    if (bad.length > 0)
      throw campaignError(
        'INVALID_STATUS',
        `Unknown contact status ${bad.map((s) => JSON.stringify(s)).join(', ')} in cycles.filter_statuses; use ${PHONE_CONTACT_STATUSES.join(', ')}.`,
        { field: 'cycles.filter_statuses' },
      );
  }
  if (Array.isArray(c.filter_tags) && (c.filter_tags as string[]).some((t) => t.trim() === ''))
    throw campaignError('INVALID_FILTER_TAG', 'cycles.filter_tags holds an empty tag id; give thread tag ids.', {
      field: 'cycles.filter_tags',
    });
}

function channelExclusive(o: Obj, type: ChannelType) {
  const foreign = type === 'whatsapp' ? ['first_message'] : ['template', 'template_alt'];
  for (const f of foreign) {
    if (given(o, f))
      throw campaignError(
        'INVALID_REQUEST',
        `${f} is not allowed for ${type} campaigns (${type === 'whatsapp' ? 'phone_call' : 'WhatsApp'} only). Remove it.`,
        { field: f },
      );
  }
}

/** A campaign's settings as created (the stored record's, CampaignSettings), and its agent and integration. */
export interface CreateCampaignFields extends CampaignSettings {
  agent_id: string;
  integration_id: string;
  integration_type: ChannelType;
}

function disabledCycles(): CyclesRec {
  return {
    enabled: false,
    mode: null,
    max_iterations: null,
    cooldown_minutes: null,
    filter_statuses: [],
    filter_tags: [],
    schedule: null,
    schedule_start_date: null,
    schedule_end_date: null,
  };
}

/**
 * The settings a campaign is created with and may change (POST and PATCH /campaigns), in the order of the spec's
 * body table: the first problem is the one the envelope names.
 */
function checkSettings(o: Record<string, unknown>, issues: Issues): void {
  checkString(o, 'description', 'description', issues, {});
  checkTimeZone(o, issues);
  checkInt(o, 'retries', 'retries', issues, RETRIES_RANGE);
  checkInt(o, 'message_limit', 'message_limit', issues, MESSAGE_LIMIT_RANGE);
  for (const f of ['first_message', 'template', 'template_alt']) checkString(o, f, f, issues, {});
  checkSchedule(o.scheduling, 'scheduling', issues);
}

/** Parses a POST /campaigns body (throws SimError). Agent/integration existence is checked by the route. */
export function parseCreateCampaign(body: unknown): CreateCampaignFields {
  const o = requireCampaignBody(body);
  const issues = new Issues();
  checkString(o, 'name', 'name', issues, { required: true, max: NAME_MAX });
  checkString(o, 'agent_id', 'agent_id', issues, { required: true });
  checkString(o, 'integration_id', 'integration_id', issues, { required: true });
  checkString(o, 'integration_type', 'integration_type', issues, { required: true });
  checkSettings(o, issues);
  const c = o.cycles;
  let cyclesOn = false;
  if (given(o, 'cycles')) {
    if (!isObject(c)) issues.add('cycles', 'Expected an object.');
    else {
      if (c.enabled !== undefined && c.enabled !== null && typeof c.enabled !== 'boolean')
        issues.add('cycles.enabled', 'Must be true or false.');
      cyclesOn = c.enabled === true;
      // When cycles are off the rest of the block is ignored (spec).
      if (cyclesOn) {
        if (given(c, 'mode') && c.mode !== 'cooldown' && c.mode !== 'scheduled')
          issues.add('cycles.mode', `"${String(c.mode)}" is not a valid choice: use cooldown or scheduled.`);
        checkCyclesFields(c, issues);
      }
    }
  }
  issues.throwIfAnyAsCampaignError();

  const type = o.integration_type as string;
  if (!(CHANNEL_TYPES as readonly string[]).includes(type))
    throw campaignError(
      'INVALID_INTEGRATION_TYPE',
      `Unsupported integration_type "${type}": use phone_call or whatsapp.`,
      { field: 'integration_type' },
    );
  const integrationType = type as ChannelType;
  channelExclusive(o, integrationType);

  let cycles = disabledCycles();
  if (cyclesOn && isObject(c)) {
    if (integrationType !== 'phone_call')
      throw campaignError('INVALID_REQUEST', 'Cycles apply to phone_call campaigns only; remove cycles.', {
        field: 'cycles',
      });
    const mode = (given(c, 'mode') ? c.mode : DEFAULT_CYCLES_MODE) as 'cooldown' | 'scheduled';
    checkCyclesRules(c, mode);
    cycles = {
      enabled: true,
      mode,
      max_iterations: (c.max_iterations as number | undefined) ?? DEFAULT_MAX_ITERATIONS,
      cooldown_minutes: (c.cooldown_minutes as number | undefined) ?? DEFAULT_COOLDOWN_MINUTES,
      filter_statuses: (c.filter_statuses as string[] | undefined) ?? [],
      filter_tags: (c.filter_tags as string[] | undefined) ?? [],
      schedule: (c.schedule as Schedule | undefined) ?? null,
      schedule_start_date: (c.schedule_start_date as string | undefined) ?? null,
      schedule_end_date: (c.schedule_end_date as string | undefined) ?? null,
    };
  }
  const str = (k: string) => (given(o, k) ? (o[k] as string) : null);
  return {
    name: o.name as string,
    agent_id: o.agent_id as string,
    integration_id: o.integration_id as string,
    integration_type: integrationType,
    description: str('description') ?? '',
    timezone: given(o, 'timezone') ? (canonicalTimeZone(o.timezone as string) as string) : DEFAULT_TIMEZONE,
    retries: (o.retries as number | undefined | null) ?? DEFAULT_RETRIES,
    message_limit: (o.message_limit as number | undefined | null) ?? DEFAULT_MESSAGE_LIMIT,
    first_message: str('first_message'),
    template: str('template'),
    template_alt: str('template_alt'),
    scheduling: (o.scheduling as Schedule | undefined | null) ?? {},
    cycles,
  };
}

const IMMUTABLE_TOP = ['agent_id', 'integration_id', 'integration_type'] as const;
const IMMUTABLE_CYCLES = ['enabled', 'mode'] as const;

/**
 * Parses a PATCH /campaigns/{id} body against the campaign and returns the function that applies it. Any presence
 * of an immutable field is IMMUTABLE_FIELD, even with the current value (the strict reading of "changing").
 */
export function parsePatchCampaign(body: unknown, campaign: CampaignRec): (c: CampaignRec) => void {
  const o = requireCampaignBody(body);
  for (const f of IMMUTABLE_TOP) {
    if (f in o)
      throw campaignError('IMMUTABLE_FIELD', `${f} cannot be changed after creation; create a new campaign instead.`, {
        field: f,
      });
  }
  const c = o.cycles;
  if (isObject(c)) {
    for (const f of IMMUTABLE_CYCLES) {
      if (f in c)
        throw campaignError(
          'IMMUTABLE_FIELD',
          `cycles.${f} cannot be changed after creation (cycles can only be enabled when the campaign is created).`,
          { field: `cycles.${f}` },
        );
    }
  }
  const issues = new Issues();
  checkString(o, 'name', 'name', issues, { max: NAME_MAX });
  if (typeof o.name === 'string' && o.name.trim() === '') issues.add('name', 'This field may not be blank.');
  checkSettings(o, issues);
  if (given(o, 'cycles')) {
    if (!isObject(c)) issues.add('cycles', 'Expected an object.');
    else checkCyclesFields(c, issues);
  }
  issues.throwIfAnyAsCampaignError();

  channelExclusive(o, campaign.integrationType);
  const cyclesPatch = isObject(c) && Object.keys(c).length > 0 ? c : null;
  if (cyclesPatch) {
    if (!campaign.cycles.enabled)
      throw campaignError(
        'CYCLES_NOT_ENABLED',
        'This campaign was created without cycles; cycles can only be enabled at creation.',
        { field: 'cycles' },
      );
    checkCyclesRules(cyclesPatch, campaign.cycles.mode ?? DEFAULT_CYCLES_MODE);
  }

  return (target) => {
    if (given(o, 'name')) target.name = o.name as string;
    if (given(o, 'description')) target.description = o.description as string;
    if (given(o, 'timezone')) target.timezone = canonicalTimeZone(o.timezone as string) as string;
    if (given(o, 'retries')) target.retries = o.retries as number;
    if (given(o, 'message_limit')) target.message_limit = o.message_limit as number;
    // A new scheduling replaces the whole weekly schedule.
    if ('scheduling' in o) target.scheduling = (o.scheduling as Schedule | null) ?? {};
    for (const f of ['first_message', 'template', 'template_alt'] as const) if (given(o, f)) target[f] = o[f] as string;
    if (cyclesPatch) {
      const t = target.cycles;
      if (given(cyclesPatch, 'max_iterations')) t.max_iterations = cyclesPatch.max_iterations as number;
      if (given(cyclesPatch, 'cooldown_minutes')) t.cooldown_minutes = cyclesPatch.cooldown_minutes as number;
      if (given(cyclesPatch, 'filter_statuses')) t.filter_statuses = cyclesPatch.filter_statuses as string[];
      if (given(cyclesPatch, 'filter_tags')) t.filter_tags = cyclesPatch.filter_tags as string[];
      if ('schedule' in cyclesPatch) t.schedule = (cyclesPatch.schedule as Schedule | null) ?? null;
      if ('schedule_start_date' in cyclesPatch)
        t.schedule_start_date = (cyclesPatch.schedule_start_date as string | null) ?? null;
      if ('schedule_end_date' in cyclesPatch)
        t.schedule_end_date = (cyclesPatch.schedule_end_date as string | null) ?? null;
    }
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Query parameters

/** A date filter value: `YYYY-MM-DD` (a whole UTC day) or an ISO 8601 date-time (an instant). */
export interface DateBound {
  /** The instant the value names (midnight UTC for a date). */
  at: number;
  /** For a date: midnight UTC of the next day (so "on or before" covers the whole day). */
  endOfDay: number;
  dateOnly: boolean;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

function parseDateBound(value: string): DateBound | null {
  if (DATE_ONLY.test(value)) {
    const at = Date.parse(`${value}T00:00:00Z`);
    if (Number.isNaN(at) || new Date(at).toISOString().slice(0, 10) !== value) return null;
    return { at, endOfDay: at + 86_400_000, dateOnly: true };
  }
  if (DATE_TIME.test(value)) {
    const at = Date.parse(value);
    if (Number.isNaN(at)) return null;
    return { at, endOfDay: at, dateOnly: false };
  }
  return null;
}

/** An integer query parameter within [min, max], `fallback` when absent; 400 INVALID_REQUEST naming it otherwise. */
export function intParam(q: URLSearchParams, name: string, [min, max]: readonly [number, number], fallback: number) {
  const raw = q.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw campaignError('INVALID_REQUEST', `${name} must be an integer from ${min} to ${max} (got "${raw}").`, {
      field: name,
    });
  return Number(raw);
}

export function boolParam(q: URLSearchParams, name: string): boolean {
  const raw = q.get(name);
  if (raw === null || raw === '') return false;
  if (['true', '1'].includes(raw.toLowerCase())) return true;
  if (['false', '0'].includes(raw.toLowerCase())) return false;
  throw campaignError('INVALID_REQUEST', `${name} must be true or false (got "${raw}").`, { field: name });
}

export function dateParam(q: URLSearchParams, name: string): DateBound | null {
  const raw = q.get(name);
  if (raw === null || raw === '') return null;
  const b = parseDateBound(raw);
  if (!b)
    throw campaignError(
      'INVALID_REQUEST',
      `${name} "${raw}" is not a date: use YYYY-MM-DD or an ISO 8601 date-time (2026-03-01T00:00:00Z).`,
      { field: name },
    );
  return b;
}

export function enumParam<T extends string>(
  q: URLSearchParams,
  name: string,
  values: readonly T[],
  key: 'INVALID_STATUS' | 'INVALID_REQUEST' | 'INVALID_INTEGRATION_TYPE',
): T | null {
  const raw = q.get(name);
  if (raw === null || raw === '') return null;
  if (!(values as readonly string[]).includes(raw))
    throw campaignError(key, `${name} "${raw}" is not valid: use one of ${values.join(', ')}.`, { field: name });
  return raw as T;
}
