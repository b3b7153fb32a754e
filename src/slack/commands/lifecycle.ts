import { performLifecycle } from '../usecases/lifecycle.js';
import type { CommandHandler } from './context.js';

/** activate | pause | resume | archive <id>: acts at once; the result is posted for the channel. */
export const lifecycle: CommandHandler<'lifecycle'> = async ({ command, reply, deps, client, userId }) => {
  await performLifecycle(deps, client, reply, userId, command.id, command.action);
};
