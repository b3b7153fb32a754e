import { loadCallsPage } from '../usecases/campaigns.js';
import type { CommandHandler } from './context.js';

export const calls: CommandHandler<'calls'> = async ({ command, reply, deps }) => {
  await reply.ephemeral(await loadCallsPage(deps, { campaignId: command.id, page: 0, status: command.status }));
};
