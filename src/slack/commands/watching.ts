/** `/campaign watching`: every subscription, per channel (suspended ones with how to restore them). */
import { watchingReply } from '../watch/subscribe.js';
import { watchService } from '../watch/create.js';
import type { CommandHandler } from './context.js';
import { notRunning } from './watch.js';

export const watching: CommandHandler<'watching'> = async ({ reply, deps }) => {
  const svc = watchService(deps);
  if (!svc) return reply.ephemeral(notRunning);
  await reply.ephemeral(watchingReply(svc));
};
