/**
 * What a campaign report says, computed from what the service lists (pure: no I/O). `gather.ts` reads the campaign,
 * its contacts and its calls; this file turns them into the figures the message, the chart and its text alternative
 * all show, so the three cannot disagree.
 *
 * - The funnel counts contacts by how far they got. Phone: total → called (at least one call) → answered (answered,
 *   accepted, rejected or converted) → converted. WhatsApp, the message funnel: total → sent → delivered → read →
 *   converted (each step counts the contacts that got at least that far, as the service's analytics do). Beside it:
 *   rejected, failed, still pending.
 * - Calls by outcome (answered by a person, voicemail, busy, no answer, failed, in progress) and by hour of the day in
 *   the campaign's timezone.
 * - The conversion rate: converted / called (phone), converted / sent (WhatsApp), in percent.
 * - The change against the previous period of the same length (phone: calls are dated; WhatsApp contacts carry no
 *   date, so no comparison).
 */
import { fromZonedTime, toZonedTime } from 'date-fns-tz';
import type { Analytics, CampaignCallItem, CampaignContact, CampaignDetail, ChannelType } from '../outreach/schemas.js';
import { LAST_CALL_AT_ZONE } from '../outreach/unspecified.js';

type FunnelStep = 'total' | 'called' | 'answered' | 'sent' | 'delivered' | 'read' | 'converted';

export const CALL_OUTCOMES = ['human', 'voicemail', 'busy', 'noAnswer', 'failed', 'inProgress'] as const;
type CallOutcome = (typeof CALL_OUTCOMES)[number];

/** What one period (the last N days, or the N days before them) saw. Phone campaigns only. */
export interface PeriodFigures {
  calls: number;
  /** Calls a person answered. */
  answered: number;
  /** Contacts converted whose last call falls in the period. */
  converted: number;
  /** Distinct contacts called in the period. */
  contactsCalled: number;
  /** converted / contactsCalled in percent; null when no one was called. */
  conversionRate: number | null;
}

export interface ReportFigures {
  campaign: {
    id: number;
    name: string;
    status: string;
    archived: boolean;
    channel: ChannelType;
    /** The campaign's IANA timezone (UTC when it has none): hours of the day and the schedule's times are in it. */
    timeZone: string;
  };
  /** ms since the epoch. */
  generatedAt: number;
  funnel: { step: FunnelStep; count: number }[];
  rejected: number;
  failed: number;
  pending: number;
  /** Percent, two decimals; null when its base is 0. */
  conversionRate: number | null;
  /** Phone campaigns. */
  calls?: {
    total: number;
    byOutcome: Record<CallOutcome, number>;
    /** 24 counts, hour 0..23 in the campaign's timezone, of when calls were placed. */
    byHour: number[];
    /** Seconds, from the analytics when they give it. */
    averageDuration?: number;
  };
  /** Phone campaigns: the last `days` days against the `days` before them. */
  comparison?: { days: number; current: PeriodFigures; previous: PeriodFigures };
  /** How the numbers were read. */
  gathered: { ms: number; requests: number; contacts: number; calls: number };
}

const ANSWERED = new Set(['answered', 'accepted', 'rejected', 'converted']);
const SENT = new Set(['sent', 'delivered', 'read', 'accepted', 'rejected', 'converted']);
const DELIVERED = new Set(['delivered', 'read', 'accepted', 'rejected', 'converted']);
const READ = new Set(['read', 'accepted', 'rejected', 'converted']);
const PENDING = new Set(['queue', 'sending', 'retrying']);
const FINAL_CALL = new Set(['ended', 'busy', 'no-answer', 'failed']);

/** Percent with two decimals; null when the base is 0. */
function percent(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((part / whole) * 10000) / 100;
}

export function campaignTimeZone(c: Pick<CampaignDetail, 'timezone'>): string {
  const tz = c.timezone ?? '';
  if (!tz) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return tz;
  } catch {
    return 'UTC';
  }
}

function callOutcome(call: Pick<CampaignCallItem, 'status' | 'answered_by'>): CallOutcome {
  switch (call.status) {
    case 'ended':
      return call.answered_by === 'machine' ? 'voicemail' : 'human';
    case 'busy':
      return 'busy';
    case 'no-answer':
      return 'noAnswer';
    case 'failed':
      return 'failed';
    default:
      return FINAL_CALL.has(call.status) ? 'failed' : 'inProgress';
  }
}

/** A contact's `last_call_at` ("YYYY-MM-DD HH:MM:SS", read as UTC) in ms; undefined when absent or unreadable. */
function lastCallAtMs(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2})?)/.exec(value.trim());
  const ms = m ? fromZonedTime(`${m[1]}T${m[2]}`, LAST_CALL_AT_ZONE).getTime() : Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

function numberOf(analytics: Analytics | null | undefined, key: string): number | undefined {
  const v = analytics?.[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** What one compared period has seen so far. */
class PeriodTally {
  calls = 0;
  answered = 0;
  converted = 0;
  /** Distinct contacts called in the period: their ids only (numbers), the one tally that grows with a campaign. */
  readonly called = new Set<number>();

  constructor(
    readonly from: number,
    readonly to: number,
  ) {}

  holds(ms: number | undefined): boolean {
    return ms !== undefined && ms >= this.from && ms < this.to;
  }

  figures(): PeriodFigures {
    return {
      calls: this.calls,
      answered: this.answered,
      converted: this.converted,
      contactsCalled: this.called.size,
      conversionRate: percent(this.converted, this.called.size),
    };
  }
}

const ZERO_STEPS = { total: 0, called: 0, answered: 0, sent: 0, delivered: 0, read: 0, converted: 0 };

/**
 * The report's figures, summed page by page as the service's lists come in: a page is counted and let go, nothing of
 * it is kept (but the ids of the contacts called in the two compared periods). `gather.ts` feeds it; `reportFigures`
 * folds whole lists at once.
 */
export class FigureTally {
  private readonly steps = { ...ZERO_STEPS };
  private rejected = 0;
  private failed = 0;
  private pending = 0;
  private calls = 0;
  private readonly byOutcome = Object.fromEntries(CALL_OUTCOMES.map((o) => [o, 0])) as Record<CallOutcome, number>;
  private readonly byHour = new Array<number>(24).fill(0);
  private readonly current: PeriodTally;
  private readonly previous: PeriodTally;
  private readonly timeZone: string;

  constructor(
    private readonly campaign: CampaignDetail,
    private readonly now: number,
    /** Length of the compared periods, in days. */
    private readonly periodDays: number,
  ) {
    const span = periodDays * 86_400_000;
    this.current = new PeriodTally(now - span, now + 1);
    this.previous = new PeriodTally(now - 2 * span, now - span);
    this.timeZone = campaignTimeZone(campaign);
  }

  addContacts(page: readonly CampaignContact[]): void {
    const s = this.steps;
    for (const c of page) {
      s.total += 1;
      if ((c.call_count ?? 0) > 0) s.called += 1;
      if (ANSWERED.has(c.status)) s.answered += 1;
      if (SENT.has(c.status)) s.sent += 1;
      if (DELIVERED.has(c.status)) s.delivered += 1;
      if (READ.has(c.status)) s.read += 1;
      if (c.status === 'rejected') this.rejected += 1;
      if (c.status === 'failed') this.failed += 1;
      if (PENDING.has(c.status)) this.pending += 1;
      if (c.status !== 'converted') continue;
      s.converted += 1;
      const at = lastCallAtMs(c.last_call_at);
      for (const p of [this.current, this.previous]) if (p.holds(at)) p.converted += 1;
    }
  }

  addCalls(page: readonly CampaignCallItem[]): void {
    for (const call of page) {
      this.calls += 1;
      const outcome = callOutcome(call);
      this.byOutcome[outcome] += 1;
      const at = Date.parse(call.created_at);
      if (!Number.isNaN(at)) this.byHour[toZonedTime(at, this.timeZone).getHours()]! += 1;
      for (const p of [this.current, this.previous]) {
        if (!p.holds(at)) continue;
        p.calls += 1;
        if (outcome === 'human') p.answered += 1;
        if (call.contact?.id !== undefined) p.called.add(call.contact.id);
      }
    }
  }

  figures(gathered: ReportFigures['gathered']): ReportFigures {
    const { campaign, steps: s } = this;
    const channel: ChannelType = campaign.integration?.type ?? (this.calls > 0 ? 'phone_call' : 'whatsapp');
    const base = {
      campaign: {
        id: campaign.id,
        name: campaign.name,
        status: campaign.status,
        archived: campaign.archived === true,
        channel,
        timeZone: this.timeZone,
      },
      generatedAt: this.now,
      rejected: this.rejected,
      failed: this.failed,
      pending: this.pending,
      gathered,
    };
    const step = (name: FunnelStep) => ({ step: name, count: s[name] });
    if (channel === 'whatsapp') {
      return {
        ...base,
        funnel: (['total', 'sent', 'delivered', 'read', 'converted'] as const).map(step),
        conversionRate: percent(s.converted, s.sent),
      };
    }
    const averageDuration = numberOf(campaign.analytics, 'averageDuration');
    return {
      ...base,
      funnel: (['total', 'called', 'answered', 'converted'] as const).map(step),
      conversionRate: percent(s.converted, s.called),
      calls: {
        total: this.calls,
        byOutcome: { ...this.byOutcome },
        byHour: [...this.byHour],
        ...(averageDuration !== undefined ? { averageDuration } : {}),
      },
      comparison: { days: this.periodDays, current: this.current.figures(), previous: this.previous.figures() },
    };
  }
}

export interface FigureInput {
  campaign: CampaignDetail;
  contacts: readonly CampaignContact[];
  calls: readonly CampaignCallItem[];
  now: number;
  /** Length of the compared periods. */
  periodDays: number;
  gathered: ReportFigures['gathered'];
}

/** The figures of whole lists at once (the same fold as page by page). */
export function reportFigures(input: FigureInput): ReportFigures {
  const tally = new FigureTally(input.campaign, input.now, input.periodDays);
  tally.addContacts(input.contacts);
  tally.addCalls(input.calls);
  return tally.figures(input.gathered);
}

export interface ChartBar {
  label: string;
  count: number;
}

/** Everything the picture shows, worded. */
export interface ChartInput {
  title: string;
  subtitle: string;
  funnelTitle: string;
  funnel: ChartBar[];
  outcomesTitle?: string;
  outcomes?: ChartBar[];
  hoursTitle?: string;
  hourAxis?: string;
  /** 24 counts. */
  byHour?: number[];
}
