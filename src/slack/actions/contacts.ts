/** Buttons on contact and call pages: paging, contact details, removing a contact. */
import type { App, BlockAction } from '@slack/bolt';
import { successMessage } from '../../render/feedback.js';
import type { AppDeps } from '../deps.js';
import { guarded } from '../guard.js';
import { humanMessage } from '../../outreach/errors.js';
import { loadCallsPage, loadContactDetail, loadContactsPage, removeContact } from '../usecases/campaigns.js';
import { refuseIfReadOnly } from '../usecases/permission.js';
import { actionReply, buttonValue, readButton, staleButtonMessage } from './context.js';
import {
  ACTION_IDS,
  actionIdPattern,
  decodeCallsPage,
  decodeContactRef,
  decodeContactsPage,
} from '../../render/ids.js';

export function registerContactActions(app: App, deps: AppDeps): void {
  const ofCampaign = (v: { campaignId: number }) => v.campaignId;
  readButton(
    app,
    deps,
    actionIdPattern(ACTION_IDS.contactsPage),
    decodeContactsPage,
    (v) => loadContactsPage(deps, v),
    ofCampaign,
  );
  readButton(
    app,
    deps,
    actionIdPattern(ACTION_IDS.callsPage),
    decodeCallsPage,
    (v) => loadCallsPage(deps, v),
    ofCampaign,
  );
  readButton(
    app,
    deps,
    ACTION_IDS.contactDetails,
    decodeContactRef,
    (v) => loadContactDetail(deps, v.campaignId, v.contactId),
    ofCampaign,
  );

  app.action<BlockAction>(ACTION_IDS.contactRemove, async ({ ack, body, respond, client }) => {
    await ack();
    const reply = actionReply(body, respond, client);
    const v = decodeContactRef(buttonValue(body));
    if (!v) return reply.ephemeral(staleButtonMessage);
    const userId = body.user.id;
    await guarded(
      reply,
      deps.logger,
      async () => {
        if (await refuseIfReadOnly(deps, client, reply, userId, 'remove contacts from', v.campaignId)) return;
        try {
          await removeContact(deps, v.campaignId, v.contactId);
        } catch (err) {
          await deps.audit.record(
            {
              userId,
              action: `remove contact ${v.contactId}`,
              campaignId: v.campaignId,
              result: 'failed',
              detail: humanMessage(err),
            },
            client,
          );
          throw err;
        }
        await deps.audit.record(
          { userId, action: `remove contact ${v.contactId}`, campaignId: v.campaignId, result: 'ok' },
          client,
        );
        await reply.ephemeral(successMessage(`Contact ${v.contactId} was removed from campaign #${v.campaignId}.`));
      },
      { campaignId: v.campaignId },
    );
  });
}
