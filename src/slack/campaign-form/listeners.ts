/**
 * The campaign form, its Slack surfaces: `/campaign create` and `/campaign edit <id>`, the "New campaign" button
 * (each opens the form), the choices that reshape the open form (channel, agent, cycles on/off, cycles mode) through
 * views.update with the same block and action ids so what was typed stays, and the form's submission.
 */
import type { Translator } from '../../i18n/translator.js';
import { FormMetadataSchema, submitProblemView, type FormMetadata } from '../../render/campaign-form.js';
import { raw, type RawMrkdwn } from '../../render/mrkdwn.js';
import type { CommandContext } from '../deps.js';
import type { ChangeHandler } from '../middleware/change.js';
import { errorSummary } from '../middleware/errors.js';
import { submission, type ActionListener, type ButtonContext, type ViewListener } from '../middleware/listener.js';
import { openCreateForm, openEditForm, rebuiltFormView, type OpenDeps, type SubmittedView } from './open.js';
import { submitCampaignForm, type FormDeps, type SubmitAck, type SubmitTiming } from './submit.js';

/** `/campaign create`: opens the campaign form; the result is posted in this channel. */
export const create: ChangeHandler<CommandContext<'create', OpenDeps>> = ({
  deps,
  client,
  userId,
  channelId,
  triggerId,
  t,
}) => openCreateForm(deps, client, { triggerId, userId, postTo: channelId, t });

/** `/campaign edit <id>`: the campaign form prefilled; a finished campaign answers that it is read-only. */
export const edit: ChangeHandler<CommandContext<'edit', OpenDeps>> = ({
  command,
  deps,
  client,
  userId,
  channelId,
  triggerId,
  t,
}) => openEditForm(deps, client, { triggerId, userId, postTo: channelId, campaignId: command.id, t });

/** The "New campaign" button (campaign lists, the Home tab): the result is posted where it was clicked. */
export const createButton: ChangeHandler<ButtonContext<true, OpenDeps>> = ({ body, deps, client, userId, t }) =>
  openCreateForm(deps, client, { triggerId: body.trigger_id, userId, postTo: body.channel?.id, t });

/** A choice that reshapes the open form: the view rebuilt for it (dropped quietly when a newer choice won). */
export function reshape(deps: OpenDeps): ActionListener {
  return async ({ ack, body, client }) => {
    await ack();
    const view = body.view;
    if (!view) return;
    try {
      const directory = await deps.directory.load();
      const next = rebuiltFormView(view as SubmittedView, directory, body.actions[0]);
      if (!next) return;
      await client.views.update({ view_id: view.id, hash: view.hash, view: next });
    } catch (err) {
      // hash_conflict: a newer choice is on its way and rebuilds the form itself.
      deps.logger.info({ err: errorSummary(err) }, 'could not reshape the campaign form');
    }
  };
}

/**
 * The form's submission. The ack carries the answer (`response_action: errors` keyed by block_id, a pushed view, or
 * nothing to close the form); posting the result happens after it. `deps.formTiming` is read at each submission.
 */
export function submitted(deps: FormDeps & { formTiming: SubmitTiming }): ViewListener {
  const problem = (sentence: string | RawMrkdwn, t: Translator): SubmitAck => ({
    response_action: 'push',
    view: submitProblemView(sentence, [], t),
  });
  return submission<SubmitAck, FormMetadata>(deps, {
    what: 'campaign form submission',
    metadata: { schema: FormMetadataSchema, stale: (t) => problem(raw(t.t('campaignForm.outOfDate')), t) },
    // The form speaks its opener's language (kept in its metadata); one out of date, English.
    locale: (meta) => meta?.lang ?? 'en',
    refuse: {
      what: (meta) => (meta.mode === 'create' ? 'create' : 'edit'),
      campaign: (meta) => meta.campaignId,
      answer: (text, t) => problem(raw(text), t),
    },
    handler: ({ view, userId, client, meta, t, ack }) =>
      submitCampaignForm(deps, { view: view as SubmittedView, userId, client, meta, t, ack, timing: deps.formTiming }),
    crashed: (t) => problem(t.t('submission.crashed'), t),
  });
}
