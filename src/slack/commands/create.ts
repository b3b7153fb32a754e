import { openCreateForm, type FormDeps } from '../usecases/campaignForm.js';
import { refuseIfReadOnly } from '../usecases/permission.js';
import type { CommandHandler } from './context.js';

/** `/campaign create`: opens the campaign form; the result is posted in this channel. */
export const create: CommandHandler<'create', FormDeps> = async ({
  deps,
  client,
  reply,
  userId,
  channelId,
  triggerId,
}) => {
  if (await refuseIfReadOnly(deps, client, reply, userId, 'create')) return;
  await openCreateForm(deps, client, { triggerId, userId, postTo: channelId });
};
