/** `/campaign try [agent_id]`: without an id, the agents seen in campaigns; with one, a conversation in the DM. */
import { startTry, tryableAgentsMessage } from '../../watch/tryAgent.js';
import { watchService } from '../../watch/service.js';
import type { CommandHandler } from './context.js';
import { notRunning } from './watch.js';

export const tryAgent: CommandHandler<'try'> = async ({ command, client, reply, deps, userId }) => {
  const svc = watchService(deps);
  if (!svc) return reply.ephemeral(notRunning);
  if (!command.agentId) return reply.ephemeral(await tryableAgentsMessage(svc));
  await reply.ephemeral(await startTry(svc, client, userId, command.agentId));
};
