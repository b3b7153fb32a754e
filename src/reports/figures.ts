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

function periodFigures(
  calls: readonly CampaignCallItem[],
  contacts: readonly CampaignContact[],
  from: number,
  to: number,
): PeriodFigures {
  const inPeriod = (ms: number | undefined) => ms !== undefined && ms >= from && ms < to;
  const mine = calls.filter((c) => inPeriod(Date.parse(c.created_at)));
  const called = new Set(mine.map((c) => c.contact?.id).filter((id) => id !== undefined));
  const converted = contacts.filter((c) => c.status === 'converted' && inPeriod(lastCallAtMs(c.last_call_at))).length;
  return {
    calls: mine.length,
    answered: mine.filter((c) => callOutcome(c) === 'human').length,
    converted,
    contactsCalled: called.size,
    conversionRate: percent(converted, called.size),
  };
}

function numberOf(analytics: Analytics | null | undefined, key: string): number | undefined {
  const v = analytics?.[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
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

export function reportFigures(input: FigureInput): ReportFigures {
  const { campaign, contacts, calls, now } = input;
  const channel: ChannelType = campaign.integration?.type ?? (calls.length > 0 ? 'phone_call' : 'whatsapp');
  const timeZone = campaignTimeZone(campaign);
  const count = (pred: (c: CampaignContact) => boolean) => contacts.filter(pred).length;
  const total = contacts.length;
  const converted = count((c) => c.status === 'converted');
  const base = {
    campaign: {
      id: campaign.id,
      name: campaign.name,
      status: campaign.status,
      archived: campaign.archived === true,
      channel,
      timeZone,
    },
    generatedAt: now,
    rejected: count((c) => c.status === 'rejected'),
    failed: count((c) => c.status === 'failed'),
    pending: count((c) => PENDING.has(c.status)),
    gathered: input.gathered,
  };
  if (channel === 'whatsapp') {
    const sent = count((c) => SENT.has(c.status));
    return {
      ...base,
      funnel: [
        { step: 'total', count: total },
        { step: 'sent', count: sent },
        { step: 'delivered', count: count((c) => DELIVERED.has(c.status)) },
        { step: 'read', count: count((c) => READ.has(c.status)) },
        { step: 'converted', count: converted },
      ],
      conversionRate: percent(converted, sent),
    };
  }
  const called = count((c) => (c.call_count ?? 0) > 0);
  const byOutcome = Object.fromEntries(CALL_OUTCOMES.map((o) => [o, 0])) as Record<CallOutcome, number>;
  const byHour = new Array<number>(24).fill(0);
  for (const call of calls) {
    byOutcome[callOutcome(call)] += 1;
    const at = Date.parse(call.created_at);
    if (!Number.isNaN(at)) byHour[toZonedTime(at, timeZone).getHours()]! += 1;
  }
  const days = input.periodDays;
  const span = days * 86_400_000;
  const averageDuration = numberOf(campaign.analytics, 'averageDuration');
  return {
    ...base,
    funnel: [
      { step: 'total', count: total },
      { step: 'called', count: called },
      { step: 'answered', count: count((c) => ANSWERED.has(c.status)) },
      { step: 'converted', count: converted },
    ],
    conversionRate: percent(converted, called),
    calls: {
      total: calls.length,
      byOutcome,
      byHour,
      ...(averageDuration !== undefined ? { averageDuration } : {}),
    },
    comparison: {
      days,
      current: periodFigures(calls, contacts, now - span, now + 1),
      previous: periodFigures(calls, contacts, now - 2 * span, now - span),
    },
  };
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
