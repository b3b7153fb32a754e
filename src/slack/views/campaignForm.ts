/**
 * The campaign form's view_submission listener. The ack carries the answer (`response_action: errors` keyed by
 * block_id, a pushed view, or nothing to close the form); posting the result happens after it.
 */
import type { App } from '@slack/bolt';
import { submitProblemView } from '../../render/campaign-form.js';
import { errorSummary } from '../guard.js';
import { submitCampaignForm, type FormDeps, type SubmitAck, type SubmitTiming } from '../usecases/campaignForm.js';
import { FORM_CALLBACK_ID } from '../../render/ids.js';

/**
 * How long a submission waits for the service before acking with a "working on it" view, by default. Slack drops an
 * answer after 3 s; Bolt's own timer fires at 3001 ms. Tests lower it to exercise the slow path quickly.
 */
export const DEFAULT_FORM_TIMING: SubmitTiming = { ackBudgetMs: 2200 };

/** `deps.formTiming` is read at each submission. */
export function registerCampaignFormView(app: App, deps: FormDeps & { formTiming: SubmitTiming }): void {
  app.view({ callback_id: FORM_CALLBACK_ID, type: 'view_submission' }, async ({ ack, body, view, client }) => {
    let acked = false;
    const once = async (response: SubmitAck) => {
      if (acked) return;
      acked = true;
      await (response ? ack(response as never) : ack());
    };
    try {
      await submitCampaignForm(deps, {
        view: view as never,
        userId: body.user.id,
        client,
        ack: once,
        timing: deps.formTiming,
      });
    } catch (err) {
      deps.logger.error({ err: errorSummary(err) }, 'campaign form submission crashed');
      await once({
        response_action: 'push',
        view: submitProblemView(
          "Something unexpected went wrong; the details are in the app's logs. Nothing was lost: close this to go back to the form.",
        ),
      });
    }
  });
}
