/**
 * Every action_id our buttons and menus carry, every callback_id our views carry, and the codecs of their `value`s.
 * The renderers put them on the elements and the routes (src/slack/routes.ts) listen for them, so they live in the
 * lowest layer that uses them.
 *
 * Slack rejects a message (`invalid_blocks`) when two elements of one actions block share an action_id, so buttons
 * that come several to a block carry a suffix: `campaign_action:pause`, `contacts_page:next`. Register listeners
 * with `actionIdPattern(ACTION_IDS.x)`, which matches the bare id and every suffixed form.
 */
import { z } from 'zod';
import type { CampaignListFilter } from '../outreach/api.js';
import {
  CALL_LIST_FILTER_STATUSES,
  CAMPAIGN_STATUSES,
  CHANNEL_TYPES,
  CONTACT_STATUSES,
  LIFECYCLE_ACTIONS,
  type CallListFilterStatus,
  type ContactStatus,
  type LifecycleAction,
} from '../outreach/schemas.js';
import { MAX_CAMPAIGN_PAGE_SIZE, MAX_PAGE_NUMBER } from '../outreach/unspecified.js';

export const ACTION_IDS = {
  /** value: campaign id, e.g. "12" */
  campaignShow: 'campaign_show',
  /** `campaign_action:<action>`; value: JSON {"id":12,"action":"pause"} */
  campaignAction: 'campaign_action',
  /** value: JSON {"cursor":"…","filter":{…}} */
  campaignListNext: 'campaign_list_next',
  /** no value */
  campaignCreateOpen: 'campaign_create_open',
  /** value: campaign id */
  campaignContacts: 'campaign_contacts',
  /** value: campaign id */
  campaignCalls: 'campaign_calls',
  /** value: campaign id; opens the upload modal */
  campaignUploadOpen: 'campaign_upload_open',
  /** value: campaign id; the channel the button is in starts watching the campaign */
  campaignWatchHere: 'campaign_watch_here',
  /** value: JSON {"campaignId":12,"contactId":34} */
  contactDetails: 'contact_details',
  /** value: JSON {"campaignId":12,"contactId":34} */
  contactRemove: 'contact_remove',
  /** `contacts_page:prev|next`; value: JSON {"campaignId":12,"page":3,"status":"queue"} */
  contactsPage: 'contacts_page',
  /** `calls_page:prev|next`; value: JSON {"campaignId":12,"page":3,"status":"ended"} */
  callsPage: 'calls_page',
  /** value: campaign id; posts the campaign's report in the conversation (a DM from the Home tab) */
  campaignReport: 'campaign_report',
} as const;
export type ActionIdBase = (typeof ACTION_IDS)[keyof typeof ACTION_IDS];

/** Buttons of a watched call message (the "Watch here" button is the campaign's own). */
export const WATCH_ACTION_IDS = {
  /** value: campaign id */
  watchHere: ACTION_IDS.campaignWatchHere,
  /** value: call id */
  callDetails: 'watch_call_details',
  /** value: JSON {"callId":"…","threadId":"…"} */
  callContact: 'watch_call_contact',
  /** A compact line's "Details": the full card in a modal; value: JSON {"campaignId":12,"callId":"…"} */
  callCard: 'watch_call_card',
  /** "Watch settings" (watch answers, campaign detail, `/campaign watching`); value: JSON {"campaignId":12,"channelId":"C…"} (no channel: the one it was clicked in) */
  settings: 'watch_settings_open',
} as const;

/** The "Watch settings" modal (format, filter, reminder delay of one channel's watch of one campaign). */
export const WATCH_SETTINGS_VIEW_ID = 'watch_settings';
/** The full call card a compact line's "Details" opens (no form: no listener). */
export const WATCH_CALL_CARD_INFO_VIEW_ID = 'watch_call_card_info';

const CallCardValue = z.object({ campaignId: z.number().int().positive(), callId: z.string().min(1).max(200) });
export type CallCardValue = z.infer<typeof CallCardValue>;

export function encodeCallCardValue(v: CallCardValue): string {
  return JSON.stringify(v);
}

export function decodeCallCardValue(value: string | undefined): CallCardValue | null {
  return decodeJson(CallCardValue, value);
}

const SettingsValue = z.object({
  campaignId: z.number().int().positive(),
  channelId: z
    .string()
    .regex(/^[CGD][A-Z0-9]+$/)
    .optional(),
});
export type SettingsValue = z.infer<typeof SettingsValue>;

export function encodeSettingsValue(v: SettingsValue): string {
  return JSON.stringify(v);
}

export function decodeSettingsValue(value: string | undefined): SettingsValue | null {
  return decodeJson(SettingsValue, value);
}

/** "Watch it there anyway" on the Slack Connect confirmation; value: JSON {"campaignId":12,"channelId":"C…"}. */
export const WATCH_CONFIRM_EXTERNAL_ACTION = 'watch_confirm_external';

/**
 * "Post it there anyway" on a report's Slack Connect confirmation (the watch's kind of confirmation, for a report posted
 * now); value: the same ConfirmValue as the watch's, JSON {"campaignId":12,"channelId":"C…"}.
 */
export const REPORT_CONFIRM_EXTERNAL_ACTION = 'report_confirm_external';
/**
 * "Schedule it there anyway", for a report schedule into a Slack Connect channel (in the answer to the command, or in
 * the DM to its owner when a run could not post); value: ScheduleConfirmValue.
 */
export const REPORT_SCHEDULE_CONFIRM_ACTION = 'report_schedule_confirm';

/** "Try" beside an agent in the `/campaign try` list; value: the agent id. */
export const TRY_AGENT_ACTION = 'watch_try_agent';

/** The action ids of the Home tab's own elements. Other buttons in it reuse the app's ids (campaign_action:*, …). */
export const HOME_ACTION_IDS = {
  /** `home_filter:status|channel|agent`, static selects; option value `all` or the filter value. */
  filter: 'home_filter',
  /** `home_page:prev|next`; value: the 0-based page to show. */
  page: 'home_page',
  /** Reads everything again. */
  refresh: 'home_refresh',
  /** Per-campaign overflow menu; option values `edit:<id>`, `upload:<id>`, `watch:<id>`, `calls:<id>`. */
  menu: 'home_campaign_menu',
} as const;

/** Matches every `home_filter:*` action id. */
export const HOME_FILTER_PATTERN = /^home_filter:(status|channel|agent)$/;
/** Matches `home_page:prev` and `home_page:next`. */
export const HOME_PAGE_PATTERN = /^home_page:(prev|next)$/;

// ---------------------------------------------------------------------------------------------------------------
// Callback ids of views. An `_INFO_` one marks views without a form (loading, a refusal, a result): no listener.

export const FORM_CALLBACK_ID = 'campaign_form';
export const FORM_INFO_CALLBACK_ID = 'campaign_form_info';
export const UPLOAD_CALLBACK_ID = 'campaign_upload';
export const UPLOAD_INFO_CALLBACK_ID = 'campaign_upload_info';
/** The Home tab's "Watch in a channel" modal (the Home tab has no channel of its own). */
export const HOME_WATCH_VIEW_ID = 'home_watch_channel';
/** The end-user modal opened from a call message's Contact button. */
export const END_USER_VIEW_ID = 'watch_enduser_edit';

/** `base` or `base:suffix`. */
export function actionId(base: ActionIdBase, suffix?: string): string {
  return suffix ? `${base}:${suffix}` : base;
}

/** Matches `base` and `base:<suffix>`: use it with `app.action(...)`. */
export function actionIdPattern(base: ActionIdBase): RegExp {
  return new RegExp(`^${base}(?::[a-z_-]+)?$`);
}

/** JSON of a button value or a view's private_metadata; undefined when absent or malformed. */
function parseJson(value: string | undefined): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A button's value or a view's private_metadata read back with its schema (the one decoder of both): null when it is
 * absent, malformed or not ours (an old message's, another app's).
 */
export function decodeJson<T>(schema: z.ZodType<T>, value: string | undefined): T | null {
  const r = schema.safeParse(parseJson(value));
  return r.success ? r.data : null;
}

const Id = z.number().int().nonnegative();
const Page = z.number().int().min(0).max(MAX_PAGE_NUMBER);

// ---------------------------------------------------------------------------------------------------------------
/** campaign_show / campaign_contacts / campaign_calls carry the bare campaign id. */
export function encodeCampaignId(id: number): string {
  return String(id);
}
/** The campaign id of a campaign_show / campaign_contacts / campaign_calls value; null when malformed. */
export function decodeCampaignId(value: string | undefined): number | null {
  if (!value || !/^\d{1,15}$/.test(value)) return null;
  return Number(value);
}

// ---------------------------------------------------------------------------------------------------------------
const CampaignActionValue = z.object({ id: Id, action: z.enum(LIFECYCLE_ACTIONS) });
export type CampaignActionValue = z.infer<typeof CampaignActionValue>;

export function encodeCampaignAction(v: CampaignActionValue): string {
  return JSON.stringify({ id: v.id, action: v.action });
}
export function decodeCampaignAction(value: string | undefined): CampaignActionValue | null {
  return decodeJson(CampaignActionValue, value);
}

// ---------------------------------------------------------------------------------------------------------------
const ContactRefValue = z.object({ campaignId: Id, contactId: Id });
export type ContactRefValue = z.infer<typeof ContactRefValue>;

export function encodeContactRef(v: ContactRefValue): string {
  return JSON.stringify({ campaignId: v.campaignId, contactId: v.contactId });
}
export function decodeContactRef(value: string | undefined): ContactRefValue | null {
  return decodeJson(ContactRefValue, value);
}

// ---------------------------------------------------------------------------------------------------------------
const ContactsPageValue = z.object({ campaignId: Id, page: Page, status: z.enum(CONTACT_STATUSES).optional() });
export interface ContactsPageValue {
  campaignId: number;
  page: number;
  status?: ContactStatus;
}
export function encodeContactsPage(v: ContactsPageValue): string {
  return JSON.stringify({ campaignId: v.campaignId, page: v.page, ...(v.status ? { status: v.status } : {}) });
}
export function decodeContactsPage(value: string | undefined): ContactsPageValue | null {
  return decodeJson(ContactsPageValue, value);
}

const CallsPageValue = z.object({ campaignId: Id, page: Page, status: z.enum(CALL_LIST_FILTER_STATUSES).optional() });
export interface CallsPageValue {
  campaignId: number;
  page: number;
  status?: CallListFilterStatus;
}
export function encodeCallsPage(v: CallsPageValue): string {
  return JSON.stringify({ campaignId: v.campaignId, page: v.page, ...(v.status ? { status: v.status } : {}) });
}
export function decodeCallsPage(value: string | undefined): CallsPageValue | null {
  return decodeJson(CallsPageValue, value);
}

// ---------------------------------------------------------------------------------------------------------------
/** The filters of a campaign list request, as carried by the "Next page" button (everything but the cursor). */
export type CampaignListRequestFilter = Omit<CampaignListFilter, 'cursor'>;

const IsoDate = z.iso.datetime({ offset: true }).transform((s) => new Date(s));
const CampaignListNextValue = z.object({
  cursor: z.string().min(1),
  filter: z
    .object({
      status: z.enum(CAMPAIGN_STATUSES).optional(),
      integrationType: z.enum(CHANNEL_TYPES).optional(),
      agentId: z.string().optional(),
      includeArchived: z.boolean().optional(),
      pageSize: z.number().int().min(1).max(MAX_CAMPAIGN_PAGE_SIZE).optional(),
      createdAfter: IsoDate.optional(),
      createdBefore: IsoDate.optional(),
      startedAfter: IsoDate.optional(),
      startedBefore: IsoDate.optional(),
      endedAfter: IsoDate.optional(),
      endedBefore: IsoDate.optional(),
    })
    .default({}),
});
export interface CampaignListNextValue {
  cursor: string;
  filter: CampaignListRequestFilter;
}

/** JSON {"cursor":"…","filter":{…}}; dates as ISO 8601; undefined fields left out. */
export function encodeCampaignListNext(v: CampaignListNextValue): string {
  const filter: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v.filter)) {
    if (x === undefined) continue;
    if (k === 'cursor') continue;
    filter[k] = x instanceof Date ? x.toISOString() : x;
  }
  return JSON.stringify({ cursor: v.cursor, filter });
}
export function decodeCampaignListNext(value: string | undefined): CampaignListNextValue | null {
  const v = decodeJson(CampaignListNextValue, value);
  if (!v) return null;
  const filter: CampaignListRequestFilter = {};
  for (const [k, x] of Object.entries(v.filter)) if (x !== undefined) Object.assign(filter, { [k]: x });
  return { cursor: v.cursor, filter };
}

/** Lifecycle action of a `campaign_action:<action>` id (the value carries it too). */
export function actionOfActionId(id: string): LifecycleAction | null {
  const suffix = id.split(':')[1];
  return (LIFECYCLE_ACTIONS as readonly string[]).includes(suffix ?? '') ? (suffix as LifecycleAction) : null;
}

// ---------------------------------------------------------------------------------------------------------------
/** The Slack Connect confirmation button's value: which campaign, into which channel. */
const ConfirmValue = z.object({
  campaignId: z.number().int().nonnegative(),
  channelId: z.string().regex(/^[CGD][A-Z0-9]{2,30}$/),
});
export type ConfirmValue = z.infer<typeof ConfirmValue>;

export function encodeConfirmValue(v: ConfirmValue): string {
  return JSON.stringify({ campaignId: v.campaignId, channelId: v.channelId });
}

export function decodeConfirmValue(value: string | undefined): ConfirmValue | null {
  return decodeJson(ConfirmValue, value);
}

/** A report schedule waiting for its Slack Connect confirmation: the schedule as typed. */
const ScheduleConfirmValue = ConfirmValue.extend({
  frequency: z.enum(['daily', 'weekly']),
  weekday: z.number().int().min(0).max(6).optional(),
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
});
export type ScheduleConfirmValue = z.infer<typeof ScheduleConfirmValue>;

export function encodeScheduleConfirmValue(v: ScheduleConfirmValue): string {
  const { campaignId, channelId, frequency, weekday, time } = v;
  return JSON.stringify({ campaignId, channelId, frequency, ...(weekday !== undefined ? { weekday } : {}), time });
}

export function decodeScheduleConfirmValue(value: string | undefined): ScheduleConfirmValue | null {
  return decodeJson(ScheduleConfirmValue, value);
}
