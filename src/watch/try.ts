/**
 * `/campaign try`: talk to an agent in one's DM with the app before launching a campaign. The person gets an end
 * user of their own (POST /enduser, created once and remembered); each message they write in the DM goes through
 * POST /message and the agent's answers come back through the same delivery as channel threads.
 */
import { tryIntroMessage, tryStartedMessage } from '../render/watch.js';
import type { SlackMessage } from '../render/types.js';
import type { WatchService } from './service.js';

const MAX_CAMPAIGNS_SCANNED = 500;

/** Agents seen in the organization's campaigns: id -> name. */
export async function knownAgents(svc: WatchService): Promise<Map<string, string>> {
  const agents = new Map<string, string>();
  let n = 0;
  for await (const c of svc.deps.outreach.iterateCampaigns({ includeArchived: true, pageSize: 100 })) {
    if (c.agent?.id && !agents.has(c.agent.id)) agents.set(c.agent.id, c.agent.name ?? c.agent.id);
    if (++n >= MAX_CAMPAIGNS_SCANNED) break;
  }
  return agents;
}

async function endUserFor(svc: WatchService, userId: string): Promise<string> {
  const known = await svc.state.tries.get(userId);
  if (known) return known.endUserId;
  const creating = svc.endUsersBeingCreated;
  const inFlight = creating.get(userId);
  if (inFlight) return inFlight;
  const p = (async () => {
    // users:read missing or the lookup failed: the id will do.
    const display = (await svc.slack.displayName(userId)) ?? `Slack user ${userId}`;
    const eu = await svc.deps.outreach.createEndUser({
      display_name: display.slice(0, 255),
      info: `Slack user ${userId}, trying agents from Slack with /campaign try.`,
    });
    // Another replica may have created one meanwhile: the first one stored is the person's.
    if (await svc.state.tries.insertIfAbsent(userId, { userId, endUserId: eu.id })) return eu.id;
    return (await svc.state.tries.get(userId))?.endUserId ?? eu.id;
  })();
  creating.set(userId, p);
  try {
    return await p;
  } finally {
    creating.delete(userId);
  }
}

/** Starts (or switches) the person's try conversation; returns the ephemeral answer for where they asked. */
export async function startTry(svc: WatchService, userId: string, agentId: string): Promise<SlackMessage> {
  const agents = await knownAgents(svc).catch(() => new Map<string, string>());
  const agentName = agents.get(agentId);
  const endUserId = await endUserFor(svc, userId);
  // The intro goes to the person's DM and the answer to where they asked: both in their language.
  const { t } = await svc.personWords(userId);
  const intro = tryIntroMessage({ agentId, ...(agentName ? { agentName } : {}), endUserId }, t);
  const { channel } = await svc.poster.post(userId, intro);
  const cur = (await svc.state.tries.get(userId)) ?? { userId, endUserId };
  const sameAgent = cur.agentId === agentId && cur.dmChannelId === channel;
  await svc.state.tries.put(userId, {
    userId,
    endUserId,
    agentId,
    ...(agentName ? { agentName } : {}),
    dmChannelId: channel,
    ...(sameAgent && cur.threadId && cur.conv ? { threadId: cur.threadId, conv: cur.conv } : {}),
  });
  return tryStartedMessage(agentId, agentName, t);
}
