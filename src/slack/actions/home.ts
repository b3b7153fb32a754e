/**
 * The Home tab's own elements: the filter selects, the page buttons, Refresh, and each campaign's menu (edit, upload
 * contacts, watch in a channel, show calls) with the watch modal it opens. The lifecycle, Show and New campaign
 * buttons in the tab reuse the app's own action ids and listeners; the tab is republished after every change a
 * person makes (src/main.ts has the audit trail tell the Home service). Menu choices that change something are checked on the server like every other
 * path, and answer in the person's DM (a Home tab has no response_url).
 */
import { watchAndAudit } from '../commands/watch.js';
import type { App, BlockAction, ViewSubmitAction } from '@slack/bolt';
import { errorMessage } from '../../render/feedback.js';
import {
  decodeFilterChoice,
  decodeMenuChoice,
  decodeWatchMetadata,
  HOME_WATCH_ACTION,
  HOME_WATCH_BLOCK,
  homeNoticeModal,
  homeWatchModal,
} from '../../render/home.js';
import type { Services } from '../register.js';
import { guarded } from '../guard.js';
import { dmReply } from '../reply.js';
import { openEditForm } from '../usecases/campaignForm.js';
import { loadCallsPage } from '../usecases/campaigns.js';
import { openUploadModal } from '../usecases/upload.js';
import { refuseIfReadOnly, refuseSubmissionIfReadOnly } from '../usecases/permission.js';
import { actionReply, buttonValue } from './context.js';
import { HOME_ACTION_IDS, HOME_FILTER_PATTERN, HOME_PAGE_PATTERN, HOME_WATCH_VIEW_ID } from '../../render/ids.js';

const badButton = errorMessage({ sentence: 'That menu no longer works. Open the Home tab again to get a fresh one.' });

export function registerHomeActions(app: App, deps: Services): void {
  const { home } = deps;

  app.action<BlockAction>(HOME_FILTER_PATTERN, async ({ ack, body, client }) => {
    await ack();
    const a = body.actions[0];
    const which = HOME_FILTER_PATTERN.exec(a?.action_id ?? '')?.[1] ?? '';
    const choice = decodeFilterChoice(which, buttonValue(body));
    const userId = body.user.id;
    if (choice) await home.setFilter(userId, choice.key, choice.value);
    await home.refresh(userId, client);
  });

  app.action<BlockAction>(HOME_PAGE_PATTERN, async ({ ack, body, client }) => {
    await ack();
    const raw = buttonValue(body);
    const userId = body.user.id;
    if (raw && /^\d{1,6}$/.test(raw)) await home.setPage(userId, Number(raw));
    await home.refresh(userId, client);
  });

  app.action<BlockAction>(HOME_ACTION_IDS.refresh, async ({ ack, body, client }) => {
    await ack();
    home.forget();
    await home.refresh(body.user.id, client);
  });

  app.action<BlockAction>(HOME_ACTION_IDS.menu, async ({ ack, body, respond, client }) => {
    await ack();
    const reply = actionReply(body, respond, client);
    const v = decodeMenuChoice(buttonValue(body));
    if (!v) return reply.ephemeral(badButton);
    const userId = body.user.id;
    const id = v.campaignId;
    await guarded(
      reply,
      deps.logger,
      async () => {
        switch (v.choice) {
          case 'calls':
            await reply.ephemeral(await loadCallsPage(deps, { campaignId: id, page: 0 }));
            return;
          case 'edit':
            if (await refuseIfReadOnly(deps, client, reply, userId, 'edit', id)) return;
            await openEditForm(deps, client, { triggerId: body.trigger_id, userId, campaignId: id });
            return;
          case 'upload': {
            if (await refuseIfReadOnly(deps, client, reply, userId, 'upload contacts to', id)) return;
            // Progress goes to the person's DM (the Home tab has no channel).
            await openUploadModal(deps, client, { triggerId: body.trigger_id, userId, campaignId: id, reply });
            return;
          }
          case 'watch':
            if (await refuseIfReadOnly(deps, client, reply, userId, 'watch', id)) return;
            await client.views.open({ trigger_id: body.trigger_id, view: homeWatchModal({ id }) });
            return;
        }
      },
      { campaignId: id },
    );
  });

  app.view<ViewSubmitAction>(HOME_WATCH_VIEW_ID, async ({ ack, body, view, client }) => {
    const campaignId = decodeWatchMetadata(view.private_metadata);
    const channelId = view.state.values[HOME_WATCH_BLOCK]?.[HOME_WATCH_ACTION]?.selected_conversation ?? undefined;
    if (campaignId === null) {
      await ack({
        response_action: 'update',
        view: homeNoticeModal('Watch a campaign', '⚠️ This form is out of date. Close it and use the menu again.'),
      });
      return;
    }
    if (!channelId) {
      await ack({
        response_action: 'errors',
        errors: { [HOME_WATCH_BLOCK]: 'Choose the channel that should watch the campaign.' },
      });
      return;
    }
    const userId = body.user.id;
    const refused = await refuseSubmissionIfReadOnly(
      deps,
      client,
      { userId, action: 'watch', what: 'watch campaigns', campaignId },
      (text) => ack({ response_action: 'update', view: homeNoticeModal('Watch a campaign', `⚠️ ${text}`) }),
    );
    if (refused) return;
    await ack();
    const reply = dmReply(client, userId);
    await guarded(
      reply,
      deps.logger,
      () => watchAndAudit(deps.watch, deps, client, reply, { userId, campaignId, channelId }),
      { campaignId },
    );
  });
}
