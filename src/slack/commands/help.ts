import { usageMessage } from '../../render/feedback.js';
import type { CommandHandler } from './context.js';

export const help: CommandHandler<'help'> = async ({ reply }) => {
  await reply.ephemeral(usageMessage());
};
