/**
 * Campaign routes: create, list (cursor pages), retrieve, update, lifecycle actions; and the campaign state machine
 * shared with the control surface and the sandbox driver.
 */
import {
  CAMPAIGN_STATUSES,
  CHANNEL_TYPES,
  LIFECYCLE_ACTIONS,
  type CampaignStatus,
  type LifecycleAction,
} from '../outreach/schemas.js';
import { CAMPAIGN_LIST_PARAMS as P, MAX_CAMPAIGN_PAGE_SIZE } from '../outreach/unspecified.js';
import { campaignError } from './errors.js';
import { ok, type Handler } from './context.js';
import type { CampaignRec, SimState } from './model.js';
import {
  boolParam,
  dateParam,
  enumParam,
  intParam,
  parseCreateCampaign,
  parsePatchCampaign,
  type CreateCampaignFields,
  type DateBound,
} from './validate.js';
import { campaignDetail, campaignListItem } from './views.js';

const DEFAULT_CAMPAIGN_PAGE_SIZE = 20;
const DEFAULT_CONCURRENCY_LIMIT = 3;

/** The campaign of this org with this id, or 404 NOT_FOUND (another org's campaign is not found either). */
export function findCampaign(state: SimState, org: string, idParam: string | number): CampaignRec {
  const id = typeof idParam === 'number' ? idParam : /^\d+$/.test(idParam) ? Number(idParam) : NaN;
  const c = state.campaigns.get(id);
  if (!c || c.org !== org) throw campaignError('NOT_FOUND', `Campaign ${String(idParam)} not found.`);
  return c;
}

export function newCampaignRecord(
  state: SimState,
  org: string,
  f: Omit<CreateCampaignFields, 'agent_id' | 'integration_id'> & { agentId: string; integrationId: string },
): CampaignRec {
  const c: CampaignRec = {
    id: state.nextCampaignId++,
    org,
    name: f.name,
    description: f.description,
    status: 'pending',
    archived: false,
    agentId: f.agentId,
    integrationId: f.integrationId,
    integrationType: f.integration_type,
    timezone: f.timezone,
    retries: f.retries,
    message_limit: f.message_limit,
    first_message: f.first_message,
    template: f.template,
    template_alt: f.template_alt,
    scheduling: f.scheduling,
    cycles: f.cycles,
    created_at: state.nowIso(),
    started_at: null,
    ended_at: null,
    concurrency_limit: DEFAULT_CONCURRENCY_LIMIT,
    cycle_current_iteration: 0,
    cycle_last_iteration_at: null,
    cooldown_until: null,
    nextContactId: 1,
    contacts: new Map(),
    byPhone: new Map(),
  };
  state.campaigns.set(c.id, c);
  return c;
}

function planLimitCheck(state: SimState, org: string, what: 'create' | 'activate' | 'resume') {
  const { maxCampaigns, maxActiveCampaigns } = state.planLimits;
  let reached = state.isBillingReached(org);
  if (!reached && what === 'create' && maxCampaigns !== null)
    reached = state.campaignsOf(org).filter((c) => !c.archived).length >= maxCampaigns;
  if (!reached && what !== 'create' && maxActiveCampaigns !== null)
    reached = state.campaignsOf(org).filter((c) => c.status === 'active').length >= maxActiveCampaigns;
  if (reached)
    throw campaignError(
      'BILLING_LIMIT_REACHED',
      `The plan limit of this organization is reached: cannot ${what} a campaign. Upgrade the plan or pause or archive another campaign.`,
    );
}

/** Lifecycle actions that succeed from the campaign's current status (no-op ones included). */
function validActions(c: CampaignRec): LifecycleAction[] {
  const out: LifecycleAction[] = [];
  if (['pending', 'ready', 'cooldown'].includes(c.status)) out.push('activate');
  if (['active', 'cooldown', 'inactive'].includes(c.status)) out.push('pause');
  if (['inactive', 'active'].includes(c.status)) out.push('resume');
  out.push('archive');
  return out;
}

/**
 * Starts (or restarts) an iteration: contacts whose status is not excluded by `cycles.filter_statuses` go back to
 * the queue for iterations after the first.
 */
export function beginIteration(state: SimState, c: CampaignRec): void {
  const now = state.nowIso();
  c.status = 'active';
  c.started_at ??= now;
  c.cooldown_until = null;
  if (!c.cycles.enabled) return;
  if (c.cycle_current_iteration > 0) {
    const excluded = new Set(c.cycles.filter_statuses);
    for (const x of c.contacts.values()) {
      if (!excluded.has(x.status)) {
        x.status = 'queue';
        x.done = false;
        delete x.retryAtTick;
      }
    }
  }
  c.cycle_current_iteration += 1;
  c.cycle_last_iteration_at = now;
}

/** Applies a lifecycle action (throws the spec's errors); returns the campaign. */
export function applyAction(state: SimState, c: CampaignRec, action: LifecycleAction): CampaignRec {
  const fail = () =>
    campaignError(
      'INVALID_STATUS_TRANSITION',
      `Cannot ${action} a campaign whose status is "${c.status}".${action === 'activate' && c.status === 'inactive' ? ' Use resume to re-activate a paused campaign.' : ''}`,
      { current_status: c.status, valid_targets: validActions(c) },
    );
  switch (action) {
    case 'activate':
      if (!['pending', 'ready', 'cooldown'].includes(c.status)) throw fail();
      planLimitCheck(state, c.org, 'activate');
      beginIteration(state, c);
      return c;
    case 'pause':
      if (c.status === 'inactive') return c; // no-op success
      if (!['active', 'cooldown'].includes(c.status)) throw fail();
      c.status = 'inactive';
      return c;
    case 'resume':
      if (c.status === 'active') return c; // no-op success
      if (c.status !== 'inactive') throw fail();
      planLimitCheck(state, c.org, 'resume');
      c.status = 'active';
      c.started_at ??= state.nowIso();
      return c;
    case 'archive':
      c.archived = true; // status unchanged; archiving an archived campaign is a no-op success
      return c;
  }
}

/** Moves a campaign to a status directly (control surface / driver): sets started_at / ended_at as fitting. */
export function setCampaignStatus(state: SimState, c: CampaignRec, status: CampaignStatus): void {
  const now = state.nowIso();
  if (status === 'active' && c.status !== 'active') {
    if (c.cycles.enabled && c.cycle_current_iteration === 0) beginIteration(state, c);
    c.started_at ??= now;
  }
  if (status === 'finished') c.ended_at ??= now;
  if (status === 'cooldown') {
    c.started_at ??= now;
    c.cooldown_until = new Date(state.nowMs() + (c.cycles.cooldown_minutes ?? 0) * 60_000).toISOString();
  }
  c.status = status;
}

// ---------------------------------------------------------------------------------------------------------------
// Routes

export const createCampaign: Handler = ({ state, org, body }) => {
  const f = parseCreateCampaign(body);
  const agent = state.agents.get(f.agent_id);
  if (!agent || agent.org !== org)
    throw campaignError('AGENT_NOT_FOUND', `Agent ${f.agent_id} not found in this organization.`, {
      field: 'agent_id',
    });
  const integration = state.integrations.get(f.integration_id);
  if (!integration || integration.agentId !== agent.id)
    throw campaignError(
      'INTEGRATION_NOT_FOUND',
      `Integration ${f.integration_id} not found for agent ${agent.id}; use an integration of that agent.`,
      { field: 'integration_id' },
    );
  if (integration.type !== f.integration_type)
    throw campaignError(
      'INVALID_INTEGRATION_TYPE',
      `Integration ${integration.id} is a ${integration.type} integration, not ${f.integration_type}.`,
      { field: 'integration_type' },
    );
  planLimitCheck(state, org, 'create');
  const c = newCampaignRecord(state, org, { ...f, agentId: agent.id, integrationId: integration.id });
  return ok({ success: true, campaign: campaignDetail(state, c) }, 201);
};

export const getCampaign: Handler = ({ state, org, params }) =>
  ok({ success: true, campaign: campaignDetail(state, findCampaign(state, org, params.id ?? '')) });

export const updateCampaign: Handler = ({ state, org, params, body }) => {
  const c = findCampaign(state, org, params.id ?? '');
  if (c.status === 'finished')
    throw campaignError('CAMPAIGN_FINISHED', `Campaign ${c.id} is finished and can no longer be updated.`);
  parsePatchCampaign(body, c)(c);
  return ok({ success: true, campaign: campaignDetail(state, c) });
};

export const campaignAction: Handler = ({ state, org, params }) => {
  const action = params.action ?? '';
  if (!(LIFECYCLE_ACTIONS as readonly string[]).includes(action))
    throw campaignError('UNKNOWN_ACTION', `Unknown action "${action}": use ${LIFECYCLE_ACTIONS.join(', ')}.`);
  const c = findCampaign(state, org, params.id ?? '');
  applyAction(state, c, action as LifecycleAction);
  return ok({ success: true, campaign: campaignDetail(state, c) });
};

type SortKey = { c: string; i: number };
/** Newest first: created_at descending, then id descending. Negative when a comes before b. */
function order(a: SortKey, b: SortKey): number {
  if (a.c !== b.c) return a.c < b.c ? 1 : -1;
  return b.i - a.i;
}
const keyOf = (c: CampaignRec): SortKey => ({ c: c.created_at, i: c.id });

/**
 * Cursor: base64url of `{d: 'n'|'p', c: created_at, i: id, x?: 1}` — opaque to clients. `n` pages after the key,
 * `p` before it (`x`: the key's own item included, for the previous page of an empty page).
 */
interface Cursor {
  d: 'n' | 'p';
  k: SortKey;
  inclusive: boolean;
}
function encodeCursor(d: 'n' | 'p', k: SortKey, inclusive = false): string {
  return Buffer.from(JSON.stringify({ d, ...k, ...(inclusive ? { x: 1 } : {}) })).toString('base64url');
}
function decodeCursor(raw: string): Cursor {
  try {
    const v = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Record<string, unknown>;
    if ((v.d === 'n' || v.d === 'p') && typeof v.c === 'string' && typeof v.i === 'number')
      return { d: v.d, k: { c: v.c, i: v.i }, inclusive: v.x === 1 };
  } catch {
    // fall through
  }
  throw campaignError('INVALID_REQUEST', 'Invalid cursor: pass next_cursor or previous_cursor as received.', {
    field: P.cursor,
  });
}

function inRange(iso: string | null, after: DateBound | null, before: DateBound | null): boolean {
  if (after === null && before === null) return true;
  if (iso === null) return false; // "excludes campaigns not started / not ended"
  const t = Date.parse(iso);
  if (after && t < after.at) return false;
  if (before && (before.dateOnly ? t >= before.endOfDay : t > before.at)) return false;
  return true;
}

function pair(q: URLSearchParams, afterName: string, beforeName: string, legacy?: [string, string]) {
  const after = dateParam(q, afterName) ?? (legacy ? dateParam(q, legacy[0]) : null);
  const before = dateParam(q, beforeName) ?? (legacy ? dateParam(q, legacy[1]) : null);
  if (after && before && !(after.at < before.at))
    throw campaignError('INVALID_REQUEST', `${afterName} must be earlier than ${beforeName}.`, { field: afterName });
  return { after, before };
}

export const listCampaigns: Handler = ({ state, org, query: q }) => {
  const created = pair(q, P.createdAfter, P.createdBefore, ['startDate', 'endDate']);
  const started = pair(q, P.startedAfter, P.startedBefore);
  const ended = pair(q, P.endedAfter, P.endedBefore);
  const status = enumParam(q, P.status, CAMPAIGN_STATUSES, 'INVALID_STATUS');
  const type = enumParam(q, P.integrationType, CHANNEL_TYPES, 'INVALID_INTEGRATION_TYPE');
  const agentId = q.get(P.agentId) || null;
  const includeArchived = boolParam(q, P.includeArchived);
  const pageSize = intParam(q, P.pageSize, [1, MAX_CAMPAIGN_PAGE_SIZE], DEFAULT_CAMPAIGN_PAGE_SIZE);
  const rawCursor = q.get(P.cursor);
  const cursor = rawCursor ? decodeCursor(rawCursor) : null;

  const all = state
    .campaignsOf(org)
    .filter(
      (c) =>
        (includeArchived || !c.archived) &&
        (status === null || c.status === status) &&
        (type === null || c.integrationType === type) &&
        (agentId === null || c.agentId === agentId) &&
        inRange(c.created_at, created.after, created.before) &&
        inRange(c.started_at, started.after, started.before) &&
        inRange(c.ended_at, ended.after, ended.before),
    )
    .sort((a, b) => order(keyOf(a), keyOf(b)));

  let page: CampaignRec[];
  if (!cursor) page = all.slice(0, pageSize);
  else if (cursor.d === 'n') page = all.filter((c) => order(keyOf(c), cursor.k) > 0).slice(0, pageSize);
  else page = all.filter((c) => order(keyOf(c), cursor.k) < (cursor.inclusive ? 1 : 0)).slice(-pageSize);

  const first = page[0];
  const last = page[page.length - 1];
  const hasNext = last ? all.some((c) => order(keyOf(c), keyOf(last)) > 0) : false;
  const hasPrevious = first
    ? all.some((c) => order(keyOf(c), keyOf(first)) < 0)
    : cursor?.d === 'n' && all.some((c) => order(keyOf(c), cursor.k) <= 0);

  return ok({
    total_count: totalCount(state, org, q, all.length),
    campaigns: page.map((c) => campaignListItem(state, c)),
    pagination: {
      has_next: hasNext,
      has_previous: hasPrevious,
      next_cursor: hasNext && last ? encodeCursor('n', keyOf(last)) : null,
      previous_cursor: !hasPrevious
        ? null
        : first
          ? encodeCursor('p', keyOf(first))
          : encodeCursor('p', cursor!.k, true),
    },
  });
};

/** total_count, cached per org and filters for `state.totalCountCacheMs` (the service caches it 3 minutes). */
function totalCount(state: SimState, org: string, q: URLSearchParams, fresh: number): number {
  if (state.totalCountCacheMs <= 0) return fresh;
  const filters = [...q.entries()].filter(([k]) => k !== P.cursor && k !== P.pageSize).sort();
  const key = `${org}\n${JSON.stringify(filters)}`;
  const now = state.nowMs();
  const hit = state.totalCountCache.get(key);
  if (hit && now - hit.at < state.totalCountCacheMs) return hit.count;
  state.totalCountCache.set(key, { count: fresh, at: now });
  return fresh;
}
