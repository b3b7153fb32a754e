/**
 * The simulator's control surface: what tests (in process) and people (over HTTP under /_sim/) use to set up
 * agents and integrations, move calls and contacts, inject faults and latency, and read the request log.
 * Control calls are privileged: no API key, no organization check, no rate limit.
 */
import type { CampaignStatus, ChannelType, CreateCampaignInput } from '../outreach/schemas.js';
import { applyAction, newCampaignRecord, setCampaignStatus } from './campaigns.js';
import { addContactItems, type ContactFields } from './contacts.js';
import {
  appendMessage,
  createCall,
  updateCall,
  type CallPatch,
  type CreateCallInput,
  type NewMessage,
} from './conversations.js';
import type { SandboxDriver } from './driver.js';
import { SimError } from './errors.js';
import type { FaultBook, FaultSpec, HoldOptions, RequestHold } from './faults.js';
import type {
  AgentRec,
  AgentReplyFn,
  AssignedUserRec,
  CampaignRec,
  IntegrationRec,
  PlanLimits,
  SimState,
  ThreadTagRec,
} from './model.js';
import { defaultAgentReply } from './model.js';
import type { SlidingWindowLimiter } from './ratelimit.js';
import { parseCreateCampaign } from './validate.js';
import { callItemView, campaignDetail, contactView, messageView, threadView } from './views.js';

export interface RecordedRequest {
  method: string;
  /** Full path as received, e.g. `/api/v1.0/campaigns/3/contacts`. */
  path: string;
  query: Record<string, string | string[]>;
  /** Lower-case names; `authorization` keeps only its scheme (`api-key [redacted]`). */
  headers: Record<string, string>;
  /** Parsed JSON, the raw text when it is not JSON, or undefined when empty. */
  body: unknown;
  status: number;
  /** ISO instant (simulator clock) the request arrived. */
  at: string;
  /** Route name (OutreachApi method name, e.g. `addContacts`), null when no route matched. */
  route: string | null;
  /** Organization of the API key, null when unauthenticated. */
  org: string | null;
  /** True when the response was replayed from an Idempotency-Key record. */
  replayed: boolean;
}

/** A campaign as POST /campaigns takes it (agent and integration by id), and what only the service sets. */
export interface SeedCampaignInput extends Omit<
  CreateCampaignInput,
  'agent_id' | 'integration_id' | 'integration_type'
> {
  agentId: string;
  integrationId: string;
  /** Default: the integration's type. */
  integration_type?: ChannelType;
  org?: string;
  status?: CampaignStatus;
  archived?: boolean;
  created_at?: string;
  started_at?: string | null;
  ended_at?: string | null;
  concurrency_limit?: number;
  contacts?: ContactFields[];
}

interface ThreadPatch {
  active?: boolean;
  blocked?: boolean;
  tags?: ThreadTagRec[];
  assigned_to?: AssignedUserRec[];
}

interface CampaignState {
  /** The stored record (copy), incl. org, archived, cycles.filter_tags, started_at/ended_at, cooldown_until. */
  record: Omit<CampaignRec, 'contacts' | 'byPhone'>;
  /** GET /campaigns/{id} body's campaign. */
  detail: Record<string, unknown>;
  contacts: Record<string, unknown>[];
  /** Call list items, in creation order. */
  calls: Record<string, unknown>[];
}

export interface SimControl {
  /** API key -> organization. */
  readonly apiKeys: Record<string, string>;
  addAgent(input: { id?: string; name: string; org?: string }): AgentRec;
  addIntegration(input: { agentId: string; type: ChannelType; id?: string }): IntegrationRec;
  /** Creates a campaign directly (same validation as POST /campaigns), optionally with status and contacts. */
  seedCampaign(input: SeedCampaignInput): Record<string, unknown>;
  /** Moves a campaign to any status (sets started_at / ended_at / cooldown_until as fitting). */
  setCampaignStatus(campaignId: number, status: CampaignStatus): void;
  /**
   * Deletes a campaign as the service's own back office would (the API has no such call): its id answers 404
   * NOT_FOUND from then on; its calls and threads stay readable by their own ids.
   */
  deleteCampaign(campaignId: number): void;
  /** Places a call to a contact (creates end user and thread); returns the call list item. */
  createCall(campaignId: number, input?: CreateCallInput): Record<string, unknown>;
  /** Moves a call; a final status fills ended_at, duration, ended_by, ended_reason, policy_evaluation, contact. */
  updateCall(callId: string, patch: CallPatch): Record<string, unknown>;
  addMessage(threadId: string, message: NewMessage): Record<string, unknown>;
  updateThread(threadId: string, patch: ThreadPatch): Record<string, unknown>;
  /** The agent's answer to POST /message; no argument restores the default canned Spanish reply. */
  setAgentReply(fn?: AgentReplyFn): void;
  setContactStatus(campaignId: number, contactId: number, status: string): void;
  /** Plan limit reached for one organization, or for all when `org` is absent. */
  setBillingLimitReached(reached: boolean, org?: string): void;
  /** Numeric plan limits (null: none): campaigns held, campaigns active at once. */
  setPlanLimits(limits: Partial<PlanLimits>): void;
  injectFaults(spec: FaultSpec | FaultSpec[]): void;
  /** Removes pending faults and latency rules. */
  clearFaults(): void;
  /** Delay before answering requests matching `match` (all when absent); 0 removes the rule. */
  setLatencyMs(ms: number, match?: RegExp): void;
  /**
   * Holds requests matching `match` ("METHOD /full/path") before they are processed or, `when: 'after'`, once
   * processed with their answer held; `once`: only the next one. A test sees what waits behind them, or kills the
   * client meanwhile (faults.ts `RequestHold`); clearFaults releases them. In process only (not over HTTP).
   */
  hold(match: RegExp, opts?: HoldOptions): RequestHold;
  setRateLimit(perSecond: number | false): void;
  /** Batch items whose phone number matches fail with SERVER_ERROR; null stops it. */
  failContactItems(match: RegExp | null): void;
  requests(): RecordedRequest[];
  clearRequests(): void;
  getCampaignState(campaignId: number): CampaignState | undefined;
  /** Ids of every campaign held, of any organization, oldest first. */
  campaignIds(): number[];
  /** Runs the live driver `n` times (default 1), whether or not the sandbox interval runs. */
  tick(n?: number): void;
  /** Empties all data and restores defaults (re-seeds in sandbox mode); keeps API keys and options. */
  reset(): void;
}

export interface ControlDeps {
  state: SimState;
  faults: FaultBook;
  limiter: SlidingWindowLimiter;
  log: RecordedRequest[];
  driver: SandboxDriver;
  /** Called by reset() after clearing (the sandbox seeds its demo data there). */
  afterReset: () => void;
}

function must<T>(v: T | undefined, what: string): T {
  if (v === undefined) throw new Error(`${what} not found in the simulator.`);
  return v;
}

export function createControl(deps: ControlDeps): SimControl {
  return {
    apiKeys: Object.fromEntries(deps.state.orgByKey),
    ...setupControl(deps.state),
    ...conversationControl(deps.state),
    ...faultControl(deps),
    ...logAndStateControl(deps),
  };
}

const campaignOf = (state: SimState, id: number) => must(state.campaigns.get(id), `Campaign ${id}`);

/** Creates a campaign as POST /campaigns would (its validation), then sets what only the service sets. */
function seedCampaign(state: SimState, input: SeedCampaignInput): Record<string, unknown> {
  const integration = must(state.integrations.get(input.integrationId), `Integration ${input.integrationId}`);
  const agent = must(state.agents.get(input.agentId), `Agent ${input.agentId}`);
  const { org, status, archived, created_at, started_at, ended_at, concurrency_limit, contacts, ...body } = input;
  let fields;
  try {
    fields = parseCreateCampaign({
      ...body,
      agent_id: agent.id,
      integration_id: integration.id,
      integration_type: input.integration_type ?? integration.type,
    });
  } catch (e) {
    if (e instanceof SimError) throw new Error(`seedCampaign: ${JSON.stringify(e.response.body)}`);
    throw e;
  }
  const c = newCampaignRecord(state, org ?? agent.org, {
    ...fields,
    agentId: agent.id,
    integrationId: integration.id,
  });
  if (created_at) c.created_at = created_at;
  if (concurrency_limit !== undefined) c.concurrency_limit = concurrency_limit;
  if (contacts?.length) addContactItems(state, c, contacts, 'skip');
  if (status) setCampaignStatus(state, c, status);
  if (started_at !== undefined) c.started_at = started_at;
  if (ended_at !== undefined) c.ended_at = ended_at;
  if (archived) applyAction(state, c, 'archive');
  return campaignDetail(state, c);
}

/** Agents, integrations, campaigns and contacts, the agent's answers, and the plan's limits. */
function setupControl(
  state: SimState,
): Pick<
  SimControl,
  | 'addAgent'
  | 'addIntegration'
  | 'seedCampaign'
  | 'setCampaignStatus'
  | 'deleteCampaign'
  | 'setAgentReply'
  | 'setContactStatus'
  | 'setBillingLimitReached'
  | 'setPlanLimits'
> {
  return {
    addAgent({ id, name, org }) {
      const a: AgentRec = { id: id ?? state.newId(), name, org: org ?? (state.orgs[0] as string) };
      state.agents.set(a.id, a);
      return { ...a };
    },
    addIntegration({ agentId, type, id }) {
      const agent = must(state.agents.get(agentId), `Agent ${agentId}`);
      const i: IntegrationRec = {
        id: id ?? `int-${type === 'phone_call' ? 'phone' : 'wa'}-${state.newId().slice(0, 8)}`,
        agentId,
        type,
        org: agent.org,
      };
      state.integrations.set(i.id, i);
      return { ...i };
    },
    seedCampaign: (input) => seedCampaign(state, input),
    setCampaignStatus(id, status) {
      setCampaignStatus(state, campaignOf(state, id), status);
    },
    deleteCampaign(id) {
      campaignOf(state, id);
      state.campaigns.delete(id);
    },
    setAgentReply(fn) {
      state.agentReply = fn ?? defaultAgentReply;
    },
    setContactStatus(campaignId, contactId, status) {
      const x = must(campaignOf(state, campaignId).contacts.get(contactId), `Contact ${contactId}`);
      x.status = status;
    },
    setBillingLimitReached(reached, org) {
      if (org === undefined) {
        state.billingReachedAll = reached;
        if (!reached) state.billingReached.clear();
      } else if (reached) state.billingReached.add(org);
      else state.billingReached.delete(org);
    },
    setPlanLimits(limits) {
      state.planLimits = { ...state.planLimits, ...limits };
    },
  };
}

/** Calls and their conversations. */
function conversationControl(
  state: SimState,
): Pick<SimControl, 'createCall' | 'updateCall' | 'addMessage' | 'updateThread'> {
  return {
    createCall(campaignId, input) {
      return callItemView(state, createCall(state, campaignOf(state, campaignId), input));
    },
    updateCall(callId, patch) {
      return callItemView(state, updateCall(state, must(state.calls.get(callId), `Call ${callId}`), patch));
    },
    addMessage(threadId, message) {
      return messageView(appendMessage(state, must(state.threads.get(threadId), `Thread ${threadId}`), message));
    },
    updateThread(threadId, patch) {
      const t = must(state.threads.get(threadId), `Thread ${threadId}`);
      if (patch.active !== undefined) t.active = patch.active;
      if (patch.blocked !== undefined) t.blocked = patch.blocked;
      if (patch.tags) t.tags = patch.tags.map((x) => ({ ...x }));
      if (patch.assigned_to) t.assigned_to = patch.assigned_to.map((x) => ({ ...x }));
      t.updated_at = state.nowIso();
      return threadView(state, t);
    },
  };
}

/** What goes wrong on the way: faults, latency, held requests, the rate limit, failing contact items. */
function faultControl({
  state,
  faults,
  limiter,
}: ControlDeps): Pick<
  SimControl,
  'injectFaults' | 'clearFaults' | 'setLatencyMs' | 'hold' | 'setRateLimit' | 'failContactItems'
> {
  return {
    injectFaults(spec) {
      for (const s of Array.isArray(spec) ? spec : [spec]) faults.inject(s);
    },
    clearFaults() {
      faults.clear();
    },
    setLatencyMs(ms, match) {
      faults.setLatency(ms, match);
    },
    hold(match, opts) {
      return faults.hold(match, opts);
    },
    setRateLimit(perSecond) {
      limiter.limit = perSecond;
      limiter.reset();
    },
    failContactItems(match) {
      state.batchItemFault = match;
    },
  };
}

/** The request log, the state as stored, the driver's ticks and the reset. */
function logAndStateControl(
  deps: ControlDeps,
): Pick<SimControl, 'requests' | 'clearRequests' | 'getCampaignState' | 'campaignIds' | 'tick' | 'reset'> {
  const { state, faults, limiter, log, driver } = deps;
  return {
    requests() {
      return log.map((r) => structuredClone(r));
    },
    clearRequests() {
      log.length = 0;
    },
    getCampaignState(id) {
      const c = state.campaigns.get(id);
      if (!c) return undefined;
      const { contacts, byPhone: _byPhone, ...record } = c;
      return {
        record: structuredClone(record),
        detail: campaignDetail(state, c),
        contacts: [...contacts.values()].map(contactView),
        calls: state.callsOf(id).map((x) => callItemView(state, x)),
      };
    },
    campaignIds() {
      return [...state.campaigns.keys()].sort((a, b) => a - b);
    },
    tick(n = 1) {
      for (let i = 0; i < n; i++) driver.tick();
    },
    reset() {
      state.reset();
      faults.clear();
      limiter.reset();
      log.length = 0;
      driver.reset();
      deps.afterReset();
    },
  };
}
