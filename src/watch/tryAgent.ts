/**
 * `/campaign try`: talk to an agent in one's DM with the app before launching a campaign. The person gets an end
 * user of their own (POST /enduser, created once and remembered); each message they write in the DM goes through
 * POST /message and the agent's answers come back through the same delivery as channel threads.
 */
import type { WebClient } from '@slack/web-api';
import { button, cleanLabel, context, fallback, md, mrkdwnSection, raw, truncate } from '../render/mrkdwn.js';
import type { KnownBlock, SlackMessage } from '../render/types.js';
import type { WatchService } from './service.js';
import { TRY_AGENT_ACTION } from '../render/ids.js';

const MAX_CAMPAIGNS_SCANNED = 500;
const MAX_AGENTS_SHOWN = 20;

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

export async function tryableAgentsMessage(svc: WatchService): Promise<SlackMessage> {
  const agents = [...(await knownAgents(svc))];
  if (agents.length === 0) {
    const text = 'No agent found in your campaigns yet. Run `/campaign try &lt;agent id&gt;` with the id of an agent.';
    return { text, blocks: [mrkdwnSection(text)] };
  }
  const blocks: KnownBlock[] = [
    mrkdwnSection('*🧪 Try an agent* in your DM with me before launching a campaign. Agents seen in your campaigns:'),
  ];
  for (const [id, name] of agents.slice(0, MAX_AGENTS_SHOWN)) {
    blocks.push({
      ...mrkdwnSection(md`*${cleanLabel(name, 150)}*\n\`${truncate(id, 80)}\``),
      accessory: button({ text: 'Try', actionId: TRY_AGENT_ACTION, value: id.slice(0, 100) }),
    });
  }
  if (agents.length > MAX_AGENTS_SHOWN) {
    blocks.push(context(`…and ${agents.length - MAX_AGENTS_SHOWN} more: use \`/campaign try &lt;agent id&gt;\`.`));
  }
  return { text: 'Try an agent', blocks };
}

/** One end user per person, created once even if they click twice. */
const creating = new Map<string, Promise<string>>();

async function endUserFor(svc: WatchService, client: WebClient, userId: string): Promise<string> {
  const known = svc.state.tries.get(userId);
  if (known) return known.endUserId;
  const inFlight = creating.get(userId);
  if (inFlight) return inFlight;
  const p = (async () => {
    let display = `Slack user ${userId}`;
    try {
      const info = await client.users.info({ user: userId });
      const u = info.user as
        { real_name?: string; profile?: { display_name?: string; real_name?: string } } | undefined;
      display = u?.profile?.display_name || u?.real_name || u?.profile?.real_name || display;
    } catch {
      // users:read missing or the lookup failed: the id will do.
    }
    const eu = await svc.deps.outreach.createEndUser({
      display_name: display.slice(0, 255),
      info: `Slack user ${userId}, trying agents from Slack with /campaign try.`,
    });
    await svc.state.tries.set(userId, { userId, endUserId: eu.id });
    return eu.id;
  })();
  creating.set(userId, p);
  try {
    return await p;
  } finally {
    creating.delete(userId);
  }
}

/** Starts (or switches) the person's try conversation; returns the ephemeral answer for where they asked. */
export async function startTry(
  svc: WatchService,
  client: WebClient,
  userId: string,
  agentId: string,
): Promise<SlackMessage> {
  const agents = await knownAgents(svc).catch(() => new Map<string, string>());
  const agentName = agents.get(agentId);
  const endUserId = await endUserFor(svc, client, userId);
  const intro =
    md`🧪 You are trying agent *${cleanLabel(agentName ?? agentId, 150)}*${raw(agentName ? md` (\`${agentId}\`)` : '')}.\n` +
    md`Write here: each message goes to the agent as your test contact (end user \`${endUserId}\`), and its answers appear here. ` +
    // A plain string: Prettier rewrites an `md` template without interpolations as Markdown (see mrkdwn.ts).
    '\nRun `/campaign try &lt;agent id&gt;` again to switch agents.';
  const { channel } = await svc.poster.post(userId, { text: fallback(intro), blocks: [mrkdwnSection(intro)] });
  const cur = svc.state.tries.get(userId) ?? { userId, endUserId };
  const sameAgent = cur.agentId === agentId && cur.dmChannelId === channel;
  await svc.state.tries.set(userId, {
    userId,
    endUserId,
    agentId,
    ...(agentName ? { agentName } : {}),
    dmChannelId: channel,
    ...(sameAgent && cur.threadId && cur.conv ? { threadId: cur.threadId, conv: cur.conv } : {}),
  });
  const text = md`🧪 Started: open your DM with me and write to agent *${cleanLabel(agentName ?? agentId, 150)}*.`;
  return { text: fallback(text), blocks: [mrkdwnSection(text)] };
}
