/**
 * The watch feature assembled: state, delivery workers, poller and relay, started and stopped with the app, and the
 * subscriptions (which channel watches which campaign). Built once by the composition root from a narrow `WatchDeps`;
 * it knows Slack only through what it is handed: a `Poster` for writes, `WatchSlack` for the rest (src/watch/ports.ts),
 * implemented in src/slack/watch/.
 */
import { createHash } from 'node:crypto';
import type { MemoryFigures } from '../bounded.js';
import { translator, type Translator } from '../i18n/translator.js';
import type { Logger } from '../log.js';
import type { CallOptions, OutreachApi } from '../outreach/api.js';
import type { CampaignCallItem, CampaignContact, CampaignDetail } from '../outreach/schemas.js';
import {
  callMessage,
  compactCallMessage,
  whatsappContactMessage,
  whatsappDigestMessage,
} from '../render/call-message.js';
import type { WaitingItem } from '../render/attention.js';
import { ENGLISH } from '../render/format.js';
import type { SlackMessage } from '../render/types.js';
import type { Store } from '../store/store.js';
import { Attention } from './attention.js';
import { Delivery, MAX_OPEN_CALLS, UPDATE_GAP_MS } from './delivery.js';
import { isEmptyFilter, readFilter, shownFormat, type WatchFilter, type WatchFormat } from './filter.js';
import { Poller, type CyclePhase, type CycleReport, type PollerTuning } from './poller.js';
import type { PermanentSlackError, Poster } from './poster.js';
import type { AuditRecord, SpeakerCheck, WatchLanguages, WatchSlack } from './ports.js';
import { Relay } from './relay.js';
import { SlackHealth } from './slack-health.js';
import { subKey, WatchState, type CallRecord, type Subscription } from './state.js';
import {
  recheckChannel,
  recheckSuspendedChannels,
  resumeChannel,
  suspendCampaign,
  suspendChannel,
} from './suspensions.js';
import { RATE_LIMIT_PER_SECOND } from '../outreach/unspecified.js';

export interface WatchTuning extends PollerTuning {
  /** Gap between two writes into one Slack channel. */
  minGapMs: number;
  /** New calls waiting in one channel beyond which it switches to a digest. */
  burstThreshold: number;
  /** A digest channel goes back to one message per call after this long without new calls. */
  calmMs: number;
  /** Least time between two writes of one Slack message (delivery.ts UPDATE_GAP_MS). */
  updateGapMs: number;
  /**
   * Call messages posted while their call runs, waiting for their final update, plus the chat.update calls of the
   * last `updateWindowMs`, at most (delivery.ts): twice the watch's share of chat.update a minute when Slack's budget
   * is known (src/slack/watch/create.ts).
   */
  maxOpenCalls: number;
  /** Slack's chat.update window in this process's time (its minute at the budget's scale), from Slack's budget. */
  updateWindowMs?: number;
  /**
   * New call messages the watch may post in one poll interval over every channel (delivery.ts): its share of Slack's
   * workspace allowance, which the Slack layer knows (src/slack/watch/create.ts). Undefined: no such rule.
   */
  workspacePostsPerInterval?: number;
  /** Delay before a Slack write that failed for now is tried again. */
  retryDelayMs: number;
  /** Slack write attempts before leaving an item for a later retry. */
  maxAttempts: number;
  backoffMs: number;
  /** How long handled event ids are remembered (Slack redelivers within minutes). */
  eventTtlMs: number;
  /** false: no timer; cycles run only through `pollNow()` (tests). */
  autoPoll: boolean;
  /** While Slack refuses the token: how often `auth.test` is asked whether it is accepted again. */
  authRecheckMs: number;
  /** How often channels whose watches Slack refused are looked at again (events missed while the app was down). */
  channelRecheckMs: number;
  /** Least time between two reads of a watched campaign's status (owners told when it finishes or is paused). */
  campaignCheckMs: number;
  /**
   * A reply from Slack marked and not recorded this long is taken as abandoned by its sender (a death, a kill): the
   * leader, or another delivery of its event, looks it up and completes it (reply-send.ts). Its send is given up
   * after half of it.
   */
  replyAbandonedMs: number;
}

export function defaultTuning(pollIntervalSeconds: number): WatchTuning {
  const pollIntervalMs = pollIntervalSeconds * 1000;
  return {
    pollIntervalMs,
    overlapMs: 15 * 60_000,
    settleMs: 10 * 60_000,
    openGiveUpMs: 6 * 3600_000,
    threadIdleMs: 30 * 60_000,
    threadMaxGapMs: 5 * 60_000,
    retentionMs: 7 * 24 * 3600_000,
    concurrency: 8,
    maxPages: 20,
    requestsPerSecond: RATE_LIMIT_PER_SECOND,
    minGapMs: 1100,
    // About what one channel can take between two polls: Slack's ~1 message per second, of which the watch's
    // background share is 2 in any 3 s (src/slack/method-budget.ts leaves the third to people), less some margin.
    burstThreshold: Math.max(5, Math.floor(pollIntervalSeconds * 0.5)),
    calmMs: Math.max(2 * pollIntervalMs, 60_000),
    updateGapMs: UPDATE_GAP_MS,
    maxOpenCalls: MAX_OPEN_CALLS,
    retryDelayMs: Math.max(5_000, pollIntervalMs),
    maxAttempts: 4,
    backoffMs: 1000,
    eventTtlMs: 3600_000,
    autoPoll: true,
    breakerThreshold: 3,
    backoffMaxMs: Math.max(10 * 60_000, pollIntervalMs),
    authRecheckMs: 60_000,
    channelRecheckMs: 10 * 60_000,
    campaignCheckMs: Math.max(60_000, pollIntervalMs),
    replyAbandonedMs: 2 * 60_000,
  };
}

/** The watch feature's metrics (src/metrics.ts). */
interface WatchMetrics {
  callShown(endedAt: string | null | undefined, shownAt: number): void;
  callPosted(createdAt: string, postedAt: number): void;
  pollCycle(figures: {
    seconds: number;
    failedCampaigns: number;
    requests: Record<string, number>;
    conversationsRead: number;
    conversationsLeft: number;
    deferredCampaigns: number;
    phases: Record<CyclePhase, number>;
  }): void;
  pollCycleFailed(): void;
  watchNewCalls(source: () => { queued: number; held: number }): void;
}

/** A poll cycle's report as the metrics take it (seconds). */
function cycleFigures(r: CycleReport): Parameters<WatchMetrics['pollCycle']>[0] {
  return {
    seconds: r.durationMs / 1000,
    failedCampaigns: r.failedCampaigns.length,
    requests: r.requests,
    conversationsRead: r.conversationsRead,
    conversationsLeft: r.conversationsLeft,
    deferredCampaigns: r.deferredCampaigns,
    phases: {
      listings: r.phasesMs.listings / 1000,
      checks: r.phasesMs.checks / 1000,
      conversations: r.phasesMs.conversations / 1000,
      housekeeping: r.phasesMs.housekeeping / 1000,
    },
  };
}

export interface WatchDeps {
  store: Store;
  outreach: OutreachApi;
  logger: Logger;
  /** Every write into Slack (paced, retried, classified). */
  poster: Poster;
  /**
   * The writes of the leader-only work (delivery, reminders): the same poster, fenced by the lease's term so that a
   * stalled leader's writes are not sent after another replica took over (src/slack/watch/poster.ts `fenced`).
   * Default `poster`. The relay and people's commands, served by any replica, write through `poster`.
   */
  leaderPoster?: Poster;
  /** Everything else watch asks of Slack. */
  slack: WatchSlack;
  /** Who may write to customers and agents (relayed replies, `/campaign try`). */
  speakers: SpeakerCheck;
  /** Which language a channel and a person read (messages are rendered here, in their reader's words). */
  languages: WatchLanguages;
  audit: AuditRecord;
  metrics?: WatchMetrics;
  tuning: WatchTuning;
  /** The live service's origin: recording links on it are shown (see call-message.ts). */
  serviceOrigin?: string;
  /**
   * The app's clock (src/clock.ts): when customers started waiting and reminders come due, and the poller's schedule
   * (when a conversation is due for a read, how long a cycle took). Default: the system's.
   */
  clock?: { now(): number };
}

/** A watch's settings (filter.ts); `reminderMinutes` is the waiting customers' reminder delay (1 to 1440). */
export interface WatchSettings {
  format?: WatchFormat;
  filter?: WatchFilter;
  reminderMinutes?: number;
}

/** The subscription with these settings: `detailed` and an empty filter are stored as nothing (as before them). */
function withSettings(sub: Subscription, settings: WatchSettings): Subscription {
  const next: Subscription = { ...sub };
  if (settings.format !== undefined) {
    if (settings.format === 'compact') next.format = 'compact';
    else delete next.format;
  }
  if ('filter' in settings) {
    const filter = readFilter(settings.filter);
    if (filter && !isEmptyFilter(filter)) next.filter = filter;
    else delete next.filter;
  }
  if (settings.reminderMinutes !== undefined) next.reminderMinutes = settings.reminderMinutes;
  return next;
}

export class WatchService {
  readonly state: WatchState;
  readonly poster: Poster;
  readonly slack: WatchSlack;
  /** Who may write to customers and agents (relayed replies, `/campaign try`). */
  readonly speakers: SpeakerCheck;
  readonly logger: Logger;
  readonly delivery: Delivery;
  readonly poller: Poller;
  readonly relay: Relay;
  readonly health: SlackHealth;
  /** The assignee called in, reminders for waiting customers, owners told of their campaigns (attention.ts). */
  readonly attention: Attention;
  readonly tuning: WatchTuning;
  /** `/campaign try`: the end user being created for a person, so one is created even if they click twice. */
  readonly endUsersBeingCreated = new Map<string, Promise<string>>();
  private started = false;
  private unwatchStore: (() => void) | undefined;

  constructor(readonly deps: WatchDeps) {
    const { tuning } = deps;
    this.tuning = tuning;
    this.state = new WatchState(deps.store, { retentionMs: tuning.retentionMs, eventTtlMs: tuning.eventTtlMs });
    this.poster = deps.poster;
    this.slack = deps.slack;
    this.speakers = deps.speakers;
    this.logger = deps.logger;
    const logger = deps.logger.child({ component: 'watch' });
    const clock = deps.clock ?? { now: () => Date.now() };
    const leaderPoster = deps.leaderPoster ?? deps.poster;
    this.attention = this.newAttention(logger, clock, leaderPoster);
    this.delivery = this.newDelivery(logger, leaderPoster);
    deps.metrics?.watchNewCalls(() => this.delivery.newCallsWaiting());
    this.poller = this.newPoller(logger, clock);
    this.health = new SlackHealth({
      checkToken: (needed) => deps.slack.checkToken(needed),
      logger,
      authRecheckMs: tuning.authRecheckMs,
      channelRecheckMs: tuning.channelRecheckMs,
      onTokenBack: () => void this.resumeLogged(),
      recheckChannels: () => recheckSuspendedChannels(this),
    });
    this.relay = this.newRelay(logger);
  }

  private newAttention(logger: Logger, clock: { now(): number }, leaderPoster: Poster): Attention {
    return new Attention({
      state: this.state,
      outreach: this.deps.outreach,
      slack: this.deps.slack,
      poster: leaderPoster,
      logger,
      now: () => clock.now(),
      channelWords: (channelId) => this.channelWords(channelId),
      personWords: (userId) => this.personWords(userId),
      enqueue: (channelId, item) => this.delivery.enqueue(channelId, item),
      campaignCheckMs: this.tuning.campaignCheckMs,
    });
  }

  private newDelivery(logger: Logger, leaderPoster: Poster): Delivery {
    const { tuning } = this.deps;
    return new Delivery(
      this.state,
      leaderPoster,
      {
        renderCall: (c, channelId) => this.renderCall(c, channelId),
        renderWhatsApp: (key) => this.renderWhatsApp(key),
        translator: (reader) =>
          'userId' in reader ? this.personWords(reader.userId).then((w) => w.t) : this.channelWords(reader.channelId),
        onPermanentError: (err) => this.slackRefused(err),
        // Only while started (the replica leads): a replica standing by writes nothing of the watch to Slack.
        deliveryOpen: () => this.started && !this.health.paused,
        channelActive: (ch) => this.channelActive(ch),
        finalShown: (c, at) => this.deps.metrics?.callShown(c.snapshot?.ended_at, at),
        callPosted: (c, at) => this.deps.metrics?.callPosted(c.createdAt, at),
        attention: this.attention,
      },
      {
        burstThreshold: tuning.burstThreshold,
        calmMs: tuning.calmMs,
        retryDelayMs: tuning.retryDelayMs,
        updateGapMs: tuning.updateGapMs,
        maxOpenCalls: tuning.maxOpenCalls,
        ...(tuning.updateWindowMs !== undefined ? { updateWindowMs: tuning.updateWindowMs } : {}),
        pollIntervalMs: tuning.pollIntervalMs,
        ...(tuning.workspacePostsPerInterval !== undefined
          ? { workspacePostsPerInterval: tuning.workspacePostsPerInterval }
          : {}),
      },
      logger,
    );
  }

  private newPoller(logger: Logger, clock: { now(): number }): Poller {
    return new Poller({
      state: this.state,
      outreach: this.deps.outreach,
      delivery: this.delivery,
      logger,
      tuning: this.tuning,
      fingerprint: (campaignId, call, name) => this.fingerprint(campaignId, call, name),
      resolveKind: (s) => this.resolveKind(s),
      now: () => clock.now(),
      onCycle: (r) => this.deps.metrics?.pollCycle(cycleFigures(r)),
      onCycleFailed: () => this.deps.metrics?.pollCycleFailed(),
      campaignGone: (campaignId) => suspendCampaign(this, campaignId),
      afterCycle: (subs, serviceDown, requests) => this.afterCycle(subs, serviceDown, requests),
      billingReached: (campaignId) => this.attention.billingReached(campaignId),
      paused: () => this.health.paused,
    });
  }

  private newRelay(logger: Logger): Relay {
    return new Relay({
      state: this.state,
      outreach: this.deps.outreach,
      delivery: this.delivery,
      poster: this.poster,
      slack: this.deps.slack,
      logger,
      speakers: this.deps.speakers,
      audit: this.deps.audit,
      words: async (userId) => (await this.personWords(userId)).t,
      humanWrote: (post) => this.attention.humanWrote(post),
      abandonedAfterMs: this.tuning.replyAbandonedMs,
    });
  }

  /** After each poll cycle (the leader): reminders and campaigns' status, and replies left marked by a death. */
  private async afterCycle(subscriptions: Subscription[], serviceDown: boolean, requests: CallOptions): Promise<void> {
    await this.attention.afterCycle(subscriptions, serviceDown, requests);
    if (serviceDown) return;
    await this.relay.recoverReplies().catch((err: unknown) => {
      this.logger.warn({ err: String(err) }, 'could not look for replies left marked before a restart');
    });
  }

  /** The words of what is posted in a channel: its language (its `/campaign lang` choice, else DEFAULT_LOCALE). */
  async channelWords(channelId: string): Promise<Translator> {
    return translator(await this.deps.languages.channel(channelId));
  }

  /** The words and the timezone of one person (DMs and ephemerals); English when their language cannot be read. */
  async personWords(userId: string): Promise<{ t: Translator; timeZone?: string }> {
    try {
      const p = await this.deps.languages.person(userId);
      return { t: translator(p.locale), ...(p.timeZone ? { timeZone: p.timeZone } : {}) };
    } catch (err) {
      this.logger.warn({ user: userId, err: String(err) }, 'could not read a person’s language; writing in English');
      return { t: ENGLISH };
    }
  }

  /**
   * Re-queues whatever was recorded but not yet shown, and starts polling and delivering (this replica leads: see
   * src/leader-work.ts). While the store cannot persist, nothing goes to Slack; when it can again, what waits is
   * queued again.
   */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.delivery.start();
    this.unwatchStore = this.deps.store.onStatus((status) => {
      if (status.durable) {
        this.logger.info('the store persists again: delivery to Slack resumes');
        void this.resumeLogged();
      } else {
        this.logger.warn(
          { problem: status.problem },
          'the store cannot persist: delivery to Slack pauses until it can (nothing would be remembered as posted)',
        );
      }
    });
    await this.resume();
    if (this.tuning.autoPoll) this.poller.start();
    this.health.start();
  }

  /**
   * Stops polling and delivering (this replica no longer leads, or the app stops): the Slack write under way ends,
   * nothing is written after it. `start()` may follow (the lease won again).
   */
  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    this.unwatchStore?.();
    this.health.stop();
    await this.poller.stop();
    await this.delivery.stop();
  }

  /** The app stops: as `stop()`, and the poster's paced writes (reactions of the relay too) end. */
  async close(): Promise<void> {
    await this.stop();
    this.poster.stop();
  }

  /**
   * Sets a channel to watch a campaign (`started`), or resumes its suspended watch there (`resumed`: what waited goes
   * out now); `already` when the channel watches it and nothing changed. The bot's access to the channel is the
   * caller's (src/slack/watch/subscribe.ts).
   */
  async subscribe(req: {
    campaign: CampaignDetail;
    channelId: string;
    userId: string;
    /** Typed or chosen with the watch (`updated`: the channel watched it already, these settings now apply). */
    settings?: WatchSettings;
  }): Promise<'already' | 'updated' | 'started' | 'resumed'> {
    const { campaign, channelId, userId } = req;
    const key = subKey(campaign.id, channelId);
    const existing = await this.state.subscriptions.get(key);
    if (existing && !existing.suspended) {
      if (!req.settings) return 'already';
      await this.saveSettings(campaign.id, channelId, req.settings);
      return 'updated';
    }
    const now = new Date().toISOString();
    const kind = campaign.integration?.type ?? 'phone_call';
    const sub: Subscription = existing
      ? { ...existing, kind, campaignName: campaign.name, createdBy: userId }
      : {
          campaignId: campaign.id,
          channelId,
          createdBy: userId,
          createdAt: now,
          startFrom: now,
          campaignName: campaign.name,
          kind,
        };
    if (campaign.timezone) sub.campaignTimezone = campaign.timezone;
    delete sub.suspended;
    await this.state.subscriptions.put(key, req.settings ? withSettings(sub, req.settings) : sub);
    // What was waiting when the channel was suspended goes out now.
    if (existing?.suspended) await this.resume(channelId);
    return existing ? 'resumed' : 'started';
  }

  /**
   * Changes a channel's watch of a campaign: its format, filter, reminder delay (what `settings` names). Stored, so
   * every replica's next poll honours it. The subscription as saved; undefined when the channel does not watch it.
   */
  async saveSettings(
    campaignId: number,
    channelId: string,
    settings: WatchSettings,
  ): Promise<Subscription | undefined> {
    const key = subKey(campaignId, channelId);
    for (let i = 0; i < 20; i++) {
      const cur = await this.state.subscriptions.getVersioned(key);
      if (!cur) return undefined;
      const next = withSettings(cur.value, settings);
      if (await this.state.subscriptions.compareAndSet(key, cur.version, next)) return next;
    }
    throw new Error(`the watch ${key} kept changing while its settings were saved`);
  }

  /** A channel's watch of a campaign (suspended too), or undefined. */
  subscription(campaignId: number, channelId: string): Promise<Subscription | undefined> {
    return this.state.subscriptions.get(subKey(campaignId, channelId));
  }

  /**
   * The channel stops watching the campaign; the removed subscription, or undefined when there was none. A channel
   * left watching nothing is noted, so the poller lets its records go (poller.ts).
   */
  async unsubscribe(campaignId: number, channelId: string): Promise<Subscription | undefined> {
    const key = subKey(campaignId, channelId);
    const sub = await this.state.subscriptions.get(key);
    if (!sub) return undefined;
    await this.state.subscriptions.delete(key);
    if ((await this.state.subscriptionsIn(channelId)).length === 0) {
      const at = Date.now();
      await this.state.unwatchedChannels.put(channelId, { channelId, at }, { expiresAt: at + this.tuning.retentionMs });
    }
    return sub;
  }

  /** The channels watching a campaign now (not suspended), sorted. */
  async channelsWatching(campaignId: number): Promise<string[]> {
    return (await this.state.activeSubscriptions(campaignId)).map((s) => s.channelId).sort();
  }

  /**
   * After a restart (or when a suspended channel is watched again, or the store or the token is back): everything
   * recorded but not (fully) shown goes back into the channels' queues. Reads the watched channels' records (by
   * key prefix) and the try sessions.
   */
  async resume(channelId?: string): Promise<void> {
    const { state } = this;
    const channels =
      channelId !== undefined ? [channelId] : [...new Set((await state.allSubscriptions()).map((s) => s.channelId))];
    for (const ch of channels) {
      const posts = (await state.postsIn(ch)).sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
      for (const p of posts) {
        if (p.digestId) continue;
        const c = await state.call(p.campaignId, p.callId);
        if (c?.snapshot && c.fp !== p.deliveredFp) {
          this.delivery.noteUnposted(p);
          this.delivery.enqueue(p.channelId, `call:${p.callId}`);
        }
      }
      for (const [id, d] of await state.digests.list({ prefix: `${ch}/` })) {
        if (d.fp !== d.deliveredFp) this.delivery.enqueue(d.channelId, `digest:${id}`);
      }
      for (const [key, w] of await state.waPosts.list({ prefix: `${ch}/` })) {
        if (w.fp !== w.deliveredFp) this.delivery.enqueue(w.channelId, `wa:${key}`);
      }
      // Conversations already fetched whose next message had not gone out (a worker skips those with nothing new).
      for (const p of posts) {
        if (p.ts && p.threadId && this.delivery.conversations.has(p.threadId)) {
          this.delivery.enqueue(p.channelId, `conv:${p.callId}`);
        }
      }
    }
    for (const [, t] of await state.tries.list()) {
      const here = channelId === undefined || t.dmChannelId === channelId;
      if (t.dmChannelId && here && t.threadId && this.delivery.conversations.has(t.threadId)) {
        this.delivery.enqueue(t.dmChannelId, `try:${t.userId}`);
      }
    }
  }

  /** `resume`, its failure logged (from listeners that cannot wait for it). */
  private async resumeLogged(): Promise<void> {
    try {
      await this.resume();
    } catch (err) {
      this.logger.warn({ err: String(err) }, 'could not queue again what waits for Slack; the next change will');
    }
  }

  /**
   * Slack refused a channel (its watches are suspended, their owners told) or, it seems, the token (everything
   * pauses only if `auth.test` agrees; otherwise the call is tried again later).
   */
  async slackRefused(err: PermanentSlackError): Promise<'stopped' | 'retry'> {
    if (err.scope === 'channel') {
      await suspendChannel(this, err);
      return 'stopped';
    }
    return (await this.health.confirmTokenError(err)) ? 'stopped' : 'retry';
  }

  /** The bot joined a channel (invited back): watches Slack had refused there resume. */
  botJoined(channelId: string): Promise<number> {
    return resumeChannel(this, channelId, 'invited');
  }

  /** A channel was unarchived: its refused watches resume if the bot is (still) in it. */
  channelUnarchived(channelId: string): Promise<number> {
    return recheckChannel(this, channelId, 'unarchived');
  }

  /** Runs a poll cycle now (or waits for the running one). */
  pollNow() {
    return this.poller.runCycle();
  }

  /**
   * The size of every map the watch keeps in memory while it runs, by name: each is let go when what it is about
   * ends and capped besides (src/bounded.ts). For the soak benchmark (bench/soak.bench.ts) and anyone asking why
   * the leader's heap grew.
   */
  memoryFigures(): MemoryFigures {
    return {
      ...this.delivery.memoryFigures(),
      ...this.poller.memoryFigures(),
      ...this.relay.memoryFigures(),
      ...this.attention.memoryFigures(),
      ...this.speakers.memoryFigures?.(),
      ...this.poster.memoryFigures?.(),
      'watch.endUsersBeingCreated': this.endUsersBeingCreated.size,
    };
  }

  async channelActive(channelId: string): Promise<boolean> {
    if (this.health.paused) return false;
    if (channelId.startsWith('D')) return true;
    return this.state.watchedChannel(channelId);
  }

  /**
   * A call's message. `t` and `timezone`: the reading channel's language and the campaign's zone; the fingerprint
   * (whether a call changed) renders it in English.
   */
  renderCallItem(
    campaignId: number,
    call: CampaignCallItem,
    name: string | undefined,
    t: Translator = ENGLISH,
    timezone?: string,
  ): SlackMessage {
    return callMessage(
      {
        campaignId,
        call,
        ...(name ? { campaignName: name } : {}),
        ...(this.deps.serviceOrigin ? { serviceOrigin: this.deps.serviceOrigin } : {}),
        ...(timezone ? { timezone } : {}),
      },
      t,
    );
  }

  fingerprint(campaignId: number, call: CampaignCallItem, campaignName: string | undefined): string {
    return createHash('sha1')
      .update(JSON.stringify(this.renderCallItem(campaignId, call, campaignName)))
      .digest('base64url')
      .slice(0, 16);
  }

  /** The name and timezone a campaign's watches know it by. */
  private async campaignFacts(campaignId: number): Promise<{ name?: string; timezone?: string }> {
    const subs = (await this.state.subscriptions.list({ prefix: `${campaignId}/` })).map(([, s]) => s);
    const name = subs.find((s) => s.campaignName)?.campaignName;
    const timezone = subs.find((s) => s.campaignTimezone)?.campaignTimezone;
    return { ...(name ? { name } : {}), ...(timezone ? { timezone } : {}) };
  }

  /** A call's message as a channel shows it: the card, or one line (its watch's format, filter.ts). */
  private async renderCall(c: CallRecord, channelId: string): Promise<SlackMessage | undefined> {
    if (!c.snapshot) return undefined;
    const [facts, t, sub] = await Promise.all([
      this.campaignFacts(c.campaignId),
      this.channelWords(channelId),
      this.subscription(c.campaignId, channelId),
    ]);
    if (sub && shownFormat({ ...sub, filter: readFilter(sub.filter) }) === 'compact') {
      return compactCallMessage({ campaignId: c.campaignId, call: c.snapshot }, t);
    }
    return this.renderCallItem(c.campaignId, c.snapshot, facts.name, t, facts.timezone);
  }

  private async renderWhatsApp(key: string): Promise<SlackMessage | undefined> {
    const w = await this.state.waPosts.get(key);
    if (!w) return undefined;
    const t = await this.channelWords(w.channelId);
    if (w.payload.kind === 'digest') {
      const { name, timezone } = await this.campaignFacts(w.campaignId);
      return whatsappDigestMessage(
        {
          campaignId: w.campaignId,
          ...(name ? { campaignName: name } : {}),
          counts: w.payload.counts,
          updatedAt: new Date(w.payload.at),
          ...(timezone ? { timezone } : {}),
        },
        t,
      );
    }
    return whatsappContactMessage({ campaignId: w.campaignId, contact: w.payload.contact as CampaignContact }, t);
  }

  private async resolveKind(s: Subscription): Promise<Subscription> {
    const c = await this.deps.outreach.getCampaign(s.campaignId, { priority: 'poller', maxRetries: 0 });
    const next: Subscription = { ...s, kind: c.integration?.type ?? 'phone_call', campaignName: c.name };
    if (c.timezone) next.campaignTimezone = c.timezone;
    await this.state.putSubscription(next);
    return next;
  }

  /**
   * A change made from Slack (an audit entry, src/main.ts): a pause is the person's, not the service's (its owners
   * are not told); a refusal for the plan limit is told to the campaign's watches' owners.
   */
  async changedFromSlack(entry: { action: string; campaignId?: number; result: string; code?: string }) {
    if (entry.campaignId === undefined) return;
    if (entry.result === 'ok' && entry.action === 'pause') await this.attention.pausedFromSlack(entry.campaignId);
    if (entry.code === 'BILLING_LIMIT_REACHED') await this.attention.billingReached(entry.campaignId);
  }

  /** Conversations of watched channels waiting for a person's reply, oldest first (the Home tab). */
  async waitingForReply(): Promise<WaitingItem[]> {
    return (await this.attention.waitingList()).map((w) => ({
      channelId: w.channelId,
      since: new Date(w.since),
      reminded: w.remindedAt !== undefined,
      ...(w.endUserName ? { endUserName: w.endUserName } : {}),
      ...(w.link ? { link: w.link } : {}),
    }));
  }

  /** The post record behind a call message in a channel (for buttons). */
  postOf(channelId: string, callId: string) {
    return this.state.post(channelId, callId);
  }
}
