/**
 * The three error bodies of the service (campaign envelope, generic envelope, validation body) and the HTTP status
 * of each campaign error key: the spec's where it gives one, otherwise UNSPECIFIED_ERROR_STATUS (our choice).
 */
import type { ErrorKey } from '../outreach/schemas.js';
import { UNSPECIFIED_ERROR_STATUS } from '../outreach/unspecified.js';

/** What a route handler answers. `raw` replaces the JSON body (e.g. the recording's audio bytes). */
export interface SimResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  raw?: { contentType: string; data: Buffer | string };
}

export class SimError extends Error {
  constructor(readonly response: SimResponse) {
    super(`simulated error ${response.status}`);
  }
}

/** Statuses the spec gives for campaign error keys. */
const SPEC_STATUS: Partial<Record<ErrorKey, number>> = {
  INVALID_REQUEST: 400,
  UNKNOWN_ACTION: 400,
  INVALID_PHONE_NUMBER: 400,
  MISSING_CONTACT: 400,
  BILLING_LIMIT_REACHED: 402,
  AGENT_NOT_FOUND: 404,
  INTEGRATION_NOT_FOUND: 404,
  INVALID_STATUS_TRANSITION: 409,
  CONTACT_NOT_DELETABLE: 409,
};

function statusOfKey(key: ErrorKey): number {
  return SPEC_STATUS[key] ?? UNSPECIFIED_ERROR_STATUS[key] ?? 400;
}

/** Campaign error envelope `{success: false, error, message, field?}` plus extra members (lifecycle 409). */
export function campaignError(key: ErrorKey, message: string, extra: Record<string, unknown> = {}): SimError {
  return new SimError({ status: statusOfKey(key), body: { success: false, error: key, message, ...extra } });
}

/** Generic envelope `{error: <status>, message}`. */
export function genericError(status: number, message: string): SimError {
  return new SimError({ status, body: { error: status, message } });
}

/** Collects validation messages per field path; `throwIfAny` answers 400 with the validation body. */
export class Issues {
  private readonly fields = new Map<string, string[]>();
  private readonly nonField: string[] = [];

  add(field: string, message: string): void {
    const list = this.fields.get(field) ?? [];
    list.push(message);
    this.fields.set(field, list);
  }

  addNonField(message: string): void {
    this.nonField.push(message);
  }

  get empty(): boolean {
    return this.fields.size === 0 && this.nonField.length === 0;
  }

  throwIfAny(): void {
    if (!this.empty) throw this.toError();
  }

  toError(): SimError {
    return new SimError({ status: 400, body: { ...Object.fromEntries(this.fields), non_field_errors: this.nonField } });
  }

  /**
   * Campaign endpoints answer invalid fields with the campaign envelope, not the validation body (spec, Errors):
   * 400 `INVALID_REQUEST` whose `field` names the first field path with a problem. The envelope has room for one
   * field, so one problem per answer; "first" is the order of the checks, which follows the spec's body table
   * (name, agent_id, ..., cycles.*). Its `message` names the field and holds all of that field's messages.
   */
  throwIfAnyAsCampaignError(): void {
    const first = this.fields.entries().next();
    if (!first.done) {
      const [field, messages] = first.value;
      throw campaignError('INVALID_REQUEST', `${field}: ${messages.join(' ')}`, { field });
    }
    if (this.nonField.length > 0) throw campaignError('INVALID_REQUEST', this.nonField.join(' '));
  }
}

/** Validation body with only `non_field_errors`. */
export function nonFieldError(message: string): SimError {
  const issues = new Issues();
  issues.addNonField(message);
  return issues.toError();
}
