/**
 * The campaign form's use cases: which agents and integrations to offer, opening the create and edit forms within the
 * trigger's 3 seconds, rebuilding the form when the channel / agent / cycles choice changes, and carrying out a
 * submission exactly once.
 *
 * Exactly once: the Idempotency-Key of POST /campaigns is derived from the view id, the person and the body, so a
 * double submit or a Slack retry of the same form replays the same request (the service then creates nothing new),
 * while a corrected form is a new request. A refusal by the service moves the key on (nothing was created, so the
 * same content may be tried again later); a network failure does not (it may have been applied). The result message
 * is posted once per key: concurrent duplicates share one promise, later ones find the record in the store.
 */
import { slowAfter } from '../timing.js';
import { createHash, randomBytes } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import { humanMessage, OutreachError } from '../../outreach/errors.js';
import type {
  CampaignDetail,
  CampaignListItem,
  CreateCampaignInput,
  UpdateCampaignInput,
} from '../../outreach/schemas.js';
import {
  B,
  campaignCreatedMessage,
  campaignFormView,
  campaignUpdatedMessage,
  defaultFormValues,
  doneView,
  editTitle,
  encodeMetadata,
  finishedReadOnlyView,
  formProblemView,
  formValuesFromCampaign,
  inputBlockIds,
  loadingView,
  noChangesView,
  submitProblemView,
  workingView,
  type FixedSettings,
  type FormDirectory,
  type FormMetadata,
  type FormValues,
  type KnownAgent,
} from '../../render/campaign-form.js';
import { cleanLabel, context, md, raw } from '../../render/mrkdwn.js';
import type { View } from '../../render/types.js';
import type { Collection, Store } from '../../store/store.js';
import type { AppDeps } from '../deps.js';
import { errorSummary } from '../guard.js';
import type { SlackMessage } from '../../render/types.js';
import {
  decodeMetadata,
  fieldFingerprints,
  formValuesFromState,
  mapServiceError,
  validateCreate,
  validateEdit,
  type FormErrors,
} from '../views/campaignFormState.js';
import { refuseSubmissionIfReadOnly } from './permission.js';

// ---------------------------------------------------------------------------------------------------------------
// Directory of agents and integrations

/** How long the directory is trusted before it is read again. */
export const DIRECTORY_TTL_MS = 2 * 60_000;
/** Campaign list items read to find agents (newest first). */
export const DIRECTORY_SCAN_LIMIT = 300;
/** Campaign details read to find integrations (list items don't carry them): one per agent first, newest first. */
export const DIRECTORY_DETAIL_LIMIT = 20;

function addIntegration(agents: Map<string, KnownAgent>, c: CampaignDetail): void {
  const agent = agents.get(c.agent.id) ?? { id: c.agent.id, name: c.agent.name ?? undefined, integrations: [] };
  if (!agent.name && c.agent.name) agent.name = c.agent.name;
  if (c.integration && !agent.integrations.some((i) => i.id === c.integration?.id)) {
    agent.integrations.push({ id: c.integration.id, type: c.integration.type });
  }
  agents.set(agent.id, agent);
}

function sortDirectory(agents: Map<string, KnownAgent>): FormDirectory {
  const list = [...agents.values()].map((a) => ({
    ...a,
    integrations: [...a.integrations].sort((x, y) => x.id.localeCompare(y.id)),
  }));
  list.sort((a, b) => (a.name ?? a.id).localeCompare(b.name ?? b.id, 'en', { sensitivity: 'base' }));
  return { agents: list };
}

/**
 * Agents and their integrations as seen in existing campaigns. The service has no endpoint listing agents: agents
 * come from the campaign list, integrations from the details of a bounded number of recent campaigns (one per agent
 * first). Read at most every DIRECTORY_TTL_MS; concurrent callers share one read. A failure yields what is known
 * (possibly nothing): the form still takes typed ids. One per app, built by src/main.ts.
 */
export class AgentDirectory {
  private at = 0;
  private dir: FormDirectory | undefined;
  private loading: Promise<FormDirectory> | undefined;

  constructor(private readonly deps: Pick<AppDeps, 'outreach' | 'logger'>) {}

  /** The directory when it was read recently, else undefined. */
  cached(now = Date.now()): FormDirectory | undefined {
    return this.dir && now - this.at < DIRECTORY_TTL_MS ? this.dir : undefined;
  }

  /** The directory, read again when it is older than DIRECTORY_TTL_MS. */
  async load(now = Date.now()): Promise<FormDirectory> {
    const cached = this.cached(now);
    if (cached) return cached;
    if (this.loading) return this.loading;
    const { deps } = this;
    this.loading = (async () => {
      const agents = new Map<string, KnownAgent>();
      for (const a of this.dir?.agents ?? []) agents.set(a.id, { ...a, integrations: [...a.integrations] });
      try {
        const items: CampaignListItem[] = [];
        for await (const item of deps.outreach.iterateCampaigns({ includeArchived: true })) {
          items.push(item);
          if (items.length >= DIRECTORY_SCAN_LIMIT) break;
        }
        items.sort((a, b) => (b.created_at ?? '').localeCompare(a.created_at ?? '') || b.id - a.id);
        for (const it of items) {
          if (!it.agent) continue;
          const known = agents.get(it.agent.id);
          if (!known) agents.set(it.agent.id, { id: it.agent.id, name: it.agent.name ?? undefined, integrations: [] });
          else if (!known.name && it.agent.name) known.name = it.agent.name;
        }
        // One detail per agent first (newest campaign), then further recent campaigns, within the bound.
        const picked: number[] = [];
        const seenAgents = new Set<string>();
        for (const it of items) {
          if (it.agent && !seenAgents.has(it.agent.id)) {
            seenAgents.add(it.agent.id);
            picked.push(it.id);
          }
        }
        for (const it of items) if (!picked.includes(it.id)) picked.push(it.id);
        const details = await Promise.allSettled(
          picked.slice(0, DIRECTORY_DETAIL_LIMIT).map((id) => deps.outreach.getCampaign(id)),
        );
        for (const d of details) if (d.status === 'fulfilled') addIntegration(agents, d.value);
        const dir = sortDirectory(agents);
        this.dir = dir;
        this.at = now;
        return dir;
      } catch (err) {
        deps.logger.warn({ err: errorSummary(err) }, 'could not read agents for the campaign form');
        return this.dir ?? sortDirectory(agents);
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }

  /** Adds a campaign's agent and integration (just created or loaded) to the directory. */
  remember(campaign: CampaignDetail): void {
    if (!this.dir) return;
    const agents = new Map(this.dir.agents.map((a) => [a.id, { ...a, integrations: [...a.integrations] }]));
    addIntegration(agents, campaign);
    this.dir = sortDirectory(agents);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Opening the forms

/** What the form's use cases work with: the app's base, the agent directory and the submission records. */
export type FormDeps = AppDeps & { directory: AgentDirectory; submissions: FormSubmissions };

export interface OpenFormRequest {
  triggerId: string;
  userId: string;
  /** Conversation to post the result in; undefined: the person's DM. */
  postTo?: string;
}

async function updateQuietly(deps: AppDeps, client: WebClient, viewId: string | undefined, view: View): Promise<void> {
  if (!viewId) return;
  try {
    await client.views.update({ view_id: viewId, view });
  } catch (err) {
    // The person may have closed the loading view already: nothing to show then.
    deps.logger.info({ err: errorSummary(err) }, 'could not update the campaign form view');
  }
}

export function createFormView(values: FormValues, directory: FormDirectory, meta: FormMetadata): View {
  return campaignFormView({ mode: 'create', values, directory, metadata: meta });
}

/**
 * Opens the new-campaign form. With the agents already known it opens at once; otherwise a loading view is opened
 * within the trigger's 3 seconds and replaced by the form once the agents are read.
 */
export async function openCreateForm(deps: FormDeps, client: WebClient, req: OpenFormRequest): Promise<void> {
  const meta: FormMetadata = { mode: 'create', ...(req.postTo ? { postTo: req.postTo } : {}) };
  const cached = deps.directory.cached();
  if (cached) {
    await client.views.open({ trigger_id: req.triggerId, view: createFormView(defaultFormValues(), cached, meta) });
    return;
  }
  const opened = await client.views.open({
    trigger_id: req.triggerId,
    view: loadingView('New campaign', 'Loading the agents seen in existing campaigns…'),
  });
  const directory = await deps.directory.load();
  await updateQuietly(deps, client, opened.view?.id, createFormView(defaultFormValues(), directory, meta));
}

export function fixedSettingsOf(c: CampaignDetail): FixedSettings {
  return {
    channel: c.integration?.type ?? null,
    cyclesEnabled: Boolean(c.cycles?.enabled),
    cyclesMode: c.cycles?.enabled ? (c.cycles.mode ?? 'cooldown') : null,
  };
}

/** The edit form of a campaign (prefilled; fingerprints of every editable field in the metadata). */
export function editFormView(c: CampaignDetail, postTo?: string): View {
  const values = formValuesFromCampaign(c);
  const fixed = fixedSettingsOf(c);
  const meta: FormMetadata = {
    mode: 'edit',
    campaignId: c.id,
    fixed,
    initial: fieldFingerprints(values, fixed),
    ...(postTo ? { postTo } : {}),
  };
  return campaignFormView({ mode: 'edit', values, directory: { agents: [] }, metadata: meta, campaign: c });
}

/**
 * Opens the edit form of a campaign: a loading view at once (the campaign must be read first), then the form, or
 * the answer that a finished campaign is read-only, or what went wrong.
 */
export async function openEditForm(
  deps: FormDeps,
  client: WebClient,
  req: OpenFormRequest & { campaignId: number },
): Promise<void> {
  const title = editTitle(req.campaignId);
  const opened = await client.views.open({
    trigger_id: req.triggerId,
    view: loadingView(title, `Loading campaign #${req.campaignId}…`),
  });
  let view: View;
  try {
    const c = await deps.outreach.getCampaign(req.campaignId);
    deps.directory.remember(c);
    view = c.status === 'finished' ? finishedReadOnlyView(c) : editFormView(c, req.postTo);
  } catch (err) {
    if (!(err instanceof OutreachError)) deps.logger.error({ err: errorSummary(err) }, 'opening the edit form failed');
    view = formProblemView(title, humanMessage(err));
  }
  await updateQuietly(deps, client, opened.view?.id, view);
}

// ---------------------------------------------------------------------------------------------------------------
// Rebuilding the form after a dispatching choice (channel, agent, cycles on/off, cycles mode)

export interface SubmittedView {
  id: string;
  hash?: string;
  private_metadata?: string;
  blocks?: unknown;
  state?: { values?: unknown };
}

/**
 * The form rebuilt from what it holds now, so the new view shows only the fields of the chosen channel and mode.
 * Same block and action ids keep what was typed; values of blocks that disappear are stashed in the metadata and
 * come back with their blocks.
 */
export function rebuiltFormView(view: SubmittedView, directory: FormDirectory, action?: unknown): View | undefined {
  const meta = decodeMetadata(view.private_metadata);
  if (!meta || meta.mode !== 'create') return undefined;
  const visibleBefore = new Set(inputBlockIds(view));
  const current = formValuesFromState(view.state?.values);
  const values: FormValues = {};
  for (const [k, v] of Object.entries(meta.stash ?? {})) if (!visibleBefore.has(k)) values[k] = v;
  Object.assign(values, current);
  // The choice that triggered the rebuild wins over the state (which may predate it).
  const a = action as { block_id?: unknown; action_id?: unknown } | undefined;
  if (a && typeof a.block_id === 'string' && typeof a.action_id === 'string') {
    const chosen = formValuesFromState({ [a.block_id]: { [a.action_id]: a } })[a.block_id];
    if (chosen === undefined) delete values[a.block_id];
    else values[a.block_id] = chosen;
  }
  // An integration chosen under another agent is not carried over to the new agent's list.
  const agent = values[B.agent];
  if (typeof agent === 'string' && typeof values[B.integration] === 'string') {
    const owner = directory.agents.find((a) => a.integrations.some((i) => i.id === values[B.integration]));
    if (owner && owner.id !== agent) delete values[B.integration];
  }
  const draft = createFormView(values, directory, { ...meta, stash: undefined });
  const visibleAfter = new Set(inputBlockIds(draft as { blocks?: unknown }));
  const stash: FormValues = {};
  for (const [k, v] of Object.entries(values)) if (!visibleAfter.has(k) && v !== undefined) stash[k] = v;
  return { ...draft, private_metadata: encodeMetadata({ ...meta, stash }) } as View;
}

// ---------------------------------------------------------------------------------------------------------------
// Submitting

/** What the view_submission is acknowledged with. */
export type SubmitAck =
  | { response_action: 'errors'; errors: FormErrors }
  | { response_action: 'push'; view: View }
  | { response_action: 'update'; view: View }
  | undefined;

export interface SubmitTiming {
  /** How long the ack may wait for the service before answering "working on it" (Slack allows 3 s in all). */
  ackBudgetMs: number;
}

/** A submission, as the record that makes it happen once. */
interface SubmissionRecord {
  /** Times the service refused this exact content (moves the Idempotency-Key on). */
  refusals: number;
  campaignId?: number;
  /** The result was posted (or is being posted): never again. */
  done?: boolean;
  at: number;
}

const SUBMISSIONS = 'campaignFormSubmissions';
/** Records older than this are dropped (Slack views live far shorter). */
const SUBMISSION_KEEP_MS = 3 * 24 * 3600_000;

type Outcome = { campaign: CampaignDetail; first: boolean; changed?: string[] };

/** A UUID-shaped key (version nibble 5: name-based) from any text. */
export function uuidFrom(text: string): string {
  const h = createHash('sha256').update(text).digest('hex');
  const variant = ((parseInt(h.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The submission's identity: same view, same person, same content. */
export function submissionKey(viewId: string, userId: string, body: unknown): string {
  return uuidFrom(`campaign-form|${viewId}|${userId}|${JSON.stringify(body)}`);
}

/** A refusal by the service itself: nothing was created or changed, so the same content may be sent again later. */
function definitelyNotApplied(err: unknown): boolean {
  if (!(err instanceof OutreachError)) return false;
  if (err.kind === 'network' || err.kind === 'timeout') return err.mayHaveBeenApplied === false;
  if (err.kind !== 'service' || err.status === undefined) return false;
  return err.status >= 400 && err.status < 500 && err.status !== 408 && err.status !== 429;
}

/**
 * The submissions of the campaign form, each carried out once: a concurrent duplicate shares the first one's promise;
 * a later duplicate of a submission that succeeded is answered from its record (in the store) without calling the
 * service again. One per app, built by src/main.ts.
 */
export class FormSubmissions {
  private readonly inflight = new Map<string, Promise<Outcome>>();
  private readonly records: Collection<SubmissionRecord>;

  constructor(store: Store) {
    this.records = store.collection<SubmissionRecord>(SUBMISSIONS);
  }

  /** Runs the service call of the submission `baseKey` once (see above). */
  async once(
    baseKey: string,
    call: (idempotencyKey: string) => Promise<{ campaign: CampaignDetail; changed?: string[] }>,
    replay: (campaignId: number) => Promise<CampaignDetail>,
  ): Promise<Outcome> {
    const map = this.inflight;
    const running = map.get(baseKey);
    if (running) return running.then((o) => ({ ...o, first: false }));
    const coll = this.records;
    const p = (async (): Promise<Outcome> => {
      const rec = coll.get(baseKey);
      if (rec?.done && rec.campaignId !== undefined) return { campaign: await replay(rec.campaignId), first: false };
      const refusals = rec?.refusals ?? 0;
      const key = refusals ? uuidFrom(`${baseKey}#${refusals}`) : baseKey;
      try {
        const r = await call(key);
        const now = Date.now();
        await coll.set(baseKey, { refusals, campaignId: r.campaign.id, done: true, at: now });
        this.prune(now);
        return { ...r, first: true };
      } catch (err) {
        if (definitelyNotApplied(err)) await coll.set(baseKey, { refusals: refusals + 1, at: Date.now() });
        throw err;
      }
    })();
    map.set(baseKey, p);
    try {
      return await p;
    } finally {
      map.delete(baseKey);
    }
  }

  private prune(now: number): void {
    const coll = this.records;
    for (const [k, r] of coll.entries()) if (now - r.at > SUBMISSION_KEEP_MS) void coll.delete(k);
  }
}

async function postResult(
  deps: AppDeps,
  client: WebClient,
  postTo: string | undefined,
  userId: string,
  msg: SlackMessage,
) {
  const post = (channel: string, m: SlackMessage) =>
    client.chat.postMessage({ channel, text: m.text, blocks: m.blocks, unfurl_links: false, unfurl_media: false });
  if (postTo) {
    try {
      await post(postTo, msg);
      return;
    } catch (err) {
      deps.logger.warn(
        { err: errorSummary(err), channel: postTo },
        'could not post the campaign form result in the channel',
      );
    }
  }
  try {
    const note = postTo
      ? md`(I couldn't post this in <#${postTo}>: invite me there to see results in the channel.)`
      : '';
    await post(userId, note ? { text: msg.text, blocks: [...msg.blocks, context(note)] } : msg);
  } catch (err) {
    deps.logger.error({ err: errorSummary(err) }, 'could not post the campaign form result');
  }
}

/** The ack for a service refusal: errors under their blocks, or a pushed view for what no block can show. */
function refusalAck(err: unknown, values: FormValues, visible: ReadonlySet<string>): SubmitAck {
  const mapped = mapServiceError(err, values, visible);
  const placed = Object.keys(mapped.errors);
  if (placed.length && mapped.general.length === 0) return { response_action: 'errors', errors: mapped.errors };
  if (placed.length) {
    const first = placed[0] as string;
    return {
      response_action: 'errors',
      errors: { ...mapped.errors, [first]: `${mapped.errors[first]} ${mapped.general.join(' ')}`.slice(0, 300) },
    };
  }
  return { response_action: 'push', view: submitProblemView(mapped.general.join(' ')) };
}

export interface SubmitRequest {
  view: SubmittedView;
  userId: string;
  client: WebClient;
  /** Called with the ack as soon as it is known; the work (posting, slow service) continues after it. */
  ack: (response: SubmitAck) => Promise<void>;
  timing: SubmitTiming;
}

/**
 * A submission of the campaign form: permission, validation, the service call (once), and the result posted in the
 * channel. The ack is sent within the budget: when the service is slower, a "working" view is pushed and replaced
 * by the outcome when it arrives.
 */
export async function submitCampaignForm(deps: FormDeps, req: SubmitRequest): Promise<void> {
  const { view, userId, client } = req;
  const meta = decodeMetadata(view.private_metadata);
  if (!meta) {
    await req.ack({
      response_action: 'push',
      view: submitProblemView('This form is out of date. Close it and open it again with `/campaign create`.'),
    });
    return;
  }
  const action = meta.mode === 'create' ? 'create' : 'edit';
  const refused = await refuseSubmissionIfReadOnly(
    deps,
    client,
    { userId, action, what: `${action} campaigns`, campaignId: meta.campaignId },
    (text) => req.ack({ response_action: 'push', view: submitProblemView(raw(text)) }),
  );
  if (refused) return;
  const values = formValuesFromState(view.state?.values);
  const visible = new Set(inputBlockIds(view));

  let body: CreateCampaignInput | { id: number; patch: UpdateCampaignInput };
  let call: (key: string) => Promise<{ campaign: CampaignDetail; changed?: string[] }>;
  let changed: string[] = [];
  if (meta.mode === 'create') {
    const r = validateCreate(values, { directory: deps.directory.cached() ?? { agents: [] }, visible });
    if (!r.ok) {
      await req.ack({ response_action: 'errors', errors: r.errors });
      return;
    }
    const input = r.input;
    body = input;
    call = async (key) => ({ campaign: await deps.outreach.createCampaign(input, { idempotencyKey: key }) });
  } else {
    const id = meta.campaignId as number;
    const fixed = meta.fixed as FixedSettings;
    const r = validateEdit(values, fixed, meta.initial ?? {}, visible);
    if (!r.ok) {
      await req.ack({ response_action: 'errors', errors: r.errors });
      return;
    }
    if (r.changed.length === 0) {
      await req.ack({ response_action: 'update', view: noChangesView(id) });
      return;
    }
    const patch = r.patch;
    changed = r.changed;
    body = { id, patch };
    call = async () => ({ campaign: await deps.outreach.updateCampaign(id, patch), changed });
  }

  const baseKey = submissionKey(view.id, userId, body);
  const work = deps.submissions.once(baseKey, call, (id) => deps.outreach.getCampaign(id));
  const first = await Promise.race([
    work.then(
      (o) => ({ ok: o }) as const,
      (e: unknown) => ({ err: e }) as const,
    ),
    slowAfter(req.timing.ackBudgetMs),
  ]);

  const finish = async (o: Outcome) => {
    if (!o.first) return;
    deps.directory.remember(o.campaign);
    await deps.audit.record(
      { userId, action, campaignId: o.campaign.id, result: 'ok', detail: changed.join(', ') || undefined },
      client,
    );
    const msg =
      meta.mode === 'create'
        ? campaignCreatedMessage(o.campaign, userId)
        : campaignUpdatedMessage(o.campaign, userId, o.changed ?? changed);
    await postResult(deps, client, meta.postTo, userId, msg);
  };
  const failed = async (err: unknown) => {
    if (!(err instanceof OutreachError))
      deps.logger.error({ err: errorSummary(err) }, 'campaign form submission failed');
    else deps.logger.warn({ err: errorSummary(err) }, 'campaign form refused by the service');
    await deps.audit.record(
      { userId, action, campaignId: meta.campaignId, result: 'failed', detail: humanMessage(err) },
      client,
    );
  };

  if (first !== 'slow') {
    if ('ok' in first) {
      await req.ack(undefined);
      await finish(first.ok);
    } else {
      await req.ack(refusalAck(first.err, values, visible));
      await failed(first.err);
    }
    return;
  }

  // The service is slow: answer Slack now with a view that is replaced by the outcome.
  const externalId = `campaign-form-${randomBytes(12).toString('hex')}`;
  await req.ack({ response_action: 'push', view: workingView(externalId, meta.mode) });
  try {
    const o = await work;
    const text =
      meta.mode === 'create'
        ? md`✅ Campaign *${cleanLabel(o.campaign.name, 200)}* (#${o.campaign.id}) was created.`
        : md`✅ Campaign *${cleanLabel(o.campaign.name, 200)}* (#${o.campaign.id}) was saved.`;
    await updateByExternalId(deps, client, externalId, doneView(externalId, text));
    await finish(o);
  } catch (err) {
    const mapped = mapServiceError(err, values, visible);
    const notes = Object.entries(mapped.errors).map(([block, message]) => `${block}: ${message}`);
    const sentence = mapped.general.length ? mapped.general.join(' ') : 'The service refused some fields:';
    await updateByExternalId(deps, client, externalId, {
      ...submitProblemView(sentence, notes),
      external_id: externalId,
    } as View);
    await failed(err);
  }
}

async function updateByExternalId(deps: AppDeps, client: WebClient, externalId: string, view: View): Promise<void> {
  try {
    await client.views.update({ external_id: externalId, view });
  } catch (err) {
    deps.logger.info({ err: errorSummary(err) }, 'could not update the campaign form result view');
  }
}
