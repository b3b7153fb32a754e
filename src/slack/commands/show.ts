import { loadCampaignDetail } from '../usecases/campaigns.js';
import type { CommandHandler } from './context.js';

export const show: CommandHandler<'show'> = async ({ command, reply, deps }) => {
  await reply.ephemeral(await loadCampaignDetail(deps, command.id));
};
