/**
 * `/campaign try [agent_id]`: without an id, the agents seen in campaigns; with one, a conversation in the DM.
 * Only for people who may write to customers (responders; never guests or people of another team): a try speaks to
 * the agent as an end user, with the organization's API key.
 */
import type { WebClient } from '@slack/web-api';
import { fallback, mrkdwnSection } from '../../render/mrkdwn.js';
import type { AppDeps } from '../deps.js';
import type { Reply } from '../reply.js';
import { tryableAgentsMessage } from '../../render/watch.js';
import { knownAgents, startTry } from '../../watch/try.js';
import type { WatchService } from '../../watch/service.js';
import type { CommandHandler } from './context.js';
import type { WatchDeps } from './watch.js';

export const tryAgent: CommandHandler<'try', WatchDeps> = async ({ command, client, reply, deps, userId }) => {
  const svc = deps.watch;
  if (await refuseIfNotSpeaker(svc, deps, client, reply, userId, command.agentId)) return;
  if (!command.agentId) return reply.ephemeral(tryableAgentsMessage(await knownAgents(svc)));
  await reply.ephemeral(await startTry(svc, userId, command.agentId));
  await deps.audit.record({ userId, action: `try agent ${command.agentId}`, result: 'ok' }, client);
};

/** The "Try" button of the agent list: the same check, then the same start. */
export async function tryFromButton(
  svc: WatchService,
  deps: AppDeps,
  client: WebClient,
  reply: Reply,
  userId: string,
  agentId: string,
): Promise<void> {
  if (await refuseIfNotSpeaker(svc, deps, client, reply, userId, agentId)) return;
  await reply.ephemeral(await startTry(svc, userId, agentId));
  await deps.audit.record({ userId, action: `try agent ${agentId}`, result: 'ok' }, client);
}

/** True (and the person told why, and the refusal audited) when they may not talk to agents. */
async function refuseIfNotSpeaker(
  svc: WatchService,
  deps: AppDeps,
  client: WebClient,
  reply: Reply,
  userId: string,
  agentId: string | undefined,
): Promise<boolean> {
  const verdict = await svc.speakers.check({ userId });
  if (verdict.ok) return false;
  const action = agentId ? `try agent ${agentId}` : 'try agents';
  await deps.audit.record(
    { userId, action, result: verdict.reason === 'unknown' ? 'failed' : 'refused', detail: verdict.detail },
    client,
  );
  const text = svc.speakers.refusalSentence(verdict.reason, 'try');
  await reply.ephemeral({ text: fallback(text), blocks: [mrkdwnSection(text)] });
  return true;
}
