/** `/campaign watching`: every subscription, per channel (suspended ones with how to restore them). */
import { watchingReply } from '../watch/subscribe.js';
import type { CommandHandler } from './context.js';
import type { WatchDeps } from './watch.js';

export const watching: CommandHandler<'watching', WatchDeps> = async ({ reply, deps }) => {
  await reply.ephemeral(watchingReply(deps.watch));
};
