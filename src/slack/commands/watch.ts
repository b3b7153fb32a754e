/** `/campaign watch <id> [#channel]`: the channel (default: this one) follows the campaign's calls. */
import type { WebClient } from '@slack/web-api';
import { humanMessage } from '../../outreach/errors.js';
import type { AppDeps } from '../deps.js';
import type { Reply } from '../reply.js';
import { refuseIfReadOnly } from '../usecases/permission.js';
import { watchCampaign } from '../watch/subscribe.js';
import type { WatchService } from '../../watch/service.js';
import type { CommandHandler } from './context.js';

export const watch: CommandHandler<'watch', WatchDeps> = async ({
  command,
  client,
  reply,
  deps,
  userId,
  channelId,
}) => {
  const svc = deps.watch;
  const target = command.channel?.id ?? channelId;
  await watchInChannel(svc, deps, client, reply, { userId, campaignId: command.id, channelId: target });
};

/** The app's base and the watch service. */
export type WatchDeps = AppDeps & { watch: WatchService };

/** What a watch request names; `externalConfirmed`: the Slack Connect confirmation button was pressed. */
export interface WatchRequest {
  userId: string;
  campaignId: number;
  channelId: string;
  externalConfirmed?: boolean;
}

/**
 * A permitted person sets a channel to watch a campaign (audited) and is told how it went: the command and the
 * buttons ("Watch here", and the Slack Connect confirmation).
 */
export async function watchInChannel(
  svc: WatchService,
  deps: AppDeps,
  client: WebClient,
  reply: Reply,
  req: WatchRequest,
): Promise<void> {
  if (await refuseIfReadOnly(deps, client, reply, req.userId, 'watch', req.campaignId)) return;
  await watchAndAudit(svc, deps, client, reply, req);
}

/** Sets the channel to watch (permission already checked), audits the result and tells the person. */
export async function watchAndAudit(
  svc: WatchService,
  deps: AppDeps,
  client: WebClient,
  reply: Reply,
  req: WatchRequest,
): Promise<void> {
  const { userId, campaignId, channelId } = req;
  const action = `watch in ${channelId}`;
  let outcome;
  try {
    outcome = await watchCampaign(svc, client, req);
  } catch (err) {
    await deps.audit.record({ userId, action, campaignId, result: 'failed', detail: humanMessage(err) }, client);
    throw err;
  }
  if (outcome.changed) {
    const detail = outcome.external ? { detail: outcome.external } : {};
    await deps.audit.record({ userId, action, campaignId, result: 'ok', ...detail }, client);
  }
  if (outcome.failure) {
    await deps.audit.record({ userId, action, campaignId, result: 'failed', detail: outcome.failure }, client);
  }
  await reply.ephemeral(outcome.reply);
}
