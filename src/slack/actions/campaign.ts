/** Buttons on campaign lists and details: show, lifecycle, next page, contacts, calls. */
import type { App, BlockAction } from '@slack/bolt';
import { errorMessage } from '../blocks/feedback.js';
import type { AppDeps } from '../deps.js';
import { guarded } from '../guard.js';
import { loadCallsPage, loadCampaignDetail, loadCampaignList, loadContactsPage } from '../usecases/campaigns.js';
import { performLifecycle } from '../usecases/lifecycle.js';
import { actionReply, buttonValue } from './context.js';
import {
  ACTION_IDS,
  actionIdPattern,
  decodeCampaignAction,
  decodeCampaignId,
  decodeCampaignListNext,
} from '../blocks/actionValues.js';

const badButton = errorMessage({ sentence: 'That button no longer works. Run the command again to get a fresh one.' });

export function registerCampaignActions(app: App, deps: AppDeps): void {
  app.action<BlockAction>(ACTION_IDS.campaignShow, async ({ ack, body, respond, client }) => {
    await ack();
    const reply = actionReply(body, respond, client);
    const id = decodeCampaignId(buttonValue(body));
    if (id === null) return reply.ephemeral(badButton);
    await guarded(reply, deps.logger, async () => reply.ephemeral(await loadCampaignDetail(deps, id)), {
      campaignId: id,
    });
  });

  app.action<BlockAction>(actionIdPattern(ACTION_IDS.campaignAction), async ({ ack, body, respond, client }) => {
    await ack();
    const reply = actionReply(body, respond, client);
    const v = decodeCampaignAction(buttonValue(body));
    if (!v) return reply.ephemeral(badButton);
    await guarded(reply, deps.logger, async () => {
      await performLifecycle(deps, client, reply, body.user.id, v.id, v.action);
    });
  });

  app.action<BlockAction>(ACTION_IDS.campaignListNext, async ({ ack, body, respond, client }) => {
    await ack();
    const reply = actionReply(body, respond, client);
    const v = decodeCampaignListNext(buttonValue(body));
    if (!v) return reply.ephemeral(badButton);
    await guarded(reply, deps.logger, async () => reply.ephemeral(await loadCampaignList(deps, v.filter, v.cursor)));
  });

  app.action<BlockAction>(ACTION_IDS.campaignContacts, async ({ ack, body, respond, client }) => {
    await ack();
    const reply = actionReply(body, respond, client);
    const id = decodeCampaignId(buttonValue(body));
    if (id === null) return reply.ephemeral(badButton);
    await guarded(
      reply,
      deps.logger,
      async () => reply.ephemeral(await loadContactsPage(deps, { campaignId: id, page: 0 })),
      {
        campaignId: id,
      },
    );
  });

  app.action<BlockAction>(ACTION_IDS.campaignCalls, async ({ ack, body, respond, client }) => {
    await ack();
    const reply = actionReply(body, respond, client);
    const id = decodeCampaignId(buttonValue(body));
    if (id === null) return reply.ephemeral(badButton);
    await guarded(
      reply,
      deps.logger,
      async () => reply.ephemeral(await loadCallsPage(deps, { campaignId: id, page: 0 })),
      {
        campaignId: id,
      },
    );
  });
}
