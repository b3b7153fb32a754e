/**
 * The poller: every interval, for each watched campaign, what changed since last time, recorded durably and handed
 * to delivery. All service requests go through the shared limiter at `poller` priority, behind people's commands.
 *
 * Calls: the list is asked for calls created after a cursor less an overlap window (calls appear in the list some
 * time after they are created, and clocks differ), newest first; paging stops once it reaches calls older than the
 * window. The window also reaches back to the oldest call not yet final, so a call is re-read until its outcome is
 * known. Each call's rendered message has a fingerprint: only a changed fingerprint reaches Slack. The cursor moves
 * only after the calls it covers are on disk.
 *
 * Conversations: each call's thread (GET /message) is read while the call runs and then with a growing gap, and let
 * go after `threadIdleMs` without a new message or reply. When a cycle cannot read every due conversation, those
 * never read come first, then those of ended calls (a customer may be waiting for a person, whether a channel shows
 * the call or a filter left it out), then the live transcripts of running calls (`readOrder`).
 *
 * Pace: cycles start one interval apart (start to start), and each sends at most four fifths of what its interval
 * holds at `requestsPerSecond` (`cycleRequests`), so it ends within it: the campaigns' listings (all of them while
 * they leave room for a few conversation reads; beyond that half of them each cycle, in turns), campaign checks, and
 * the rest for conversations. So a new call is listed within two intervals of its creation. Each cycle's requests,
 * by route template, are in its report (and the metrics).
 *
 * WhatsApp campaigns (no calls): contact counts by status, and contacts newly converted, rejected or failed.
 *
 * Failures (outage.ts): the service unavailable opens a circuit breaker (one warning; one campaign polled per cycle
 * as a probe until the service answers; one warning when it does), one campaign failing on its own backs off
 * exponentially, and a campaign the service no longer has (404, confirmed by GET /campaigns/{id}) has its watches
 * suspended (`campaignGone`). Poll requests are not retried by the client: the next cycle is the retry.
 *
 * The store cannot persist (disk full, database down): the cycle does nothing but ask the store whether it takes
 * writes again (`probe`); nothing moves and nothing is posted until it does.
 *
 * Housekeeping after each cycle reads per campaign and per channel (key prefixes), never a whole collection: what
 * can no longer change Slack is let go, and a few campaigns and channels per cycle are looked through for records of
 * an older state that carry no expiry (the store expires the rest, `sweep` removing them).
 */
import { BoundedMap, type MemoryFigures } from '../bounded.js';
import type { Logger } from '../log.js';
import type { CallOptions, OutreachApi } from '../outreach/api.js';
import { isOutreachError } from '../outreach/errors.js';
import type { CampaignCallItem, CampaignContact } from '../outreach/schemas.js';
import { WHATSAPP_CONTACT_STATUSES } from '../outreach/schemas.js';
import { MAX_PAGE_SIZE } from '../outreach/unspecified.js';
import type { Delivery } from './delivery.js';
import { hashText, newCursor, repliesFromSlack } from './conversation.js';
import { conversationFacts, matches, readFilter, shownFormat } from './filter.js';
import { CampaignBackoff, errorText, failureKind, OutageBreaker } from './outage.js';
import {
  callKey,
  postKey,
  subKey,
  type CallRecord,
  type CampaignCursor,
  type DigestRecord,
  type PostRecord,
  type Subscription,
  type WatchState,
} from './state.js';
import { FINAL_CALL_STATUSES, WHATSAPP_NOTABLE_STATUSES } from '../outreach/rules.js';
import { endUserWaiting } from './waiting.js';
import type { Message } from '../outreach/schemas.js';

export interface PollerTuning {
  pollIntervalMs: number;
  /** How far before the cursor each listing reaches. */
  overlapMs: number;
  /** A final call whose policy evaluation is not complete is re-read for this long. */
  settleMs: number;
  /** A call not final after this long is no longer re-read. */
  openGiveUpMs: number;
  /** A conversation is let go after this long without a new message or reply (once its call is final). */
  threadIdleMs: number;
  /** Longest gap between two reads of a quiet conversation. */
  threadMaxGapMs: number;
  /** Records of ended calls, digests and WhatsApp messages are kept this long (RETENTION_DAYS). */
  retentionMs: number;
  /** Campaigns (and conversations) read at once; the shared limiter paces the requests anyway. */
  concurrency: number;
  /** Most pages of calls read per campaign per cycle. */
  maxPages: number;
  /**
   * Service requests per second the poller may plan for (the shared limit is 12/s, people's commands first): a
   * cycle sends at most four fifths of what `pollIntervalMs` holds at this rate (`cycleRequests`), so it ends within
   * its interval. The campaigns are all listed while that leaves `concurrency` × 2 conversation reads (beyond, half
   * of them each cycle, in turns: each every other cycle); conversations are read with the rest.
   */
  requestsPerSecond: number;
  /** Consecutive failures saying the service is unavailable after which only one campaign is polled per cycle. */
  breakerThreshold: number;
  /** Longest wait of a campaign that keeps failing on its own (its waits double from one poll interval). */
  backoffMaxMs: number;
}

export type CyclePhase = 'listings' | 'checks' | 'conversations' | 'housekeeping';

/** What a poll of a campaign's calls records them from. */
interface PolledCalls {
  /** The campaign's calls as stored, and as listed now (by id). */
  known: ReadonlyMap<string, CallRecord>;
  listed: ReadonlyMap<string, CampaignCallItem>;
  /** The newest creation time listed by an earlier poll. */
  newestBefore: string | undefined;
  /** Placements of the last poll that stored its cursor are done; a call stored by a later one may lack them. */
  placedThrough: number;
  campaignName: string | undefined;
  now: number;
}

/** A call whose record a poll changed; `statusChanged`: its messages are to be placed again. */
interface ChangedCall {
  rec: CallRecord;
  isNew: boolean;
  statusChanged: boolean;
}

export interface CycleReport {
  campaigns: number;
  failedCampaigns: number[];
  /** Campaigns not polled this cycle: backing off, or the service down (only a probe is sent). */
  skippedCampaigns: number;
  /** Campaigns whose listing waits for the next cycle (not all fit beside the least conversation reads). */
  deferredCampaigns: number;
  newCalls: number;
  changedCalls: number;
  conversationsRead: number;
  /** Conversations due for a read and left for a later cycle: the cycle's requests were spent. */
  conversationsLeft: number;
  /** Service requests the cycle sent (each try, each page), by route template. */
  requests: Record<string, number>;
  /** The store could not persist: nothing was polled or posted. */
  storePaused?: boolean;
  /** When it started (the poller's clock, ms). */
  startedAt: number;
  /** Where its time went (the poller's clock, ms): listings, campaign checks, conversations, housekeeping. */
  phasesMs: Record<CyclePhase, number>;
  durationMs: number;
  cpuMs: number;
}

export interface PollerDeps {
  state: WatchState;
  outreach: OutreachApi;
  delivery: Delivery;
  logger: Logger;
  tuning: PollerTuning;
  /** Fingerprint of a call's rendered message (under the name its watches know the campaign by). */
  fingerprint(campaignId: number, call: CampaignCallItem, campaignName: string | undefined): string;
  /** Resolves a campaign's channel type (phone_call / whatsapp) when a subscription does not know it. */
  resolveKind(sub: Subscription): Promise<Subscription>;
  /** The service no longer has this campaign (confirmed): its watches are suspended and their owners told. */
  campaignGone(campaignId: number): Promise<void>;
  /** A poll was refused because the organization's plan limit is reached (its watches' owners are told). */
  billingReached?: (campaignId: number) => Promise<void>;
  /**
   * After each cycle's listings, before its conversation reads (attention.ts: campaigns' status, reminders that came
   * due). `requests`: the options of its service requests, so they count in the cycle's figures and budget.
   */
  afterCycle?: (subscriptions: Subscription[], serviceDown: boolean, requests: CallOptions) => Promise<void>;
  /** True while nothing can reach Slack (the token refused): cycles are skipped, cursors stay where they are. */
  paused?: () => boolean;
  now?: () => number;
  /** Runs `fn` after `ms` (default: an unref'd setTimeout); returns how to cancel it. */
  setTimer?: (fn: () => void, ms: number) => () => void;
  /** Told when a cycle ends (metrics): its report, or that it broke off. */
  onCycle?: (report: CycleReport) => void;
  onCycleFailed?: (err: unknown) => void;
}

/** Poll requests: behind people's commands, and not retried by the client (the next cycle is the retry). */
const POLL = { priority: 'poller', maxRetries: 0 } as const;

const isFinalStatus = (s: string) => FINAL_CALL_STATUSES.includes(s);

/** Between two sweeps of expired records. */
const SWEEP_EVERY_MS = 60_000;
/** Campaigns and channels looked through per cycle for records of an older state without expiry. */
const LEGACY_PER_CYCLE = 5;
/** Posts of channels that watch nothing let go per cycle, at most. */
const RELEASE_PER_CYCLE = 200;
const HOUR_MS = 3600_000;
/**
 * Threads whose last read is remembered, at most: each is let go with its conversation (`maintain`); at 330 calls a
 * minute about 10,000 are followed at once (delivery.ts MAX_CONVERSATIONS). One forgotten early is read sooner.
 */
const MAX_THREADS_READ = 20_000;

function groupByCampaign(subs: Subscription[]): Map<number, Subscription[]> {
  const byCampaign = new Map<number, Subscription[]>();
  for (const s of subs) {
    const list = byCampaign.get(s.campaignId);
    if (list) list.push(s);
    else byCampaign.set(s.campaignId, [s]);
  }
  return byCampaign;
}

async function mapLimit<T>(items: T[], limit: number, fn: (t: T) => Promise<void>): Promise<void> {
  let i = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (i < items.length) {
      const item = items[i++]!;
      await fn(item);
    }
  });
  await Promise.all(workers);
}

function defaultTimer(fn: () => void, ms: number): () => void {
  const t = setTimeout(fn, ms);
  t.unref?.();
  return () => clearTimeout(t);
}

export class Poller {
  private cancelTimer: (() => void) | undefined;
  private current: Promise<CycleReport> | undefined;
  private stopped = true;
  /** service thread id -> our clock (ms) of its last read, while the thread is followed. */
  private readonly lastRead = new BoundedMap<string, number>(MAX_THREADS_READ);
  readonly reports: CycleReport[] = [];
  readonly breaker: OutageBreaker;
  private readonly backoff: CampaignBackoff;
  /** Whose turn it is to be the probe while the service is down. */
  private probeTurn = 0;
  /** Cycles run (the backoff's clock). */
  private cycles = 0;
  /** Our clock (ms) of the last `store.sweep()`. */
  private lastSweep = 0;
  /** Where the look through older records stands (campaign cursors, channels). */
  private legacyTurn = { campaigns: 0, channels: 0 };
  /** Watched campaign id -> the cycle it was last listed in (whose turn it is when not all fit in one cycle). */
  private readonly listedIn = new Map<number, number>();
  /** The options of this cycle's service requests: poller priority, no retries, each request counted. */
  private poll: CallOptions = POLL;

  constructor(private readonly d: PollerDeps) {
    this.breaker = new OutageBreaker(d.tuning.breakerThreshold, d.logger, () => this.now());
    this.backoff = new CampaignBackoff(Math.max(1, Math.round(d.tuning.backoffMaxMs / d.tuning.pollIntervalMs)));
  }

  private now(): number {
    return this.d.now ? this.d.now() : Date.now();
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(Math.min(1000, this.d.tuning.pollIntervalMs));
  }

  /**
   * The next cycle in `ms`. Cycles start one interval apart (from start to start, not from the end of one to the
   * start of the next), so a cycle's own length does not delay the next: a call created just after its campaign was
   * listed is seen one interval later. One that ran over its interval is followed at once.
   */
  private schedule(ms: number): void {
    if (this.stopped) return;
    const setTimer = this.d.setTimer ?? defaultTimer;
    this.cancelTimer = setTimer(() => {
      const started = this.now();
      this.runCycle()
        .catch((err: unknown) => this.d.logger.error({ err: String(err) }, 'poll cycle failed'))
        .finally(() => this.schedule(Math.max(0, started + this.d.tuning.pollIntervalMs - this.now())));
    }, ms);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelTimer?.();
    await this.current?.catch(() => undefined);
    // As after a restart: every followed thread is read at the next lead's first cycle (delivery forgets them too).
    this.lastRead.clear();
  }

  /** The size of each map the poller keeps in memory (bench/soak.bench.ts). */
  memoryFigures(): MemoryFigures {
    return {
      'poller.lastRead': this.lastRead.size,
      'poller.lastRead.evicted': this.lastRead.evicted,
      'poller.backoff': this.backoff.size,
      'poller.reports': this.reports.length,
    };
  }

  /** Service requests one cycle may send: four fifths of what the interval holds at `requestsPerSecond`. */
  cycleRequests(): number {
    const { pollIntervalMs, requestsPerSecond } = this.d.tuning;
    return Math.floor((pollIntervalMs / 1000) * requestsPerSecond * 0.8);
  }

  /** One cycle; if one is running, waits for it instead of starting another. */
  runCycle(): Promise<CycleReport> {
    if (this.current) return this.current;
    this.current = this.cycle()
      .then(
        (report) => {
          this.d.onCycle?.(report);
          return report;
        },
        (err: unknown) => {
          this.d.onCycleFailed?.(err);
          throw err;
        },
      )
      .finally(() => {
        this.current = undefined;
      });
    return this.current;
  }

  private async cycle(): Promise<CycleReport> {
    const started = this.now();
    const cpu0 = process.cpuUsage();
    const report: CycleReport = {
      campaigns: 0,
      failedCampaigns: [],
      skippedCampaigns: 0,
      deferredCampaigns: 0,
      newCalls: 0,
      changedCalls: 0,
      conversationsRead: 0,
      conversationsLeft: 0,
      requests: {},
      startedAt: started,
      phasesMs: { listings: 0, checks: 0, conversations: 0, housekeeping: 0 },
      durationMs: 0,
      cpuMs: 0,
    };
    const counted = report.requests;
    this.poll = { ...POLL, onRequest: (endpoint) => (counted[endpoint] = (counted[endpoint] ?? 0) + 1) };
    if (this.d.paused?.()) return this.finish(report, started, cpu0);
    if (!(await this.storeWritable())) {
      report.storePaused = true;
      return this.finish(report, started, cpu0);
    }
    this.cycles++;
    const subscriptions = await this.d.state.allSubscriptions();
    const all = [...groupByCampaign(subscriptions.filter((s) => !s.suspended))];
    report.campaigns = all.length;
    let mark = started;
    const phase = (name: CyclePhase) => {
      const at = this.now();
      report.phasesMs[name] += at - mark;
      mark = at;
    };
    await this.pollCampaigns(all, report);
    phase('listings');
    const sent = () => Object.values(counted).reduce((n, k) => n + k, 0);
    const listings = sent();
    if (this.d.afterCycle) {
      await this.d.afterCycle(subscriptions, this.breaker.open, this.poll).catch((err: unknown) => {
        this.d.logger.warn({ err: String(err) }, 'checking reminders and campaigns after a poll failed');
      });
    }
    phase('checks');
    if (!this.breaker.open) {
      // The rest of the cycle's requests read conversations; and no more than the rest of the interval holds at the
      // pace the listings had (slots are held a window past each answer, replicas keep a reserve), so the cycle ends
      // within its interval. `concurrency` × 2 are read whatever the listings took (they leave room for them:
      // `listingTurn`), less what the campaign checks took.
      const spent = sent();
      const left = this.d.tuning.pollIntervalMs * 0.9 - (this.now() - started);
      const budget = Math.min(
        this.cycleRequests() - spent,
        listings > 0 ? Math.floor((left * listings) / Math.max(1, report.phasesMs.listings)) : Infinity,
      );
      const least = Math.max(0, this.d.tuning.concurrency * 2 - (spent - listings));
      await this.pollConversations(subscriptions, Math.max(least, budget), report);
    }
    phase('conversations');
    await this.maintain(subscriptions);
    phase('housekeeping');
    return this.finish(report, started, cpu0);
  }

  /** Lists the campaigns whose turn it is (all, unless the service is down or some back off). */
  private async pollCampaigns(all: Array<[number, Subscription[]]>, report: CycleReport): Promise<void> {
    const pollOne = async ([campaignId, subs]: [number, Subscription[]]) => {
      this.listedIn.set(campaignId, this.cycles);
      await this.pollCampaign(campaignId, subs, report);
    };
    let rest: typeof all;
    if (this.breaker.open && all.length > 0) {
      // The service is down: one campaign asks whether it is back, the campaigns taking turns.
      const probe = all[this.probeTurn++ % all.length]!;
      await pollOne(probe);
      rest = this.breaker.open ? [] : all.filter((e) => e !== probe);
      report.skippedCampaigns = all.length - 1 - rest.length;
    } else {
      rest = all.filter(([id]) => this.backoff.due(id, this.cycles));
      report.skippedCampaigns = all.length - rest.length;
    }
    const watched = new Set(all.map(([id]) => id));
    for (const id of this.listedIn.keys()) if (!watched.has(id)) this.listedIn.delete(id);
    const turn = this.listingTurn(rest);
    report.deferredCampaigns = rest.length - turn.length;
    await mapLimit(turn, this.d.tuning.concurrency, async (entry) => {
      // The breaker opened during this cycle: the others wait for the probe of the next one.
      if (this.breaker.open) report.skippedCampaigns++;
      else await pollOne(entry);
    });
  }

  /**
   * The campaigns listed this cycle: all of them while they leave the cycle's requests room for the least reads of
   * conversations (`concurrency` × 2). Beyond that, half of them, those listed longest ago: each is listed every
   * other cycle, so a new call still reaches Slack within two intervals of its creation, and the other half of the
   * requests reads conversations.
   */
  private listingTurn<T extends [number, unknown]>(entries: T[]): T[] {
    if (entries.length <= this.cycleRequests() - this.d.tuning.concurrency * 2) return entries;
    const room = Math.ceil(entries.length / 2);
    const turn = (id: number) => this.listedIn.get(id) ?? -1;
    return [...entries].sort((a, b) => turn(a[0]) - turn(b[0])).slice(0, room);
  }

  /** Whether the store persists; while it does not, asks it again (one small write) each cycle. */
  private async storeWritable(): Promise<boolean> {
    const store = this.d.state.store;
    if (store.status().durable) return true;
    const status = await store.probe().catch(() => store.status());
    if (!status.durable) {
      this.d.logger.debug({ problem: status.problem }, 'the store cannot persist yet; nothing is polled or posted');
    }
    return status.durable;
  }

  private finish(report: CycleReport, started: number, cpu0: NodeJS.CpuUsage): CycleReport {
    const cpu = process.cpuUsage(cpu0);
    report.durationMs = this.now() - started;
    report.cpuMs = (cpu.user + cpu.system) / 1000;
    this.reports.push(report);
    if (this.reports.length > 100) this.reports.shift();
    return report;
  }

  /** Polls one campaign; a failure is sorted out here (outage, backoff, gone). */
  private async pollCampaign(campaignId: number, subs: Subscription[], report: CycleReport): Promise<void> {
    try {
      const resolved = await Promise.all(subs.map((s) => (s.kind === 'unknown' ? this.d.resolveKind(s) : s)));
      if (resolved.some((s) => s.kind === 'whatsapp')) await this.pollWhatsApp(campaignId, resolved);
      else {
        const r = await this.pollCalls(campaignId, resolved);
        report.newCalls += r.newCalls;
        report.changedCalls += r.changed;
      }
      if (this.breaker.answered()) this.backoff.clear();
      this.backoff.succeeded(campaignId);
      const cur = await this.d.state.cursor(campaignId);
      if (cur && cur.failures > 0) await this.d.state.putCursor({ ...cur, failures: 0 });
    } catch (err) {
      report.failedCampaigns.push(campaignId);
      await this.failed(campaignId, err);
    }
  }

  private async failed(campaignId: number, err: unknown): Promise<void> {
    if (isOutreachError(err) && err.key === 'BILLING_LIMIT_REACHED') {
      await this.d.billingReached?.(campaignId).catch(() => undefined);
    }
    let kind = failureKind(err);
    if (kind === 'not_found') {
      // A 404 from a listing is believed only when the campaign itself is not found either.
      try {
        await this.d.outreach.getCampaign(campaignId, this.poll);
        kind = 'campaign';
      } catch (e) {
        kind = failureKind(e);
        if (kind === 'not_found') {
          if (this.breaker.answered()) this.backoff.clear();
          this.backoff.succeeded(campaignId);
          await this.d.campaignGone(campaignId);
          return;
        }
      }
    }
    // Any answer of the service (a 4xx, a 429, a body that does not parse) means it is up.
    if (kind !== 'unavailable' && this.breaker.answered()) this.backoff.clear();
    const failures = this.backoff.failed(campaignId, this.cycles);
    if (kind === 'unavailable') {
      // Not this campaign's fault, so nothing is written for it; the breaker speaks for the outage.
      this.breaker.unavailable(err);
      if (!this.breaker.open) {
        this.d.logger.info(
          { campaignId, err: errorText(err) },
          'polling a campaign failed; the service did not answer',
        );
      }
      return;
    }
    if (kind === 'throttled') {
      this.d.logger.debug({ campaignId }, 'polling a campaign was rate-limited; next cycle');
      return;
    }
    const message = errorText(err);
    this.d.logger.warn({ campaignId, failures, err: message }, 'polling a campaign failed; backing off');
    try {
      const cur = (await this.d.state.cursor(campaignId)) ?? { campaignId, failures: 0 };
      await this.d.state.putCursor({ ...cur, failures: cur.failures + 1, lastError: message });
    } catch {
      // Counting failures is for operators; the backoff above does not depend on it.
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Calls

  /** The earliest `created_at` the next listing must reach (before the overlap), given the campaign's calls. */
  windowBase(cursor: CampaignCursor | undefined, subs: Subscription[], calls: Iterable<CallRecord>): number {
    let base = cursor?.newestCreatedAt
      ? Date.parse(cursor.newestCreatedAt)
      : Math.min(...subs.map((s) => Date.parse(s.startFrom)));
    for (const c of calls) if (!c.final) base = Math.min(base, Date.parse(c.createdAt));
    return base;
  }

  /** One campaign's calls: list them, record what changed, place their messages, then move the cursor past them. */
  private async pollCalls(campaignId: number, subs: Subscription[]): Promise<{ newCalls: number; changed: number }> {
    const { tuning, state } = this.d;
    const now = this.now();
    // The campaign's calls, read once: ended ones are let go soon after they leave the window, so this stays small.
    const known = new Map((await state.callsOf(campaignId)).map((c) => [c.callId, c]));
    const cursor = await state.cursor(campaignId);
    const windowStart = this.windowBase(cursor, subs, known.values()) - tuning.overlapMs;
    const listed = await this.listCalls(campaignId, windowStart);
    const { changed, newest } = await this.recordCalls(campaignId, subs, {
      known,
      listed,
      newestBefore: cursor?.newestCreatedAt,
      placedThrough: cursor?.lastPolledAt ? Date.parse(cursor.lastPolledAt) : -Infinity,
      campaignName: subs.find((s) => s.campaignName)?.campaignName,
      now,
    });
    const newCalls = await this.placeCalls(subs, changed, now);
    await this.advanceCursor(campaignId, newest, now);
    return { newCalls, changed: changed.length };
  }

  /** The campaign's calls created since `windowStart`, by id: newest first, so the pages stop at an older one. */
  private async listCalls(campaignId: number, windowStart: number): Promise<Map<string, CampaignCallItem>> {
    const listed = new Map<string, CampaignCallItem>();
    for (let page = 0; page < this.d.tuning.maxPages; page++) {
      const list = await this.d.outreach.listCampaignCalls(
        campaignId,
        { createdAfter: new Date(windowStart), page, pageSize: MAX_PAGE_SIZE },
        this.poll,
      );
      let reachedOld = false;
      for (const c of list.calls) {
        if (Date.parse(c.created_at) < windowStart) {
          reachedOld = true;
          continue;
        }
        if (!listed.has(c.id)) listed.set(c.id, c);
      }
      const newestFirst = list.calls.every(
        (c, i) => i === 0 || Date.parse(list.calls[i - 1]!.created_at) >= Date.parse(c.created_at),
      );
      if (!list.pagination.has_next || list.calls.length === 0 || (reachedOld && newestFirst)) break;
    }
    return listed;
  }

  /**
   * Stores what the listing shows of each call (a new or changed record, or only its item's hash), and lets go the
   * open calls that stopped appearing; resolves once all of it is stored (a post never points at a call not stored).
   * Returns the calls whose records changed and the newest creation time listed.
   */
  private async recordCalls(
    campaignId: number,
    subs: Subscription[],
    seen: PolledCalls,
  ): Promise<{ changed: ChangedCall[]; newest: string | undefined }> {
    const { tuning, state } = this.d;
    const { known, listed, now } = seen;
    const writes: Promise<void>[] = [];
    const changed: ChangedCall[] = [];
    let newest = seen.newestBefore;
    for (const item of listed.values()) {
      if (!newest || Date.parse(item.created_at) > Date.parse(newest)) newest = item.created_at;
      const prev = known.get(item.id);
      // A call is shown where the watch started before it, or while it is still running.
      if (!prev && !subs.some((s) => this.eligible(s, item))) continue;
      const update = this.callUpdate(campaignId, item, prev, seen);
      if (!update) continue;
      if (update.change) changed.push({ rec: update.rec, ...update.change });
      writes.push(state.putCall(update.rec));
    }
    // Calls that stay open without appearing any more (statuses the list does not show) are let go in the end.
    for (const c of known.values()) {
      if (!c.final && !listed.has(c.callId) && now - c.firstSeenAt > tuning.openGiveUpMs) {
        writes.push(state.putCall({ ...c, final: true, finalAt: c.finalAt ?? now }));
      }
    }
    await Promise.all(writes);
    return { changed, newest };
  }

  /**
   * The record a listed call is to be stored as: undefined when it is as stored; `prev` with the item's new hash when
   * the item changed but not what it renders; else a new record, with `change` saying whether its messages are to be
   * placed again (`statusChanged`).
   */
  private callUpdate(
    campaignId: number,
    item: CampaignCallItem,
    prev: CallRecord | undefined,
    { placedThrough, campaignName, now }: PolledCalls,
  ): { rec: CallRecord; change?: Omit<ChangedCall, 'rec'> } | undefined {
    const unplaced = (c: CallRecord) => c.placingAt !== undefined && c.placingAt > placedThrough;
    const ih = hashText(JSON.stringify(item));
    // The same item as last time renders the same message: skip rendering (most listed calls, most cycles).
    const fp = prev && prev.ih === ih ? prev.fp : this.d.fingerprint(campaignId, item, campaignName);
    const finalStatus = isFinalStatus(item.status);
    const finalAt = prev?.finalAt ?? (finalStatus ? now : undefined);
    const policyPending = item.policy_evaluation?.completed === false;
    const final = finalStatus && (!policyPending || now - (finalAt ?? now) > this.d.tuning.settleMs);
    if (prev && prev.fp === fp && prev.final === final && !unplaced(prev)) {
      return prev.ih !== ih ? { rec: { ...prev, ih } } : undefined;
    }
    const rec: CallRecord = {
      campaignId,
      callId: item.id,
      createdAt: item.created_at,
      status: item.status,
      fp,
      ih,
      final,
      firstSeenAt: prev?.firstSeenAt ?? now,
      snapshot: item,
    };
    if (item.thread_id) rec.threadId = item.thread_id;
    if (finalAt !== undefined) rec.finalAt = finalAt;
    if (item.ended_at) rec.endedAt = item.ended_at;
    // Final now in the state it was already shown in (a policy evaluation settled): its open message is released.
    const statusChanged = prev?.status !== item.status || prev.fp !== fp || prev.final !== final || unplaced(prev);
    // Its messages are placed below, and this poll's cursor says so after: a death in between must not leave it
    // "seen" without them.
    if (statusChanged) rec.placingAt = now;
    else if (prev?.placingAt !== undefined) rec.placingAt = prev.placingAt;
    return { rec, change: { isNew: !prev, statusChanged } };
  }

  /**
   * Places the messages of the calls whose state changed, in each channel watching them: an update of the post it
   * has, or a new post where the channel shows the call; resolves once all of it is stored. Returns how many posts are
   * new.
   */
  private async placeCalls(subs: Subscription[], changed: ChangedCall[], now: number): Promise<number> {
    const writes: Promise<void>[] = [];
    let newCalls = 0;
    for (const { rec, statusChanged } of changed) {
      if (!statusChanged) continue;
      // Its conversation is read first in this cycle's conversation reads (a final transcript, new turns).
      if (rec.threadId) this.lastRead.set(rec.threadId, 0);
      for (const sub of subs) {
        if (sub.kind === 'whatsapp') continue;
        const post = await this.d.state.post(sub.channelId, rec.callId);
        if (post) {
          if (post.conv) writes.push(this.d.delivery.ledger.touched(post, now));
          writes.push(this.d.delivery.callChanged(post, rec));
        } else if (this.eligible(sub, rec.snapshot!)) {
          const why = await this.whyShown(sub, rec);
          if (!why) continue;
          newCalls++;
          writes.push(this.place(sub, rec, why, now));
        }
      }
    }
    // Everything above is stored before the cursor moves past it.
    await Promise.all(writes);
    return newCalls;
  }

  /** Moves the campaign's cursor past this poll: its placements are done, and it has listed up to `newest`. */
  private async advanceCursor(campaignId: number, newest: string | undefined, now: number): Promise<void> {
    const cursor: CampaignCursor = {
      ...((await this.d.state.cursor(campaignId)) ?? { campaignId, failures: 0 }),
      lastPolledAt: new Date(now).toISOString(),
    };
    if (newest) cursor.newestCreatedAt = newest;
    delete cursor.lastError;
    await this.d.state.putCursor(cursor);
  }

  /** A call's record in a channel about to show it for the first time. */
  private newPost(sub: Subscription, rec: CallRecord, now: number): PostRecord {
    const fresh: PostRecord = {
      channelId: sub.channelId,
      campaignId: rec.campaignId,
      callId: rec.callId,
      createdAt: rec.createdAt,
      conv: newCursor(now),
    };
    if (rec.threadId) fresh.threadId = rec.threadId;
    const name = rec.snapshot?.contact?.name?.trim();
    if (name) fresh.endUserName = name;
    return fresh;
  }

  /**
   * Why a channel shows a call in its current state: its watch's filter passes it (filter.ts: `match`), or its end
   * user waits for a person's reply (waiting.ts: `waiting`, a filter never hides that); undefined: it does not.
   * `messages`: its conversation as just read (else the last read, if any).
   */
  private async whyShown(
    sub: Subscription,
    rec: CallRecord,
    messages?: readonly Message[],
  ): Promise<'match' | 'waiting' | undefined> {
    const filter = readFilter(sub.filter);
    if (!filter || !rec.snapshot) return 'match';
    const conversation = messages ?? (rec.threadId ? this.d.delivery.conversations.get(rec.threadId) : undefined);
    if (matches(filter, rec.snapshot, conversationFacts(conversation))) return 'match';
    return conversation && (await this.customerWaits(rec, conversation)) ? 'waiting' : undefined;
  }

  /** Whether the call's end user, in `conversation` as read, waits for a person's reply (waiting.ts). */
  private async customerWaits(rec: CallRecord, conversation: readonly Message[]): Promise<boolean> {
    if (!rec.threadId || !isFinalStatus(rec.status)) return false;
    const ended = Date.parse(rec.snapshot?.ended_at ?? rec.endedAt ?? '');
    const fromSlack = new Set<string>();
    for (const p of await this.d.state.postsOfServiceThread(rec.threadId)) {
      for (const k of repliesFromSlack(p.conv)) fromSlack.add(k);
    }
    return endUserWaiting([...conversation], {
      endedAt: Number.isNaN(ended) ? (rec.finalAt ?? rec.firstSeenAt) : ended,
      fromSlack,
    });
  }

  /**
   * Calls a channel lists only as a digest line whose end user now waits for a person: each gets its own message
   * too (delivery.ts `ownMessageFromDigest`), since a line has no thread to show the conversation in or reply from.
   */
  private async promoteWaiting(listed: readonly PostRecord[], messages: readonly Message[]): Promise<void> {
    for (const p of listed) {
      const rec = await this.d.state.call(p.campaignId, p.callId);
      if (rec && (await this.customerWaits(rec, messages))) await this.d.delivery.ownMessageFromDigest(p);
    }
  }

  /** Places a call newly shown in a channel: a waiting customer always as its own message (delivery.ts). */
  private place(sub: Subscription, rec: CallRecord, why: 'match' | 'waiting', now: number): Promise<void> {
    const post = this.newPost(sub, rec, now);
    return why === 'waiting' ? this.d.delivery.placeOwnMessage(post) : this.d.delivery.placeNewCall(post, rec);
  }

  /**
   * A conversation was read of a call some channel's filter had left out: the channels that show it now (the end
   * user wrote, or waits for a person) get it.
   */
  private async placeLate(rec: CallRecord, subs: Subscription[], messages: readonly Message[]): Promise<void> {
    const now = this.now();
    for (const sub of subs) {
      if (sub.kind === 'whatsapp' || sub.suspended || !rec.snapshot) continue;
      if (await this.d.state.post(sub.channelId, rec.callId)) continue;
      if (!this.eligible(sub, rec.snapshot)) continue;
      const why = await this.whyShown(sub, rec, messages);
      if (why) await this.place(sub, rec, why, now);
    }
  }

  /** Calls created after the watch started (a minute of clock difference allowed), or still running. */
  private eligible(sub: Subscription, call: Pick<CampaignCallItem, 'created_at' | 'status'>): boolean {
    if (!isFinalStatus(call.status)) return true;
    return Date.parse(call.created_at) >= Date.parse(sub.startFrom) - 60_000;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Conversations

  /** Reads the conversations due this cycle, at most `budget` of them, in `readOrder`. */
  private async pollConversations(subscriptions: Subscription[], budget: number, report: CycleReport): Promise<void> {
    const now = this.now();
    const { due, live, leftOut, listed, activeSubs } = await this.dueConversations(subscriptions, now);
    const order = this.readOrder(due, live);
    report.conversationsLeft = Math.max(0, order.length - budget);
    await mapLimit(order.slice(0, budget), this.d.tuning.concurrency, async (threadId) => {
      if (this.breaker.open) return;
      try {
        const messages = await this.d.outreach.getMessages(threadId, this.poll);
        this.lastRead.set(threadId, now);
        report.conversationsRead++;
        if (this.breaker.answered()) this.backoff.clear();
        await this.d.delivery.conversationFetched(threadId, messages);
        const inDigest = listed.get(threadId);
        if (inDigest) await this.promoteWaiting(inDigest, messages);
        const call = leftOut.get(threadId);
        if (call) {
          await this.placeLate(
            call,
            activeSubs.filter((s) => s.campaignId === call.campaignId),
            messages,
          );
        }
      } catch (err) {
        // Read again next cycle (its last read did not move); an unavailable service is the breaker's to report.
        if (failureKind(err) === 'unavailable') this.breaker.unavailable(err);
        else this.d.logger.warn({ threadId, err: errorText(err) }, 'reading a conversation failed; will retry');
      }
    });
  }

  /**
   * The service threads due for a read, with when (`noteDue`): those of the watched channels' posts, of calls a
   * filter left out, and of try DMs; `live`: those of running calls; `leftOut`: the call a filter left out, by thread.
   */
  private async dueConversations(subscriptions: Subscription[], now: number) {
    const { state, tuning } = this.d;
    const activeSubs = subscriptions.filter((s) => !s.suspended);
    const active = new Set(activeSubs.map((s) => subKey(s.campaignId, s.channelId)));
    // The conversations of the watched channels' posts (a channel's posts are let go once settled and idle).
    const mirrors = new Map<string, PostRecord[]>();
    /** Calls shown only as a line of a digest, by thread: read to see whether their end user writes afterwards. */
    const listed = new Map<string, PostRecord[]>();
    /** Every call a channel shows (a message or a digest line), as post keys. */
    const shown = new Set<string>();
    for (const channelId of new Set(activeSubs.map((s) => s.channelId))) {
      for (const p of await state.postsIn(channelId)) {
        shown.add(postKey(p.channelId, p.callId));
        if (!p.threadId || !active.has(subKey(p.campaignId, p.channelId))) continue;
        if (p.ts) mirrors.set(p.threadId, [...(mirrors.get(p.threadId) ?? []), p]);
        else if (p.digestId) listed.set(p.threadId, [...(listed.get(p.threadId) ?? []), p]);
      }
    }
    const open = new Set<string>();
    for (const campaignId of new Set(activeSubs.map((s) => s.campaignId))) {
      for (const c of await state.openCallsOf(campaignId)) open.add(callKey(c.campaignId, c.callId));
    }
    const due = new Map<string, number>();
    const live = new Set<string>();
    for (const [threadId, posts] of mirrors) {
      const lastActivity = Math.max(...posts.map((m) => m.conv?.lastActivityAt ?? 0));
      const running = posts.some((m) => open.has(callKey(m.campaignId, m.callId)));
      if (running) live.add(threadId);
      this.noteDue(due, threadId, running, lastActivity, now);
    }
    // A digest line is written once its call ended; its conversation is read as an ended call's is (from when the
    // call was listed), so an end user writing afterwards is seen (`promoteWaiting`).
    for (const [threadId, posts] of listed) {
      if (mirrors.has(threadId)) continue;
      const listedAt = Math.max(...posts.map((p) => p.conv?.lastActivityAt ?? (Date.parse(p.createdAt) || 0)));
      this.noteDue(due, threadId, false, listedAt, now);
    }
    // Campaigns a channel watches with a filter: the conversations of calls some channel left out are read too (as
    // they would be without the filter), to see whether the end user wrote or waits for a person (`placeLate`).
    const leftOut = new Map<string, CallRecord>();
    const filtered = groupByCampaign(activeSubs.filter((s) => s.kind !== 'whatsapp' && readFilter(s.filter)));
    for (const [campaignId, subs] of filtered) {
      for (const c of await state.callsOf(campaignId)) {
        if (!c.threadId || !c.snapshot || (c.final && now - (c.finalAt ?? now) > tuning.threadIdleMs)) continue;
        if (subs.every((s) => shown.has(postKey(s.channelId, c.callId)))) continue;
        leftOut.set(c.threadId, c);
        if (mirrors.has(c.threadId)) continue;
        if (!c.final) live.add(c.threadId);
        this.noteDue(due, c.threadId, !c.final, c.finalAt ?? c.firstSeenAt, now);
      }
    }
    // People trying agents in their DMs: one record per person (a small collection).
    for (const [, t] of await state.tries.list()) {
      if (!t.threadId || !t.dmChannelId || !t.conv) continue;
      this.noteDue(due, t.threadId, false, t.conv.lastActivityAt, now);
    }
    return { due, live, leftOut, listed, activeSubs };
  }

  /**
   * Whom the cycle's reads serve first: conversations never read (a new or changed call: its final transcript), then
   * those of ended calls and try DMs, where someone may wait for an answer (an end user for a person, in a channel
   * or in a call a filter left out), then the live transcripts of running calls; each the one due longest first
   * (not the one read longest ago: a quiet thread read every five minutes would go before one due every ten
   * seconds). When the reads do not cover every due conversation, a customer who may be waiting is read on time and
   * a live transcript catches up later.
   */
  private readOrder(due: ReadonlyMap<string, number>, live: ReadonlySet<string>): string[] {
    const rank = (t: string, at: number) => (at === 0 ? 0 : live.has(t) ? 2 : 1);
    return [...due].sort(([a, atA], [b, atB]) => rank(a, atA) - rank(b, atB) || atA - atB).map(([t]) => t);
  }

  /**
   * Notes in `due` when a thread's next read is due, if it is due now: every cycle while its call runs, then a gap
   * of a quarter of the time since its last activity (one interval to `threadMaxGapMs`); never read: at once (0).
   */
  private noteDue(
    due: Map<string, number>,
    threadId: string,
    running: boolean,
    lastActivity: number,
    now: number,
  ): void {
    const { tuning } = this.d;
    const idleFor = now - lastActivity;
    if (!running && idleFor > tuning.threadIdleMs) return;
    const gap = running ? 0 : Math.min(tuning.threadMaxGapMs, Math.max(tuning.pollIntervalMs, Math.floor(idleFor / 4)));
    const last = this.lastRead.get(threadId);
    const at = last === undefined || last === 0 ? 0 : last + gap;
    // A tenth of the interval of slack, so a thread due "now" is not pushed to the next cycle by timer jitter.
    if (at > now + tuning.pollIntervalMs / 10) return;
    due.set(threadId, Math.min(at, due.get(threadId) ?? Infinity));
  }

  // ---------------------------------------------------------------------------------------------------------------
  // WhatsApp

  private async countAndCollect(
    campaignId: number,
    status: string,
    collect: boolean,
    known: Set<number>,
  ): Promise<{ count: number; fresh: CampaignContact[] }> {
    const fresh: CampaignContact[] = [];
    const first = await this.d.outreach.listContacts(
      campaignId,
      { status: status as never, page: 0, pageSize: collect ? MAX_PAGE_SIZE : 1 },
      this.poll,
    );
    let count = first.total_count ?? undefined;
    const take = (cs: CampaignContact[]) => {
      for (const c of cs) if (c.status === status && !known.has(c.id)) fresh.push(c);
    };
    if (collect) take(first.contacts);
    const needAll = count === undefined || (collect && (count > known.size + fresh.length || fresh.length > 0));
    if (needAll && first.pagination.has_next) {
      let seen = first.contacts.length;
      for (let page = 1; page < this.d.tuning.maxPages * 10; page++) {
        const next = await this.d.outreach.listContacts(
          campaignId,
          { status: status as never, page, pageSize: MAX_PAGE_SIZE },
          this.poll,
        );
        seen += next.contacts.length;
        if (collect) take(next.contacts);
        if (!next.pagination.has_next || next.contacts.length === 0) break;
      }
      count ??= seen;
    }
    return { count: count ?? first.contacts.length, fresh };
  }

  private async pollWhatsApp(campaignId: number, subs: Subscription[]): Promise<void> {
    const { state } = this.d;
    const prev = await state.whatsapp.get(String(campaignId));
    const counts: Record<string, number> = {};
    const announced: Record<string, number[]> = { ...(prev?.announced ?? {}) };
    const fresh: CampaignContact[] = [];
    for (const status of WHATSAPP_CONTACT_STATUSES) {
      const notable = (WHATSAPP_NOTABLE_STATUSES as readonly string[]).includes(status);
      const known = new Set(announced[status] ?? []);
      const r = await this.countAndCollect(campaignId, status, notable, known);
      counts[status] = r.count;
      if (notable) {
        // The first look only learns who is already there: status changes are announced from then on.
        if (prev) fresh.push(...r.fresh);
        announced[status] = [...known, ...r.fresh.map((c) => c.id)];
      }
    }
    const writes: Promise<void>[] = [];
    const queue: Array<[string, string]> = [];
    const at = new Date(this.now()).toISOString();
    const fp = hashText(JSON.stringify(counts));
    for (const sub of subs) {
      const digestKey = `${sub.channelId}/wa/${campaignId}`;
      const payload = { kind: 'digest', counts, at } as const;
      const updated = await state.updateWaPost(digestKey, (old) =>
        old.fp === fp ? undefined : { ...old, fp, payload },
      );
      if (!updated) writes.push(state.putWaPost(digestKey, { channelId: sub.channelId, campaignId, fp, payload }));
      if (updated?.deliveredFp !== fp) queue.push([sub.channelId, `wa:${digestKey}`]);
      for (const c of fresh) {
        const key = `${sub.channelId}/wa/${campaignId}/${c.id}/${c.status}`;
        if (await state.waPosts.get(key)) continue;
        writes.push(
          state.putWaPost(key, {
            channelId: sub.channelId,
            campaignId,
            fp: 'contact',
            payload: { kind: 'contact', contact: c },
          }),
        );
        queue.push([sub.channelId, `wa:${key}`]);
      }
    }
    // Stored before queued: the worker reads what it is to post.
    await Promise.all(writes);
    for (const [channelId, item] of queue) this.d.delivery.enqueue(channelId, item);
    await state.putWhatsApp({ campaignId, counts, announced });
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Housekeeping

  /**
   * Drops what can no longer change Slack: snapshots already shown everywhere, calls out of the listing window,
   * settled mappings, old digests; looks through a few campaigns and channels for records without expiry; sweeps.
   * Reads per watched campaign and channel only.
   */
  private async maintain(subscriptions: Subscription[]): Promise<void> {
    const { state, tuning } = this.d;
    const now = this.now();
    const writes: Promise<void>[] = [];
    const subsByCampaign = groupByCampaign(subscriptions);
    const postsByChannel = new Map<string, Map<string, PostRecord>>();
    for (const channelId of new Set(subscriptions.map((s) => s.channelId))) {
      postsByChannel.set(channelId, new Map((await state.postsIn(channelId)).map((p) => [p.callId, p])));
    }
    const calls = new Map<string, CallRecord>();
    /** Threads that lost a post, a call or a snapshot here, and threads still followed (see `letThreadsGo`). */
    const letGo = new Set<string>();
    const followed = new Set<string>();
    for (const [campaignId, subs] of subsByCampaign) {
      const list = await state.callsOf(campaignId);
      const base = this.windowBase(await state.cursor(campaignId), subs, list);
      for (const c of list) {
        calls.set(callKey(c.campaignId, c.callId), c);
        if (c.final && c.snapshot) {
          // While its conversation is followed, a channel whose filter left the call out may still get it, and one
          // that lists it in a digest may still give it its own message (its end user writing: promoteWaiting).
          const stillRead = now - (c.finalAt ?? now) <= tuning.threadIdleMs;
          const mayCome = (s: Subscription) => readFilter(s.filter) !== undefined && stillRead;
          // A compact line keeps the call's data while it is kept: its Details opens the card without the service.
          const compact = (s: Subscription) =>
            shownFormat({ format: s.format, filter: readFilter(s.filter) }) === 'compact';
          const shown = subs.every((s) => {
            const p = postsByChannel.get(s.channelId)?.get(c.callId);
            if (s.suspended !== undefined) return true;
            if (!p) return !mayCome(s);
            if (p.digestId !== undefined) return !stillRead;
            return p.deliveredFp === c.fp && !(p.ts && compact(s));
          });
          if (shown) {
            const { snapshot: _dropped, ...rest } = c;
            writes.push(state.putCall(rest));
            if (c.threadId) letGo.add(c.threadId);
          }
        }
        // A call with its snapshot may still be placed late: its conversation is read (pollConversations).
        if (c.snapshot && c.threadId && !letGo.has(c.threadId)) followed.add(c.threadId);
        // Final calls older than the listing window are never listed again.
        if (c.final && !c.snapshot && Date.parse(c.createdAt) < base - tuning.overlapMs - 60_000) {
          writes.push(state.deleteCall(c));
          if (c.threadId) letGo.add(c.threadId);
        }
      }
    }
    // A call's mapping is let go once it is final, shown, and its conversation has been idle for the idle time; a
    // later reply in its Slack thread rebuilds it from the message's metadata (relay.ts). One of a campaign the
    // channel no longer watches changes nothing there any more: it only waits for the idle time (until then a reply
    // in its thread is told the campaign is not watched here). Never while a reply from Slack is on its way.
    const watched = new Set(subscriptions.map((s) => subKey(s.campaignId, s.channelId)));
    for (const posts of postsByChannel.values()) {
      for (const p of posts.values()) {
        if (p.sending) continue;
        const unwatched = !watched.has(subKey(p.campaignId, p.channelId));
        const call = unwatched
          ? undefined
          : subsByCampaign.has(p.campaignId)
            ? calls.get(callKey(p.campaignId, p.callId))
            : await state.call(p.campaignId, p.callId);
        const settled = !call || (call.final && (p.digestId !== undefined || p.deliveredFp === call.fp));
        const idleSince = Math.max(p.conv?.lastActivityAt ?? 0, Date.parse(p.createdAt) || 0);
        if (settled && now - idleSince > tuning.threadIdleMs) writes.push(this.letGo(p, letGo));
        else if (p.threadId) followed.add(p.threadId);
      }
    }
    // A campaign no longer watched keeps no backoff.
    this.backoff.keepOnly(new Set(subsByCampaign.keys()));
    for (const [channelId, posts] of postsByChannel) {
      for (const [id, d] of await state.digests.list({ prefix: `${channelId}/` })) {
        if (d.deliveredFp === d.fp && now - digestTime(d, posts) > tuning.retentionMs) {
          writes.push(state.digests.delete(id));
        }
      }
    }
    await Promise.all(writes);
    await this.releaseUnwatched(now, letGo);
    await this.letThreadsGo(letGo, followed, now);
    await this.olderRecords(subscriptions, now);
    if (now - this.lastSweep >= SWEEP_EVERY_MS) {
      this.lastSweep = now;
      await state.store.sweep();
    }
  }

  /** A post is let go: its record and what delivery remembers of it; its thread is let go after (`letThreadsGo`). */
  private async letGo(p: PostRecord, threads: Set<string>): Promise<void> {
    await this.d.state.deletePost(p);
    this.d.delivery.forgetPost(p.channelId, p.callId);
    if (p.threadId) threads.add(p.threadId);
  }

  /**
   * Channels whose last watch was removed: once the idle time has passed since (until then a reply in a call's
   * thread there is told the campaign is no longer watched), their posts are let go, RELEASE_PER_CYCLE a cycle (a
   * post with a reply from Slack on its way waits), then their digests, WhatsApp messages, waiting customers and
   * burst mode. A channel watched again meanwhile keeps everything.
   */
  private async releaseUnwatched(now: number, threads: Set<string>): Promise<void> {
    const { state, tuning } = this.d;
    for (const [channelId, u] of await state.unwatchedChannels.list()) {
      if ((await state.subscriptionsIn(channelId)).length > 0) {
        await state.unwatchedChannels.delete(channelId);
        continue;
      }
      if (now - u.at <= tuning.threadIdleMs) continue;
      const posts = await state.posts.list({ prefix: `${channelId}/`, limit: RELEASE_PER_CYCLE });
      const going = posts.map(([, p]) => p).filter((p) => !p.sending);
      await Promise.all(going.map((p) => this.letGo(p, threads)));
      if (posts.length === RELEASE_PER_CYCLE) return;
      if (going.length < posts.length) continue;
      const prefix = `${channelId}/`;
      await Promise.all([
        state.digests.deletePrefix(prefix),
        state.waPosts.deletePrefix(prefix),
        state.waiting.deletePrefix(prefix),
        state.channels.delete(channelId),
      ]);
      await state.unwatchedChannels.delete(channelId);
      return;
    }
  }

  /**
   * What is remembered of a conversation (its last read here, its messages in delivery) goes once nothing follows
   * it: the thread lost its last post, call or snapshot this cycle (`letGo`) and no other post, call or try
   * conversation still reads it (`followed`). A try conversation is let go after `threadIdleMs` without activity,
   * when the poller stops reading it; the person's next message reads it again (relay.ts).
   */
  private async letThreadsGo(letGo: Set<string>, followed: Set<string>, now: number): Promise<void> {
    for (const [, t] of await this.d.state.tries.list()) {
      if (!t.threadId) continue;
      if (t.conv && now - t.conv.lastActivityAt <= this.d.tuning.threadIdleMs) followed.add(t.threadId);
      else letGo.add(t.threadId);
    }
    for (const threadId of letGo) {
      if (followed.has(threadId)) continue;
      this.lastRead.delete(threadId);
      this.d.delivery.forgetThread(threadId);
    }
  }

  /** Campaigns and channels whose records are still to be looked through for ones without expiry. */
  private legacy: { campaigns: string[]; channels: string[] } | undefined;

  /**
   * Records of an older state (converted from the old state file) carry no expiry. Once per process, every campaign
   * with a cursor or WhatsApp counts and every channel with a watch or a digest mode is looked through, a few per
   * cycle, and what ended more than the retention ago deleted. Records written since expire by themselves.
   */
  private async olderRecords(subscriptions: Subscription[], now: number): Promise<void> {
    const { state, tuning } = this.d;
    const keep = tuning.retentionMs;
    if (!this.legacy) {
      const campaigns = new Set([
        ...(await state.cursors.list()).map(([k]) => k),
        ...(await state.whatsapp.list()).map(([k]) => k),
      ]);
      const channels = new Set([
        ...subscriptions.map((s) => s.channelId),
        ...(await state.channels.list()).map(([k]) => k),
      ]);
      this.legacy = { campaigns: [...campaigns], channels: [...channels] };
      // Handled event ids of an older state (newer ones expire after an hour: few either way).
      for (const [id, at] of await state.events.list()) if (now - at > HOUR_MS) await state.events.delete(id);
    }
    const watched = new Set(subscriptions.map((s) => String(s.campaignId)));
    for (const id of this.legacy.campaigns.splice(0, LEGACY_PER_CYCLE)) {
      const campaignId = Number(id);
      for (const c of await state.callsOf(campaignId)) {
        const old = c.final
          ? now - (c.finalAt ?? c.firstSeenAt) > keep
          : now - c.firstSeenAt > keep + tuning.openGiveUpMs;
        if (old) await state.deleteCall(c);
      }
      if (watched.has(id)) continue;
      const cursor = await state.cursor(campaignId);
      const polledAt = cursor?.lastPolledAt ? Date.parse(cursor.lastPolledAt) : 0;
      if (now - polledAt > keep) {
        await state.whatsapp.delete(id);
        await state.cursors.delete(id);
      }
    }
    for (const channelId of this.legacy.channels.splice(0, LEGACY_PER_CYCLE)) {
      const posts = new Map((await state.postsIn(channelId)).map((p) => [p.callId, p]));
      for (const p of posts.values()) {
        const idleSince = Math.max(p.conv?.lastActivityAt ?? 0, Date.parse(p.createdAt) || 0);
        if (now - idleSince > keep) await state.deletePost(p);
      }
      for (const [id, d] of await state.digests.list({ prefix: `${channelId}/` })) {
        if (d.deliveredFp === d.fp && now - digestTime(d, posts) > keep) await state.digests.delete(id);
      }
      for (const [key, w] of await state.waPosts.list({ prefix: `${channelId}/` })) {
        // A contact's message is announced once (the campaign's announced ids remember it): delivered, it can go.
        const at = w.at ?? (w.payload.kind === 'digest' ? Date.parse(w.payload.at) || 0 : 0);
        if (w.deliveredFp === w.fp && now - at > keep) await state.waPosts.delete(key);
      }
    }
  }
}

/** When a digest last changed: its own time, or (older states) the newest of its calls' posts still known. */
function digestTime(d: DigestRecord, posts: Map<string, PostRecord>): number {
  if (d.updatedAt !== undefined) return d.updatedAt;
  return Math.max(...d.lines.map((l) => Date.parse(posts.get(l.callId)?.createdAt ?? '') || 0), 0);
}
