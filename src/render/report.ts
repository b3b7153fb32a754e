/**
 * A campaign report (`/campaign report <id>`, its button, its schedules) in the words of the conversation it is
 * posted in: the message, the words of its chart, the chart's text alternative (the same numbers), and the answers
 * about schedules. The figures come from src/reports/figures.ts.
 */
import type { Translator } from '../i18n/translator.js';
import { CALL_OUTCOMES, type ChartInput, type PeriodFigures, type ReportFigures } from '../reports/figures.js';
import { campaignStateLabel, channelLabel, formatDuration } from './format.js';
import { ACTION_IDS, encodeCampaignId } from './ids.js';
import { button, cleanLabel, context, fallback, header, mrkdwnSection, raw } from './mrkdwn.js';
import { tmd } from './text.js';
import type { Button, KnownBlock, SlackMessage } from './types.js';

const rateText = (t: Translator, rate: number | null) => (rate === null ? '—' : `${t.number(rate)}%`);
const hourText = (h: number) => `${String(h).padStart(2, '0')}:00`;

function funnelSteps(f: ReportFigures, t: Translator): { label: string; count: number }[] {
  return f.funnel.map((s) => ({ label: t.t('report.step', { step: s.step }), count: s.count }));
}

function outcomeBars(f: ReportFigures, t: Translator): { label: string; count: number }[] {
  return CALL_OUTCOMES.map((o) => ({
    label: t.t('report.outcome', { outcome: o }),
    count: f.calls?.byOutcome[o] ?? 0,
  }));
}

function busiestHour(f: ReportFigures): { hour: number; count: number } | undefined {
  const byHour = f.calls?.byHour;
  if (!byHour) return undefined;
  let best = -1;
  for (let h = 0; h < byHour.length; h++) if (best < 0 || byHour[h]! > byHour[best]!) best = h;
  return best >= 0 && byHour[best]! > 0 ? { hour: best, count: byHour[best]! } : undefined;
}

function conversionLine(f: ReportFigures, t: Translator): string {
  const channel = f.campaign.channel;
  return f.conversionRate === null
    ? t.t('report.noConversion', { channel })
    : t.t('report.conversion', { rate: rateText(t, f.conversionRate), channel });
}

function compareLines(f: ReportFigures, t: Translator): string[] {
  const c = f.comparison;
  if (!c) return [];
  const row = (what: keyof PeriodFigures & string, now: number | null, before: number | null, isRate = false) => {
    const delta = now === null || before === null ? 0 : Math.round((now - before) * 100) / 100;
    const show = (n: number | null) => (isRate ? rateText(t, n) : t.number(n ?? 0));
    return t.t('report.compare', {
      what: what === 'conversionRate' ? 'rate' : what,
      now: show(now),
      before: show(before),
      dir: delta > 0 ? 'up' : delta < 0 ? 'down' : 'same',
      delta: isRate ? `${t.number(Math.abs(delta))} pp` : t.number(Math.abs(delta)),
    });
  };
  return [
    row('calls', c.current.calls, c.previous.calls),
    row('answered', c.current.answered, c.previous.answered),
    row('converted', c.current.converted, c.previous.converted),
    row('conversionRate', c.current.conversionRate, c.previous.conversionRate, true),
  ];
}

/** The chart's words and numbers. */
export function reportChartInput(f: ReportFigures, t: Translator): ChartInput {
  const tz = f.campaign.timeZone;
  return {
    title: `${cleanLabel(f.campaign.name, 80)} (#${f.campaign.id})`,
    subtitle: t.t('report.chartSubtitle', { date: t.date(f.generatedAt, { timeZone: tz }), timeZone: tz }),
    funnelTitle: t.t('report.funnelTitle', { channel: f.campaign.channel }),
    funnel: funnelSteps(f, t),
    ...(f.calls
      ? {
          outcomesTitle: t.t('report.outcomesTitle', { total: t.number(f.calls.total) }),
          outcomes: outcomeBars(f, t),
          hoursTitle: t.t('report.hoursTitle', { timeZone: tz }),
          hourAxis: t.t('report.hourAxis'),
          byHour: f.calls.byHour,
        }
      : {}),
  };
}

/** The chart's text alternative: every number the picture shows, and the conversion rate. */
export function reportAltText(f: ReportFigures, t: Translator): string {
  const bars = (xs: { label: string; count: number }[]) => xs.map((x) => `${x.label} ${t.number(x.count)}`).join(', ');
  const parts = [
    `${t.t('report.funnelTitle', { channel: f.campaign.channel })}: ${bars(funnelSteps(f, t))}.`,
    `${conversionLine(f, t)}.`,
  ];
  if (f.calls) {
    parts.push(`${t.t('report.outcomesTitle', { total: t.number(f.calls.total) })}: ${bars(outcomeBars(f, t))}.`);
    const hours = f.calls.byHour
      .map((n, h) => (n > 0 ? `${hourText(h)} ${t.number(n)}` : ''))
      .filter(Boolean)
      .join(', ');
    parts.push(`${t.t('report.hoursTitle', { timeZone: f.campaign.timeZone })}: ${hours || '—'}.`);
  }
  return parts.join(' ').slice(0, 1000);
}

/** The report message (the chart is attached to it as a file). `lastOne`: the schedule stops after this one. */
export function reportMessage(f: ReportFigures, t: Translator, opts: { lastOne?: boolean } = {}): SlackMessage {
  const c = f.campaign;
  const name = cleanLabel(c.name, 100);
  const blocks: KnownBlock[] = [
    header(t.t('report.header', { name, id: String(c.id) })),
    context(
      tmd(t, 'report.context', {
        channel: channelLabel(c.channel, t),
        state: campaignStateLabel(c.status, c.archived, t),
        timeZone: c.timeZone,
        date: t.date(f.generatedAt, { timeZone: c.timeZone }),
      }),
    ),
  ];
  const funnel = funnelSteps(f, t)
    .map((s) => `${s.label} *${t.number(s.count)}*`)
    .join(' → ');
  const others = t.t('report.others', {
    rejected: t.number(f.rejected),
    failed: t.number(f.failed),
    pending: t.number(f.pending),
  });
  blocks.push(
    mrkdwnSection(
      `*${t.t('report.funnelTitle', { channel: c.channel })}*\n${funnel}\n${others}\n*${conversionLine(f, t)}*`,
    ),
  );
  if (f.calls) {
    const outcomes = outcomeBars(f, t)
      .map((o) => `${o.label} *${t.number(o.count)}*`)
      .join(' · ');
    const lines = [`*${t.t('report.outcomesTitle', { total: t.number(f.calls.total) })}*`, outcomes];
    const busiest = busiestHour(f);
    if (busiest) lines.push(t.t('report.busiestHour', { hour: hourText(busiest.hour), count: busiest.count }));
    if (f.calls.averageDuration !== undefined)
      lines.push(t.t('report.averageCall', { duration: formatDuration(f.calls.averageDuration, t) }));
    blocks.push(mrkdwnSection(lines.join('\n')));
  }
  if (f.comparison) {
    blocks.push(
      mrkdwnSection(
        [`*${t.t('report.comparisonTitle', { days: f.comparison.days })}*`, ...compareLines(f, t)].join('\n'),
      ),
    );
  } else {
    blocks.push(context(t.t('report.noComparison')));
  }
  blocks.push(
    context(
      t.t('report.gathered', {
        seconds: t.number(Math.round(f.gathered.ms / 100) / 10),
        requests: f.gathered.requests,
        contacts: f.gathered.contacts,
        calls: f.gathered.calls,
      }),
    ),
  );
  if (opts.lastOne)
    blocks.push(mrkdwnSection(tmd(t, 'report.lastOne', { state: campaignStateLabel(c.status, c.archived, t) })));
  return { text: fallback(tmd(t, 'report.header', { name, id: String(c.id) })), blocks };
}

/** The file's title. */
export const reportFileTitle = (id: number, t: Translator): string => t.t('report.fileTitle', { id: String(id) });

/** Said to the person while the report is gathered. */
export function reportGatheringMessage(id: number, t: Translator): SlackMessage {
  const text = t.t('report.gathering', { id: String(id) });
  return { text: fallback(text), blocks: [mrkdwnSection(text)] };
}

export interface ScheduleView {
  campaignId: number;
  channelId: string;
  frequency: 'daily' | 'weekly';
  weekday?: number;
  time: string;
  timeZone: string;
  /** ms since the epoch. */
  nextRun: number;
}

function everyText(s: ScheduleView, t: Translator): string {
  return t.t('report.every', {
    frequency: s.frequency,
    day: String(s.weekday ?? 1),
    time: s.time,
    timeZone: s.timeZone,
  });
}

const channelMention = (id: string) => raw(`<#${id}>`);

/** "🗓 @ana scheduled …": for the channel where it was typed. */
export function reportScheduledMessage(s: ScheduleView, userId: string, t: Translator): SlackMessage {
  const text = tmd(t, 'report.scheduled', {
    who: raw(`<@${userId}>`),
    id: String(s.campaignId),
    channel: channelMention(s.channelId),
    every: everyText(s, t),
    next: t.date(s.nextRun, { timeZone: s.timeZone }),
  });
  return { text: fallback(text), blocks: [mrkdwnSection(text)] };
}

export function reportUnscheduledMessage(
  campaignId: number,
  channelId: string,
  userId: string,
  t: Translator,
): SlackMessage {
  const text = tmd(t, 'report.unscheduled', {
    who: raw(`<@${userId}>`),
    id: String(campaignId),
    channel: channelMention(channelId),
  });
  return { text: fallback(text), blocks: [mrkdwnSection(text)] };
}

export function reportNoScheduleMessage(campaignId: number, channelId: string, t: Translator): SlackMessage {
  const text = tmd(t, 'report.noSchedule', { id: String(campaignId), channel: channelMention(channelId) });
  return { text: fallback(text), blocks: [mrkdwnSection(text)] };
}

/** Slack allows 50 blocks: the list shows this many schedules. */
const MAX_LISTED = 45;

/** `/campaign reports`: every schedule with its next run, soonest first. */
export function schedulesListMessage(schedules: readonly ScheduleView[], t: Translator): SlackMessage {
  const title = t.t('reports.title');
  if (schedules.length === 0) {
    const none = tmd(t, 'reports.none');
    return { text: fallback(none), blocks: [header(title), mrkdwnSection(none)] };
  }
  const sorted = [...schedules].sort((a, b) => a.nextRun - b.nextRun).slice(0, MAX_LISTED);
  const blocks: KnownBlock[] = [header(title)];
  for (const s of sorted) {
    blocks.push(
      mrkdwnSection(
        tmd(t, 'reports.line', {
          id: String(s.campaignId),
          channel: channelMention(s.channelId),
          every: everyText(s, t),
          next: t.date(s.nextRun, { timeZone: s.timeZone }),
        }),
      ),
    );
  }
  return { text: fallback(title), blocks };
}

/** The "📊 Report" button of a campaign (detail). */
export function reportButton(campaignId: number, t: Translator): Button {
  return button({
    text: t.t('report.button'),
    actionId: ACTION_IDS.campaignReport,
    value: encodeCampaignId(campaignId),
  });
}
