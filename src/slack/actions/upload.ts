/**
 * Uploads, the Slack wiring: the "Upload contacts" button of the
 * new-campaign message (action_id `campaign_upload_open`, value: the campaign id) and the modal's submission.
 */
import type { App, BlockAction } from '@slack/bolt';
import { ACTION_IDS, decodeCampaignId } from '../../render/ids.js';
import { errorMessage } from '../../render/feedback.js';
import type { AppDeps } from '../deps.js';
import { guarded } from '../guard.js';
import type { UploadService } from '../upload/service.js';
import { refuseIfReadOnly } from '../usecases/permission.js';
import { openUploadModal } from '../usecases/upload.js';
import { registerUploadView } from '../views/upload.js';
import { actionReply, buttonValue } from './context.js';

export function registerUpload(app: App, deps: AppDeps & { uploads: UploadService }): void {
  registerUploadView(app, deps);

  app.action<BlockAction>(ACTION_IDS.campaignUploadOpen, async ({ ack, body, respond, client }) => {
    await ack();
    const reply = actionReply(body, respond, client);
    const campaignId = decodeCampaignId(buttonValue(body));
    await guarded(
      reply,
      deps.logger,
      async () => {
        if (campaignId === null) {
          await reply.ephemeral(
            errorMessage({ sentence: 'This button is out of date. Use `/campaign upload <id>` instead.' }),
          );
          return;
        }
        if (await refuseIfReadOnly(deps, client, reply, body.user.id, 'upload contacts to', campaignId)) return;
        await openUploadModal(deps, client, {
          triggerId: body.trigger_id,
          userId: body.user.id,
          campaignId,
          reply,
          ...(body.channel?.id ? { postTo: body.channel.id } : {}),
        });
      },
      campaignId === null ? {} : { campaignId },
    );
  });
}
