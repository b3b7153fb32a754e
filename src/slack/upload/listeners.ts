/**
 * Uploads, the Slack surfaces: `/campaign upload <id>` and the "Upload contacts" button of the new-campaign message
 * (each opens the upload modal), and the modal's submission, whose ack carries the answer (errors under the file
 * input, a view with the refusal, or nothing to close the modal) while the upload itself runs after it.
 */
import type { Translator } from '../../i18n/translator.js';
import { errorMessage } from '../../render/feedback.js';
import { ENGLISH } from '../../render/format.js';
import { uploadProblemView } from '../../render/upload-modal.js';
import type { AppDeps, CommandContext } from '../deps.js';
import type { ChangeHandler } from '../middleware/change.js';
import { submission, type ButtonContext, type ViewListener } from '../middleware/listener.js';
import { openUploadModal, submitUpload, type SubmittedUploadView, type UploadAck } from './modal.js';
import type { UploadService } from './service.js';

/**
 * `/campaign upload <id>`: the upload modal for that campaign; an unknown or a finished campaign is answered (to the
 * person only) before anything else.
 */
export const upload: ChangeHandler<CommandContext<'upload'>> = ({
  command,
  deps,
  client,
  reply,
  userId,
  channelId,
  triggerId,
  t,
}) => openUploadModal(deps, t, client, { triggerId, userId, campaignId: command.id, reply, postTo: channelId });

/** What the "Upload contacts" button says when its value cannot be read, in the clicker's words. */
export const staleUploadButton = (t: Translator) => errorMessage({ sentence: t.t('uploadModal.staleButton') }, t);

/** The "Upload contacts" button (value: the campaign id): progress goes to the channel it was clicked in. */
export const uploadButton: ChangeHandler<ButtonContext<number>> = ({ value, body, deps, client, reply, userId, t }) =>
  openUploadModal(deps, t, client, {
    triggerId: body.trigger_id,
    userId,
    campaignId: value,
    reply,
    ...(body.channel?.id ? { postTo: body.channel.id } : {}),
  });

/** The modal's submission (its ack budget is the upload settings', read at each submission). */
export function submitted(deps: AppDeps & { uploads: UploadService }): ViewListener {
  return submission<UploadAck>(deps, {
    what: 'upload submission',
    handler: ({ view, userId, client, ack }) =>
      submitUpload(deps, { view: view as SubmittedUploadView, userId, client, ack }, deps.uploads.tuning.ackBudgetMs),
    // Crashed before the ack: the app's default language, as the upload's own steps may not have asked yet.
    crashed: () => ({
      response_action: 'update',
      view: uploadProblemView(ENGLISH.t('uploadModal.crashed'), {}, ENGLISH),
    }),
  });
}
