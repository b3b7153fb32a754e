/**
 * zod schemas of every resource and envelope of the Campaign Outreach Service (docs/outreach-api-notes.md).
 *
 * Response objects are "loose": unknown extra fields are kept, never rejected, because the service may add fields
 * (analytics is open-ended). Fields the spec lists but a real service might leave out or send as null are
 * `nullish()`; identifiers and statuses, without which nothing can be shown, are required.
 */
import { z } from 'zod';

// ---------------------------------------------------------------------------------------------------------------
// Enums
export const CHANNEL_TYPES = ['phone_call', 'whatsapp'] as const;
export const ChannelType = z.enum(CHANNEL_TYPES);
export type ChannelType = z.infer<typeof ChannelType>;

export const CAMPAIGN_STATUSES = ['pending', 'ready', 'active', 'inactive', 'cooldown', 'finished'] as const;
export const CampaignStatus = z.enum(CAMPAIGN_STATUSES);
export type CampaignStatus = z.infer<typeof CampaignStatus>;

export const LIFECYCLE_ACTIONS = ['activate', 'pause', 'resume', 'archive'] as const;
export const LifecycleAction = z.enum(LIFECYCLE_ACTIONS);
export type LifecycleAction = z.infer<typeof LifecycleAction>;

export const PHONE_CONTACT_STATUSES = [
  'queue',
  'sending',
  'failed',
  'retrying',
  'converted',
  'voicemail',
  'answered',
] as const;
export const WHATSAPP_CONTACT_STATUSES = [
  'queue',
  'sending',
  'sent',
  'delivered',
  'read',
  'accepted',
  'rejected',
  'failed',
  'retrying',
  'converted',
] as const;
/** The filter values of GET /campaigns/{id}/contacts, in the spec's order. */
export const CONTACT_STATUSES = [
  'queue',
  'sending',
  'sent',
  'delivered',
  'voicemail',
  'read',
  'failed',
  'retrying',
  'converted',
  'answered',
  'accepted',
  'rejected',
] as const;
export const ContactStatus = z.enum(CONTACT_STATUSES);
export type ContactStatus = z.infer<typeof ContactStatus>;
export const DELETABLE_CONTACT_STATUSES: readonly string[] = ['queue', 'failed'];

export const CALL_STATUSES = [
  'created',
  'queued',
  'ringing',
  'in-progress',
  'forwarding',
  'ended',
  'busy',
  'no-answer',
  'failed',
] as const;
export const CallStatus = z.enum(CALL_STATUSES);
export type CallStatus = z.infer<typeof CallStatus>;
/** Statuses the campaign call list can filter by. */
export const CALL_LIST_FILTER_STATUSES = ['ended', 'failed', 'busy', 'no-answer', 'in-progress'] as const;
export const CallListFilterStatus = z.enum(CALL_LIST_FILTER_STATUSES);
export type CallListFilterStatus = z.infer<typeof CallListFilterStatus>;

export const ANSWERED_BY = ['human', 'machine', 'unknown'] as const;
export const AnsweredBy = z.enum(ANSWERED_BY);
export type AnsweredBy = z.infer<typeof AnsweredBy>;

const MESSAGE_TYPES = ['text', 'image', 'audio', 'video', 'button', 'template', 'document'] as const;
const SENT_BY = ['AI', 'EU', 'SYS'] as const;

export const ERROR_KEYS = [
  'FORBIDDEN',
  'NOT_FOUND',
  'RATE_LIMITED',
  'SERVER_ERROR',
  'INVALID_REQUEST',
  'INVALID_STATUS',
  'IMMUTABLE_FIELD',
  'UNKNOWN_ACTION',
  'AGENT_NOT_FOUND',
  'INTEGRATION_NOT_FOUND',
  'INVALID_INTEGRATION_TYPE',
  'INVALID_FILTER_TAG',
  'INVALID_PHONE_NUMBER',
  'MISSING_CONTACT',
  'CONTACT_NOT_FOUND',
  'CONTACT_NOT_DELETABLE',
  'CAMPAIGN_FINISHED',
  'CYCLES_NOT_ENABLED',
  'SCHEDULED_MODE_ONLY',
  'INVALID_STATUS_TRANSITION',
  'BILLING_LIMIT_REACHED',
] as const;
export type ErrorKey = (typeof ERROR_KEYS)[number];

// ---------------------------------------------------------------------------------------------------------------
// Schedule and cycles
export const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Day = (typeof DAYS)[number];

const ScheduleDay = z.looseObject({
  startTime: z.string(),
  stopTime: z.string(),
  active: z.boolean(),
});
type ScheduleDay = z.infer<typeof ScheduleDay>;

export const Schedule = z.looseObject({
  mon: ScheduleDay.optional(),
  tue: ScheduleDay.optional(),
  wed: ScheduleDay.optional(),
  thu: ScheduleDay.optional(),
  fri: ScheduleDay.optional(),
  sat: ScheduleDay.optional(),
  sun: ScheduleDay.optional(),
});
export type Schedule = z.infer<typeof Schedule>;

export const CyclesMode = z.enum(['cooldown', 'scheduled']);
export type CyclesMode = z.infer<typeof CyclesMode>;

/** Cycles as returned on the campaign detail (no `filter_tags`). */
export const Cycles = z.looseObject({
  enabled: z.boolean(),
  mode: CyclesMode.nullish(),
  max_iterations: z.number().int().nullish(),
  cooldown_minutes: z.number().int().nullish(),
  filter_statuses: z.array(z.string()).nullish(),
  filter_tags: z.array(z.string()).nullish(),
  schedule: Schedule.nullish(),
  schedule_start_date: z.string().nullish(),
  schedule_end_date: z.string().nullish(),
});
export type Cycles = z.infer<typeof Cycles>;

/** Cycles as sent on create and update. */
export interface CyclesInput {
  enabled?: boolean;
  mode?: CyclesMode;
  max_iterations?: number;
  cooldown_minutes?: number;
  filter_statuses?: string[];
  filter_tags?: string[];
  schedule?: Schedule;
  schedule_start_date?: string | null;
  schedule_end_date?: string | null;
}

// ---------------------------------------------------------------------------------------------------------------
// Campaigns
const AgentRef = z.looseObject({ id: z.string(), name: z.string().nullish() });
type AgentRef = z.infer<typeof AgentRef>;

const IntegrationRef = z.looseObject({ id: z.string(), type: ChannelType });
type IntegrationRef = z.infer<typeof IntegrationRef>;

/** Analytics: open-ended, shape depends on the channel; numbers and strings kept as they come. */
export const Analytics = z.record(z.string(), z.unknown());
export type Analytics = z.infer<typeof Analytics>;

export const CampaignDetail = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  status: CampaignStatus,
  integration: IntegrationRef.nullable(),
  agent: AgentRef,
  created_at: z.string(),
  scheduling: Schedule.nullish(),
  cycles: Cycles.nullish(),
  analytics: Analytics.nullish(),
  // Settable fields that the service may echo back on the detail.
  description: z.string().nullish(),
  timezone: z.string().nullish(),
  retries: z.number().int().nullish(),
  message_limit: z.number().int().nullish(),
  first_message: z.string().nullish(),
  template: z.string().nullish(),
  template_alt: z.string().nullish(),
  archived: z.boolean().nullish(),
});
export type CampaignDetail = z.infer<typeof CampaignDetail>;

export const CampaignListItem = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullish(),
  status: CampaignStatus,
  created_at: z.string().nullish(),
  started_at: z.string().nullish(),
  ended_at: z.string().nullish(),
  agent: AgentRef.nullish(),
  scheduling: Schedule.nullish(),
  timezone: z.string().nullish(),
  retries: z.number().int().nullish(),
  archived: z.boolean().nullish(),
  template: z.string().nullish(),
  first_message: z.string().nullish(),
  concurrency_limit: z.number().int().nullish(),
  cycle_enabled: z.boolean().nullish(),
  cycle_max_iterations: z.number().int().nullish(),
  cycle_cooldown_minutes: z.number().int().nullish(),
  cycle_filter_statuses: z.array(z.string()).nullish(),
  cycle_filter_tags: z.array(z.string()).nullish(),
  cycle_current_iteration: z.number().int().nullish(),
  cycle_last_iteration_at: z.string().nullish(),
});
export type CampaignListItem = z.infer<typeof CampaignListItem>;

export const CampaignEnvelope = z.looseObject({ success: z.boolean(), campaign: CampaignDetail });
export type CampaignEnvelope = z.infer<typeof CampaignEnvelope>;

export interface CreateCampaignInput {
  name: string;
  agent_id: string;
  integration_id: string;
  integration_type: ChannelType;
  description?: string;
  timezone?: string;
  retries?: number;
  message_limit?: number;
  first_message?: string;
  template?: string;
  template_alt?: string;
  scheduling?: Schedule;
  cycles?: CyclesInput;
}

export interface UpdateCampaignInput {
  name?: string;
  description?: string;
  timezone?: string;
  retries?: number;
  message_limit?: number;
  scheduling?: Schedule;
  first_message?: string;
  template?: string;
  template_alt?: string;
  cycles?: Omit<CyclesInput, 'mode'>;
}

// ---------------------------------------------------------------------------------------------------------------
// Pagination shapes
const CursorPagination = z.looseObject({
  has_next: z.boolean(),
  has_previous: z.boolean(),
  next_cursor: z.string().nullish(),
  previous_cursor: z.string().nullish(),
});
type CursorPagination = z.infer<typeof CursorPagination>;

export const PagePagination = z.looseObject({
  has_next: z.boolean(),
  has_previous: z.boolean(),
  next_page: z.number().int().nullish(),
  previous_page: z.number().int().nullish(),
});
export type PagePagination = z.infer<typeof PagePagination>;

const IndexedPagePagination = PagePagination.extend({
  page_index: z.number().int(),
  page_size: z.number().int(),
});
type IndexedPagePagination = z.infer<typeof IndexedPagePagination>;

export const CampaignList = z.looseObject({
  total_count: z.number().int(),
  campaigns: z.array(CampaignListItem),
  pagination: CursorPagination,
});
export type CampaignList = z.infer<typeof CampaignList>;

// ---------------------------------------------------------------------------------------------------------------
// Contacts
export const CampaignContact = z.looseObject({
  id: z.number().int(),
  f_id: z.string().nullish(),
  name: z.string().nullish(),
  contact: z.string(),
  status: z.string(),
  context: z.string().nullish(),
  retries: z.number().int().nullish(),
  has_follow_up: z.boolean().nullish(),
  call_count: z.number().int().nullish(),
  billed_duration: z.number().nullish(),
  last_call_at: z.string().nullish(),
  extracted_data: z.record(z.string(), z.string()).nullish(),
  tags: z.array(z.string()).nullish(),
});
export type CampaignContact = z.infer<typeof CampaignContact>;

export const ContactList = z.looseObject({
  total_count: z.number().int().nullish(),
  contacts: z.array(CampaignContact),
  pagination: PagePagination,
});
export type ContactList = z.infer<typeof ContactList>;

export const ContactEnvelope = z.looseObject({ success: z.boolean(), contact: CampaignContact });
export type ContactEnvelope = z.infer<typeof ContactEnvelope>;

export interface ContactInput {
  contact: string;
  name?: string;
  context?: string;
  extracted_data?: Record<string, string>;
  f_id?: string;
}
export const DuplicatePolicy = z.enum(['skip', 'update']);
export type DuplicatePolicy = z.infer<typeof DuplicatePolicy>;

export interface BatchRequest {
  contacts: ContactInput[];
  if_duplicate?: DuplicatePolicy;
}

const BatchItemStatus = z.enum(['created', 'updated', 'skipped_duplicate', 'failed']);
type BatchItemStatus = z.infer<typeof BatchItemStatus>;

const BatchItemResult = z.looseObject({
  index: z.number().int(),
  status: BatchItemStatus,
  id: z.union([z.string(), z.number()]).nullish(),
  contact: z.string().nullish(),
  error: z.string().nullish(),
});
type BatchItemResult = z.infer<typeof BatchItemResult>;

export const BatchResult = z.looseObject({
  success: z.boolean(),
  summary: z.looseObject({
    created: z.number().int(),
    updated: z.number().int(),
    skipped_duplicate: z.number().int(),
    failed: z.number().int(),
  }),
  results: z.array(BatchItemResult),
});
export type BatchResult = z.infer<typeof BatchResult>;

// ---------------------------------------------------------------------------------------------------------------
// Calls, threads, messages, end users
export const PolicyResult = z.looseObject({
  policy_id: z.string(),
  policy_name: z.string().nullish(),
  result: z.string(),
  explanation: z.string().nullish(),
  evaluated_at: z.string().nullish(),
});
export type PolicyResult = z.infer<typeof PolicyResult>;

export const PolicyEvaluation = z.looseObject({
  score: z.number().nullish(),
  policies_evaluated_count: z.number().int().nullish(),
  policies_met_count: z.number().int().nullish(),
  policies_not_applicable_count: z.number().int().nullish(),
  completed: z.boolean().nullish(),
  completed_at: z.string().nullish(),
  policies: z.array(PolicyResult).nullish(),
});
export type PolicyEvaluation = z.infer<typeof PolicyEvaluation>;

export const EndUser = z.looseObject({
  id: z.string(),
  display_name: z.string().nullish(),
  integration_type: z.string().nullish(),
  info: z.string().nullish(),
});
export type EndUser = z.infer<typeof EndUser>;

export interface EndUserInput {
  display_name: string;
  info: string;
}

const ThreadTag = z.looseObject({ id: z.string(), name: z.string().nullish(), color: z.string().nullish() });
const AssignedUser = z.looseObject({
  id: z.string(),
  email: z.string().nullish(),
  first_name: z.string().nullish(),
  last_name: z.string().nullish(),
});

export const Thread = z.looseObject({
  id: z.string(),
  agent: z.looseObject({ id: z.string(), name: z.string().nullish() }),
  end_user: EndUser,
  integration: z.looseObject({ id: z.string(), type: z.string() }).nullish(),
  updated_at: z.string().nullish(),
  active: z.boolean().nullish(),
  blocked: z.boolean().nullish(),
  tags: z.array(ThreadTag).nullish(),
  assigned_to: z.array(AssignedUser).nullish(),
});
export type Thread = z.infer<typeof Thread>;

export const Call = z.looseObject({
  id: z.string(),
  thread_id: z.string().nullish(),
  thread: Thread.nullish(),
  type: z.enum(['inbound', 'outbound']).nullish(),
  status: CallStatus,
  answered_by: AnsweredBy.nullish(),
  created_at: z.string(),
  started_at: z.string().nullish(),
  ended_at: z.string().nullish(),
  ended_by: z.enum(['agent', 'user', 'system', '']).nullish(),
  ended_reason: z.string().nullish(),
  duration: z.number().nullish(),
  billed_duration: z.number().nullish(),
  policy_evaluation: PolicyEvaluation.nullish(),
});
export type Call = z.infer<typeof Call>;

const CallContactRef = z.looseObject({
  id: z.number().int(),
  f_id: z.string().nullish(),
  name: z.string().nullish(),
  phone_number: z.string().nullish(),
  status: z.string().nullish(),
});

export const CampaignCallItem = Call.extend({
  contact: CallContactRef.nullish(),
  extracted_data: z.record(z.string(), z.string()).nullish(),
  tags: z.array(z.string()).nullish(),
  recording_url: z.string().nullish(),
});
export type CampaignCallItem = z.infer<typeof CampaignCallItem>;

export const CallList = z.looseObject({
  total_count: z.number().int().nullish(),
  calls: z.array(CampaignCallItem),
  pagination: IndexedPagePagination,
});
export type CallList = z.infer<typeof CallList>;

export const Message = z.looseObject({
  thread_id: z.string(),
  type: z.enum(MESSAGE_TYPES),
  sent_by: z.enum(SENT_BY),
  sent_at: z.string(),
  content: z.string().nullish(),
  media: z.string().nullish(),
  sent_by_user: z.string().nullish(),
  read: z.boolean().nullish(),
});
export type Message = z.infer<typeof Message>;
export const MessageList = z.array(Message);

export interface SendMessageInput {
  agent_id: string;
  end_user_id: string;
  content: string;
}

export const SendMessageResult = z.looseObject({
  thread: Thread,
  messages: z.array(Message),
  in_response_to: Message.nullish(),
});
export type SendMessageResult = z.infer<typeof SendMessageResult>;

// ---------------------------------------------------------------------------------------------------------------
// Error bodies
/** 1. Campaign error envelope (the lifecycle 409 adds current_status and valid_targets). */
export const CampaignErrorBody = z.looseObject({
  success: z.literal(false),
  error: z.string(),
  message: z.string().nullish(),
  field: z.string().nullish(),
  current_status: z.string().nullish(),
  valid_targets: z.array(z.string()).nullish(),
});
export type CampaignErrorBody = z.infer<typeof CampaignErrorBody>;

/** 2. Generic envelope. */
export const GenericErrorBody = z.looseObject({ error: z.number(), message: z.string().nullish() });
export type GenericErrorBody = z.infer<typeof GenericErrorBody>;

/** 3. Validation body: field name -> messages, plus non_field_errors. */
export const ValidationErrorBody = z.record(z.string(), z.array(z.string()));
export type ValidationErrorBody = z.infer<typeof ValidationErrorBody>;
