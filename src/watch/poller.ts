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
 * go after `threadIdleMs` without a new message or reply.
 *
 * WhatsApp campaigns (no calls): contact counts by status, and contacts newly converted, rejected or failed.
 *
 * Failures (outage.ts): the service unavailable opens a circuit breaker (one warning; one campaign polled per cycle
 * as a probe until the service answers; one warning when it does), one campaign failing on its own backs off
 * exponentially, and a campaign the service no longer has (404, confirmed by GET /campaigns/{id}) has its watches
 * suspended (`campaignGone`). Poll requests are not retried by the client: the next cycle is the retry.
 */
import type { Logger } from '../log.js';
import type { OutreachApi } from '../outreach/api.js';
import type { CampaignCallItem, CampaignContact } from '../outreach/schemas.js';
import { WHATSAPP_CONTACT_STATUSES } from '../outreach/schemas.js';
import { MAX_PAGE_SIZE } from '../outreach/unspecified.js';
import type { Delivery } from './delivery.js';
import { hashText, newCursor } from './conversation.js';
import { CampaignBackoff, errorText, failureKind, OutageBreaker } from './outage.js';
import {
  callKey,
  postKey,
  subKey,
  type CallRecord,
  type CampaignCursor,
  type PostRecord,
  type Subscription,
  type WatchState,
  type WhatsAppPost,
} from './state.js';
import { FINAL_CALL_STATUSES, WHATSAPP_NOTABLE_STATUSES } from '../outreach/rules.js';

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
  /** Digest records and unwatched campaigns' call records are kept this long. */
  retentionMs: number;
  /** Campaigns (and conversations) read at once; the shared limiter paces the requests anyway. */
  concurrency: number;
  /** Most pages of calls read per campaign per cycle. */
  maxPages: number;
  /**
   * Service requests per second the poller may plan for (the shared limit is 12/s, people's commands first). Each
   * cycle reads conversations within what is left of `pollIntervalMs` after the listings, longest-unread first.
   */
  requestsPerSecond: number;
  /** Consecutive failures saying the service is unavailable after which only one campaign is polled per cycle. */
  breakerThreshold: number;
  /** Longest wait of a campaign that keeps failing on its own (its waits double from one poll interval). */
  backoffMaxMs: number;
}

export interface CycleReport {
  campaigns: number;
  failedCampaigns: number[];
  /** Campaigns not polled this cycle: backing off, or the service down (only a probe is sent). */
  skippedCampaigns: number;
  newCalls: number;
  changedCalls: number;
  conversationsRead: number;
  durationMs: number;
  cpuMs: number;
}

export interface PollerDeps {
  state: WatchState;
  outreach: OutreachApi;
  delivery: Delivery;
  logger: Logger;
  tuning: PollerTuning;
  /** Fingerprint of a call's rendered message. */
  fingerprint(campaignId: number, call: CampaignCallItem): string;
  /** Resolves a campaign's channel type (phone_call / whatsapp) when a subscription does not know it. */
  resolveKind(sub: Subscription): Promise<Subscription>;
  /** The service no longer has this campaign (confirmed): its watches are suspended and their owners told. */
  campaignGone(campaignId: number): Promise<void>;
  /** True while nothing can reach Slack (the token refused): cycles are skipped, cursors stay where they are. */
  paused?: () => boolean;
  now?: () => number;
  /** Told when a cycle ends (metrics): its report, or that it broke off. */
  onCycle?: (report: CycleReport) => void;
  onCycleFailed?: (err: unknown) => void;
}

/** Poll requests: behind people's commands, and not retried by the client (the next cycle is the retry). */
const POLL = { priority: 'poller', maxRetries: 0 } as const;

const isFinalStatus = (s: string) => FINAL_CALL_STATUSES.includes(s);

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

export class Poller {
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<CycleReport> | undefined;
  private stopped = true;
  /** service thread id -> our clock (ms) of its last read. */
  private readonly lastRead = new Map<string, number>();
  readonly reports: CycleReport[] = [];
  readonly breaker: OutageBreaker;
  private readonly backoff: CampaignBackoff;
  /** Whose turn it is to be the probe while the service is down. */
  private probeTurn = 0;
  /** Cycles run (the backoff's clock). */
  private cycles = 0;

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

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.runCycle()
        .catch((err: unknown) => this.d.logger.error({ err: String(err) }, 'poll cycle failed'))
        .finally(() => this.schedule(this.d.tuning.pollIntervalMs));
    }, ms);
    this.timer.unref?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.current?.catch(() => undefined);
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
      newCalls: 0,
      changedCalls: 0,
      conversationsRead: 0,
      durationMs: 0,
      cpuMs: 0,
    };
    if (this.d.paused?.()) return this.finish(report, started, cpu0);
    this.cycles++;
    const all = [...groupByCampaign(this.d.state.activeSubscriptions())];
    report.campaigns = all.length;
    let requests = 0;
    const pollOne = async ([campaignId, subs]: [number, Subscription[]]) => {
      const r = await this.pollCampaign(campaignId, subs, report);
      requests += r;
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
    await mapLimit(rest, this.d.tuning.concurrency, async (entry) => {
      // The breaker opened during this cycle: the others wait for the probe of the next one.
      if (this.breaker.open) report.skippedCampaigns++;
      else await pollOne(entry);
    });
    if (!this.breaker.open) {
      // What the interval leaves for conversations, keeping a fifth of the rate for people's commands.
      const budget =
        Math.floor((this.d.tuning.pollIntervalMs / 1000) * this.d.tuning.requestsPerSecond * 0.8) - requests;
      report.conversationsRead = await this.pollConversations(Math.max(this.d.tuning.concurrency * 2, budget));
    }
    await this.maintain();
    return this.finish(report, started, cpu0);
  }

  private finish(report: CycleReport, started: number, cpu0: NodeJS.CpuUsage): CycleReport {
    const cpu = process.cpuUsage(cpu0);
    report.durationMs = this.now() - started;
    report.cpuMs = (cpu.user + cpu.system) / 1000;
    this.reports.push(report);
    if (this.reports.length > 100) this.reports.shift();
    return report;
  }

  /** Polls one campaign; a failure is sorted out here (outage, backoff, gone). Returns the listing requests made. */
  private async pollCampaign(campaignId: number, subs: Subscription[], report: CycleReport): Promise<number> {
    try {
      let requests = 0;
      const resolved = await Promise.all(subs.map((s) => (s.kind === 'unknown' ? this.d.resolveKind(s) : s)));
      if (resolved.some((s) => s.kind === 'whatsapp')) await this.pollWhatsApp(campaignId, resolved);
      else {
        const r = await this.pollCalls(campaignId, resolved);
        requests = r.requests;
        report.newCalls += r.newCalls;
        report.changedCalls += r.changed;
      }
      if (this.breaker.answered()) this.backoff.clear();
      this.backoff.succeeded(campaignId);
      const cur = this.d.state.cursors.get(String(campaignId));
      if (cur && cur.failures > 0) await this.d.state.cursors.set(String(campaignId), { ...cur, failures: 0 });
      return requests;
    } catch (err) {
      report.failedCampaigns.push(campaignId);
      await this.failed(campaignId, err);
      return 1;
    }
  }

  private async failed(campaignId: number, err: unknown): Promise<void> {
    let kind = failureKind(err);
    if (kind === 'not_found') {
      // A 404 from a listing is believed only when the campaign itself is not found either.
      try {
        await this.d.outreach.getCampaign(campaignId, POLL);
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
    const cur = this.d.state.cursors.get(String(campaignId)) ?? { campaignId, failures: 0 };
    const message = errorText(err);
    this.d.logger.warn({ campaignId, failures, err: message }, 'polling a campaign failed; backing off');
    await this.d.state.cursors
      .set(String(campaignId), { ...cur, failures: cur.failures + 1, lastError: message })
      .catch(() => undefined);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Calls

  /** The earliest `created_at` the next listing must reach (before the overlap). */
  windowBase(campaignId: number, subs: Subscription[]): number {
    const cursor = this.d.state.cursors.get(String(campaignId));
    let base = cursor?.newestCreatedAt
      ? Date.parse(cursor.newestCreatedAt)
      : Math.min(...subs.map((s) => Date.parse(s.startFrom)));
    for (const c of this.d.state.openCallsOf(campaignId)) base = Math.min(base, Date.parse(c.createdAt));
    return base;
  }

  private async pollCalls(
    campaignId: number,
    subs: Subscription[],
  ): Promise<{ newCalls: number; changed: number; requests: number }> {
    const { tuning } = this.d;
    const now = this.now();
    const windowStart = this.windowBase(campaignId, subs) - tuning.overlapMs;
    const listed = new Map<string, CampaignCallItem>();
    let requests = 0;
    for (let page = 0; page < tuning.maxPages; page++) {
      requests++;
      const list = await this.d.outreach.listCampaignCalls(
        campaignId,
        { createdAfter: new Date(windowStart), page, pageSize: MAX_PAGE_SIZE },
        POLL,
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

    const writes: Promise<void>[] = [];
    const changed: Array<{ rec: CallRecord; isNew: boolean; statusChanged: boolean }> = [];
    let newest = this.d.state.cursors.get(String(campaignId))?.newestCreatedAt;
    for (const item of listed.values()) {
      if (!newest || Date.parse(item.created_at) > Date.parse(newest)) newest = item.created_at;
      const prev = this.d.state.calls.get(callKey(campaignId, item.id));
      // A call is shown where the watch started before it, or while it is still running.
      if (!prev && !subs.some((s) => this.eligible(s, item))) continue;
      const ih = hashText(JSON.stringify(item));
      // The same item as last time renders the same message: skip rendering (most listed calls, most cycles).
      const fp = prev && prev.ih === ih ? prev.fp : this.d.fingerprint(campaignId, item);
      const finalStatus = isFinalStatus(item.status);
      const finalAt = prev?.finalAt ?? (finalStatus ? now : undefined);
      const policyPending = item.policy_evaluation?.completed === false;
      const final = finalStatus && (!policyPending || now - (finalAt ?? now) > tuning.settleMs);
      if (prev && prev.fp === fp && prev.final === final) {
        if (prev.ih !== ih) writes.push(this.d.state.putCall({ ...prev, ih }));
        continue;
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
      changed.push({ rec, isNew: !prev, statusChanged: prev?.status !== item.status || prev.fp !== fp });
      writes.push(this.d.state.putCall(rec));
    }
    // Calls that stay open without appearing any more (statuses the list does not show) are let go in the end.
    for (const c of this.d.state.openCallsOf(campaignId)) {
      if (!listed.has(c.callId) && now - c.firstSeenAt > tuning.openGiveUpMs) {
        writes.push(this.d.state.putCall({ ...c, final: true }));
      }
    }

    let newCalls = 0;
    for (const { rec, statusChanged } of changed) {
      if (!statusChanged) continue;
      // Its conversation is read first in this cycle's conversation reads (a final transcript, new turns).
      if (rec.threadId) this.lastRead.set(rec.threadId, 0);
      for (const sub of subs) {
        if (sub.kind === 'whatsapp') continue;
        const key = postKey(sub.channelId, rec.callId);
        const post = this.d.state.posts.get(key);
        if (post) {
          if (post.conv) {
            writes.push(this.d.state.putPost({ ...post, conv: { ...post.conv, lastActivityAt: now } }));
          }
          writes.push(this.d.delivery.callChanged(post, rec));
        } else if (this.eligible(sub, rec.snapshot!)) {
          newCalls++;
          const fresh: PostRecord = {
            channelId: sub.channelId,
            campaignId,
            callId: rec.callId,
            createdAt: rec.createdAt,
            conv: newCursor(now),
          };
          if (rec.threadId) fresh.threadId = rec.threadId;
          const name = rec.snapshot?.contact?.name?.trim();
          if (name) fresh.endUserName = name;
          writes.push(this.d.delivery.placeNewCall(fresh, rec));
        }
      }
    }
    // Everything above is on disk before the cursor moves past it.
    await Promise.all(writes);
    const cursor: CampaignCursor = {
      ...(this.d.state.cursors.get(String(campaignId)) ?? { campaignId, failures: 0 }),
      lastPolledAt: new Date(now).toISOString(),
    };
    if (newest) cursor.newestCreatedAt = newest;
    delete cursor.lastError;
    await this.d.state.cursors.set(String(campaignId), cursor);
    return { newCalls, changed: changed.length, requests };
  }

  /** Calls created after the watch started (a minute of clock difference allowed), or still running. */
  private eligible(sub: Subscription, call: Pick<CampaignCallItem, 'created_at' | 'status'>): boolean {
    if (!isFinalStatus(call.status)) return true;
    return Date.parse(call.created_at) >= Date.parse(sub.startFrom) - 60_000;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Conversations

  private async pollConversations(budget: number): Promise<number> {
    const { state, tuning } = this.d;
    const now = this.now();
    const active = new Set(state.activeSubscriptions().map((s) => subKey(s.campaignId, s.channelId)));
    const due: string[] = [];
    for (const threadId of state.serviceThreadIds()) {
      const mirrors = state.postsOfServiceThread(threadId).filter((p) => active.has(subKey(p.campaignId, p.channelId)));
      if (!mirrors.length) continue;
      const lastActivity = Math.max(...mirrors.map((m) => m.conv?.lastActivityAt ?? 0));
      const running = mirrors.some((m) => state.calls.get(callKey(m.campaignId, m.callId))?.final === false);
      if (this.dueNow(threadId, running, lastActivity, now)) due.push(threadId);
    }
    for (const t of state.tries.values()) {
      if (!t.threadId || !t.dmChannelId || !t.conv) continue;
      if (this.dueNow(t.threadId, false, t.conv.lastActivityAt, now)) due.push(t.threadId);
    }
    // Longest unread first; never-read ones (new calls) before all.
    const order = [...new Set(due)].sort((a, b) => (this.lastRead.get(a) ?? 0) - (this.lastRead.get(b) ?? 0));
    let read = 0;
    await mapLimit(order.slice(0, budget), tuning.concurrency, async (threadId) => {
      if (this.breaker.open) return;
      try {
        const messages = await this.d.outreach.getMessages(threadId, POLL);
        this.lastRead.set(threadId, now);
        read++;
        if (this.breaker.answered()) this.backoff.clear();
        this.d.delivery.conversationFetched(threadId, messages);
      } catch (err) {
        // Read again next cycle (its last read did not move); an unavailable service is the breaker's to report.
        if (failureKind(err) === 'unavailable') this.breaker.unavailable(err);
        else this.d.logger.warn({ threadId, err: errorText(err) }, 'reading a conversation failed; will retry');
      }
    });
    return read;
  }

  private dueNow(threadId: string, running: boolean, lastActivity: number, now: number): boolean {
    const { tuning } = this.d;
    const idleFor = now - lastActivity;
    if (!running && idleFor > tuning.threadIdleMs) return false;
    const gap = running ? 0 : Math.min(tuning.threadMaxGapMs, Math.max(tuning.pollIntervalMs, Math.floor(idleFor / 4)));
    const last = this.lastRead.get(threadId);
    // A tenth of the interval of slack, so a thread due "now" is not pushed to the next cycle by timer jitter.
    return last === undefined || now - last >= gap - tuning.pollIntervalMs / 10;
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
      POLL,
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
          POLL,
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
    const prev = state.whatsapp.get(String(campaignId));
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
    const at = new Date(this.now()).toISOString();
    const fp = hashText(JSON.stringify(counts));
    for (const sub of subs) {
      const digestKey = `${sub.channelId}/wa/${campaignId}`;
      const old = state.waPosts.get(digestKey);
      if (!old || old.fp !== fp) {
        const rec: WhatsAppPost = {
          ...(old ?? { channelId: sub.channelId, campaignId }),
          fp,
          payload: { kind: 'digest', counts, at },
        };
        writes.push(state.waPosts.set(digestKey, rec));
        this.d.delivery.enqueue(sub.channelId, `wa:${digestKey}`);
      }
      for (const c of fresh) {
        const key = `${sub.channelId}/wa/${campaignId}/${c.id}/${c.status}`;
        if (state.waPosts.has(key)) continue;
        writes.push(
          state.waPosts.set(key, {
            channelId: sub.channelId,
            campaignId,
            fp: 'contact',
            payload: { kind: 'contact', contact: c },
          }),
        );
        this.d.delivery.enqueue(sub.channelId, `wa:${key}`);
      }
    }
    await Promise.all(writes);
    await state.whatsapp.set(String(campaignId), { campaignId, counts, announced });
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Housekeeping

  /** Drops what can no longer change Slack: snapshots already shown everywhere, old mappings, old event ids. */
  private async maintain(): Promise<void> {
    const { state, tuning } = this.d;
    const now = this.now();
    const writes: Promise<void>[] = [];
    const subsByCampaign = groupByCampaign(state.subscriptions.values());
    for (const c of state.calls.values()) {
      const subs = subsByCampaign.get(c.campaignId) ?? [];
      if (c.final && c.snapshot) {
        const shown = subs.every((s) => {
          const p = state.posts.get(postKey(s.channelId, c.callId));
          return !p || p.digestId !== undefined || p.deliveredFp === c.fp || s.suspended !== undefined;
        });
        if (shown) {
          const { snapshot: _dropped, ...rest } = c;
          writes.push(state.putCall(rest));
        }
      }
      // Final calls older than the listing window are never listed again.
      if (c.final && !c.snapshot && subs.length) {
        const base = this.windowBase(c.campaignId, subs);
        if (Date.parse(c.createdAt) < base - tuning.overlapMs - 60_000) writes.push(state.deleteCall(c));
      }
      if (!subs.length && c.final && now - (c.finalAt ?? c.firstSeenAt) > tuning.retentionMs) {
        writes.push(state.deleteCall(c));
      }
    }
    // A call's mapping is let go once it is final, shown, and its conversation has been idle for the idle time; a
    // later reply in its Slack thread rebuilds it from the message's metadata (relay.ts).
    for (const p of state.posts.values()) {
      const call = state.calls.get(callKey(p.campaignId, p.callId));
      const settled = !call || (call.final && (p.digestId !== undefined || p.deliveredFp === call.fp));
      const idleSince = Math.max(p.conv?.lastActivityAt ?? 0, Date.parse(p.createdAt) || 0);
      if (settled && now - idleSince > tuning.threadIdleMs) {
        writes.push(state.deletePost(p));
        if (p.threadId) this.lastRead.delete(p.threadId);
      }
    }
    for (const d of state.digests.values()) {
      const newest = Math.max(
        ...d.lines.map((l) => Date.parse(state.posts.get(postKey(d.channelId, l.callId))?.createdAt ?? '') || 0),
        0,
      );
      if (d.deliveredFp === d.fp && now - newest > tuning.retentionMs) writes.push(state.digests.delete(d.id));
    }
    await Promise.all(writes);
  }
}
