import { loadCampaignList } from '../usecases/campaigns.js';
import type { CommandHandler } from './context.js';

export const list: CommandHandler<'list'> = async ({ command, reply, deps }) => {
  await reply.ephemeral(
    await loadCampaignList(deps, {
      ...(command.status ? { status: command.status } : {}),
      ...(command.channel ? { integrationType: command.channel } : {}),
      ...(command.archived ? { includeArchived: true } : {}),
    }),
  );
};
