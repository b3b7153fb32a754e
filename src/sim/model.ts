/**
 * In-memory data of the simulator: the records it keeps per organization and the id counters. Records are the
 * simulator's own (internal) shapes; views.ts turns them into the service's response shapes.
 */
import { randomUUID } from 'node:crypto';
import type {
  AnsweredBy,
  CallStatus,
  CampaignStatus,
  ChannelType,
  CyclesMode,
  PolicyEvaluation,
  Schedule,
} from '../outreach/schemas.js';

export interface AgentRec {
  id: string;
  name: string;
  org: string;
}

export interface IntegrationRec {
  id: string;
  agentId: string;
  type: ChannelType;
  org: string;
}

export interface CyclesRec {
  enabled: boolean;
  mode: CyclesMode | null;
  max_iterations: number | null;
  cooldown_minutes: number | null;
  filter_statuses: string[];
  filter_tags: string[];
  schedule: Schedule | null;
  schedule_start_date: string | null;
  schedule_end_date: string | null;
}

export interface ContactRec {
  campaignId: number;
  id: number;
  f_id: string | null;
  name: string;
  contact: string;
  status: string;
  context: string;
  retries: number;
  has_follow_up: boolean;
  call_count: number;
  billed_duration: number;
  /** ISO instant; shown as `YYYY-MM-DD HH:MM:SS` (UTC). */
  last_call_at: string | null;
  extracted_data: Record<string, string>;
  tags: string[];
  created_at: string;
  /** End user standing for this contact in threads (made on the first call or message). */
  endUserId: string | null;
  /** Driver bookkeeping: not before this driver tick is a `retrying` contact called again. */
  retryAtTick?: number;
  /** Driver bookkeeping: WhatsApp contact reached its final status for this iteration. */
  done?: boolean;
}

/** What a campaign is created with and may change (validate.ts parses them from POST and PATCH /campaigns). */
export interface CampaignSettings {
  name: string;
  description: string;
  timezone: string;
  retries: number;
  message_limit: number;
  first_message: string | null;
  template: string | null;
  template_alt: string | null;
  scheduling: Schedule;
  cycles: CyclesRec;
}

export interface CampaignRec extends CampaignSettings {
  id: number;
  org: string;
  status: CampaignStatus;
  archived: boolean;
  agentId: string;
  integrationId: string;
  integrationType: ChannelType;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  concurrency_limit: number;
  cycle_current_iteration: number;
  cycle_last_iteration_at: string | null;
  /** ISO instant at which a campaign in `cooldown` starts its next iteration (driver). */
  cooldown_until: string | null;
  nextContactId: number;
  contacts: Map<number, ContactRec>;
  /** Phone number -> contact, for duplicate detection. */
  byPhone: Map<string, ContactRec>;
}

export interface CallRec {
  id: string;
  org: string;
  campaignId: number | null;
  contactId: number | null;
  thread_id: string;
  type: 'inbound' | 'outbound';
  status: CallStatus;
  answered_by: AnsweredBy;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  ended_by: 'agent' | 'user' | 'system' | '';
  ended_reason: string;
  duration: number;
  billed_duration: number;
  policy_evaluation: PolicyEvaluation | null;
  extracted_data: Record<string, string>;
  tags: string[];
}

export interface EndUserRec {
  id: string;
  org: string;
  display_name: string;
  integration_type: string;
  info: string;
}

export interface ThreadTagRec {
  id: string;
  name: string;
  color: string;
}

export interface AssignedUserRec {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
}

export interface ThreadRec {
  id: string;
  org: string;
  agentId: string;
  endUserId: string;
  integration: { id: string; type: string };
  updated_at: string;
  active: boolean;
  blocked: boolean;
  tags: ThreadTagRec[];
  assigned_to: AssignedUserRec[];
}

export type MessageType = 'text' | 'image' | 'audio' | 'video' | 'button' | 'template' | 'document';
export type SentBy = 'AI' | 'EU' | 'SYS';

export interface MessageRec {
  thread_id: string;
  type: MessageType;
  sent_by: SentBy;
  sent_at: string;
  content: string;
  media: string | null;
  sent_by_user: string | null;
  read: boolean;
}

/** A stored response to a POST carrying `Idempotency-Key`. */
export interface IdempotencyRec {
  status: number;
  body: unknown;
  at: number;
}

/** The agent's automatic answer to an end user's message: text(s) to send, or null for no answer. */
export type AgentReplyFn = (
  content: string,
  thread: { id: string; agentId: string; endUserId: string },
) => string | string[] | null;

export const defaultAgentReply: AgentReplyFn = (content) =>
  content.trim() === ''
    ? null
    : 'Gracias por tu mensaje. Reviso la información y en un momento te confirmo los detalles.';

export interface PlanLimits {
  /** Campaigns (not archived) an organization may hold; creation beyond it is 402. */
  maxCampaigns: number | null;
  /** Campaigns an organization may have `active` at once; activate/resume beyond it is 402. */
  maxActiveCampaigns: number | null;
}

export class SimState {
  readonly orgByKey: Map<string, string>;
  agents = new Map<string, AgentRec>();
  integrations = new Map<string, IntegrationRec>();
  campaigns = new Map<number, CampaignRec>();
  calls = new Map<string, CallRec>();
  /** The calls of each campaign, oldest first (addCall): listing a campaign's calls does not read every call. */
  private readonly callsByCampaign = new Map<number | null, CallRec[]>();
  threads = new Map<string, ThreadRec>();
  /** Each thread by its agent and end user (addThread): finding one does not read every thread. */
  private readonly threadByPeople = new Map<string, ThreadRec>();
  messages = new Map<string, MessageRec[]>();
  endUsers = new Map<string, EndUserRec>();
  idempotency = new Map<string, IdempotencyRec>();
  /** total_count cache of the campaign list: org + filters -> count and when it was computed (ms). */
  totalCountCache = new Map<string, { count: number; at: number }>();
  nextCampaignId = 1;
  billingReached = new Set<string>();
  billingReachedAll = false;
  planLimits: PlanLimits = { maxCampaigns: null, maxActiveCampaigns: null };
  agentReply: AgentReplyFn = defaultAgentReply;
  /** Contacts (phone numbers) of add-contacts requests matching this fail with the item error SERVER_ERROR. */
  batchItemFault: RegExp | null = null;
  /** Driver tick counter (sandbox driver and control.tick()). */
  tickCount = 0;
  /** How long the campaign list's total_count is cached (config, kept by reset). 0: always fresh. */
  totalCountCacheMs = 0;

  constructor(
    orgs: Record<string, string>,
    readonly clock: () => Date,
  ) {
    this.orgByKey = new Map(Object.entries(orgs));
  }

  get orgs(): string[] {
    return [...new Set(this.orgByKey.values())];
  }

  /** Offset added to the clock while seeding history in the past (see `inThePast`). */
  private skewMs = 0;

  nowIso(): string {
    return new Date(this.nowMs()).toISOString();
  }

  nowMs(): number {
    return this.clock().getTime() + this.skewMs;
  }

  /** Runs `fn` with the clock moved `agoMs` into the past (the sandbox's history). */
  inThePast<T>(agoMs: number, fn: () => T): T {
    const saved = this.skewMs;
    this.skewMs = -agoMs;
    try {
      return fn();
    } finally {
      this.skewMs = saved;
    }
  }

  newId(): string {
    return randomUUID();
  }

  isBillingReached(org: string): boolean {
    return this.billingReachedAll || this.billingReached.has(org);
  }

  campaignsOf(org: string): CampaignRec[] {
    return [...this.campaigns.values()].filter((c) => c.org === org);
  }

  callsOf(campaignId: number): CallRec[] {
    return [...(this.callsByCampaign.get(campaignId) ?? [])];
  }

  addThread(t: ThreadRec): void {
    this.threads.set(t.id, t);
    const key = `${t.org}|${t.agentId}|${t.endUserId}`;
    if (!this.threadByPeople.has(key)) this.threadByPeople.set(key, t);
  }

  /** The first thread between an agent and an end user. */
  threadBetween(org: string, agentId: string, endUserId: string): ThreadRec | undefined {
    return this.threadByPeople.get(`${org}|${agentId}|${endUserId}`);
  }

  addCall(call: CallRec): void {
    this.calls.set(call.id, call);
    const list = this.callsByCampaign.get(call.campaignId);
    if (list) list.push(call);
    else this.callsByCampaign.set(call.campaignId, [call]);
  }

  reset(): void {
    this.agents.clear();
    this.integrations.clear();
    this.campaigns.clear();
    this.calls.clear();
    this.callsByCampaign.clear();
    this.threadByPeople.clear();
    this.threads.clear();
    this.messages.clear();
    this.endUsers.clear();
    this.idempotency.clear();
    this.totalCountCache.clear();
    this.nextCampaignId = 1;
    this.billingReached.clear();
    this.billingReachedAll = false;
    this.planLimits = { maxCampaigns: null, maxActiveCampaigns: null };
    this.agentReply = defaultAgentReply;
    this.batchItemFault = null;
    this.tickCount = 0;
  }
}
