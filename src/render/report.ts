/**
 * A campaign report (`/campaign report <id>`, its button, its schedules) in the words of the conversation it is
 * posted in: the message, the words of its chart, the chart's text alternative (the same numbers), and the answers
 * about schedules. The figures come from src/reports/figures.ts.
 */
import type { Translator } from '../i18n/translator.js';
import { CALL_OUTCOMES, type ChartInput, type PeriodFigures, type ReportFigures } from '../reports/figures.js';
import { campaignStateLabel, channelLabel, formatDuration } from './format.js';
import {
  ACTION_IDS,
  encodeCampaignId,
  encodeConfirmValue,
  encodeScheduleConfirmValue,
  REPORT_CONFIRM_EXTERNAL_ACTION,
  REPORT_SCHEDULE_CONFIRM_ACTION,
  type ScheduleConfirmValue,
} from './ids.js';
import { button, cleanLabel, context, fallback, header, mrkdwnSection, raw } from './mrkdwn.js';
import { tmd } from './text.js';
import type { Button, KnownBlock, SlackMessage } from './types.js';
import { campaignNameLabel, note, sharedChannelConfirmation } from './watch.js';

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

/** Where a report asked for now goes, and where its gathering stands (src/reports/gatherings.ts). */
export interface GatheringView {
  campaignId: number;
  /** It joined a gathering someone else started. */
  joined: boolean;
  /** Gatherings ahead of it; 0: reading now. */
  ahead: number;
  /** Gatherings at once. */
  maxAtOnce: number;
  /** `here`: posted in the conversation where it was asked; `dm`: only to the person, in their DM with the app. */
  where: 'here' | 'dm';
  /** Why a DM: the person may only read, the app is not in that conversation, or it was asked from the Home tab. */
  why?: 'readOnly' | 'elsewhere' | 'home';
}

/** Said to the person while the report is gathered: whether it waits, and where it will go. */
export function reportGatheringMessage(v: GatheringView, t: Translator): SlackMessage {
  return note(
    t.t('report.gathering', {
      id: String(v.campaignId),
      state: v.ahead > 0 ? 'queued' : v.joined ? 'joined' : 'started',
      ahead: v.ahead,
      max: v.maxAtOnce,
      where: v.where,
      why: v.why ?? 'none',
    }),
  );
}

/** The gathering stopped: the person (and whoever else asked for it) is over their budget of actions. */
export function reportOverBudgetMessage(
  v: { campaignId: number; requests: number; waitMs: number; requestsPerAction: number },
  t: Translator,
): SlackMessage {
  const seconds = Math.max(1, Math.ceil(v.waitMs / 1000));
  return note(
    t.t('report.overBudget', {
      id: String(v.campaignId),
      requests: v.requests,
      every: v.requestsPerAction,
      wait: seconds < 60 ? 'seconds' : 'minutes',
      seconds,
      minutes: Math.ceil(seconds / 60),
    }),
  );
}

/**
 * A report into a Slack Connect channel (or one whose sharing Slack would not tell) waits for a permitted person's
 * button, as a watch does (src/slack/watch/channel-privacy.ts): posted now (`schedule` absent) or scheduled.
 */
export function reportConfirmExternalMessage(
  campaign: { id: number; name: string },
  channelId: string,
  external: boolean | undefined,
  t: Translator,
  schedule?: ScheduleConfirmValue,
): SlackMessage {
  const what = schedule ? 'schedule' : 'now';
  const text = tmd(t, 'report.confirm.text', {
    sharing: external === undefined ? 'unknown' : 'external',
    channel: channelMention(channelId),
    campaign: raw(campaignNameLabel(campaign)),
    what,
  });
  return reportConfirmation(text, campaign.id, t, channelId, schedule);
}

function reportConfirmation(
  text: string,
  campaignId: number,
  t: Translator,
  channelId: string,
  schedule?: ScheduleConfirmValue,
): SlackMessage {
  const what = schedule ? 'schedule' : 'now';
  return sharedChannelConfirmation({
    text,
    button: t.t('report.confirm.button', { what }),
    actionId: schedule ? REPORT_SCHEDULE_CONFIRM_ACTION : REPORT_CONFIRM_EXTERNAL_ACTION,
    value: schedule ? encodeScheduleConfirmValue(schedule) : encodeConfirmValue({ campaignId, channelId }),
    alternative: tmd(t, 'report.confirm.alternative', { what, id: String(campaignId) }),
  });
}

/**
 * DM to a schedule's owner: a run was not posted, and why (`reason`: our mrkdwn). No reason: the channel is shared and
 * no one confirmed it, so the DM carries the button that does.
 */
export function reportSkippedMessage(s: ScheduleView, reason: string | undefined, t: Translator): SlackMessage {
  const text = tmd(t, 'report.skipped', {
    id: String(s.campaignId),
    channel: channelMention(s.channelId),
    every: everyText(s, t),
    reason: raw(reason ?? tmd(t, 'report.skippedShared', { channel: channelMention(s.channelId) })),
  });
  if (reason !== undefined) return note(text);
  const { campaignId, channelId, frequency, weekday, time } = s;
  return reportConfirmation(text, campaignId, t, channelId, {
    campaignId,
    channelId,
    frequency,
    ...(weekday !== undefined ? { weekday } : {}),
    time,
  });
}

/** A schedule refused: the person is not in the channel, or a typed channel id is not one we share. */
export const personNotInChannelSentence = (channelId: string, t: Translator): string =>
  tmd(t, 'report.personNotInChannel', { channel: channelMention(channelId) });

export const typedChannelSentence = (typed: string, t: Translator): string =>
  tmd(t, 'report.typedChannel', { raw: typed });

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
