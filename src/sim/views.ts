/**
 * Response shapes of the simulator's records, exactly as src/outreach/schemas.ts describes them, and the campaign
 * analytics computed from the current contacts and calls.
 */
import type { SimState, CallRec, CampaignRec, ContactRec, EndUserRec, MessageRec, ThreadRec } from './model.js';
import { API_VERSION_PATH } from '../outreach/unspecified.js';

/** `last_call_at` format of the spec: `YYYY-MM-DD HH:MM:SS` (we write UTC). */
function formatLastCallAt(iso: string | null): string | null {
  return iso === null ? null : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/** Percentage 0..100 with two decimals (our choice for the analytics `*Rate` fields; 0 when the base is 0). */
function rate(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10000) / 100;
}

const TERMINAL_CALL = new Set(['ended', 'busy', 'no-answer', 'failed']);
export function isTerminalCall(status: string): boolean {
  return TERMINAL_CALL.has(status);
}

/**
 * Analytics of a campaign, or undefined while there is no snapshot (phone: no call yet; WhatsApp: every contact
 * still queued). Rates are percentages (0..100, two decimals).
 */
function campaignAnalytics(state: SimState, c: CampaignRec): Record<string, number> | undefined {
  const contacts = [...c.contacts.values()];
  const count = (pred: (x: ContactRec) => boolean) => contacts.filter(pred).length;
  const is =
    (...s: string[]) =>
    (x: ContactRec) =>
      s.includes(x.status);
  if (c.integrationType === 'phone_call') {
    const calls = state.callsOf(c.id);
    if (calls.length === 0) return undefined;
    const callCount = (pred: (x: CallRec) => boolean) => calls.filter(pred).length;
    const ended = calls.filter((x) => x.status === 'ended');
    const totalDuration = calls.reduce((s, x) => s + x.duration, 0);
    const contactsCalled = count((x) => x.call_count > 0);
    const contactsAnswered = count(is('answered', 'converted'));
    const contactsConverted = count(is('converted'));
    return {
      calls: calls.length,
      callsInProgress: callCount((x) => !isTerminalCall(x.status)),
      callsEnded: ended.length,
      callsBusy: callCount((x) => x.status === 'busy'),
      callsNoAnswer: callCount((x) => x.status === 'no-answer'),
      callsFailed: callCount((x) => x.status === 'failed'),
      callsAnsweredByHuman: callCount((x) => x.answered_by === 'human'),
      callsAnsweredByMachine: callCount((x) => x.answered_by === 'machine'),
      totalDuration,
      averageDuration: ended.length === 0 ? 0 : Math.round(totalDuration / ended.length),
      billedDuration: calls.reduce((s, x) => s + x.billed_duration, 0),
      contacts: contacts.length,
      contactsCalled,
      contactsPending: count(is('queue', 'sending', 'retrying')),
      contactsAnswered,
      contactsConverted,
      contactsVoicemail: count(is('voicemail')),
      contactsFailed: count(is('failed')),
      contactsAnsweredRate: rate(contactsAnswered, contactsCalled),
      contactsConvertedRate: rate(contactsConverted, contactsCalled),
      callsAnsweredRate: rate(ended.length, calls.length),
    };
  }
  if (contacts.every((x) => x.status === 'queue')) return undefined;
  // Each status counts every contact that got at least that far.
  const sent = count(is('sent', 'delivered', 'read', 'accepted', 'rejected', 'converted'));
  const delivered = count(is('delivered', 'read', 'accepted', 'rejected', 'converted'));
  const read = count(is('read', 'accepted', 'rejected', 'converted'));
  const accepted = count(is('accepted'));
  const rejected = count(is('rejected'));
  const converted = count(is('converted'));
  return {
    contacts: contacts.length,
    pending: count(is('queue', 'sending', 'retrying')),
    sent,
    delivered,
    read,
    accepted,
    rejected,
    converted,
    failed: count(is('failed')),
    deliveredRate: rate(delivered, sent),
    readRate: rate(read, sent),
    acceptedRate: rate(accepted, sent),
    rejectedRate: rate(rejected, sent),
    convertedRate: rate(converted, sent),
  };
}

function agentRef(state: SimState, agentId: string): { id: string; name: string } {
  return { id: agentId, name: state.agents.get(agentId)?.name ?? '' };
}

export function campaignDetail(state: SimState, c: CampaignRec): Record<string, unknown> {
  const { filter_tags: _hidden, ...cycles } = c.cycles; // filter_tags is input only: not on the detail
  const analytics = campaignAnalytics(state, c);
  return {
    id: c.id,
    name: c.name,
    status: c.status,
    integration: { id: c.integrationId, type: c.integrationType },
    agent: agentRef(state, c.agentId),
    created_at: c.created_at,
    scheduling: c.scheduling,
    cycles,
    ...(analytics ? { analytics } : {}),
    description: c.description,
    timezone: c.timezone,
    retries: c.retries,
    message_limit: c.message_limit,
    first_message: c.first_message,
    template: c.template,
    template_alt: c.template_alt,
    archived: c.archived,
  };
}

export function campaignListItem(state: SimState, c: CampaignRec): Record<string, unknown> {
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    status: c.status,
    created_at: c.created_at,
    started_at: c.started_at,
    ended_at: c.ended_at,
    agent: agentRef(state, c.agentId),
    scheduling: c.scheduling,
    timezone: c.timezone,
    retries: c.retries,
    archived: c.archived,
    template: c.template,
    first_message: c.first_message,
    concurrency_limit: c.concurrency_limit,
    cycle_enabled: c.cycles.enabled,
    cycle_max_iterations: c.cycles.max_iterations,
    cycle_cooldown_minutes: c.cycles.cooldown_minutes,
    cycle_filter_statuses: c.cycles.filter_statuses,
    cycle_filter_tags: c.cycles.filter_tags,
    cycle_current_iteration: c.cycle_current_iteration,
    cycle_last_iteration_at: c.cycle_last_iteration_at,
  };
}

export function contactView(x: ContactRec): Record<string, unknown> {
  return {
    id: x.id,
    f_id: x.f_id,
    name: x.name,
    contact: x.contact,
    status: x.status,
    context: x.context,
    retries: x.retries,
    has_follow_up: x.has_follow_up,
    call_count: x.call_count,
    billed_duration: x.billed_duration,
    last_call_at: formatLastCallAt(x.last_call_at),
    extracted_data: { ...x.extracted_data },
    tags: [...x.tags],
  };
}

/** A recording exists once a call connected and ended with some duration. */
export function hasRecording(call: CallRec): boolean {
  return call.status === 'ended' && call.duration > 0;
}

function recordingPath(callId: string): string {
  return `${API_VERSION_PATH}/call/${callId}/recording`;
}

export function callView(call: CallRec): Record<string, unknown> {
  return {
    id: call.id,
    thread_id: call.thread_id,
    type: call.type,
    status: call.status,
    answered_by: call.answered_by,
    created_at: call.created_at,
    started_at: call.started_at,
    ended_at: call.ended_at,
    ended_by: call.ended_by,
    ended_reason: call.ended_reason,
    duration: call.duration,
    billed_duration: call.billed_duration,
    policy_evaluation: call.policy_evaluation,
  };
}

/** Item of GET /campaigns/{id}/calls: the call plus contact ref, extracted data, tags and recording path. */
export function callItemView(state: SimState, call: CallRec): Record<string, unknown> {
  const contact =
    call.campaignId !== null && call.contactId !== null
      ? state.campaigns.get(call.campaignId)?.contacts.get(call.contactId)
      : undefined;
  return {
    ...callView(call),
    contact: contact
      ? {
          id: contact.id,
          f_id: contact.f_id,
          name: contact.name,
          phone_number: contact.contact,
          status: contact.status,
        }
      : null,
    extracted_data: { ...call.extracted_data },
    tags: [...call.tags],
    recording_url: hasRecording(call) ? recordingPath(call.id) : null,
  };
}

export function endUserView(u: EndUserRec): Record<string, unknown> {
  return { id: u.id, display_name: u.display_name, integration_type: u.integration_type, info: u.info };
}

export function threadView(state: SimState, t: ThreadRec): Record<string, unknown> {
  const eu = state.endUsers.get(t.endUserId);
  return {
    id: t.id,
    agent: agentRef(state, t.agentId),
    end_user: eu ? endUserView(eu) : { id: t.endUserId, display_name: '', integration_type: '', info: '' },
    integration: { ...t.integration },
    updated_at: t.updated_at,
    active: t.active,
    blocked: t.blocked,
    tags: t.tags.map((x) => ({ ...x })),
    assigned_to: t.assigned_to.map((x) => ({ ...x })),
  };
}

export function messageView(m: MessageRec): Record<string, unknown> {
  return { ...m };
}
