/**
 * Buttons of the watch feature: "Watch here" (campaign messages), "Details" and "Contact" (call messages), "Try"
 * (agent list), and the end-user modal's submission (PUT /enduser/{id}).
 */
import type { App, BlockAction, ViewSubmitAction } from '@slack/bolt';
import { z } from 'zod';
import { humanMessage } from '../../outreach/errors.js';
import type { EndUser } from '../../outreach/schemas.js';
import {
  decodeCampaignId,
  parseJson,
  END_USER_VIEW_ID,
  WATCH_ACTION_IDS,
  TRY_AGENT_ACTION,
  decodeConfirmValue,
  WATCH_CONFIRM_EXTERNAL_ACTION,
} from '../../render/ids.js';
import {
  callDetailsMessage,
  END_USER_BLOCKS,
  END_USER_LIMITS,
  endUserModal,
  endUserSummary,
} from '../../render/call-message.js';
import { cleanLabel, context, md, mrkdwnSection, plainText } from '../../render/mrkdwn.js';
import type { KnownBlock, View } from '../../render/types.js';
import { AGENT_ID } from '../commands/grammar.js';
import { watchInChannel, type WatchDeps } from '../commands/watch.js';
import { guarded } from '../guard.js';
import { dmReply } from '../reply.js';
import { tryFromButton } from '../commands/try.js';
import { refuseIfReadOnly } from '../usecases/permission.js';
import { actionReply, buttonValue, readButton, staleButtonMessage } from './context.js';

const ContactValue = z.object({ callId: z.string().min(1).max(200), threadId: z.string().min(1).max(200) });
const ModalMeta = z.object({ endUserId: z.string().min(1), channelId: z.string().optional() });

/** The end-user modal before (or instead of) its form: a loading note, or what went wrong. */
function endUserNotice(blocks: KnownBlock[]): View {
  return { type: 'modal', title: plainText('End user', 24), close: plainText('Close', 24), blocks };
}

export function registerWatchActions(app: App, deps: WatchDeps): void {
  const svc = deps.watch;
  app.action<BlockAction>(WATCH_ACTION_IDS.watchHere, async ({ ack, body, respond, client }) => {
    await ack();
    const reply = actionReply(body, respond, client);
    const id = decodeCampaignId(buttonValue(body));
    const channelId = body.channel?.id ?? body.container?.channel_id;
    if (!id || !channelId) return reply.ephemeral(staleButtonMessage);
    const req = { userId: body.user.id, campaignId: id, channelId };
    await guarded(reply, deps.logger, () => watchInChannel(svc, deps, client, reply, req), { campaignId: id });
  });

  // "Watch it there anyway" (watch/channel-privacy.ts): the watch into a Slack Connect channel starts here, checked and
  // audited like any watch.
  app.action<BlockAction>(WATCH_CONFIRM_EXTERNAL_ACTION, async ({ ack, body, respond, client }) => {
    await ack();
    const reply = actionReply(body, respond, client);
    const v = decodeConfirmValue(buttonValue(body));
    if (!v) return reply.ephemeral(staleButtonMessage);
    const req = { userId: body.user.id, ...v, externalConfirmed: true };
    await guarded(reply, deps.logger, () => watchInChannel(svc, deps, client, reply, req), {
      campaignId: v.campaignId,
    });
  });

  readButton(
    app,
    deps,
    WATCH_ACTION_IDS.callDetails,
    (callId) => callId || null,
    async (callId) => callDetailsMessage(await deps.outreach.getCall(callId)),
  );

  app.action<BlockAction>(WATCH_ACTION_IDS.callContact, async ({ ack, body, respond, client }) => {
    await ack();
    const reply = actionReply(body, respond, client);
    const v = ContactValue.safeParse(parseJson(buttonValue(body)));
    if (!v.success) return reply.ephemeral(staleButtonMessage);
    const userId = body.user.id;
    const loadEndUser = async (): Promise<EndUser> => {
      const thread = await deps.outreach.getThread(v.data.threadId);
      return deps.outreach.getEndUser(thread.end_user.id);
    };
    await guarded(reply, deps.logger, async () => {
      const canEdit = await deps.permissions.canChange(userId, client);
      if (!canEdit) {
        await reply.ephemeral(endUserSummary(await loadEndUser(), { note: deps.permissions.whoCan() }));
        return;
      }
      // The trigger id expires in 3 s: open the modal at once, fill it in when the service has answered.
      const opened = await client.views.open({
        trigger_id: body.trigger_id,
        view: endUserNotice([context('Loading the end user…')]),
      });
      const viewId = opened.view?.id;
      try {
        const endUser = await loadEndUser();
        const channelId = body.channel?.id;
        if (viewId) {
          await client.views.update({
            view_id: viewId,
            view: endUserModal(endUser, { endUserId: endUser.id, ...(channelId ? { channelId } : {}) }),
          });
        }
      } catch (err) {
        if (viewId) {
          await client.views
            .update({ view_id: viewId, view: endUserNotice([mrkdwnSection(md`⚠️ ${humanMessage(err)}`)]) })
            .catch(() => undefined);
        }
        throw err;
      }
    });
  });

  app.view<ViewSubmitAction>(END_USER_VIEW_ID, async ({ ack, body, view, client }) => {
    const meta = ModalMeta.safeParse(parseJson(view.private_metadata));
    const values = view.state.values;
    const name = (values[END_USER_BLOCKS.name]?.value?.value ?? '').trim();
    const info = values[END_USER_BLOCKS.info]?.value?.value ?? '';
    if (!meta.success) {
      await ack({
        response_action: 'errors',
        errors: { [END_USER_BLOCKS.name]: 'This form is out of date: close it and click Contact again.' },
      });
      return;
    }
    if (name === '') {
      await ack({
        response_action: 'errors',
        errors: { [END_USER_BLOCKS.name]: 'Enter a display name (it may not be blank).' },
      });
      return;
    }
    if (name.length > END_USER_LIMITS.name || info.length > END_USER_LIMITS.info) {
      await ack({
        response_action: 'errors',
        errors: {
          [name.length > END_USER_LIMITS.name ? END_USER_BLOCKS.name : END_USER_BLOCKS.info]: 'Too long: shorten it.',
        },
      });
      return;
    }
    await ack();
    const userId = body.user.id;
    const reply = dmReply(client, userId);
    await guarded(reply, deps.logger, async () => {
      if (await refuseIfReadOnly(deps, client, reply, userId, 'edit end users of')) return;
      const updated = await deps.outreach.updateEndUser(meta.data.endUserId, { display_name: name, info });
      await deps.audit.record({ userId, action: `update end user ${meta.data.endUserId}`, result: 'ok' }, client);
      await reply.ephemeral(
        endUserSummary(updated, {
          note: md`✅ Saved by you. Name now *${cleanLabel(updated.display_name ?? name, 200)}*.`,
        }),
      );
    });
  });

  app.action<BlockAction>(TRY_AGENT_ACTION, async ({ ack, body, respond, client }) => {
    await ack();
    const reply = actionReply(body, respond, client);
    const agentId = buttonValue(body);
    if (!agentId || !AGENT_ID.test(agentId)) return reply.ephemeral(staleButtonMessage);
    await guarded(reply, deps.logger, () => tryFromButton(svc, deps, client, reply, body.user.id, agentId));
  });
}
