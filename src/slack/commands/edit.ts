import { openEditForm, type FormDeps } from '../usecases/campaignForm.js';
import { refuseIfReadOnly } from '../usecases/permission.js';
import type { CommandHandler } from './context.js';

/** `/campaign edit <id>`: the campaign form prefilled; a finished campaign answers that it is read-only. */
export const edit: CommandHandler<'edit', FormDeps> = async ({
  command,
  deps,
  client,
  reply,
  userId,
  channelId,
  triggerId,
}) => {
  if (await refuseIfReadOnly(deps, client, reply, userId, 'edit', command.id)) return;
  await openEditForm(deps, client, { triggerId, userId, postTo: channelId, campaignId: command.id });
};
