/**
 * Interactions of the campaign form: the "New campaign" button (opens the form), and the choices that reshape the
 * open form (channel, agent, cycles on/off, cycles mode) through views.update with the same block and action ids,
 * so what was typed stays.
 */
import type { App, BlockAction } from '@slack/bolt';
import { ACTION_IDS, FORM_CALLBACK_ID } from '../../render/ids.js';
import { DISPATCHING_BLOCKS } from '../../render/campaign-form.js';
import { errorSummary, guarded } from '../guard.js';
import { openCreateForm, rebuiltFormView, type FormDeps, type SubmitTiming } from '../usecases/campaignForm.js';
import { refuseIfReadOnly } from '../usecases/permission.js';
import { registerCampaignFormView } from '../views/campaignForm.js';
import { actionReply } from './context.js';

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const DISPATCHING = new RegExp(`^(?:${DISPATCHING_BLOCKS.map(escapeRe).join('|')})$`);

/** Registers the form's button, its reshaping choices and its submission. */
export function registerCampaignForm(app: App, deps: FormDeps & { formTiming: SubmitTiming }): void {
  registerCampaignFormView(app, deps);

  app.action<BlockAction>(ACTION_IDS.campaignCreateOpen, async ({ ack, body, respond, client }) => {
    await ack();
    const reply = actionReply(body, respond, client);
    await guarded(reply, deps.logger, async () => {
      if (await refuseIfReadOnly(deps, client, reply, body.user.id, 'create')) return;
      await openCreateForm(deps, client, {
        triggerId: body.trigger_id,
        userId: body.user.id,
        postTo: body.channel?.id,
      });
    });
  });

  app.action<BlockAction>({ callback_id: FORM_CALLBACK_ID, action_id: DISPATCHING }, async ({ ack, body, client }) => {
    await ack();
    const view = body.view;
    if (!view) return;
    try {
      const directory = await deps.directory.load();
      const next = rebuiltFormView(view as never, directory, body.actions[0]);
      if (!next) return;
      await client.views.update({ view_id: view.id, hash: view.hash, view: next });
    } catch (err) {
      // hash_conflict: a newer choice is on its way and rebuilds the form itself.
      deps.logger.info({ err: errorSummary(err) }, 'could not reshape the campaign form');
    }
  });
}
