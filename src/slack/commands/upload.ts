import { refuseIfReadOnly } from '../usecases/permission.js';
import { openUploadModal } from '../usecases/upload.js';
import type { CommandHandler } from './context.js';

/**
 * `/campaign upload <id>`: the upload modal for that campaign; no permission, an unknown or a finished campaign is
 * answered (to the person only) before anything else.
 */
export const upload: CommandHandler<'upload'> = async ({
  command,
  deps,
  client,
  reply,
  userId,
  channelId,
  triggerId,
}) => {
  if (await refuseIfReadOnly(deps, client, reply, userId, 'upload contacts to', command.id)) return;
  await openUploadModal(deps, client, { triggerId, userId, campaignId: command.id, reply, postTo: channelId });
};
