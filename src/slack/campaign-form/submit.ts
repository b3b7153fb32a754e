/**
 * A submission of the campaign form: permission (inside the ack), validation, the service call carried out once
 * (once.ts), the ack within its budget, and the result posted where the form was opened.
 */
import { slowAfter } from '../middleware/listener.js';
import { randomBytes } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import type { Translator } from '../../i18n/translator.js';
import { OutreachError } from '../../outreach/errors.js';
import type { CampaignDetail, CreateCampaignInput, UpdateCampaignInput } from '../../outreach/schemas.js';
import {
  campaignCreatedMessage,
  campaignUpdatedMessage,
  doneView,
  inputBlockIds,
  noChangesView,
  submitProblemView,
  workingView,
  type FixedSettings,
  type FormValues,
  decodeMetadata,
  formWords,
} from '../../render/campaign-form.js';
import { cleanLabel, context, raw } from '../../render/mrkdwn.js';
import { englishErrorText } from '../../render/service-error.js';
import { tmd } from '../../render/text.js';
import { conversationWords } from '../conversation-words.js';
import type { View } from '../../render/types.js';
import type { AppDeps } from '../deps.js';
import { errorSummary } from '../middleware/errors.js';
import type { SlackMessage } from '../../render/types.js';
import { formValuesFromState, mapServiceError, validateCreate, validateEdit, type FormErrors } from './state.js';
import { refuseSubmissionIfReadOnly } from '../middleware/change.js';

import { AgentDirectory } from './directory.js';
import { FormSubmissions, submissionKey, type Outcome } from './once.js';
import { type SubmittedView } from './open.js';

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

/**
 * How long a submission waits for the service before acking with a "working on it" view, by default. Slack drops an
 * answer after 3 s; Bolt's own timer fires at 3001 ms. Tests lower it to exercise the slow path quickly.
 */
export const DEFAULT_FORM_TIMING: SubmitTiming = { ackBudgetMs: 2200 };

/**
 * Posts the result where the form was opened, in that conversation's language (a channel's own, else the person's);
 * when that fails, in the person's DM, in their words, saying why.
 */
async function postResult(
  deps: AppDeps,
  client: WebClient,
  req: { postTo: string | undefined; userId: string; t: Translator },
  build: (t: Translator) => SlackMessage,
) {
  const { postTo, userId, t } = req;
  const post = (channel: string, m: SlackMessage) =>
    client.chat.postMessage({ channel, text: m.text, blocks: m.blocks, unfurl_links: false, unfurl_media: false });
  if (postTo) {
    try {
      await post(postTo, build(await conversationWords(deps, t, postTo)));
      return;
    } catch (err) {
      deps.logger.warn(
        { err: errorSummary(err), channel: postTo },
        'could not post the campaign form result in the channel',
      );
    }
  }
  try {
    const msg = build(t);
    const note = postTo ? tmd(t, 'campaignForm.postFailedNote', { channel: raw(`<#${postTo}>`) }) : '';
    await post(userId, note ? { text: msg.text, blocks: [...msg.blocks, context(note)] } : msg);
  } catch (err) {
    deps.logger.error({ err: errorSummary(err) }, 'could not post the campaign form result');
  }
}

/** The ack for a service refusal: errors under their blocks, or a pushed view for what no block can show. */
function refusalAck(err: unknown, values: FormValues, visible: ReadonlySet<string>, t: Translator): SubmitAck {
  const mapped = mapServiceError(err, values, visible, t);
  const placed = Object.keys(mapped.errors);
  if (placed.length && mapped.general.length === 0) return { response_action: 'errors', errors: mapped.errors };
  if (placed.length) {
    const first = placed[0] as string;
    return {
      response_action: 'errors',
      errors: { ...mapped.errors, [first]: `${mapped.errors[first]} ${mapped.general.join(' ')}`.slice(0, 300) },
    };
  }
  return { response_action: 'push', view: submitProblemView(mapped.general.join(' '), [], t) };
}

/** What a submission works with: the app's base, the agent directory and the submission records. */
export type FormDeps = AppDeps & { directory: AgentDirectory; submissions: FormSubmissions };

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
    const t = formWords(undefined);
    await req.ack({ response_action: 'push', view: submitProblemView(raw(t.t('campaignForm.outOfDate')), [], t) });
    return;
  }
  // The form speaks its opener's language (kept in its metadata): its errors and views too.
  const t = formWords(meta);
  const action = meta.mode === 'create' ? 'create' : 'edit';
  const refused = await refuseSubmissionIfReadOnly(
    deps,
    client,
    { userId, action, what: `${action} campaigns`, campaignId: meta.campaignId, t },
    (text) => req.ack({ response_action: 'push', view: submitProblemView(raw(text), [], t) }),
  );
  if (refused) return;
  const values = formValuesFromState(view.state?.values);
  const visible = new Set(inputBlockIds(view));

  let body: CreateCampaignInput | { id: number; patch: UpdateCampaignInput };
  let call: (key: string) => Promise<{ campaign: CampaignDetail; changed?: string[] }>;
  let changed: string[] = [];
  if (meta.mode === 'create') {
    const r = validateCreate(values, { directory: deps.directory.cached() ?? { agents: [] }, visible }, t);
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
    const r = validateEdit(values, fixed, meta.initial ?? {}, visible, t);
    if (!r.ok) {
      await req.ack({ response_action: 'errors', errors: r.errors });
      return;
    }
    if (r.changed.length === 0) {
      await req.ack({ response_action: 'update', view: noChangesView(id, t) });
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
    const build = (words: Translator) =>
      meta.mode === 'create'
        ? campaignCreatedMessage(o.campaign, userId, words)
        : campaignUpdatedMessage(o.campaign, userId, o.changed ?? changed, words);
    await postResult(deps, client, { postTo: meta.postTo, userId, t }, build);
  };
  const failed = async (err: unknown) => {
    if (!(err instanceof OutreachError))
      deps.logger.error({ err: errorSummary(err) }, 'campaign form submission failed');
    else deps.logger.warn({ err: errorSummary(err) }, 'campaign form refused by the service');
    await deps.audit.record(
      { userId, action, campaignId: meta.campaignId, result: 'failed', detail: englishErrorText(err) },
      client,
    );
  };

  if (first !== 'slow') {
    if ('ok' in first) {
      await req.ack(undefined);
      await finish(first.ok);
    } else {
      await req.ack(refusalAck(first.err, values, visible, t));
      await failed(first.err);
    }
    return;
  }

  // The service is slow: answer Slack now with a view that is replaced by the outcome.
  const externalId = `campaign-form-${randomBytes(12).toString('hex')}`;
  await req.ack({ response_action: 'push', view: workingView(externalId, meta.mode, t) });
  try {
    const o = await work;
    const text = tmd(t, meta.mode === 'create' ? 'campaignForm.doneCreated' : 'campaignForm.doneSaved', {
      name: cleanLabel(o.campaign.name, 200),
      id: String(o.campaign.id),
    });
    await updateByExternalId(deps, client, externalId, doneView(externalId, text, t));
    await finish(o);
  } catch (err) {
    const mapped = mapServiceError(err, values, visible, t);
    const notes = Object.entries(mapped.errors).map(([block, message]) => `${block}: ${message}`);
    const sentence = mapped.general.length ? mapped.general.join(' ') : t.t('campaignForm.serviceRefusedFields');
    await updateByExternalId(deps, client, externalId, {
      ...submitProblemView(sentence, notes, t),
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
