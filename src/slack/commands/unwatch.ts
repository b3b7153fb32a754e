/** `/campaign unwatch <id> [#channel]`: the channel (default: this one) stops following the campaign. */
import { refuseIfReadOnly } from '../usecases/permission.js';
import { unwatchCampaign } from '../watch/subscribe.js';
import type { CommandHandler } from './context.js';
import type { WatchDeps } from './watch.js';

export const unwatch: CommandHandler<'unwatch', WatchDeps> = async ({
  command,
  client,
  reply,
  deps,
  userId,
  channelId,
}) => {
  const svc = deps.watch;
  const target = command.channel?.id ?? channelId;
  if (await refuseIfReadOnly(deps, client, reply, userId, 'unwatch', command.id)) return;
  const outcome = await unwatchCampaign(svc, { campaignId: command.id, channelId: target });
  if (outcome.changed) {
    await deps.audit.record({ userId, action: `unwatch in ${target}`, campaignId: command.id, result: 'ok' }, client);
  }
  await reply.ephemeral(outcome.reply);
};
