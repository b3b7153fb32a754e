/**
 * Typed client of the Campaign Outreach Service (docs/outreach-api-notes.md; api.ts is the surface).
 *
 * Every request goes through the API key's shared RateLimiter (every retry too), every response is validated with
 * the zod schemas of schemas.ts, and every failure becomes an OutreachError (errors.ts). Names and formats the spec
 * leaves "not shown" come from unspecified.ts only.
 *
 * Retries (bounded by `maxRetries`, with exponential backoff and jitter) happen on 429, 502, 503, 504, network
 * errors and timeouts, and only for requests safe to repeat: GET, PUT, DELETE, and the POSTs that carry an
 * Idempotency-Key the spec documents (create campaign, add contacts; the same key on every try). PATCH and the other
 * POSTs (lifecycle action, send message, create end user) are retried only after a 429, or when the connection could
 * not even be opened (nothing was sent). Send message carries the caller's Idempotency-Key all the same (the spec does
 * not say the service honours it there): its caller looks the message up before sending it again (reply-send.ts).
 */
import { randomUUID } from 'node:crypto';
import { formatInTimeZone } from 'date-fns-tz';
import type { z } from 'zod';
import type {
  CallListFilter,
  CallOptions,
  CampaignListFilter,
  ContactListFilter,
  OutreachApi,
  Priority,
} from './api.js';
import {
  OutreachError,
  OutreachInputError,
  parseErrorBody,
  clip,
  UNAVAILABLE_STATUSES,
  type ErrorSubject,
} from './errors.js';
import { HttpTransport, parseRetryAfter, type HttpMethod, type HttpResponse } from './http.js';
import { RateLimiter, sharedLimiter, type LimiterLogger } from './limiter.js';
import { currentPerson } from './on-behalf.js';
import {
  ANSWERED_BY,
  CALL_LIST_FILTER_STATUSES,
  CAMPAIGN_STATUSES,
  CHANNEL_TYPES,
  CONTACT_STATUSES,
  LIFECYCLE_ACTIONS,
  BatchResult,
  Call,
  CallList,
  CampaignEnvelope,
  CampaignList,
  ContactEnvelope,
  ContactList,
  EndUser,
  MessageList,
  SendMessageResult,
  Thread,
  type BatchRequest,
  type CampaignCallItem,
  type CampaignContact,
  type CampaignDetail,
  type CampaignListItem,
  type CreateCampaignInput,
  type EndUserInput,
  type LifecycleAction,
  type Message,
  type SendMessageInput,
  type UpdateCampaignInput,
} from './schemas.js';
import {
  CALL_LIST_PARAMS,
  CAMPAIGN_LIST_PARAMS,
  CONTACT_LIST_PARAMS,
  LIST_DATE_FORMAT,
  MAX_CAMPAIGN_PAGE_SIZE,
  MAX_CONTACTS_PER_BATCH,
  MAX_PAGE_NUMBER,
  MAX_PAGE_SIZE,
  RATE_LIMITED_STATUS,
  formatCallListDateTime,
} from './unspecified.js';

export type OutreachLogger = LimiterLogger;

export interface OutreachClientOptions {
  /** Ends with `/api/v1.0` (with or without a trailing slash). */
  baseUrl: string;
  apiKey: string;
  /** Default 5000. */
  connectTimeoutMs?: number;
  /** Whole response, headers and body. Default 15000. */
  responseTimeoutMs?: number;
  /** Retries after the first attempt. Default 4. */
  maxRetries?: number;
  /** Default: the process-wide limiter of `apiKey` (sharedLimiter). */
  limiter?: RateLimiter;
  logger?: OutreachLogger;
  /** First retry delay after 502/503/504 or a network error, ms; doubles per retry, with jitter. Default 500. */
  retryBaseMs?: number;
  /** Longest retry delay, ms. Default 8000. */
  retryMaxDelayMs?: number;
  /** Told of every HTTP exchange (each try): route template, status or failure kind, time on the wire (metrics). */
  onExchange?: (x: ServiceExchange) => void;
}

export interface ServiceExchange {
  /** Route template, e.g. 'GET /campaigns/{id}'. */
  endpoint: string;
  /** HTTP status, or the kind of failure when no answer came. */
  status: number | 'network' | 'timeout';
  seconds: number;
}

interface Endpoint<T> {
  method: HttpMethod;
  /** Template for errors and logs, e.g. 'GET /campaigns/{id}'. */
  endpoint: string;
  path: string;
  query?: URLSearchParams;
  body?: unknown;
  /** Response schema; absent for the 204 of DELETE. */
  schema?: z.ZodType<T>;
  idempotencyKey?: string;
  /** The key is sent but does not make the POST safe to repeat (the spec does not document it for this endpoint). */
  keyOnly?: boolean;
  subject?: ErrorSubject;
  action?: LifecycleAction;
}

function seg(v: string | number): string {
  return encodeURIComponent(String(v));
}

function checkId(id: unknown, what: string): number {
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) {
    throw new OutreachInputError(`The ${what} id must be a whole number, got "${String(id)}".`);
  }
  return id;
}

function checkStringId(id: unknown, what: string): string {
  if (typeof id !== 'string' || id.trim() === '') {
    throw new OutreachInputError(`The ${what} id is missing; give the ${what}'s id.`);
  }
  return id;
}

function checkRange(v: number | undefined, min: number, max: number, name: string): number | undefined {
  if (v === undefined) return undefined;
  if (!Number.isInteger(v) || v < min || v > max) {
    throw new OutreachInputError(`${name} must be a whole number from ${min} to ${max}, got ${String(v)}.`);
  }
  return v;
}

function checkOneOf<T extends string>(v: T | undefined, allowed: readonly string[], name: string): T | undefined {
  if (v === undefined) return undefined;
  if (!allowed.includes(v)) {
    throw new OutreachInputError(`${name} "${String(v)}" is not one of: ${allowed.join(', ')}.`);
  }
  return v;
}

function checkDate(d: Date | undefined, name: string): Date | undefined {
  if (d === undefined) return undefined;
  if (!(d instanceof Date) || Number.isNaN(d.getTime())) throw new OutreachInputError(`${name} is not a valid date.`);
  return d;
}

/** Campaign list dates are calendar days (LIST_DATE_FORMAT), taken in UTC: pass e.g. `new Date('2026-03-01')`. */
function listDate(d: Date): string {
  return formatInTimeZone(d, 'UTC', LIST_DATE_FORMAT);
}

/** 'campaigns[0].id' from a zod path. */
function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out === '' ? String(p) : `.${String(p)}`;
  }
  return out || '(body)';
}

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues
    .slice(0, 3)
    .map((i) => `${formatPath(i.path)}: ${i.message.replace(/^Invalid (input|option): /, '')}`);
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more problems)` : '';
  return clip(`${shown.join('; ')}${more}`, 600);
}

export class OutreachClient implements OutreachApi {
  readonly limiter: RateLimiter;
  private readonly http: HttpTransport;
  private readonly apiKey: string;
  private readonly maxRetries: number;
  private readonly retryBaseMs: number;
  private readonly retryMaxDelayMs: number;
  private readonly logger?: OutreachLogger;
  private readonly onExchange?: (x: ServiceExchange) => void;

  constructor(opts: OutreachClientOptions) {
    if (typeof opts.apiKey !== 'string' || opts.apiKey.trim() === '') {
      throw new OutreachInputError('The outreach API key is empty; set OUTREACH_API_KEY.');
    }
    if (!/^[\x21-\x7e]+$/.test(opts.apiKey)) {
      throw new OutreachInputError(
        'The outreach API key contains spaces or characters that cannot be sent in a header; check OUTREACH_API_KEY.',
      );
    }
    this.apiKey = opts.apiKey;
    this.maxRetries = checkRange(opts.maxRetries ?? 4, 0, 20, 'maxRetries') ?? 4;
    this.retryBaseMs = opts.retryBaseMs ?? 500;
    this.retryMaxDelayMs = opts.retryMaxDelayMs ?? 8000;
    this.logger = opts.logger;
    this.onExchange = opts.onExchange;
    this.limiter = opts.limiter ?? sharedLimiter(opts.apiKey, { logger: opts.logger });
    this.http = new HttpTransport({
      baseUrl: opts.baseUrl,
      connectTimeoutMs: opts.connectTimeoutMs ?? 5000,
      responseTimeoutMs: opts.responseTimeoutMs ?? 15000,
      headers: { authorization: `api-key ${opts.apiKey}`, 'user-agent': 'outreach-slack' },
    });
  }

  /** Closes the connection pool (the shared limiter stays: other clients of the same key may use it). */
  async close(): Promise<void> {
    await this.http.close();
  }

  // -------------------------------------------------------------------------------------------------------------
  // Campaigns

  async createCampaign(input: CreateCampaignInput, opts?: CallOptions): Promise<CampaignDetail> {
    const env = await this.request(
      {
        method: 'POST',
        endpoint: 'POST /campaigns',
        path: '/campaigns',
        body: input,
        schema: CampaignEnvelope,
        idempotencyKey: opts?.idempotencyKey ?? randomUUID(),
        subject: { what: 'campaign', agentId: input.agent_id, integrationId: input.integration_id },
      },
      opts,
    );
    return env.campaign;
  }

  async listCampaigns(filter: CampaignListFilter = {}, opts?: CallOptions): Promise<CampaignList> {
    const P = CAMPAIGN_LIST_PARAMS;
    const q = new URLSearchParams();
    const status = checkOneOf(filter.status, CAMPAIGN_STATUSES, 'Campaign status');
    const integrationType = checkOneOf(filter.integrationType, CHANNEL_TYPES, 'Integration type');
    if (filter.agentId) q.set(P.agentId, filter.agentId);
    if (status) q.set(P.status, status);
    if (integrationType) q.set(P.integrationType, integrationType);
    if (filter.includeArchived) q.set(P.includeArchived, 'true');
    const pairs = [
      ['createdAfter', 'createdBefore'],
      ['startedAfter', 'startedBefore'],
      ['endedAfter', 'endedBefore'],
    ] as const;
    for (const [a, b] of pairs) {
      const after = checkDate(filter[a], a);
      const before = checkDate(filter[b], b);
      if (after) q.set(P[a], listDate(after));
      if (before) q.set(P[b], listDate(before));
      if (after && before && listDate(after) >= listDate(before)) {
        throw new OutreachInputError(
          `${a} (${listDate(after)}) must be earlier than ${b} (${listDate(before)}); swap them or widen the range.`,
        );
      }
    }
    const pageSize = checkRange(filter.pageSize, 1, MAX_CAMPAIGN_PAGE_SIZE, 'Page size');
    if (pageSize !== undefined) q.set(P.pageSize, String(pageSize));
    if (filter.cursor) q.set(P.cursor, filter.cursor);

    const list = await this.request(
      { method: 'GET', endpoint: 'GET /campaigns', path: '/campaigns', query: q, schema: CampaignList },
      opts,
    );
    // The service might ignore a filter: check again on what came back. The list item has no integration type,
    // so the integrationType filter can only be trusted from the server. Items without an agent are kept.
    // `total_count` stays the service's own figure.
    const campaigns = list.campaigns.filter(
      (c) =>
        (!status || c.status === status) &&
        (!filter.agentId || !c.agent || c.agent.id === filter.agentId) &&
        (filter.includeArchived === true || c.archived !== true),
    );
    return { ...list, campaigns };
  }

  async getCampaign(id: number, opts?: CallOptions): Promise<CampaignDetail> {
    checkId(id, 'campaign');
    const env = await this.request(
      {
        method: 'GET',
        endpoint: 'GET /campaigns/{id}',
        path: `/campaigns/${seg(id)}`,
        schema: CampaignEnvelope,
        subject: { what: 'campaign', campaignId: id },
      },
      opts,
    );
    return env.campaign;
  }

  async updateCampaign(id: number, patch: UpdateCampaignInput, opts?: CallOptions): Promise<CampaignDetail> {
    checkId(id, 'campaign');
    const env = await this.request(
      {
        method: 'PATCH',
        endpoint: 'PATCH /campaigns/{id}',
        path: `/campaigns/${seg(id)}`,
        body: patch,
        schema: CampaignEnvelope,
        subject: { what: 'campaign', campaignId: id },
      },
      opts,
    );
    return env.campaign;
  }

  async campaignAction(id: number, action: LifecycleAction, opts?: CallOptions): Promise<CampaignDetail> {
    checkId(id, 'campaign');
    checkOneOf(action, LIFECYCLE_ACTIONS, 'Campaign action');
    // No Idempotency-Key: the spec documents it only on create and add contacts, so this POST is not retried
    // (except after a 429).
    const env = await this.request(
      {
        method: 'POST',
        endpoint: `POST /campaigns/{id}/${action}`,
        path: `/campaigns/${seg(id)}/${seg(action)}`,
        schema: CampaignEnvelope,
        subject: { what: 'campaign', campaignId: id },
        action,
      },
      opts,
    );
    return env.campaign;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Contacts

  async addContacts(id: number, batch: BatchRequest, opts?: CallOptions): Promise<BatchResult> {
    checkId(id, 'campaign');
    const n = Array.isArray(batch?.contacts) ? batch.contacts.length : 0;
    if (n === 0) throw new OutreachInputError('There are no contacts in this batch; nothing was sent.');
    if (n > MAX_CONTACTS_PER_BATCH) {
      throw new OutreachInputError(
        `${n} contacts were given in one batch, but the outreach service accepts at most ${MAX_CONTACTS_PER_BATCH} per request; split them into batches of ${MAX_CONTACTS_PER_BATCH}.`,
      );
    }
    checkOneOf(batch.if_duplicate, ['skip', 'update'], 'if_duplicate');
    return this.request(
      {
        method: 'POST',
        endpoint: 'POST /campaigns/{id}/contacts',
        path: `/campaigns/${seg(id)}/contacts`,
        body: batch,
        schema: BatchResult,
        idempotencyKey: opts?.idempotencyKey ?? randomUUID(),
        subject: { what: 'contacts', campaignId: id },
      },
      opts,
    );
  }

  async listContacts(id: number, filter: ContactListFilter = {}, opts?: CallOptions): Promise<ContactList> {
    checkId(id, 'campaign');
    const P = CONTACT_LIST_PARAMS;
    const q = new URLSearchParams();
    const status = checkOneOf(filter.status, CONTACT_STATUSES, 'Contact status');
    const page = checkRange(filter.page, 0, MAX_PAGE_NUMBER, 'Page number');
    const pageSize = checkRange(filter.pageSize, 1, MAX_PAGE_SIZE, 'Page size');
    if (status) q.set(P.status, status);
    if (pageSize !== undefined) q.set(P.pageSize, String(pageSize));
    if (page !== undefined) q.set(P.page, String(page));
    const list = await this.request(
      {
        method: 'GET',
        endpoint: 'GET /campaigns/{id}/contacts',
        path: `/campaigns/${seg(id)}/contacts`,
        query: q,
        schema: ContactList,
        subject: { what: 'contacts', campaignId: id },
      },
      opts,
    );
    // The service might ignore the status filter: check again.
    return status ? { ...list, contacts: list.contacts.filter((c) => c.status === status) } : list;
  }

  async getContact(id: number, contactId: number, opts?: CallOptions): Promise<CampaignContact> {
    checkId(id, 'campaign');
    checkId(contactId, 'contact');
    const env = await this.request(
      {
        method: 'GET',
        endpoint: 'GET /campaigns/{id}/contacts/{contact_id}',
        path: `/campaigns/${seg(id)}/contacts/${seg(contactId)}`,
        schema: ContactEnvelope,
        subject: { what: 'contact', id: contactId, campaignId: id },
      },
      opts,
    );
    return env.contact;
  }

  async deleteContact(id: number, contactId: number, opts?: CallOptions): Promise<void> {
    checkId(id, 'campaign');
    checkId(contactId, 'contact');
    await this.request<void>(
      {
        method: 'DELETE',
        endpoint: 'DELETE /campaigns/{id}/contacts/{contact_id}',
        path: `/campaigns/${seg(id)}/contacts/${seg(contactId)}`,
        subject: { what: 'contact', id: contactId, campaignId: id },
      },
      opts,
    );
  }

  // -------------------------------------------------------------------------------------------------------------
  // Calls, threads, messages, end users

  async listCampaignCalls(id: number, filter: CallListFilter = {}, opts?: CallOptions): Promise<CallList> {
    checkId(id, 'campaign');
    const P = CALL_LIST_PARAMS;
    const q = new URLSearchParams();
    const status = checkOneOf(filter.status, CALL_LIST_FILTER_STATUSES, 'Call status');
    const answeredBy = checkOneOf(filter.answeredBy, ANSWERED_BY, 'Answered by');
    const after = checkDate(filter.createdAfter, 'createdAfter');
    const before = checkDate(filter.createdBefore, 'createdBefore');
    const page = checkRange(filter.page, 0, MAX_PAGE_NUMBER, 'Page number');
    const pageSize = checkRange(filter.pageSize, 1, MAX_PAGE_SIZE, 'Page size');
    if (status) q.set(P.status, status);
    if (answeredBy) q.set(P.answeredBy, answeredBy);
    if (after) q.set(P.createdAfter, formatCallListDateTime(after));
    if (before) q.set(P.createdBefore, formatCallListDateTime(before));
    if (pageSize !== undefined) q.set(P.pageSize, String(pageSize));
    if (page !== undefined) q.set(P.page, String(page));
    const list = await this.request(
      {
        method: 'GET',
        endpoint: 'GET /campaigns/{id}/calls',
        path: `/campaigns/${seg(id)}/calls`,
        query: q,
        schema: CallList,
        subject: { what: 'calls', campaignId: id },
      },
      opts,
    );
    if (!status && !answeredBy && !after && !before) return list;
    // The service might ignore these filters: check again. A created_at that cannot be read is kept.
    const calls = list.calls.filter((c) => {
      if (status && c.status !== status) return false;
      if (answeredBy && c.answered_by !== answeredBy) return false;
      const t = Date.parse(c.created_at);
      if (!Number.isNaN(t)) {
        if (after && t < after.getTime()) return false;
        if (before && t > before.getTime()) return false;
      }
      return true;
    });
    return { ...list, calls };
  }

  async getCall(callId: string, opts?: CallOptions): Promise<Call> {
    checkStringId(callId, 'call');
    return this.request(
      {
        method: 'GET',
        endpoint: 'GET /call/{id}',
        path: `/call/${seg(callId)}`,
        schema: Call,
        subject: { what: 'call', id: callId },
      },
      opts,
    );
  }

  async getThread(threadId: string, opts?: CallOptions): Promise<Thread> {
    checkStringId(threadId, 'thread');
    return this.request(
      {
        method: 'GET',
        endpoint: 'GET /thread/{id}',
        path: `/thread/${seg(threadId)}`,
        schema: Thread,
        subject: { what: 'thread', id: threadId },
      },
      opts,
    );
  }

  async getMessages(threadId: string, opts?: CallOptions): Promise<Message[]> {
    checkStringId(threadId, 'thread');
    return this.request(
      {
        method: 'GET',
        endpoint: 'GET /message/{thread_id}',
        path: `/message/${seg(threadId)}`,
        schema: MessageList,
        subject: { what: 'message', id: threadId },
      },
      opts,
    );
  }

  async sendMessage(input: SendMessageInput, opts?: CallOptions): Promise<SendMessageResult> {
    // Not retried except after a 429: the spec documents no Idempotency-Key here, so the caller's key is sent but the
    // caller decides, after looking the thread up, whether to send again.
    return this.request(
      {
        method: 'POST',
        endpoint: 'POST /message',
        path: '/message',
        body: input,
        schema: SendMessageResult,
        ...(opts?.idempotencyKey ? { idempotencyKey: opts.idempotencyKey, keyOnly: true } : {}),
      },
      opts,
    );
  }

  async createEndUser(input: EndUserInput, opts?: CallOptions): Promise<EndUser> {
    // Key-less POST: not retried except after a 429.
    return this.request(
      { method: 'POST', endpoint: 'POST /enduser', path: '/enduser', body: input, schema: EndUser },
      opts,
    );
  }

  async getEndUser(id: string, opts?: CallOptions): Promise<EndUser> {
    checkStringId(id, 'end user');
    return this.request(
      {
        method: 'GET',
        endpoint: 'GET /enduser/{id}',
        path: `/enduser/${seg(id)}`,
        schema: EndUser,
        subject: { what: 'end user', id },
      },
      opts,
    );
  }

  async updateEndUser(id: string, input: EndUserInput, opts?: CallOptions): Promise<EndUser> {
    checkStringId(id, 'end user');
    return this.request(
      {
        method: 'PUT',
        endpoint: 'PUT /enduser/{id}',
        path: `/enduser/${seg(id)}`,
        body: input,
        schema: EndUser,
        subject: { what: 'end user', id },
      },
      opts,
    );
  }

  // -------------------------------------------------------------------------------------------------------------
  // Iterators (page size defaults to the maximum: fewer requests under the rate limit)

  async *iterateCampaigns(
    filter: Omit<CampaignListFilter, 'cursor'> = {},
    opts?: CallOptions,
  ): AsyncIterable<CampaignListItem> {
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (;;) {
      const page = await this.listCampaigns(
        { ...filter, pageSize: filter.pageSize ?? MAX_CAMPAIGN_PAGE_SIZE, cursor },
        opts,
      );
      yield* page.campaigns;
      const { has_next, next_cursor } = page.pagination;
      if (!has_next) return;
      if (!next_cursor)
        throw this.protocolError('GET /campaigns', 'pagination.has_next is true but next_cursor is empty');
      if (seen.has(next_cursor)) {
        throw this.protocolError('GET /campaigns', 'pagination.next_cursor points back to a page already read');
      }
      seen.add(next_cursor);
      cursor = next_cursor;
    }
  }

  iterateContacts(id: number, filter: ContactListFilter = {}, opts?: CallOptions): AsyncIterable<CampaignContact> {
    return this.walkPages(
      'GET /campaigns/{id}/contacts',
      filter.page ?? 0,
      (page) => this.listContacts(id, { ...filter, page, pageSize: filter.pageSize ?? MAX_PAGE_SIZE }, opts),
      (list) => list.contacts,
    );
  }

  iterateCampaignCalls(id: number, filter: CallListFilter = {}, opts?: CallOptions): AsyncIterable<CampaignCallItem> {
    return this.walkPages(
      'GET /campaigns/{id}/calls',
      filter.page ?? 0,
      (page) => this.listCampaignCalls(id, { ...filter, page, pageSize: filter.pageSize ?? MAX_PAGE_SIZE }, opts),
      (list) => list.calls,
    );
  }

  private async *walkPages<L extends { pagination: { has_next: boolean; next_page?: number | null } }, I>(
    endpoint: string,
    first: number,
    fetch: (page: number) => Promise<L>,
    items: (list: L) => I[],
  ): AsyncIterable<I> {
    let page = first;
    for (;;) {
      const list = await fetch(page);
      yield* items(list);
      if (!list.pagination.has_next) return;
      const next = list.pagination.next_page ?? page + 1;
      if (next <= page)
        throw this.protocolError(endpoint, `pagination.next_page (${next}) does not move past page ${page}`);
      if (next > MAX_PAGE_NUMBER) {
        this.logger?.warn({ endpoint, page }, 'outreach list reached the last page number the service accepts');
        return;
      }
      page = next;
    }
  }

  // -------------------------------------------------------------------------------------------------------------
  // Sending, retrying, validating

  private async request<T>(e: Endpoint<T>, opts?: CallOptions): Promise<T> {
    const priority: Priority = opts?.priority ?? 'interactive';
    const signal = opts?.signal;
    const maxRetries = opts?.maxRetries ?? this.maxRetries;
    const headers = e.idempotencyKey ? { 'idempotency-key': e.idempotencyKey } : undefined;
    const repeatable =
      e.method === 'GET' ||
      e.method === 'PUT' ||
      e.method === 'DELETE' ||
      (e.method === 'POST' && !!e.idempotencyKey && !e.keyOnly);

    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      let res: HttpResponse;
      try {
        res = await this.limiter.schedule(
          priority,
          () => {
            opts?.onRequest?.(e.endpoint);
            return this.timed(e.endpoint, () =>
              this.http.send({
                method: e.method,
                path: e.path,
                query: e.query,
                body: e.body,
                headers,
                signal,
                endpoint: e.endpoint,
                subject: e.subject,
              }),
            );
          },
          signal,
          // The person whose command or click this serves (people take turns in the limiter); none for shared work.
          currentPerson(),
        );
      } catch (err) {
        if (!(err instanceof OutreachError)) throw err; // aborted by the caller, or limiter stopped
        err.attempts = attempt;
        // A connection that never opened sent nothing, so even a PATCH may be tried again.
        if (attempt > maxRetries || !(repeatable || err.mayHaveBeenApplied === false)) throw err;
        await this.retryDelay(e.endpoint, attempt, undefined, err.code ?? err.kind, signal);
        continue;
      }
      const ms = Math.round(performance.now() - started);
      this.logger?.debug({ endpoint: e.endpoint, status: res.status, ms, attempt, priority }, 'outreach request');

      if (res.status === RATE_LIMITED_STATUS) {
        const retryAfterMs = parseRetryAfter(res.headers['retry-after']);
        const pauseMs = this.limiter.rateLimited(retryAfterMs);
        // Assumption: a 429 means the service refused the request before processing it, so even a PATCH or a
        // key-less POST can be sent again. The limiter is paused for everyone; the retry waits in its queue.
        if (attempt <= maxRetries) {
          this.logger?.warn({ endpoint: e.endpoint, attempt, pauseMs }, 'outreach request rate-limited; will retry');
          continue;
        }
        throw this.serviceError(e, res, attempt);
      }
      this.limiter.accepted();

      // After a 502, 503 or 504 (429 is handled above).
      if (UNAVAILABLE_STATUSES.has(res.status) && repeatable && attempt <= maxRetries) {
        await this.retryDelay(
          e.endpoint,
          attempt,
          parseRetryAfter(res.headers['retry-after']),
          `HTTP ${res.status}`,
          signal,
        );
        continue;
      }
      if (res.status >= 400) throw this.serviceError(e, res, attempt);
      if (res.status < 200 || res.status >= 300) {
        throw this.protocolError(e.endpoint, `unexpected HTTP status ${res.status}`, attempt);
      }
      return this.parse(e, res, attempt);
    }
  }

  private parse<T>(e: Endpoint<T>, res: HttpResponse, attempt: number): T {
    if (!e.schema) {
      // DELETE: the spec promises 204 with no body. Another 2xx still means it was done; note the drift.
      if (res.status !== 204) {
        this.logger?.warn(
          { endpoint: e.endpoint, status: res.status },
          'outreach service answered with an unexpected success status',
        );
      }
      return undefined as T;
    }
    let json: unknown;
    try {
      json = JSON.parse(res.text);
    } catch {
      throw this.protocolError(e.endpoint, `the body of HTTP ${res.status} is not JSON`, attempt);
    }
    const r = e.schema.safeParse(json);
    if (!r.success) throw this.protocolError(e.endpoint, describeIssues(r.error.issues), attempt);
    return r.data;
  }

  private serviceError<T>(e: Endpoint<T>, res: HttpResponse, attempt: number): OutreachError {
    const retryAfterMs = parseRetryAfter(res.headers['retry-after']);
    return new OutreachError({
      kind: 'service',
      endpoint: e.endpoint,
      status: res.status,
      ...parseErrorBody(res.text, [this.apiKey]),
      retryAfterSeconds: retryAfterMs === undefined ? undefined : retryAfterMs / 1000,
      action: e.action,
      subject: e.subject,
      attempts: attempt,
    });
  }

  /** Runs one exchange and reports it to `onExchange`: the time from the send to the whole answer (or failure). */
  private async timed(endpoint: string, send: () => Promise<HttpResponse>): Promise<HttpResponse> {
    if (!this.onExchange) return send();
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      const res = await send();
      this.onExchange({ endpoint, status: res.status, seconds: seconds() });
      return res;
    } catch (err) {
      // Aborted by the caller: not an answer of the service, so not counted.
      if (err instanceof OutreachError) {
        this.onExchange({ endpoint, status: err.kind === 'timeout' ? 'timeout' : 'network', seconds: seconds() });
      }
      throw err;
    }
  }

  private protocolError(endpoint: string, detail: string, attempt?: number): OutreachError {
    return new OutreachError({ kind: 'protocol', endpoint, detail, attempts: attempt });
  }

  /** Waits before retry `attempt` + 1: Retry-After if given, else exponential backoff with jitter. */
  private async retryDelay(
    endpoint: string,
    attempt: number,
    retryAfterMs: number | undefined,
    reason: string,
    signal?: AbortSignal,
  ): Promise<void> {
    const exp = Math.min(this.retryMaxDelayMs, this.retryBaseMs * 2 ** (attempt - 1));
    const ms =
      retryAfterMs !== undefined ? Math.min(retryAfterMs, this.retryMaxDelayMs) : exp / 2 + (Math.random() * exp) / 2;
    this.logger?.warn({ endpoint, attempt, reason, delayMs: Math.round(ms) }, 'outreach request failed; will retry');
    await abortableSleep(ms, signal);
  }
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
