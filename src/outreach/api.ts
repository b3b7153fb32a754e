/**
 * The typed surface of the Campaign Outreach Service client. `OutreachClient` (client.ts) implements it; the Slack
 * and watch layers depend on this interface only.
 */
import type {
  BatchRequest,
  BatchResult,
  Call,
  CallList,
  CallListFilterStatus,
  AnsweredBy,
  CampaignCallItem,
  CampaignContact,
  CampaignDetail,
  CampaignList,
  CampaignListItem,
  CampaignStatus,
  ChannelType,
  ContactList,
  ContactStatus,
  CreateCampaignInput,
  EndUser,
  EndUserInput,
  LifecycleAction,
  Message,
  SendMessageInput,
  SendMessageResult,
  Thread,
  UpdateCampaignInput,
} from './schemas.js';

/**
 * Who is waiting for a request decides its place in the shared limiter's queue: a person's command goes ahead of
 * the poller, the poller ahead of bulk uploads.
 */
export type Priority = 'interactive' | 'poller' | 'bulk';

export interface CallOptions {
  /** Default: 'interactive'. */
  priority?: Priority;
  /**
   * For POSTs: sent as `Idempotency-Key`, the same on every retry. createCampaign/addContacts make one if absent;
   * sendMessage sends it when given (its caller sends again after a look-up, with the same key).
   */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** Retries after the first attempt for this call; default the client's `maxRetries`. The poller asks for none:
   *  its next cycle is the retry, and it backs off on its own. */
  maxRetries?: number;
  /**
   * Told of each request this call sends, by route template (each try, each page of an iterator): the poller counts
   * its requests per cycle this way.
   */
  onRequest?: (endpoint: string) => void;
}

export interface CampaignListFilter {
  status?: CampaignStatus;
  integrationType?: ChannelType;
  agentId?: string;
  includeArchived?: boolean;
  createdAfter?: Date;
  createdBefore?: Date;
  startedAfter?: Date;
  startedBefore?: Date;
  endedAfter?: Date;
  endedBefore?: Date;
  /** 1..100 */
  pageSize?: number;
  cursor?: string;
}

export interface ContactListFilter {
  status?: ContactStatus;
  /** 0..25000 */
  page?: number;
  /** 1..100 */
  pageSize?: number;
}

export interface CallListFilter {
  status?: CallListFilterStatus;
  answeredBy?: AnsweredBy;
  createdAfter?: Date;
  createdBefore?: Date;
  /** 0..25000, 0-based */
  page?: number;
  /** 1..100 */
  pageSize?: number;
}

export interface OutreachApi {
  createCampaign(input: CreateCampaignInput, opts?: CallOptions): Promise<CampaignDetail>;
  listCampaigns(filter?: CampaignListFilter, opts?: CallOptions): Promise<CampaignList>;
  getCampaign(id: number, opts?: CallOptions): Promise<CampaignDetail>;
  updateCampaign(id: number, patch: UpdateCampaignInput, opts?: CallOptions): Promise<CampaignDetail>;
  campaignAction(id: number, action: LifecycleAction, opts?: CallOptions): Promise<CampaignDetail>;
  addContacts(id: number, batch: BatchRequest, opts?: CallOptions): Promise<BatchResult>;
  listContacts(id: number, filter?: ContactListFilter, opts?: CallOptions): Promise<ContactList>;
  getContact(id: number, contactId: number, opts?: CallOptions): Promise<CampaignContact>;
  deleteContact(id: number, contactId: number, opts?: CallOptions): Promise<void>;
  listCampaignCalls(id: number, filter?: CallListFilter, opts?: CallOptions): Promise<CallList>;
  getCall(callId: string, opts?: CallOptions): Promise<Call>;
  getThread(threadId: string, opts?: CallOptions): Promise<Thread>;
  getMessages(threadId: string, opts?: CallOptions): Promise<Message[]>;
  sendMessage(input: SendMessageInput, opts?: CallOptions): Promise<SendMessageResult>;
  createEndUser(input: EndUserInput, opts?: CallOptions): Promise<EndUser>;
  getEndUser(id: string, opts?: CallOptions): Promise<EndUser>;
  updateEndUser(id: string, input: EndUserInput, opts?: CallOptions): Promise<EndUser>;

  /** Every campaign matching the filter, walking `next_cursor` pages. */
  iterateCampaigns(filter?: Omit<CampaignListFilter, 'cursor'>, opts?: CallOptions): AsyncIterable<CampaignListItem>;
  /** Every contact, walking page numbers from `filter.page ?? 0`. */
  iterateContacts(id: number, filter?: ContactListFilter, opts?: CallOptions): AsyncIterable<CampaignContact>;
  /** Every call, walking page numbers from `filter.page ?? 0`. */
  iterateCampaignCalls(id: number, filter?: CallListFilter, opts?: CallOptions): AsyncIterable<CampaignCallItem>;
}
