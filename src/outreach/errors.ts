/**
 * Errors of the Campaign Outreach Service client: codes and data, no sentences for people.
 *
 * `OutreachError.message` is technical (for logs): it names the endpoint template (never a URL, never the API key).
 * The sentence a person reads about an error comes from the catalogs: `serviceErrorText(err, t)` in
 * src/render/service-error.ts (`englishErrorText(err)` for the logs and the audit trail).
 */
import type { ErrorKey, LifecycleAction } from './schemas.js';
import { normalizeErrorFieldPath } from './unspecified.js';

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

/**
 * Statuses of a gateway in front of the service that cannot reach it for a moment (bad gateway, unavailable, gateway
 * timeout): the client tries a request that is safe to repeat again after them.
 */
export const UNAVAILABLE_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

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
 * 'name: This field is required, Too many items; non-field problem': the service's own words, one field after the
 * other (messages without their final periods). Keys without messages are left out: the service sends
 * `non_field_errors: []` alongside field errors.
 */
export function formatFieldErrors(fe: Record<string, string[]>): string {
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
 * field already says which field it is. An envelope `field` without a message gets `unexplained`: the sentence the
 * caller shows for the whole error (`serviceErrorText`), in its reader's language.
 */
export function fieldErrorsOf(err: OutreachError, unexplained: string): ServiceFieldErrors {
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
  if (err.field) add(err.field, [err.serviceMessage ?? unexplained]);
  return { fields, nonField };
}

function withoutFieldPrefix(message: string, ...paths: string[]): string {
  const m = message.trim();
  for (const p of paths) if (p && m.startsWith(`${p}: `)) return m.slice(p.length + 2).trim();
  return m;
}
