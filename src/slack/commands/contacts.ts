import { loadContactsPage } from '../usecases/campaigns.js';
import type { CommandHandler } from './context.js';

export const contacts: CommandHandler<'contacts'> = async ({ command, reply, deps }) => {
  await reply.ephemeral(await loadContactsPage(deps, { campaignId: command.id, page: 0, status: command.status }));
};
