import type { CampaignDetail, CampaignListItem } from '../../outreach/schemas.js';
import { type FormDirectory, type KnownAgent } from '../../render/campaign-form.js';
import type { AppDeps } from '../deps.js';
import { errorSummary } from '../middleware/errors.js';

// ---------------------------------------------------------------------------------------------------------------
// Directory of agents and integrations

/** How long the directory is trusted before it is read again. */
const DIRECTORY_TTL_MS = 2 * 60_000;
/** Campaign list items read to find agents (newest first). */
const DIRECTORY_SCAN_LIMIT = 300;
/** Campaign details read to find integrations (list items don't carry them): one per agent first, newest first. */
const DIRECTORY_DETAIL_LIMIT = 20;

function addIntegration(agents: Map<string, KnownAgent>, c: CampaignDetail): void {
  const agent = agents.get(c.agent.id) ?? { id: c.agent.id, name: c.agent.name ?? undefined, integrations: [] };
  if (!agent.name && c.agent.name) agent.name = c.agent.name;
  if (c.integration && !agent.integrations.some((i) => i.id === c.integration?.id)) {
    agent.integrations.push({ id: c.integration.id, type: c.integration.type });
  }
  agents.set(agent.id, agent);
}

function sortDirectory(agents: Map<string, KnownAgent>): FormDirectory {
  const list = [...agents.values()].map((a) => ({
    ...a,
    integrations: [...a.integrations].sort((x, y) => x.id.localeCompare(y.id)),
  }));
  list.sort((a, b) => (a.name ?? a.id).localeCompare(b.name ?? b.id, 'en', { sensitivity: 'base' }));
  return { agents: list };
}

/**
 * Agents and their integrations as seen in existing campaigns. The service has no endpoint listing agents: agents
 * come from the campaign list, integrations from the details of a bounded number of recent campaigns (one per agent
 * first). Read at most every DIRECTORY_TTL_MS; concurrent callers share one read. A failure yields what is known
 * (possibly nothing): the form still takes typed ids. One per app, built by src/main.ts.
 */
export class AgentDirectory {
  private at = 0;
  private dir: FormDirectory | undefined;
  private loading: Promise<FormDirectory> | undefined;

  constructor(private readonly deps: Pick<AppDeps, 'outreach' | 'logger'>) {}

  /** The directory when it was read recently, else undefined. */
  cached(now = Date.now()): FormDirectory | undefined {
    return this.dir && now - this.at < DIRECTORY_TTL_MS ? this.dir : undefined;
  }

  /** The directory, read again when it is older than DIRECTORY_TTL_MS. */
  async load(now = Date.now()): Promise<FormDirectory> {
    const cached = this.cached(now);
    if (cached) return cached;
    if (this.loading) return this.loading;
    const { deps } = this;
    this.loading = (async () => {
      const agents = new Map<string, KnownAgent>();
      for (const a of this.dir?.agents ?? []) agents.set(a.id, { ...a, integrations: [...a.integrations] });
      try {
        const items: CampaignListItem[] = [];
        for await (const item of deps.outreach.iterateCampaigns({ includeArchived: true })) {
          items.push(item);
          if (items.length >= DIRECTORY_SCAN_LIMIT) break;
        }
        items.sort((a, b) => (b.created_at ?? '').localeCompare(a.created_at ?? '') || b.id - a.id);
        for (const it of items) {
          if (!it.agent) continue;
          const known = agents.get(it.agent.id);
          if (!known) agents.set(it.agent.id, { id: it.agent.id, name: it.agent.name ?? undefined, integrations: [] });
          else if (!known.name && it.agent.name) known.name = it.agent.name;
        }
        // One detail per agent first (newest campaign), then further recent campaigns, within the bound.
        const picked: number[] = [];
        const seenAgents = new Set<string>();
        for (const it of items) {
          if (it.agent && !seenAgents.has(it.agent.id)) {
            seenAgents.add(it.agent.id);
            picked.push(it.id);
          }
        }
        for (const it of items) if (!picked.includes(it.id)) picked.push(it.id);
        const details = await Promise.allSettled(
          picked.slice(0, DIRECTORY_DETAIL_LIMIT).map((id) => deps.outreach.getCampaign(id)),
        );
        for (const d of details) if (d.status === 'fulfilled') addIntegration(agents, d.value);
        const dir = sortDirectory(agents);
        this.dir = dir;
        this.at = now;
        return dir;
      } catch (err) {
        deps.logger.warn({ err: errorSummary(err) }, 'could not read agents for the campaign form');
        return this.dir ?? sortDirectory(agents);
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }

  /** Adds a campaign's agent and integration (just created or loaded) to the directory. */
  remember(campaign: CampaignDetail): void {
    if (!this.dir) return;
    const agents = new Map(this.dir.agents.map((a) => [a.id, { ...a, integrations: [...a.integrations] }]));
    addIntegration(agents, campaign);
    this.dir = sortDirectory(agents);
  }
}
