/**
 * `/campaign try [agent_id]` and the "Try" button of the agent list: without an id, the agents seen in campaigns;
 * with one, a conversation in the person's DM (src/watch/try.ts). Only for people who may write to customers
 * (responders; never guests or people of another team): a try speaks to the agent as an end user, with the
 * organization's API key. That check is not `change()`'s (who may change campaigns), so it is written here, once for
 * both ways in.
 */
import { ENGLISH } from '../../render/format.js';
import { fallback, mrkdwnSection } from '../../render/mrkdwn.js';
import { tryableAgentsMessage } from '../../render/watch.js';
import { knownAgents, startTry } from '../../watch/try.js';
import type { CommandHandler } from '../deps.js';
import { AGENT_ID } from '../grammar.js';
import type { ChangeContext } from '../middleware/change.js';
import type { ButtonContext } from '../middleware/listener.js';
import type { WatchDeps } from '../watch/subscribe.js';

type TryContext = ChangeContext & { deps: WatchDeps };

/** True (and the person told why, and the refusal audited) when they may not talk to agents. */
async function refuseIfNotSpeaker(ctx: TryContext, agentId: string | undefined) {
  const { deps, client, reply, userId } = ctx;
  const { speakers } = deps.watch;
  const verdict = await speakers.check({ userId });
  if (verdict.ok) return false;
  const action = agentId ? `try agent ${agentId}` : 'try agents';
  await deps.audit.record(
    { userId, action, result: verdict.reason === 'unknown' ? 'failed' : 'refused', detail: verdict.detail },
    client,
  );
  const text = speakers.refusalSentence(verdict.reason, 'try', ctx.t ?? ENGLISH);
  await reply.ephemeral({ text: fallback(text), blocks: [mrkdwnSection(text)] });
  return true;
}

/** Starts (or switches) the person's try conversation, audited. */
async function start(ctx: TryContext, agentId: string): Promise<void> {
  const { deps, client, reply, userId } = ctx;
  await reply.ephemeral(await startTry(deps.watch, userId, agentId));
  await deps.audit.record({ userId, action: `try agent ${agentId}`, result: 'ok' }, client);
}

export const tryAgent: CommandHandler<'try', WatchDeps> = async (ctx) => {
  const { agentId } = ctx.command;
  if (await refuseIfNotSpeaker(ctx, agentId)) return;
  if (!agentId) return ctx.reply.ephemeral(tryableAgentsMessage(await knownAgents(ctx.deps.watch), ctx.t));
  await start(ctx, agentId);
};

/** The Try button's value: an agent id. */
export const decodeAgentId = (value: string | undefined) => (value && AGENT_ID.test(value) ? value : null);

/** The "Try" button of the agent list: the same check, then the same start. */
export async function tryButton(ctx: ButtonContext<string, WatchDeps>): Promise<void> {
  if (await refuseIfNotSpeaker(ctx, ctx.value)) return;
  await start(ctx, ctx.value);
}
