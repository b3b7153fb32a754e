/**
 * The Home tab's data: each person's filters and page (kept in the store), the campaign list (one snapshot shared
 * by every person's tab, per channel filter: the service has one list for everyone, so ten people opening the tab
 * cost one list walk, not ten), the details of the campaigns on the shown page (for channel and analytics: list
 * items carry neither; read at interactive priority, a few at a time, cached briefly, shared too), the channels
 * watching them, and publishing the view. A person's publishes run one at a time; asks made meanwhile fold into one
 * more publish.
 *
 * The snapshot is read again when older than `listTtlMs`, and at the next use after any change made through the
 * app (the audit trail tells us; src/main.ts wires it) or a Refresh. A walk already under way when a change was made
 * does not serve anyone who asks after the change: that person's tab waits for a walk started after it, so nobody
 * sees the list from before their own change.
 *
 * The conversations waiting for a reply are shown to each person only for the channels they are in (membership.ts).
 */
import type { WebClient } from '@slack/web-api';
import { translator, type Translator } from '../../i18n/translator.js';
import { onBehalfOfNoOne } from '../../outreach/on-behalf.js';
import {
  CAMPAIGN_STATUSES,
  type CampaignDetail,
  type CampaignListItem,
  type CampaignStatus,
  type ChannelType,
} from '../../outreach/schemas.js';
import type { Collection } from '../../store/store.js';
import {
  HOME_CAMPAIGNS_PER_PAGE,
  homeLoadingView,
  homeView,
  type HomeCampaign,
  type HomeFilters,
  type HomeModel,
} from '../../render/home.js';
import type { WaitingItem } from '../../render/attention.js';
import { serviceErrorText } from '../../render/service-error.js';
import type { AppDeps } from '../deps.js';
import { errorSummary } from '../middleware/errors.js';
import { ChannelMembership } from './membership.js';

/** Timing and bounds of the Home tab (settings; tests lower the TTLs). Read at each use. */
export interface HomeTuning {
  /** How long the shared campaign list is reused. */
  listTtlMs: number;
  /** How long a campaign's details are reused (shared by everyone). */
  detailTtlMs: number;
  /** Details read at once for one page. */
  detailConcurrency: number;
  /** Campaigns read per list; the view says when the service has more. */
  maxCampaigns: number;
  /** How long the last list is kept in memory at all (the fallback shown while the service fails). */
  keepListMs: number;
  perPage: number;
  /** How long the channels a person is in are trusted (the waiting list shows only theirs). */
  membershipTtlMs: number;
}

export const DEFAULT_HOME_TUNING: HomeTuning = {
  /** How long the shared campaign list is reused. */
  listTtlMs: 30_000,
  /** How long a campaign's details are reused (shared by everyone). */
  detailTtlMs: 30_000,
  /** Details read at once for one page. */
  detailConcurrency: 4,
  /** Campaigns read per list; the view says when the service has more. */
  maxCampaigns: 1000,
  /** How long the last list is kept in memory at all (the fallback shown while the service fails). */
  keepListMs: 15 * 60_000,
  perPage: HOME_CAMPAIGNS_PER_PAGE,
  /** How long the channels a person is in are trusted (the waiting list shows only theirs). */
  membershipTtlMs: 5 * 60_000,
};

/**
 * What the Home tab reads: the store (people's filters), the service, who may change, each person's language and
 * timezone, and the log.
 */
export type HomeDeps = Pick<AppDeps, 'store' | 'outreach' | 'permissions' | 'logger' | 'languages'>;

const HOME_PREFS_COLLECTION = 'home_prefs';

/** What the Home tab remembers per person (key: user id). */
export interface HomePrefs extends HomeFilters {
  page: number;
}

type ListKey = ChannelType | 'all';

interface ListSnapshot {
  channel: ListKey;
  /** When its walk started: nothing in it is older. */
  at: number;
  /** The generation (count of changes) its walk started in. */
  generation: number;
  items: CampaignListItem[];
  /** The service had more than `maxCampaigns`. */
  capped: boolean;
  /** Something changed since: read again at the next use (kept as the fallback meanwhile). */
  stale?: boolean;
}

/** Active campaigns first, then newest (created_at, then id, descending). */
export function orderCampaigns(items: readonly CampaignListItem[]): CampaignListItem[] {
  return [...items].sort((a, b) => {
    const act = Number(b.status === 'active') - Number(a.status === 'active');
    if (act !== 0) return act;
    const ta = Date.parse(a.created_at ?? '');
    const tb = Date.parse(b.created_at ?? '');
    const na = Number.isNaN(ta) ? -Infinity : ta;
    const nb = Number.isNaN(tb) ? -Infinity : tb;
    if (na !== nb) return nb > na ? 1 : -1;
    return b.id - a.id;
  });
}

/** What a list holds for the person's filters: its agents, the count of each status, the matching ones in order. */
function tally(items: readonly CampaignListItem[], filters: HomeFilters) {
  const agents = new Map<string, { id: string; name?: string | null }>();
  for (const c of items) if (c.agent && !agents.has(c.agent.id)) agents.set(c.agent.id, c.agent);
  const ofAgent = filters.agentId ? items.filter((c) => c.agent?.id === filters.agentId) : items;
  const counts = emptyCounts();
  let archivedCount = 0;
  for (const c of ofAgent) {
    if (c.archived) archivedCount++;
    else if (c.status in counts) counts[c.status]++;
  }
  const matching = ofAgent.filter((c) =>
    filters.status === 'archived'
      ? c.archived
      : !c.archived && (filters.status === undefined || c.status === filters.status),
  );
  return { agents: [...agents.values()], counts, archivedCount, ordered: orderCampaigns(matching) };
}

const emptyCounts = () => Object.fromEntries(CAMPAIGN_STATUSES.map((s) => [s, 0])) as Record<CampaignStatus, number>;

/** Runs `fn` over `items`, at most `limit` at a time; results in order. */
async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}

export class HomeService {
  private readonly prefsStore: Collection<HomePrefs>;
  /** The shared campaign list, by channel filter. */
  private readonly lists = new Map<ListKey, ListSnapshot>();
  /** List walks under way, by channel filter, with the generation they started in. */
  private readonly walks = new Map<ListKey, { generation: number; done: Promise<ListSnapshot> }>();
  /** Counts changes: a walk serves only those who ask in the generation it started in. */
  private generation = 0;
  private readonly details = new Map<number, { at: number; detail: CampaignDetail }>();
  private readonly publishing = new Map<string, { again: boolean; done: Promise<void> }>();
  private readonly membership = new ChannelMembership({ ttlMs: () => this.tuning.membershipTtlMs });

  /**
   * `watching`: the channels watching a campaign (the watch service's `channelsWatching`). `tuning` is read at each
   * use.
   */
  constructor(
    readonly deps: HomeDeps,
    readonly tuning: HomeTuning,
    private readonly watching: (campaignId: number) => Promise<string[]>,
    /** Conversations of watched channels waiting for a person's reply (the watch service's `waitingForReply`). */
    private readonly waiting: () => Promise<WaitingItem[]> = () => Promise.resolve([]),
  ) {
    this.prefsStore = deps.store.collection<HomePrefs>(HOME_PREFS_COLLECTION);
  }

  /** Whether this person has opened the Home tab (so their view is worth refreshing after a change). */
  async knows(userId: string): Promise<boolean> {
    return (await this.prefsStore.get(userId)) !== undefined;
  }

  async prefs(userId: string): Promise<HomePrefs> {
    return { page: 0, ...(await this.prefsStore.get(userId)) };
  }

  /** Sets one filter (undefined = all) and goes back to the first page. */
  async setFilter(userId: string, key: keyof HomeFilters, value: string | undefined): Promise<void> {
    const next: HomePrefs = { ...(await this.prefs(userId)), page: 0 };
    if (value === undefined) delete next[key];
    else Object.assign(next, { [key]: value });
    await this.prefsStore.put(userId, next);
  }

  async setPage(userId: string, page: number): Promise<void> {
    await this.prefsStore.put(userId, { ...(await this.prefs(userId)), page: Math.max(0, Math.floor(page)) });
  }

  /** Remembers that the person has a Home tab (first open). */
  async remember(userId: string): Promise<void> {
    await this.prefsStore.insertIfAbsent(userId, { page: 0 });
  }

  /** Someone asked for fresh data (Refresh): the list and the details are read again at their next use. */
  forget(): void {
    this.changed();
  }

  /**
   * Something changed (by anyone): the shared list is read again at its next use (kept meanwhile as the fallback
   * shown when the service cannot be read), and the changed campaign's details (all details when not said).
   */
  changed(campaignId?: number): void {
    this.generation++;
    for (const snap of this.lists.values()) snap.stale = true;
    if (campaignId === undefined) this.details.clear();
    else this.details.delete(campaignId);
  }

  /**
   * Publishes the person's Home tab. One publish per person at a time; asks that arrive meanwhile are served by
   * one more publish after it. `firstOpen`: nothing was published yet, so a loading view goes out first.
   */
  refresh(userId: string, client: WebClient, opts: { firstOpen?: boolean } = {}): Promise<void> {
    const running = this.publishing.get(userId);
    if (running) {
      running.again = true;
      return running.done;
    }
    const state = { again: false, done: Promise.resolve() };
    state.done = (async () => {
      try {
        if (opts.firstOpen) {
          const { locale } = await this.deps.languages.person(userId, client);
          await this.publish(client, userId, homeLoadingView(translator(locale)));
        }
        do {
          state.again = false;
          await this.publishOnce(userId, client);
        } while (state.again);
      } finally {
        this.publishing.delete(userId);
      }
    })();
    this.publishing.set(userId, state);
    return state.done;
  }

  /** Resolves once no publish is under way (used before stopping, so no refresh outlives the app). */
  async idle(): Promise<void> {
    while (this.publishing.size > 0) await Promise.allSettled([...this.publishing.values()].map((p) => p.done));
  }

  private async publish(client: WebClient, userId: string, view: ReturnType<typeof homeView>): Promise<void> {
    try {
      await client.views.publish({ user_id: userId, view });
    } catch (err) {
      this.deps.logger.error({ err: errorSummary(err), user: userId }, 'could not publish the Home tab');
    }
  }

  /** Builds and publishes the person's tab in their language (read at each publish: `/campaign lang` applies). */
  private async publishOnce(userId: string, client: WebClient): Promise<void> {
    let model: HomeModel;
    let t: Translator;
    try {
      const person = await this.deps.languages.person(userId, client);
      t = translator(person.locale);
      model = await this.model(userId, client, t);
      if (person.timeZone) model.timeZone = person.timeZone;
    } catch (err) {
      this.deps.logger.error({ err: errorSummary(err), user: userId }, 'could not build the Home tab');
      return;
    }
    await this.publish(client, userId, homeView(model, t));
  }

  /**
   * The shared list for this channel filter: the snapshot while fresh, else the walk under way if it started after
   * the last change, else a new walk. The walk serves everyone, so it is made on behalf of no one in particular.
   */
  private list(channel: ChannelType | undefined): Promise<ListSnapshot> {
    const key: ListKey = channel ?? 'all';
    this.prune();
    const cached = this.lists.get(key);
    if (cached && !cached.stale && Date.now() - cached.at < this.tuning.listTtlMs) return Promise.resolve(cached);
    const running = this.walks.get(key);
    if (running && running.generation === this.generation) return running.done;
    const generation = this.generation;
    const done = onBehalfOfNoOne(() => this.walk(channel, generation)).then((snap) => {
      // Changed while walking: kept (a fallback, and fine for whoever asked before the change), read again next time.
      if (generation !== this.generation) snap.stale = true;
      const kept = this.lists.get(key);
      if (!kept || kept.generation < generation || (kept.generation === generation && kept.at <= snap.at)) {
        this.lists.set(key, snap);
      }
      return snap;
    });
    const walk = { generation, done };
    this.walks.set(key, walk);
    const forget = () => {
      if (this.walks.get(key) === walk) this.walks.delete(key);
    };
    done.then(forget, forget);
    return done;
  }

  /** Reads the whole campaign list for a channel filter (at most `maxCampaigns`). */
  private async walk(channel: ChannelType | undefined, generation: number): Promise<ListSnapshot> {
    const at = Date.now();
    const items: CampaignListItem[] = [];
    let capped = false;
    const max = this.tuning.maxCampaigns;
    // Archived ones too: they are counted, and the status filter can show them.
    const filter = { includeArchived: true, ...(channel ? { integrationType: channel } : {}) };
    for await (const item of this.deps.outreach.iterateCampaigns(filter, { priority: 'interactive' })) {
      if (items.length >= max) {
        capped = true;
        break;
      }
      items.push(item);
    }
    return { channel: channel ?? 'all', at, generation, items, capped };
  }

  /** Drops lists nobody looked at for a while, and expired details, so memory stays bounded by recent use. */
  private prune(): void {
    const now = Date.now();
    for (const [key, snap] of this.lists) if (now - snap.at > this.tuning.keepListMs) this.lists.delete(key);
    for (const [id, d] of this.details) if (now - d.at > this.tuning.detailTtlMs) this.details.delete(id);
  }

  /**
   * A campaign's details, cached for everyone; so read on behalf of no one in particular (not capped at one
   * person's share of the limiter: a page of 20 reads as fast as the service allows; Home clicks are paced by the
   * person's own share of actions, see middleware/fair-use.ts).
   */
  private async detail(id: number): Promise<CampaignDetail> {
    const cached = this.details.get(id);
    if (cached && Date.now() - cached.at < this.tuning.detailTtlMs) return cached.detail;
    const detail = await onBehalfOfNoOne(() => this.deps.outreach.getCampaign(id, { priority: 'interactive' }));
    this.details.set(id, { at: Date.now(), detail });
    return detail;
  }

  /**
   * The waiting conversations of the channels this person is in, or none when they cannot be read (the rest of the
   * tab still shows).
   */
  private async waitingFor(userId: string, client: WebClient): Promise<WaitingItem[]> {
    let items: WaitingItem[];
    try {
      items = await this.waiting();
    } catch (err) {
      this.deps.logger.warn({ err: errorSummary(err) }, 'Home tab: could not read the conversations waiting');
      return [];
    }
    try {
      const theirs = await this.membership.of(userId, [...new Set(items.map((w) => w.channelId))], client);
      return items.filter((w) => theirs.has(w.channelId));
    } catch (err) {
      this.deps.logger.warn(
        { err: errorSummary(err), user: userId },
        'Home tab: could not read which channels a person is in',
      );
      return [];
    }
  }

  /** Everything the person's Home tab shows now; what it says about failures in the words of `t`. */
  async model(userId: string, client: WebClient, t: Translator): Promise<HomeModel> {
    const prefs = await this.prefs(userId);
    const filters: HomeFilters = {
      ...(prefs.status ? { status: prefs.status } : {}),
      ...(prefs.channel ? { channel: prefs.channel } : {}),
      ...(prefs.agentId ? { agentId: prefs.agentId } : {}),
    };
    const canChange = await this.deps.permissions.canChange(userId, client);
    // Who may set watches sees the conversations they leave waiting (as `/campaign watch`: people who may change),
    // of the channels they are in.
    const waiting = canChange ? await this.waitingFor(userId, client) : [];
    const base = {
      filters,
      canChange,
      ...(canChange ? {} : { whoCan: this.deps.permissions.whoCan() }),
      ...(waiting.length ? { waiting } : {}),
    };

    const { snap, problem } = await this.listFor(filters, userId, t);
    if (!snap) {
      return {
        ...base,
        counts: emptyCounts(),
        archivedCount: 0,
        agents: [],
        page: 0,
        pageCount: 1,
        matching: 0,
        firstIndex: 0,
        campaigns: [],
        readAt: new Date(),
        problem: problem ?? t.t('home.noCampaignsRead'),
        noList: true,
      };
    }

    const { agents, counts, archivedCount, ordered } = tally(snap.items, filters);
    const perPage = Math.max(1, this.tuning.perPage);
    const pageCount = Math.max(1, Math.ceil(ordered.length / perPage));
    const page = Math.min(Math.max(0, prefs.page), pageCount - 1);
    const shown = ordered.slice(page * perPage, (page + 1) * perPage);
    return {
      ...base,
      counts,
      archivedCount,
      agents,
      page,
      pageCount,
      matching: ordered.length,
      firstIndex: page * perPage,
      campaigns: await this.campaignsShown(shown, problem, t),
      readAt: new Date(snap.at),
      ...(snap.capped ? { listCap: this.tuning.maxCampaigns } : {}),
      ...(problem ? { problem } : {}),
    };
  }

  /** The list for the person's channel filter; when the service fails, the one read before (if any) and why. */
  private async listFor(
    filters: HomeFilters,
    userId: string,
    t: Translator,
  ): Promise<{ snap: ListSnapshot | undefined; problem?: string }> {
    try {
      return { snap: await this.list(filters.channel) };
    } catch (err) {
      this.deps.logger.warn({ err: errorSummary(err), user: userId }, 'Home tab: could not list campaigns');
      return { snap: this.lists.get(filters.channel ?? 'all'), problem: serviceErrorText(err, t) };
    }
  }

  /** The campaigns of a page with their details (a few read at once); while the service fails, those read before. */
  private campaignsShown(
    shown: CampaignListItem[],
    problem: string | undefined,
    t: Translator,
  ): Promise<HomeCampaign[]> {
    return mapBounded(shown, this.tuning.detailConcurrency, async (item) => {
      const watching = await this.watching(item.id);
      if (problem) {
        // The service is failing: show what was read before rather than asking again.
        const known = this.details.get(item.id)?.detail;
        return known
          ? { item, watching, detail: known }
          : { item, watching, detailProblem: t.t('home.serviceUnreadable') };
      }
      try {
        return { item, watching, detail: await this.detail(item.id) };
      } catch (err) {
        return { item, watching, detailProblem: serviceErrorText(err, t) };
      }
    });
  }
}
