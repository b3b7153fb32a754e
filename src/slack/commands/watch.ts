/** `/campaign watch <id> [#channel]`: the channel (default: this one) follows the campaign's calls. */
import { errorMessage } from '../blocks/feedback.js';
import { refuseIfReadOnly } from '../usecases/permission.js';
import { watchCampaign } from '../../watch/subscriptions.js';
import { watchService } from '../../watch/service.js';
import type { CommandHandler } from './context.js';

export const notRunning = errorMessage({ sentence: 'Watching is not running right now. Try again in a minute.' });

export const watch: CommandHandler<'watch'> = async ({ command, client, reply, deps, userId, channelId }) => {
  const svc = watchService(deps);
  if (!svc) return reply.ephemeral(notRunning);
  const target = command.channel?.id ?? channelId;
  if (await refuseIfReadOnly(deps, client, reply, userId, 'watch', command.id)) return;
  const outcome = await watchCampaign(svc, client, { userId, campaignId: command.id, channelId: target });
  if (outcome.changed) {
    await deps.audit.record({ userId, action: `watch in ${target}`, campaignId: command.id, result: 'ok' }, client);
  }
  await reply.ephemeral(outcome.reply);
};
