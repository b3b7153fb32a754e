/**
 * A submission of the campaign form, after `submission()` read its metadata and checked the permission inside the
 * ack (campaign-form/listeners.ts): validation, the service call carried out once (once.ts), the ack within its
 * budget, and the result posted where the form was opened.
 */
import { slowAfter, type ViewAck } from '../middleware/listener.js';
import { randomBytes } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import type { Translator } from '../../i18n/translator.js';
import { OutreachError } from '../../outreach/errors.js';
import type { CampaignDetail, CreateCampaignInput, UpdateCampaignInput } from '../../outreach/schemas.js';
import {
  doneView,
  inputBlockIds,
  noChangesView,
  submitProblemView,
  workingView,
  type FixedSettings,
  type FormMetadata,
  type FormValues,
} from '../../render/campaign-form.js';
import { campaignCreatedMessage, campaignUpdatedMessage } from '../../render/feedback.js';
import { cleanLabel, context, raw } from '../../render/mrkdwn.js';
import { englishErrorText } from '../../render/service-error.js';
import { tmd } from '../../render/text.js';
import { conversationWords } from '../conversation-words.js';
import type { View } from '../../render/types.js';
import type { AppDeps } from '../deps.js';
import { errorSummary } from '../middleware/errors.js';
import type { SlackMessage } from '../../render/types.js';
import { formValuesFromState, mapServiceError, validateCreate, validateEdit } from './state.js';

import { AgentDirectory } from './directory.js';
import { FormSubmissions, submissionKey, type Outcome } from './once.js';
import { type SubmittedView } from './open.js';

// ---------------------------------------------------------------------------------------------------------------
// Submitting

/** What the view_submission is acknowledged with. */
export type SubmitAck = ViewAck;

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
  /** The form's metadata, read back by `submission()` (the permission checked there too, inside the ack). */
  meta: FormMetadata;
  /** The form's words: its opener's language (kept in its metadata), for its errors, views and result. */
  t: Translator;
  /** Called with the ack as soon as it is known; the work (posting, slow service) continues after it. */
  ack: (response: SubmitAck) => Promise<void>;
  timing: SubmitTiming;
}

/** A checked form: the body it sends (its idempotency key is made of it), the call, and the fields it changes. */
interface Prepared {
  body: CreateCampaignInput | { id: number; patch: UpdateCampaignInput };
  call: (key: string) => Promise<{ campaign: CampaignDetail; changed?: string[] }>;
  changed: string[];
}

/** What is sent for the form's values, or the ack that answers without sending (errors, nothing changed). */
function prepare(
  deps: FormDeps,
  req: SubmitRequest,
  values: FormValues,
  visible: Set<string>,
): Prepared | NonNullable<SubmitAck> {
  const { meta, t } = req;
  if (meta.mode === 'create') {
    const r = validateCreate(values, { directory: deps.directory.cached() ?? { agents: [] }, visible }, t);
    if (!r.ok) return { response_action: 'errors', errors: r.errors };
    const input = r.input;
    const call = async (key: string) => ({
      campaign: await deps.outreach.createCampaign(input, { idempotencyKey: key }),
    });
    return { body: input, call, changed: [] };
  }
  const id = meta.campaignId as number;
  const r = validateEdit(values, meta.fixed as FixedSettings, meta.initial ?? {}, visible, t);
  if (!r.ok) return { response_action: 'errors', errors: r.errors };
  if (r.changed.length === 0) return { response_action: 'update', view: noChangesView(id, t) };
  const { patch, changed } = r;
  return {
    body: { id, patch },
    call: async () => ({ campaign: await deps.outreach.updateCampaign(id, patch), changed }),
    changed,
  };
}

/** What happens once the service has answered: audited, and a new or changed campaign posted where it was asked. */
function recorder(deps: FormDeps, req: SubmitRequest, changed: string[]) {
  const { userId, client, meta, t } = req;
  const action = meta.mode === 'create' ? 'create' : 'edit';
  return {
    async finish(o: Outcome) {
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
    },
    async failed(err: unknown) {
      if (!(err instanceof OutreachError))
        deps.logger.error({ err: errorSummary(err) }, 'campaign form submission failed');
      else deps.logger.warn({ err: errorSummary(err) }, 'campaign form refused by the service');
      await deps.audit.record(
        { userId, action, campaignId: meta.campaignId, result: 'failed', detail: englishErrorText(err) },
        client,
      );
    },
  };
}

/** The values of the form and which of its inputs it showed (service errors land under these). */
interface Shown {
  values: FormValues;
  visible: Set<string>;
}

/**
 * A submission of the campaign form, after `submission()` checked its metadata and permission: validation, the
 * service call (once), and the result posted in the channel. The ack is sent within the budget: when the service is
 * slower, a "working" view is pushed and replaced by the outcome when it arrives.
 */
export async function submitCampaignForm(deps: FormDeps, req: SubmitRequest): Promise<void> {
  const { view, userId, t } = req;
  const shown: Shown = { values: formValuesFromState(view.state?.values), visible: new Set(inputBlockIds(view)) };
  const prepared = prepare(deps, req, shown.values, shown.visible);
  if (!('call' in prepared)) return req.ack(prepared);
  const key = submissionKey(view.id, userId, prepared.body);
  const work = deps.submissions.once(key, prepared.call, (id) => deps.outreach.getCampaign(id));
  const first = await Promise.race([
    work.then(
      (o) => ({ ok: o }) as const,
      (e: unknown) => ({ err: e }) as const,
    ),
    slowAfter(req.timing.ackBudgetMs),
  ]);
  const done = recorder(deps, req, prepared.changed);
  if (first === 'slow') return ackWorkingThenUpdate(deps, req, work, shown, done);
  if ('ok' in first) {
    await req.ack(undefined);
    await done.finish(first.ok);
  } else {
    await req.ack(refusalAck(first.err, shown.values, shown.visible, t));
    await done.failed(first.err);
  }
}

/** The service is slow: Slack is answered now with a "working" view, replaced by the outcome when it arrives. */
async function ackWorkingThenUpdate(
  deps: FormDeps,
  req: SubmitRequest,
  work: Promise<Outcome>,
  shown: Shown,
  done: ReturnType<typeof recorder>,
): Promise<void> {
  const { client, meta, t } = req;
  const externalId = `campaign-form-${randomBytes(12).toString('hex')}`;
  await req.ack({ response_action: 'push', view: workingView(externalId, meta.mode, t) });
  try {
    const o = await work;
    const text = tmd(t, meta.mode === 'create' ? 'campaignForm.doneCreated' : 'campaignForm.doneSaved', {
      name: cleanLabel(o.campaign.name, 200),
      id: String(o.campaign.id),
    });
    await updateByExternalId(deps, client, externalId, doneView(externalId, text, t));
    await done.finish(o);
  } catch (err) {
    const mapped = mapServiceError(err, shown.values, shown.visible, t);
    const notes = Object.entries(mapped.errors).map(([block, message]) => `${block}: ${message}`);
    const sentence = mapped.general.length ? mapped.general.join(' ') : t.t('campaignForm.serviceRefusedFields');
    await updateByExternalId(deps, client, externalId, {
      ...submitProblemView(sentence, notes, t),
      external_id: externalId,
    } as View);
    await done.failed(err);
  }
}

async function updateByExternalId(deps: AppDeps, client: WebClient, externalId: string, view: View): Promise<void> {
  try {
    await client.views.update({ external_id: externalId, view });
  } catch (err) {
    deps.logger.info({ err: errorSummary(err) }, 'could not update the campaign form result view');
  }
}
