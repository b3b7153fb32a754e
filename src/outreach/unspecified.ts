/**
 * Every name and format that the service's interface leaves (docs/outreach-api-notes.md) "not shown", in one place.
 *
 * The client, the simulator and the Slack layer all read these constants, so a guess that turns out wrong against
 * the real service is corrected here once. Where the service might ignore a filter we send, the client filters the
 * results again on its side (see `client.ts`), so the app is right either way.
 */

/** Base path segment the spec gives; `OUTREACH_BASE_URL` must end with it. */
export const API_VERSION_PATH = '/api/v1.0';

/**
 * Query parameter names of GET /campaigns. The date names are given by the spec; the others are not shown.
 * We use snake_case like the body fields (`agent_id`, `integration_type`) and the response (`next_cursor`).
 */
export const CAMPAIGN_LIST_PARAMS = {
  createdAfter: 'createdAfter',
  createdBefore: 'createdBefore',
  startedAfter: 'startedAfter',
  startedBefore: 'startedBefore',
  endedAfter: 'endedAfter',
  endedBefore: 'endedBefore',
  /** not shown: the agent filter; named like the create body's `agent_id`. */
  agentId: 'agent_id',
  /** not shown: the status filter. */
  status: 'status',
  /** not shown: the integration type filter; named like the create body's `integration_type`. */
  integrationType: 'integration_type',
  /** not shown: "include archived" flag, sent as the literal `true`. */
  includeArchived: 'include_archived',
  /** not shown: page size (max 100). */
  pageSize: 'page_size',
  /** not shown: the cursor; named after the response's `next_cursor`. */
  cursor: 'cursor',
} as const;

/** Query parameter names of GET /campaigns/{id}/contacts (all not shown). */
export const CONTACT_LIST_PARAMS = {
  status: 'status',
  pageSize: 'page_size',
  /** 0-based like the calls list, whose response names it `page_index`. */
  page: 'page',
} as const;

/** Query parameter names of GET /campaigns/{id}/calls (all not shown). */
export const CALL_LIST_PARAMS = {
  status: 'status',
  answeredBy: 'answered_by',
  createdAfter: 'created_after',
  createdBefore: 'created_before',
  pageSize: 'page_size',
  page: 'page',
} as const;

export const MAX_CAMPAIGN_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 100;
export const MAX_PAGE_NUMBER = 25000;
export const MAX_CONTACTS_PER_BATCH = 1000;
export const RATE_LIMIT_PER_SECOND = 12;

/**
 * Date format of the campaign list's date filters: not shown. We send calendar dates `YYYY-MM-DD` (the spec types
 * them `date`, as opposed to the calls list which says ISO 8601 date-time).
 */
export const LIST_DATE_FORMAT = 'yyyy-MM-dd';

/** Calls list `created after/before`: the spec says ISO 8601; we send full UTC date-times (`toISOString()`). */
export function formatCallListDateTime(d: Date): string {
  return d.toISOString();
}

/**
 * Schedule `startTime`/`stopTime` format: not shown. We send 24-hour `HH:MM` (what Slack's timepicker produces),
 * and accept `HH:MM:SS` back, shown as `HH:MM`.
 */
export const SCHEDULE_TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;
export function normalizeScheduleTime(t: string): string {
  return t.slice(0, 5);
}

/** `cycles.schedule_start_date` / `schedule_end_date` typed `date`: we send `YYYY-MM-DD`. */
export const CYCLE_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Accepted phone number format of POST /campaigns/{id}/contacts: not shown. We always send E.164 (`+525512345678`; Mexico dropped the mobile `1` in 2019),
 * the one format every phone system accepts, after normalizing with libphonenumber-js. The name the sender and the
 * simulator point to (src/contacts/phone.ts, src/sim/contacts.ts).
 * @public
 */
export const PHONE_FORMAT = 'E.164' as const;

/** Contact `last_call_at` is documented as `YYYY-MM-DD HH:MM:SS`; its zone is not shown: we read it as UTC. */
export const LAST_CALL_AT_ZONE = 'UTC';

/** Default timezone of a campaign, given by the spec. */
export const DEFAULT_TIMEZONE = 'America/Mexico_City';

/**
 * Rate limit response: not shown. We expect HTTP 429 with an optional `Retry-After` header in seconds (the HTTP
 * standard) and the campaign error key `RATE_LIMITED`; the simulator answers so.
 */
export const RATE_LIMITED_STATUS = 429;

/**
 * Endpoints the spec lists under the 12 requests/s limit. Others (update campaign, list campaigns, messages,
 * threads, calls by id, end users) have an unknown limit: we route them through the same limiter anyway, which is
 * the safe choice, but the simulator only enforces the limit on these.
 */
export const RATE_LIMITED_ENDPOINTS = [
  'createCampaign',
  'getCampaign',
  'campaignAction',
  'addContacts',
  'listContacts',
  'getContact',
  'deleteContact',
  'listCampaignCalls',
] as const;

/**
 * HTTP statuses of the keys the spec does not give a status for (our choice, used by the simulator and by the
 * Slack layer's wording).
 */
export const UNSPECIFIED_ERROR_STATUS: Record<string, number> = {
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONTACT_NOT_FOUND: 404,
  RATE_LIMITED: 429,
  SERVER_ERROR: 500,
  INVALID_STATUS: 400,
  IMMUTABLE_FIELD: 400,
  INVALID_INTEGRATION_TYPE: 400,
  INVALID_FILTER_TAG: 400,
  CAMPAIGN_FINISHED: 409,
  CYCLES_NOT_ENABLED: 400,
  SCHEDULED_MODE_ONLY: 400,
};

/**
 * How the campaign envelope's `field` (and a validation body's keys) write a nested field: not shown. The spec only
 * says `field` "names the offending field path" (for IMMUTABLE_FIELD), and not whether INVALID_REQUEST sets it; the
 * simulator sets it for every invalid field and writes dotted paths of the request body's names
 * (`cycles.max_iterations`, `scheduling.mon.startTime`, array items by index: `cycles.filter_statuses.0`). We read
 * the other usual spellings of the same path as well, so a refusal still lands on the right input whatever the
 * real service writes: JSON Pointer (`/cycles/max_iterations`), JSONPath (`$.cycles.max_iterations`), brackets
 * (`cycles[max_iterations]`, `filter_statuses[0]`), Django's `cycles__max_iterations`, and the flat names of the
 * campaign list item (`cycle_max_iterations`, `cycle_filter_tags`, ...), which are likely the service's own column
 * names.
 */
const FLAT_CYCLE_FIELD =
  /^cycle_(enabled|mode|max_iterations|cooldown_minutes|filter_statuses|filter_tags|schedule|schedule_start_date|schedule_end_date)(?=$|\.)/;

export function normalizeErrorFieldPath(raw: string): string {
  let p = raw.trim();
  if (p.startsWith('/'))
    p = p
      .slice(1)
      .split('/')
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      .join('.');
  p = p
    .replace(/^\$\.?/, '')
    .replace(/\[["']?([^\]"']*)["']?\]/g, '.$1')
    .replace(/__/g, '.')
    .replace(/\.{2,}/g, '.')
    .replace(/^\.+|\.+$/g, '');
  return p.replace(FLAT_CYCLE_FIELD, 'cycles.$1');
}

/**
 * Whether `cycles.mode` is required when `cycles.enabled` is true, and its default: not shown. We always send it
 * explicitly; the simulator defaults it to `cooldown`.
 */
export const DEFAULT_CYCLES_MODE = 'cooldown' as const;

/**
 * Unit of contact `billed_duration`: not shown; the call's is seconds, so we read the contact's as seconds too.
 * @public (an assumption written down, for whoever shows the field)
 */
export const CONTACT_BILLED_DURATION_UNIT = 'seconds';

/**
 * `valid_targets` of the lifecycle 409: whether it lists target statuses or actions is not shown. We accept both:
 * an action name is used as is; a status is turned into the action that reaches it from `currentStatus`.
 */
export function actionForTarget(
  target: string,
  currentStatus?: string,
): 'activate' | 'pause' | 'resume' | 'archive' | undefined {
  switch (target) {
    case 'activate':
    case 'pause':
    case 'resume':
    case 'archive':
      return target;
    case 'active':
      return currentStatus === 'inactive' ? 'resume' : 'activate';
    case 'inactive':
      return 'pause';
    case 'archived':
      return 'archive';
    default:
      return undefined;
  }
}
