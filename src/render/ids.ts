/**
 * The action_ids our buttons carry and the codecs of their `value`s. The app's action listeners depend on these.
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
} as const;
export type ActionIdBase = (typeof ACTION_IDS)[keyof typeof ACTION_IDS];

/** `base` or `base:suffix`. */
export function actionId(base: ActionIdBase, suffix?: string): string {
  return suffix ? `${base}:${suffix}` : base;
}

/** Matches `base` and `base:<suffix>`: use it with `app.action(...)`. */
export function actionIdPattern(base: ActionIdBase): RegExp {
  return new RegExp(`^${base}(?::[a-z_-]+)?$`);
}

/** JSON of a button value or a view's private_metadata; undefined when absent or malformed. */
export function parseJson(value: string | undefined): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
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
  const r = CampaignActionValue.safeParse(parseJson(value));
  return r.success ? r.data : null;
}

// ---------------------------------------------------------------------------------------------------------------
const ContactRefValue = z.object({ campaignId: Id, contactId: Id });
export type ContactRefValue = z.infer<typeof ContactRefValue>;

export function encodeContactRef(v: ContactRefValue): string {
  return JSON.stringify({ campaignId: v.campaignId, contactId: v.contactId });
}
export function decodeContactRef(value: string | undefined): ContactRefValue | null {
  const r = ContactRefValue.safeParse(parseJson(value));
  return r.success ? r.data : null;
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
  const r = ContactsPageValue.safeParse(parseJson(value));
  return r.success ? r.data : null;
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
  const r = CallsPageValue.safeParse(parseJson(value));
  return r.success ? r.data : null;
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
  const r = CampaignListNextValue.safeParse(parseJson(value));
  if (!r.success) return null;
  const filter: CampaignListRequestFilter = {};
  for (const [k, x] of Object.entries(r.data.filter)) if (x !== undefined) Object.assign(filter, { [k]: x });
  return { cursor: r.data.cursor, filter };
}

/** Lifecycle action of a `campaign_action:<action>` id (the value carries it too). */
export function actionOfActionId(id: string): LifecycleAction | null {
  const suffix = id.split(':')[1];
  return (LIFECYCLE_ACTIONS as readonly string[]).includes(suffix ?? '') ? (suffix as LifecycleAction) : null;
}
