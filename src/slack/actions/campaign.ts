/** Buttons on campaign lists and details: show, lifecycle, next page, contacts, calls. */
import type { App, BlockAction } from '@slack/bolt';
import type { AppDeps } from '../deps.js';
import { guarded } from '../guard.js';
import { loadCallsPage, loadCampaignDetail, loadCampaignList, loadContactsPage } from '../usecases/campaigns.js';
import { performLifecycle } from '../usecases/lifecycle.js';
import { actionReply, buttonValue, readButton, staleButtonMessage } from './context.js';
import {
  ACTION_IDS,
  actionIdPattern,
  decodeCampaignAction,
  decodeCampaignId,
  decodeCampaignListNext,
} from '../../render/ids.js';

export function registerCampaignActions(app: App, deps: AppDeps): void {
  const byId = (id: number) => id;
  readButton(app, deps, ACTION_IDS.campaignShow, decodeCampaignId, (id) => loadCampaignDetail(deps, id), byId);
  readButton(app, deps, ACTION_IDS.campaignListNext, decodeCampaignListNext, (v) =>
    loadCampaignList(deps, v.filter, v.cursor),
  );
  readButton(
    app,
    deps,
    ACTION_IDS.campaignContacts,
    decodeCampaignId,
    (id) => loadContactsPage(deps, { campaignId: id, page: 0 }),
    byId,
  );
  readButton(
    app,
    deps,
    ACTION_IDS.campaignCalls,
    decodeCampaignId,
    (id) => loadCallsPage(deps, { campaignId: id, page: 0 }),
    byId,
  );

  app.action<BlockAction>(actionIdPattern(ACTION_IDS.campaignAction), async ({ ack, body, respond, client }) => {
    await ack();
    const reply = actionReply(body, respond, client);
    const v = decodeCampaignAction(buttonValue(body));
    if (!v) return reply.ephemeral(staleButtonMessage);
    await guarded(reply, deps.logger, async () => {
      await performLifecycle(deps, client, reply, body.user.id, v.id, v.action);
    });
  });
}
