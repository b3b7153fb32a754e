/**
 * Errors of the Campaign Outreach Service client, and the sentences shown to people for them.
 *
 * `OutreachError.message` is technical (for logs): it names the endpoint template (never a URL, never the API key).
 * `humanMessage(err)` is one plain-text sentence for a person; it is not escaped for Slack mrkdwn (the Slack layer
 * escapes everything it posts).
 */
import { ERROR_KEYS, type ErrorKey, type LifecycleAction } from './schemas.js';
import { actionForTarget, normalizeErrorFieldPath } from './unspecified.js';

export type OutreachErrorKind = 'service' | 'network' | 'timeout' | 'protocol';

/** What a request was about, so a 404 or a refusal can name it. */
export interface ErrorSubject {
  what: 'campaign' | 'campaigns' | 'contact' | 'contacts' | 'calls' | 'call' | 'thread' | 'end user' | 'message';
  id?: string | number;
  campaignId?: number;
  agentId?: string;
  integrationId?: string;
}

export interface OutreachErrorInit {
  kind: OutreachErrorKind;
  /** Endpoint template, e.g. 'POST /campaigns/{id}/activate'. */
  endpoint: string;
  /** Technical detail appended to the message (already redacted). */
  detail?: string;
  status?: number;
  key?: ErrorKey | string;
  serviceMessage?: string;
  field?: string;
  currentStatus?: string;
  validTargets?: string[];
  fieldErrors?: Record<string, string[]>;
  retryAfterSeconds?: number;
  action?: LifecycleAction;
  subject?: ErrorSubject;
  /** Low-level error code for network errors (ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT, ...). */
  code?: string;
  /**
   * For network/timeout errors of requests that change something: true when the request may have reached the
   * service (so it may have been applied), false when it certainly did not (connection never established).
   */
  mayHaveBeenApplied?: boolean;
  attempts?: number;
  cause?: unknown;
}

export class OutreachError extends Error {
  override readonly name = 'OutreachError';
  readonly kind: OutreachErrorKind;
  readonly endpoint: string;
  readonly status?: number;
  /** The campaign envelope's `error` key (upper snake case). */
  readonly key?: ErrorKey | string;
  /** The service's own `message`, redacted and trimmed. External text: escape before showing in Slack. */
  readonly serviceMessage?: string;
  /**
   * The campaign envelope's `field`, as sent: the offending field path (IMMUTABLE_FIELD; INVALID_REQUEST for an
   * invalid field). `fieldErrorsOf` gives it normalized, together with a validation body's fields.
   */
  readonly field?: string;
  /** INVALID_STATUS_TRANSITION: the campaign's status and where it can go. */
  readonly currentStatus?: string;
  readonly validTargets?: string[];
  /** Validation body: field name -> messages (including `non_field_errors`). */
  readonly fieldErrors?: Record<string, string[]>;
  readonly retryAfterSeconds?: number;
  readonly action?: LifecycleAction;
  readonly subject?: ErrorSubject;
  readonly code?: string;
  readonly mayHaveBeenApplied?: boolean;
  /** How many attempts were made before giving up (1 = no retry). */
  attempts?: number;

  constructor(init: OutreachErrorInit) {
    super(technicalMessage(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.endpoint = init.endpoint;
    this.status = init.status;
    this.key = init.key;
    this.serviceMessage = init.serviceMessage;
    this.field = init.field;
    this.currentStatus = init.currentStatus;
    this.validTargets = init.validTargets;
    this.fieldErrors = init.fieldErrors;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.action = init.action;
    this.subject = init.subject;
    this.code = init.code;
    this.mayHaveBeenApplied = init.mayHaveBeenApplied;
    this.attempts = init.attempts;
  }
}

/** Input refused locally, before anything is sent. Its message is written for people. */
export class OutreachInputError extends Error {
  override readonly name = 'OutreachInputError';
}

export function isOutreachError(e: unknown): e is OutreachError {
  return e instanceof OutreachError;
}

function technicalMessage(i: OutreachErrorInit): string {
  switch (i.kind) {
    case 'service': {
      const parts = [`${i.endpoint} failed with HTTP ${i.status ?? '?'}`];
      if (i.key) parts.push(` ${i.key}`);
      if (i.field) parts.push(` (field ${i.field})`);
      if (i.currentStatus) parts.push(` (current status ${i.currentStatus})`);
      if (i.serviceMessage) parts.push(`: ${i.serviceMessage}`);
      if (i.fieldErrors) parts.push(`: ${formatFieldErrors(i.fieldErrors)}`);
      return parts.join('');
    }
    case 'protocol':
      return `${i.endpoint} returned an unexpected response: ${i.detail ?? 'unknown problem'}`;
    case 'timeout':
      return `${i.endpoint} timed out${i.code ? ` (${i.code})` : ''}${i.detail ? `: ${i.detail}` : ''}`;
    case 'network':
      return `${i.endpoint} could not reach the service${i.code ? ` (${i.code})` : ''}${i.detail ? `: ${i.detail}` : ''}`;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Error bodies

/** Longest piece of service-provided text kept in an error. */
const MAX_SERVICE_TEXT = 300;

export function clip(s: string, max = MAX_SERVICE_TEXT): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/** Replaces every occurrence of the secrets in `text`. */
function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s) out = out.split(s).join('[redacted]');
  return out;
}

export type ParsedErrorBody = Pick<
  OutreachErrorInit,
  'key' | 'serviceMessage' | 'field' | 'currentStatus' | 'validTargets' | 'fieldErrors'
>;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

/**
 * Reads any of the three error body shapes: the campaign envelope `{success:false, error:KEY, message, field,
 * current_status?, valid_targets?}`, the generic envelope `{error: number, message}`, and the validation body
 * `{field: [messages], non_field_errors: [...]}`. Anything else (an HTML page from a proxy) yields at most a
 * clipped message. All text is redacted of `secrets`.
 */
export function parseErrorBody(text: string, secrets: readonly string[] = []): ParsedErrorBody {
  const clean = (s: string): string => clip(redact(s, secrets));
  let body: unknown;
  try {
    body = text.trim() === '' ? undefined : JSON.parse(text);
  } catch {
    // Not JSON: keep a short plain-text excerpt unless it is a markup page.
    const t = text.trim();
    return t && !t.startsWith('<') ? { serviceMessage: clean(t) } : {};
  }
  if (!isRecord(body)) return {};

  // 1. Campaign envelope (error is a string key).
  if (typeof body.error === 'string') {
    const out: ParsedErrorBody = { key: body.error };
    const message = str(body.message);
    if (message) out.serviceMessage = clean(message);
    const field = str(body.field);
    if (field) out.field = clean(field);
    const current = str(body.current_status);
    if (current) out.currentStatus = clean(current);
    if (Array.isArray(body.valid_targets)) {
      out.validTargets = body.valid_targets.filter((t): t is string => typeof t === 'string').map(clean);
    }
    return out;
  }
  // 2. Generic envelope (error is a number whose meaning is not shown).
  if (typeof body.error === 'number') {
    const message = str(body.message);
    return message ? { serviceMessage: clean(message) } : {};
  }
  // 3. Validation body: every value an array of strings (a bare string is tolerated).
  const entries = Object.entries(body);
  if (entries.length > 0 && entries.every(([, v]) => typeof v === 'string' || isStringArray(v))) {
    const fieldErrors: Record<string, string[]> = {};
    for (const [k, v] of entries) {
      fieldErrors[clean(k)] = (typeof v === 'string' ? [v] : (v as string[])).map(clean);
    }
    return { fieldErrors };
  }
  // Unknown object: keep a `message`/`detail` if there is one.
  const message = str(body.message) ?? str(body.detail);
  return message ? { serviceMessage: clean(message) } : {};
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

/**
 * 'name: This field is required; Too many items' (messages without their final periods). Keys without messages are
 * left out: the service sends `non_field_errors: []` alongside field errors.
 */
function formatFieldErrors(fe: Record<string, string[]>): string {
  return Object.entries(fe)
    .filter(([, msgs]) => msgs.length > 0)
    .map(([k, msgs]) => {
      const text = msgs.map((m) => m.replace(/[.\s]+$/, '')).join(', ');
      return k === 'non_field_errors' ? text : `${k}: ${text}`;
    })
    .join('; ');
}

/** Field-level problems of a service refusal, whichever shape the service answered with. */
export interface ServiceFieldErrors {
  /** Field path (normalized: `cycles.max_iterations`, `scheduling.mon.startTime`) -> messages. */
  fields: Record<string, string[]>;
  /** The validation body's `non_field_errors` (problems of the request as a whole). */
  nonField: string[];
}

/**
 * The field errors of a service refusal from both shapes the spec describes: the campaign envelope
 * `{error: KEY, message, field}` (campaign endpoints: one field, its message) and the validation body
 * `{<field>: [messages], non_field_errors}` (contacts). Paths are normalized (`normalizeErrorFieldPath`); a message
 * that starts with its own field path (`name: Ensure ...`) loses that prefix, since whoever shows it under the
 * field already says which field it is. An envelope `field` without a message gets the sentence of its key.
 */
export function fieldErrorsOf(err: OutreachError): ServiceFieldErrors {
  const fields: Record<string, string[]> = {};
  const nonField: string[] = [];
  const add = (rawPath: string, messages: string[]) => {
    const path = normalizeErrorFieldPath(rawPath);
    const texts = messages.map((m) => withoutFieldPrefix(m, rawPath, path)).filter((m) => m !== '');
    if (texts.length === 0) return;
    if (path === '' || path === 'non_field_errors') nonField.push(...texts);
    else (fields[path] ??= []).push(...texts);
  };
  for (const [k, messages] of Object.entries(err.fieldErrors ?? {})) add(k, messages);
  if (err.field) add(err.field, [err.serviceMessage ?? humanMessage(err)]);
  return { fields, nonField };
}

function withoutFieldPrefix(message: string, ...paths: string[]): string {
  const m = message.trim();
  for (const p of paths) if (p && m.startsWith(`${p}: `)) return m.slice(p.length + 2).trim();
  return m;
}

// ---------------------------------------------------------------------------------------------------------------
// Sentences for people

/** One sentence per error key of the campaign envelope, used when no more specific wording applies. */
export const ERROR_SENTENCES: Record<ErrorKey, string> = {
  FORBIDDEN:
    "The outreach service refused this action for the app's API key (forbidden); ask an admin to check the key's permissions.",
  NOT_FOUND:
    'The outreach service could not find what was asked for; it may have been deleted, or the id may be wrong.',
  RATE_LIMITED: 'The outreach service is receiving too many requests right now; try again in a few seconds.',
  SERVER_ERROR: 'The outreach service had an internal error; try again in a moment.',
  INVALID_REQUEST: 'The outreach service refused the request as invalid; check the values and try again.',
  INVALID_STATUS: "That status isn't valid here; pick one of the statuses offered.",
  IMMUTABLE_FIELD:
    "That setting can't be changed once the campaign exists (the agent, the integration, the channel and the cycles on/off and mode are fixed at creation).",
  UNKNOWN_ACTION: "The outreach service doesn't know that campaign action; use activate, pause, resume or archive.",
  AGENT_NOT_FOUND:
    "The agent was not found; check that it is the agent's public id and that it belongs to this organization.",
  INTEGRATION_NOT_FOUND:
    'The integration was not found for that agent; pick an integration that belongs to the chosen agent.',
  INVALID_INTEGRATION_TYPE:
    "That channel isn't supported for this integration; choose phone_call or whatsapp to match the integration.",
  INVALID_FILTER_TAG: "One of the cycle filter tags isn't a known thread tag; remove it or pick an existing tag.",
  INVALID_PHONE_NUMBER: "The phone number isn't valid; write it with its country code, for example +52 55 1234 5678.",
  MISSING_CONTACT: 'The phone number is missing; every contact needs one.',
  CONTACT_NOT_FOUND: 'That contact was not found in the campaign; it may have been deleted.',
  CONTACT_NOT_DELETABLE:
    "The contact can't be deleted because it has already been worked on; only contacts still queued or failed can be deleted.",
  CAMPAIGN_FINISHED: 'The campaign has finished, so it can no longer be changed.',
  CYCLES_NOT_ENABLED:
    "Cycles aren't enabled on this campaign, and they can only be turned on when a campaign is created.",
  SCHEDULED_MODE_ONLY:
    'The cycle schedule and its start and end dates only apply when the cycle mode is scheduled; remove them or switch the mode when creating the campaign.',
  INVALID_STATUS_TRANSITION: "The campaign's current status doesn't allow that action.",
  BILLING_LIMIT_REACHED:
    "The organization's plan limit has been reached, so no more campaigns can run; ask an admin to raise the plan or pause another campaign.",
};

const KNOWN_KEYS: ReadonlySet<string> = new Set(ERROR_KEYS);

function pastTense(action: LifecycleAction): string {
  // activate, pause, resume, archive all end in "e".
  return `${action}d`;
}

function subjectName(s: ErrorSubject | undefined): string | undefined {
  if (!s) return undefined;
  const id = s.id === undefined ? '' : ` ${s.id}`;
  switch (s.what) {
    case 'campaign':
    case 'campaigns':
    case 'calls':
      return s.campaignId !== undefined ? `Campaign ${s.campaignId}` : s.id !== undefined ? `Campaign${id}` : undefined;
    case 'contact':
    case 'contacts':
      if (s.what === 'contacts') return s.campaignId !== undefined ? `Campaign ${s.campaignId}` : undefined;
      return `Contact${id}${s.campaignId !== undefined ? ` of campaign ${s.campaignId}` : ''}`;
    case 'call':
      return `Call${id}`;
    case 'thread':
    case 'message':
      return `Thread${id}`;
    case 'end user':
      return `End user${id}`;
  }
}

const CONNECT_FAILED = "The outreach service can't be reached right now; nothing was changed.";

/**
 * One clear sentence for a person about any error thrown by the client (or anything else: unknown errors get a
 * neutral sentence, never their raw message, which could hold anything).
 */
export function humanMessage(err: unknown): string {
  if (err instanceof OutreachInputError) return err.message;
  if (!(err instanceof OutreachError)) {
    if (err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError')) {
      return 'The request was cancelled before the outreach service answered.';
    }
    return "Something unexpected went wrong; the details are in the app's logs.";
  }
  switch (err.kind) {
    case 'network':
      return err.mayHaveBeenApplied
        ? 'The connection to the outreach service broke while it was handling the request, so it may or may not have been applied; check before trying again.'
        : CONNECT_FAILED;
    case 'timeout':
      return err.mayHaveBeenApplied
        ? 'The outreach service took too long to answer, so the change may or may not have been applied; check before trying again.'
        : "The outreach service can't be reached right now (it did not answer in time); nothing was changed.";
    case 'protocol':
      return "The outreach service sent an answer this app doesn't understand; the details are in the app's logs.";
    case 'service':
      return serviceSentence(err);
  }
}

function serviceSentence(err: OutreachError): string {
  const key = err.key;
  const status = err.status ?? 0;
  const name = subjectName(err.subject);

  if (key && KNOWN_KEYS.has(key)) {
    const k = key as ErrorKey;
    switch (k) {
      case 'INVALID_STATUS_TRANSITION': {
        const action = err.action ? `, so it can't be ${pastTense(err.action)}` : ", so it can't do that";
        const current = err.currentStatus ? `The campaign is ${err.currentStatus}${action}.` : ERROR_SENTENCES[k];
        const hint =
          err.action === 'activate' && err.currentStatus === 'inactive'
            ? ' To restart a paused campaign, resume it.'
            : '';
        return `${current}${hint}${targetsSentence(err.validTargets, err.currentStatus)}`;
      }
      case 'BILLING_LIMIT_REACHED':
        return err.action
          ? `The organization's plan limit has been reached, so the campaign can't be ${pastTense(err.action)}; ask an admin to raise the plan or pause another campaign.`
          : ERROR_SENTENCES[k];
      case 'IMMUTABLE_FIELD':
        return err.field
          ? `The setting "${err.field}" can't be changed once the campaign exists; create a new campaign to change it.`
          : ERROR_SENTENCES[k];
      case 'NOT_FOUND':
      case 'CONTACT_NOT_FOUND':
        return name ? `${name} was not found; it may have been deleted, or the id may be wrong.` : ERROR_SENTENCES[k];
      case 'AGENT_NOT_FOUND':
        return err.subject?.agentId
          ? `Agent ${err.subject.agentId} was not found; check that it is the agent's public id and that it belongs to this organization.`
          : ERROR_SENTENCES[k];
      case 'INTEGRATION_NOT_FOUND':
        return err.subject?.integrationId
          ? `Integration ${err.subject.integrationId} was not found for that agent; pick an integration that belongs to the chosen agent.`
          : ERROR_SENTENCES[k];
      case 'CONTACT_NOT_DELETABLE':
        return err.subject?.what === 'contact' && err.subject.id !== undefined
          ? `Contact ${err.subject.id} can't be deleted because it has already been worked on; only contacts still queued or failed can be deleted.`
          : ERROR_SENTENCES[k];
      case 'RATE_LIMITED':
        return rateLimitedSentence(err);
      case 'INVALID_REQUEST':
        return err.serviceMessage || err.fieldErrors || err.field
          ? `The outreach service refused the request: ${details(err)}.`
          : ERROR_SENTENCES[k];
      default:
        return ERROR_SENTENCES[k];
    }
  }

  if (err.fieldErrors) return `The outreach service refused the input: ${details(err)}.`;
  if (status === 401) {
    return 'The outreach service refused the API key; ask an admin to check OUTREACH_API_KEY.';
  }
  if (status === 403) return ERROR_SENTENCES.FORBIDDEN;
  if (status === 404) {
    return name
      ? `${name} was not found; it may have been deleted, or the id may be wrong.`
      : ERROR_SENTENCES.NOT_FOUND;
  }
  if (status === 429) return rateLimitedSentence(err);
  if (status === 402) return ERROR_SENTENCES.BILLING_LIMIT_REACHED;
  if (status >= 500) {
    return status === 502 || status === 503 || status === 504
      ? 'The outreach service is temporarily unavailable; try again in a few minutes.'
      : ERROR_SENTENCES.SERVER_ERROR;
  }
  if (status === 409) {
    return err.serviceMessage
      ? `The outreach service refused the change because of the current state: ${err.serviceMessage}.`
      : "The outreach service refused the change because of the item's current state; refresh and try again.";
  }
  if (status >= 400) {
    return err.serviceMessage
      ? `The outreach service refused the request: ${err.serviceMessage}.`
      : ERROR_SENTENCES.INVALID_REQUEST;
  }
  return "The outreach service answered in an unexpected way; the details are in the app's logs.";
}

/** ' It can be resumed or archived.' from valid_targets (actions or statuses: not shown which, both handled). */
function targetsSentence(targets: string[] | undefined, current: string | undefined): string {
  if (!targets?.length) return '';
  const actions = targets.map((t) => actionForTarget(t, current));
  if (actions.every((a): a is LifecycleAction => a !== undefined)) {
    const words = [...new Set(actions)].map(pastTense);
    const list = words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}` : words[0];
    return ` It can be ${list}.`;
  }
  return ` It can go to: ${targets.join(', ')}.`;
}

function rateLimitedSentence(err: OutreachError): string {
  const s = err.retryAfterSeconds;
  return s !== undefined && s > 0
    ? `The outreach service is receiving too many requests right now; try again in ${Math.ceil(s)} second${Math.ceil(s) === 1 ? '' : 's'}.`
    : ERROR_SENTENCES.RATE_LIMITED;
}

function details(err: OutreachError): string {
  const parts: string[] = [];
  if (err.serviceMessage) {
    const message = err.serviceMessage.replace(/[.\s]+$/, '');
    // The envelope's `field` says which field; name it unless the message already does.
    parts.push(err.field && !message.includes(err.field) ? `${err.field}: ${message}` : message);
  } else if (err.field) parts.push(`the value of ${err.field} is not valid`);
  if (err.fieldErrors) parts.push(formatFieldErrors(err.fieldErrors).replace(/[.\s]+$/, ''));
  return parts.join('; ');
}
