/**
 * Calls, threads, messages and end users: the operations the control surface and the sandbox driver use, and the
 * routes (GET /call/{id}, recording, GET /thread/{id}, GET /message/{thread_id}, POST /message, end users, and the
 * campaign call list).
 */
import {
  ANSWERED_BY,
  CALL_LIST_FILTER_STATUSES,
  type AnsweredBy,
  type CallStatus,
  type PolicyEvaluation,
} from '../outreach/schemas.js';
import { CALL_LIST_PARAMS as P, MAX_PAGE_NUMBER, MAX_PAGE_SIZE } from '../outreach/unspecified.js';
import { findCampaign } from './campaigns.js';
import { ok, type Handler } from './context.js';
import { genericError } from './errors.js';
import type {
  CallRec,
  CampaignRec,
  ContactRec,
  EndUserRec,
  MessageRec,
  MessageType,
  SentBy,
  SimState,
  ThreadRec,
} from './model.js';
import { dateParam, enumParam, intParam, InvalidJson, isObject, type Obj } from './validate.js';
import { callItemView, callView, endUserView, hasRecording, isTerminalCall, messageView, threadView } from './views.js';
import { silentMp3 } from './recording.js';

const DEFAULT_CALL_PAGE_SIZE = 20;

// ---------------------------------------------------------------------------------------------------------------
// Operations

function newEndUser(
  state: SimState,
  org: string,
  f: { display_name: string; info?: string; integration_type?: string },
): EndUserRec {
  const u: EndUserRec = {
    id: state.newId(),
    org,
    display_name: f.display_name,
    integration_type: f.integration_type ?? 'api',
    info: f.info ?? '',
  };
  state.endUsers.set(u.id, u);
  return u;
}

/** The end user standing for a campaign contact (created on first use). */
export function endUserForContact(state: SimState, c: CampaignRec, x: ContactRec): EndUserRec {
  const existing = x.endUserId ? state.endUsers.get(x.endUserId) : undefined;
  if (existing) return existing;
  const u = newEndUser(state, c.org, {
    display_name: x.name || x.contact,
    info: x.contact,
    integration_type: c.integrationType,
  });
  x.endUserId = u.id;
  return u;
}

/** The thread between an agent and an end user (any integration), created with `integration` when none exists. */
export function threadBetween(
  state: SimState,
  org: string,
  agentId: string,
  endUserId: string,
  integration: { id: string; type: string },
): ThreadRec {
  const known = state.threadBetween(org, agentId, endUserId);
  if (known) return known;
  const t: ThreadRec = {
    id: state.newId(),
    org,
    agentId,
    endUserId,
    integration,
    updated_at: state.nowIso(),
    active: true,
    blocked: false,
    tags: [],
    assigned_to: [],
  };
  state.addThread(t);
  state.messages.set(t.id, []);
  return t;
}

export interface NewMessage {
  sent_by: SentBy;
  content: string;
  type?: MessageType;
  media?: string | null;
  sent_by_user?: string | null;
  read?: boolean;
}

export function appendMessage(state: SimState, thread: ThreadRec, m: NewMessage): MessageRec {
  const rec: MessageRec = {
    thread_id: thread.id,
    type: m.type ?? 'text',
    sent_by: m.sent_by,
    sent_at: state.nowIso(),
    content: m.content,
    media: m.media ?? null,
    sent_by_user: m.sent_by_user ?? null,
    read: m.read ?? m.sent_by !== 'EU',
  };
  const list = state.messages.get(thread.id) ?? [];
  list.push(rec);
  state.messages.set(thread.id, list);
  thread.updated_at = rec.sent_at;
  return rec;
}

export type PolicyOutcome = 'met' | 'not_met' | 'not_applicable';

const POLICIES = [
  { policy_id: 'pol-saludo', policy_name: 'Saludo y presentación del agente' },
  { policy_id: 'pol-datos', policy_name: 'Confirmación de identidad y datos' },
  { policy_id: 'pol-cierre', policy_name: 'Cierre con siguiente paso acordado' },
] as const;

const EXPLANATIONS: Record<PolicyOutcome, string> = {
  met: 'El agente cumplió la política durante la llamada.',
  not_met: 'El agente no cumplió la política en la conversación.',
  not_applicable: 'La conversación terminó antes de que la política aplicara.',
};

/** A completed policy evaluation: one result per policy of POLICIES (missing results count as met). */
export function policyEvaluation(at: string, results: PolicyOutcome[] = []): PolicyEvaluation {
  const policies = POLICIES.map((p, i) => {
    const result = results[i] ?? 'met';
    return { ...p, result, explanation: EXPLANATIONS[result], evaluated_at: at };
  });
  const met = policies.filter((p) => p.result === 'met').length;
  const na = policies.filter((p) => p.result === 'not_applicable').length;
  const applicable = policies.length - na;
  return {
    score: applicable === 0 ? 0 : Math.round((met / applicable) * 100),
    policies_evaluated_count: policies.length,
    policies_met_count: met,
    policies_not_applicable_count: na,
    completed: true,
    completed_at: at,
    policies,
  };
}

export interface CallPatch {
  status?: CallStatus;
  answered_by?: AnsweredBy;
  started_at?: string | null;
  ended_at?: string | null;
  ended_by?: 'agent' | 'user' | 'system' | '';
  ended_reason?: string;
  /** Seconds. Default when the call ends: time since started_at (at least 1 s). */
  duration?: number;
  /** Seconds. Default: duration rounded up to whole minutes. */
  billed_duration?: number;
  policy_evaluation?: PolicyEvaluation | null;
  /** Merged into the call's (and its contact's) extracted data. */
  extracted_data?: Record<string, string>;
  /** Added to the call's (and its contact's) tags. */
  tags?: string[];
  /**
   * Contact status to set when the call reaches a final status. Default: ended by a human -> answered, by a
   * machine -> voicemail; busy/no-answer/failed -> retrying while the contact has retries left, else failed.
   * null: leave the contact's status as it is.
   */
  contactStatus?: string | null;
}

export interface CreateCallInput extends CallPatch {
  /** Default: the first contact in queue or retrying. */
  contactId?: number;
  type?: 'inbound' | 'outbound';
  created_at?: string;
}

/** Places a call to a contact of a phone campaign (creates its end user and thread); contact goes to `sending`. */
export function createCall(state: SimState, c: CampaignRec, input: CreateCallInput = {}): CallRec {
  if (c.integrationType !== 'phone_call') throw new Error(`Campaign ${c.id} is a WhatsApp campaign: no calls.`);
  const { contactId, type, created_at, ...patch } = input;
  const contact =
    contactId !== undefined
      ? c.contacts.get(contactId)
      : [...c.contacts.values()].find((x) => x.status === 'queue' || x.status === 'retrying');
  if (!contact)
    throw new Error(
      contactId !== undefined
        ? `Contact ${contactId} not found in campaign ${c.id}.`
        : `Campaign ${c.id} has no contact in queue or retrying to call; pass contactId.`,
    );
  const eu = endUserForContact(state, c, contact);
  const thread = threadBetween(state, c.org, c.agentId, eu.id, { id: c.integrationId, type: c.integrationType });
  const now = created_at ?? state.nowIso();
  const call: CallRec = {
    id: state.newId(),
    org: c.org,
    campaignId: c.id,
    contactId: contact.id,
    thread_id: thread.id,
    type: type ?? 'outbound',
    status: 'created',
    answered_by: 'unknown',
    created_at: now,
    started_at: null,
    ended_at: null,
    ended_by: '',
    ended_reason: '',
    duration: 0,
    billed_duration: 0,
    policy_evaluation: null,
    extracted_data: {},
    tags: [],
  };
  state.addCall(call);
  contact.status = 'sending';
  contact.call_count += 1;
  contact.last_call_at = now;
  thread.updated_at = now;
  if (Object.keys(patch).length > 0) updateCall(state, call, patch);
  return call;
}

/** Moves a call (any status to any status); reaching a final status fills the end fields and updates the contact. */
export function updateCall(state: SimState, call: CallRec, patch: CallPatch): CallRec {
  const wasFinal = isTerminalCall(call.status);
  const now = state.nowIso();
  if (patch.answered_by !== undefined) call.answered_by = patch.answered_by;
  if (patch.started_at !== undefined) call.started_at = patch.started_at;
  if (patch.extracted_data) call.extracted_data = { ...call.extracted_data, ...patch.extracted_data };
  if (patch.tags) call.tags = [...new Set([...call.tags, ...patch.tags])];
  if (patch.status !== undefined) {
    call.status = patch.status;
    if ((patch.status === 'in-progress' || patch.status === 'forwarding') && call.started_at === null)
      call.started_at = now;
  }
  const final = isTerminalCall(call.status);
  if (final && !wasFinal) {
    call.ended_at = patch.ended_at ?? now;
    if (call.status === 'ended') {
      if (call.answered_by === 'unknown' && patch.answered_by === undefined) call.answered_by = 'human';
      call.started_at ??= call.ended_at;
      const elapsed = Math.round((Date.parse(call.ended_at) - Date.parse(call.started_at)) / 1000);
      call.duration = patch.duration ?? Math.max(1, elapsed);
      call.ended_by = patch.ended_by ?? 'agent';
      call.ended_reason = patch.ended_reason ?? (call.answered_by === 'machine' ? 'voicemail' : 'completed');
      call.policy_evaluation =
        patch.policy_evaluation !== undefined
          ? patch.policy_evaluation
          : call.answered_by === 'human'
            ? policyEvaluation(call.ended_at)
            : null;
    } else {
      call.duration = patch.duration ?? 0;
      call.ended_by = patch.ended_by ?? '';
      call.ended_reason = patch.ended_reason ?? call.status;
      if (patch.policy_evaluation !== undefined) call.policy_evaluation = patch.policy_evaluation;
    }
    call.billed_duration = patch.billed_duration ?? Math.ceil(call.duration / 60) * 60;
    contactAfterCall(state, call, patch);
  } else {
    // Explicit values on a call that is not (newly) final.
    if (patch.ended_at !== undefined) call.ended_at = patch.ended_at;
    if (patch.ended_by !== undefined) call.ended_by = patch.ended_by;
    if (patch.ended_reason !== undefined) call.ended_reason = patch.ended_reason;
    if (patch.duration !== undefined) call.duration = patch.duration;
    if (patch.billed_duration !== undefined) call.billed_duration = patch.billed_duration;
    if (patch.policy_evaluation !== undefined) call.policy_evaluation = patch.policy_evaluation;
  }
  const thread = state.threads.get(call.thread_id);
  if (thread) thread.updated_at = now;
  return call;
}

function contactAfterCall(state: SimState, call: CallRec, patch: CallPatch) {
  const c = call.campaignId === null ? undefined : state.campaigns.get(call.campaignId);
  const x = c && call.contactId !== null ? c.contacts.get(call.contactId) : undefined;
  if (!c || !x) return;
  x.billed_duration += call.billed_duration;
  x.extracted_data = { ...x.extracted_data, ...call.extracted_data };
  x.tags = [...new Set([...x.tags, ...call.tags])];
  if (patch.contactStatus === null) return;
  if (patch.contactStatus !== undefined) {
    x.status = patch.contactStatus;
    return;
  }
  if (call.status === 'ended') x.status = call.answered_by === 'machine' ? 'voicemail' : 'answered';
  else if (x.retries < c.retries) {
    x.status = 'retrying';
    x.retries += 1;
  } else x.status = 'failed';
}

// ---------------------------------------------------------------------------------------------------------------
// Routes (generic error envelope, except the campaign call list)

function orgCall(state: SimState, org: string, id: string): CallRec {
  const call = state.calls.get(id);
  if (!call || call.org !== org) throw genericError(404, `Call ${id} not found.`);
  return call;
}

function orgThread(state: SimState, org: string, id: string): ThreadRec {
  const t = state.threads.get(id);
  if (!t || t.org !== org) throw genericError(404, `Thread ${id} not found.`);
  return t;
}

function orgEndUser(state: SimState, org: string, id: string): EndUserRec {
  const u = state.endUsers.get(id);
  if (!u || u.org !== org) throw genericError(404, `End user ${id} not found.`);
  return u;
}

/** The body as an object, or 400 generic envelope. */
function genericBody(body: unknown): Obj {
  if (body instanceof InvalidJson) throw genericError(400, `Malformed JSON body: ${body.message}`);
  if (!isObject(body)) throw genericError(400, 'Expected a JSON object body.');
  return body;
}

function stringField(o: Obj, key: string, required: boolean): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) {
    if (required) throw genericError(400, `${key} is required (a string).`);
    return undefined;
  }
  if (typeof v !== 'string') throw genericError(400, `${key} must be a string.`);
  if (required && v.trim() === '') throw genericError(400, `${key} may not be blank.`);
  return v;
}

export const getCall: Handler = ({ state, org, params }) => {
  const call = orgCall(state, org, params.id ?? '');
  const thread = state.threads.get(call.thread_id);
  return ok({ ...callView(call), thread: thread ? threadView(state, thread) : null });
};

/** Recording: audio/mpeg bytes once the call ended with some duration; 404 generic envelope otherwise. */
export const getRecording: Handler = ({ state, org, params }) => {
  const call = orgCall(state, org, params.id ?? '');
  if (!hasRecording(call)) throw genericError(404, `Call ${call.id} has no recording (status "${call.status}").`);
  return { status: 200, raw: { contentType: 'audio/mpeg', data: silentMp3(call.duration) } };
};

export const getThread: Handler = ({ state, org, params }) =>
  ok(threadView(state, orgThread(state, org, params.id ?? '')));

export const getMessages: Handler = ({ state, org, params }) => {
  const t = orgThread(state, org, params.threadId ?? '');
  return ok((state.messages.get(t.id) ?? []).map(messageView));
};

export const sendMessage: Handler = ({ state, org, body }) => {
  const o = genericBody(body);
  const agentId = stringField(o, 'agent_id', true) as string;
  const endUserId = stringField(o, 'end_user_id', true) as string;
  const content = stringField(o, 'content', true) as string;
  const agent = state.agents.get(agentId);
  if (!agent || agent.org !== org) throw genericError(404, `Agent ${agentId} not found.`);
  const eu = orgEndUser(state, org, endUserId);
  const thread = threadBetween(state, org, agent.id, eu.id, { id: 'api', type: 'api' });
  const inbound = appendMessage(state, thread, { sent_by: 'EU', content });
  const replies: MessageRec[] = [];
  if (thread.active && !thread.blocked) {
    const out = state.agentReply(content, { id: thread.id, agentId: agent.id, endUserId: eu.id });
    for (const text of out === null ? [] : Array.isArray(out) ? out : [out])
      replies.push(appendMessage(state, thread, { sent_by: 'AI', content: text }));
  }
  if (replies.length > 0) inbound.read = true;
  return ok({
    thread: threadView(state, thread),
    messages: replies.map(messageView),
    in_response_to: messageView(inbound),
  });
};

export const createEndUser: Handler = ({ state, org, body }) => {
  const o = genericBody(body);
  const display_name = stringField(o, 'display_name', true) as string;
  const info = stringField(o, 'info', false);
  return ok(endUserView(newEndUser(state, org, { display_name, info })), 201);
};

export const getEndUser: Handler = ({ state, org, params }) => ok(endUserView(orgEndUser(state, org, params.id ?? '')));

/** PUT: the fields given (display_name, info) replace the stored ones; absent fields are kept. */
export const updateEndUser: Handler = ({ state, org, params, body }) => {
  const u = orgEndUser(state, org, params.id ?? '');
  const o = genericBody(body);
  const display_name = stringField(o, 'display_name', false);
  const info = stringField(o, 'info', false);
  if (display_name !== undefined) {
    if (display_name.trim() === '') throw genericError(400, 'display_name may not be blank.');
    u.display_name = display_name;
  }
  if (info !== undefined) u.info = info;
  return ok(endUserView(u));
};

/** Calls of a campaign, newest first (created_at descending, later-made first on ties). */
export const listCampaignCalls: Handler = ({ state, org, params, query: q }) => {
  const c = findCampaign(state, org, params.id ?? '');
  const status = enumParam(q, P.status, CALL_LIST_FILTER_STATUSES, 'INVALID_STATUS');
  const answeredBy = enumParam(q, P.answeredBy, ANSWERED_BY, 'INVALID_REQUEST');
  const after = dateParam(q, P.createdAfter);
  const before = dateParam(q, P.createdBefore);
  const pageSize = intParam(q, P.pageSize, [1, MAX_PAGE_SIZE], DEFAULT_CALL_PAGE_SIZE);
  const page = intParam(q, P.page, [0, MAX_PAGE_NUMBER], 0);
  const all = state
    .callsOf(c.id)
    .reverse()
    .sort((a, b) => (a.created_at === b.created_at ? 0 : a.created_at < b.created_at ? 1 : -1))
    .filter((x) => {
      const t = Date.parse(x.created_at);
      return (
        (status === null || x.status === status) &&
        (answeredBy === null || x.answered_by === answeredBy) &&
        (after === null || t >= after.at) &&
        (before === null || (before.dateOnly ? t < before.endOfDay : t <= before.at))
      );
    });
  const start = page * pageSize;
  const hasNext = all.length > start + pageSize;
  return ok({
    total_count: all.length,
    calls: all.slice(start, start + pageSize).map((x) => callItemView(state, x)),
    pagination: {
      page_index: page,
      page_size: pageSize,
      has_next: hasNext,
      has_previous: page > 0,
      next_page: hasNext ? page + 1 : null,
      previous_page: page > 0 ? page - 1 : null,
    },
  });
};
