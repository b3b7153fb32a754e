import type { WebClient } from '@slack/web-api';
import type { Translator } from '../../i18n/translator.js';
import { OutreachError } from '../../outreach/errors.js';
import type { CampaignDetail } from '../../outreach/schemas.js';
import {
  FORM_BLOCKS,
  campaignFormView,
  defaultFormValues,
  editTitle,
  encodeMetadata,
  finishedReadOnlyView,
  formProblemView,
  formLanguage,
  formValuesFromCampaign,
  formWords,
  inputBlockIds,
  loadingView,
  type FixedSettings,
  type FormDirectory,
  type FormMetadata,
  type FormValues,
  decodeMetadata,
} from '../../render/campaign-form.js';
import { ENGLISH } from '../../render/format.js';
import { serviceErrorText } from '../../render/service-error.js';
import type { View } from '../../render/types.js';
import type { AppDeps } from '../deps.js';
import { errorSummary } from '../middleware/errors.js';
import { fieldFingerprints, formValuesFromState } from './state.js';

import { AgentDirectory } from './directory.js';

// ---------------------------------------------------------------------------------------------------------------
// Opening the forms

/** What opening the forms works with: the app's base and the agent directory. */
export type OpenDeps = AppDeps & { directory: AgentDirectory };

export interface OpenFormRequest {
  triggerId: string;
  userId: string;
  /** Conversation to post the result in; undefined: the person's DM. */
  postTo?: string;
  /** The words of the person opening it: the form speaks their language (kept in its metadata). Default English. */
  t?: Translator;
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

function createFormView(values: FormValues, directory: FormDirectory, meta: FormMetadata): View {
  return campaignFormView({ mode: 'create', values, directory, metadata: meta }, formWords(meta));
}

/**
 * Opens the new-campaign form. With the agents already known it opens at once; otherwise a loading view is opened
 * within the trigger's 3 seconds and replaced by the form once the agents are read.
 */
export async function openCreateForm(deps: OpenDeps, client: WebClient, req: OpenFormRequest): Promise<void> {
  const t = req.t ?? ENGLISH;
  const meta: FormMetadata = { mode: 'create', ...formLanguage(t), ...(req.postTo ? { postTo: req.postTo } : {}) };
  const cached = deps.directory.cached();
  if (cached) {
    await client.views.open({ trigger_id: req.triggerId, view: createFormView(defaultFormValues(), cached, meta) });
    return;
  }
  const opened = await client.views.open({
    trigger_id: req.triggerId,
    view: loadingView(t.t('campaignForm.title.create'), t.t('campaignForm.loading.agents'), t),
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

/** The edit form of a campaign (prefilled; fingerprints of every editable field in the metadata), in `t`'s words. */
export function editFormView(c: CampaignDetail, postTo?: string, t: Translator = ENGLISH): View {
  const values = formValuesFromCampaign(c);
  const fixed = fixedSettingsOf(c);
  const meta: FormMetadata = {
    mode: 'edit',
    campaignId: c.id,
    fixed,
    initial: fieldFingerprints(values, fixed),
    ...formLanguage(t),
    ...(postTo ? { postTo } : {}),
  };
  return campaignFormView({ mode: 'edit', values, directory: { agents: [] }, metadata: meta, campaign: c }, t);
}

/**
 * Opens the edit form of a campaign: a loading view at once (the campaign must be read first), then the form, or
 * the answer that a finished campaign is read-only, or what went wrong.
 */
export async function openEditForm(
  deps: OpenDeps,
  client: WebClient,
  req: OpenFormRequest & { campaignId: number },
): Promise<void> {
  const t = req.t ?? ENGLISH;
  const title = editTitle(req.campaignId, t);
  const opened = await client.views.open({
    trigger_id: req.triggerId,
    view: loadingView(title, t.t('campaignForm.loading.campaign', { id: String(req.campaignId) }), t),
  });
  let view: View;
  try {
    const c = await deps.outreach.getCampaign(req.campaignId);
    deps.directory.remember(c);
    view = c.status === 'finished' ? finishedReadOnlyView(c, t) : editFormView(c, req.postTo, t);
  } catch (err) {
    if (!(err instanceof OutreachError)) deps.logger.error({ err: errorSummary(err) }, 'opening the edit form failed');
    view = formProblemView(title, serviceErrorText(err, t), t);
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
  const agent = values[FORM_BLOCKS.agent];
  if (typeof agent === 'string' && typeof values[FORM_BLOCKS.integration] === 'string') {
    const owner = directory.agents.find((a) => a.integrations.some((i) => i.id === values[FORM_BLOCKS.integration]));
    if (owner && owner.id !== agent) delete values[FORM_BLOCKS.integration];
  }
  const draft = createFormView(values, directory, { ...meta, stash: undefined });
  const visibleAfter = new Set(inputBlockIds(draft as { blocks?: unknown }));
  const stash: FormValues = {};
  for (const [k, v] of Object.entries(values)) if (!visibleAfter.has(k) && v !== undefined) stash[k] = v;
  return { ...draft, private_metadata: encodeMetadata({ ...meta, stash }) } as View;
}
