/** One campaign in full (`/campaign show <id>`, the "Show" button), in the words of the person who asked. */
import { settingsButton } from './watch-settings.js';
import type { MessageKey, Translator } from '../i18n/translator.js';
import type { Analytics, CampaignDetail } from '../outreach/schemas.js';
import { DEFAULT_TIMEZONE } from '../outreach/unspecified.js';
import { ACTION_IDS, encodeCampaignId } from './ids.js';
import {
  campaignStateLabel,
  channelLabel,
  ENGLISH,
  formatPercent,
  humanizeKey,
  isValidTimeZone,
  NONE,
  rateScale,
  yesNo,
  type RateScale,
} from './format.js';
import { lifecycleButtons } from './lifecycle.js';
import { reportButton } from './report.js';
import {
  actions,
  button,
  cleanLabel,
  context,
  fallback,
  fieldSections,
  header,
  mrkdwnSection,
  raw,
  truncate,
} from './mrkdwn.js';
import { cyclesInWords, scheduleInWords } from './schedule.js';
import { tmd } from './text.js';
import type { KnownBlock, SlackMessage } from './types.js';
import { validActions } from '../outreach/rules.js';

/** Known analytics keys per channel, in the order shown, with their labels; other keys follow, humanized. */
const KNOWN_ANALYTICS: Record<string, [key: string, label: MessageKey][]> = {
  phone_call: [
    ['calls', 'campaignDetail.analytics.calls'],
    ['contactsCalled', 'campaignDetail.analytics.contactsCalled'],
    ['contactsAnswered', 'campaignDetail.analytics.contactsAnswered'],
    ['contactsAnsweredRate', 'campaignDetail.analytics.answerRate'],
    ['contactsConverted', 'campaignDetail.analytics.contactsConverted'],
    ['contactsConvertedRate', 'campaignDetail.analytics.conversionRate'],
  ],
  whatsapp: [
    ['sent', 'campaignDetail.analytics.sent'],
    ['delivered', 'campaignDetail.analytics.delivered'],
    ['read', 'campaignDetail.analytics.read'],
    ['replied', 'campaignDetail.analytics.replied'],
    ['converted', 'campaignDetail.analytics.converted'],
    ['deliveredRate', 'campaignDetail.analytics.deliveryRate'],
    ['readRate', 'campaignDetail.analytics.readRate'],
    ['convertedRate', 'campaignDetail.analytics.conversionRate'],
  ],
};

/** At most this many analytics fields (3 sections of 10); the rest are counted in a note. */
const MAX_ANALYTICS_FIELDS = 30;

/** A key names a rate when it ends in "rate" (`convertedRate`, `answer_rate`). */
function isRateKey(key: string): boolean {
  return /rate$/i.test(key);
}

function analyticsValue(key: string, v: unknown, scale: RateScale, t: Translator): string {
  if (v === null || v === undefined) return NONE;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return NONE;
    return isRateKey(key) ? formatPercent(v, scale, t) : t.number(v);
  }
  if (typeof v === 'boolean') return yesNo(v, t);
  if (typeof v === 'string') return truncate(v, 200);
  return truncate(JSON.stringify(v), 200);
}

/**
 * Analytics as mrkdwn fields ("*Calls*\n1,234"): the channel's known keys first in a fixed order, then any other
 * key humanized (`contactsVoicemail` → "Contacts voicemail", as the service named it). Rates read by the
 * per-snapshot rule of `rateScale`.
 */
export function analyticsFields(
  analytics: Analytics,
  channel: string | null | undefined,
  t: Translator = ENGLISH,
): string[] {
  const known = KNOWN_ANALYTICS[channel ?? ''] ?? [];
  const rates = Object.entries(analytics)
    .filter(([k, v]) => isRateKey(k) && typeof v === 'number')
    .map(([, v]) => v as number);
  const scale = rateScale(rates);
  const knownKeys = new Set(known.map(([k]) => k));
  const entries: [label: string, value: string][] = [];
  for (const [key, label] of known) {
    if (key in analytics) entries.push([t.t(label), analyticsValue(key, analytics[key], scale, t)]);
  }
  for (const [key, v] of Object.entries(analytics)) {
    if (!knownKeys.has(key)) entries.push([cleanLabel(humanizeKey(key), 100), analyticsValue(key, v, scale, t)]);
  }
  return entries.map(([label, value]) => tmd(t, 'campaignDetail.field', { label, value }));
}

function analyticsBlocks(c: CampaignDetail, t: Translator): KnownBlock[] {
  if (!c.analytics || Object.keys(c.analytics).length === 0) return [];
  const fields = analyticsFields(c.analytics, c.integration?.type, t);
  const shown = fields.slice(0, MAX_ANALYTICS_FIELDS);
  const blocks: KnownBlock[] = [mrkdwnSection(t.t('campaignDetail.analytics')), ...fieldSections(shown)];
  if (fields.length > shown.length) {
    blocks.push(context(t.t('campaignDetail.moreMetrics', { count: fields.length - shown.length })));
  }
  return blocks;
}

/** A titled block of free text from outside, cut to the section limit with a note saying so. */
function longTextSection(title: MessageKey, text: string, t: Translator): KnownBlock {
  return mrkdwnSection(tmd(t, 'campaignDetail.longText', { title: t.t(title), text }), t.t('campaignDetail.shortened'));
}

/** Who is reading: their Slack timezone, in which dates are shown (else the campaign's zone). */
export interface DetailViewer {
  timeZone?: string;
}

/** `value` as a date in the viewer's zone (else the campaign's, else the service's default), naming the zone. */
function dateFor(value: string | null | undefined, zone: string, t: Translator): string {
  if (!value) return NONE;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : t.date(d, { timeZone: zone });
}

export function campaignDetailMessage(
  c: CampaignDetail,
  viewer: DetailViewer = {},
  t: Translator = ENGLISH,
): SlackMessage {
  const tz = c.timezone ?? null;
  const zone = [viewer.timeZone, tz].find((z): z is string => !!z && isValidTimeZone(z)) ?? DEFAULT_TIMEZONE;
  const channel = c.integration?.type ?? null;
  const state = campaignStateLabel(c.status, c.archived, t);
  const agentName = cleanLabel(c.agent.name ?? '', 150);
  const agent = agentName
    ? tmd(t, 'campaignDetail.agentNamed', { name: agentName, id: c.agent.id })
    : tmd(t, 'campaignDetail.agentId', { id: c.agent.id });
  const field = (label: MessageKey, value: string) => tmd(t, 'campaignDetail.field', { label: t.t(label), value });

  const fields = [
    tmd(t, 'campaignDetail.field', { label: t.t('campaignDetail.agent'), value: raw(agent) }),
    field('campaignDetail.integration', c.integration ? c.integration.id : t.t('campaignDetail.none')),
    field('campaignDetail.timezone', tz ?? t.t('campaignDetail.serviceDefaultZone')),
    field('campaignDetail.created', dateFor(c.created_at, zone, t)),
  ];
  if (c.retries !== null && c.retries !== undefined) fields.push(field('campaignDetail.retries', t.number(c.retries)));
  if (c.message_limit !== null && c.message_limit !== undefined) {
    fields.push(field('campaignDetail.messageLimit', t.number(c.message_limit)));
  }
  if (c.template) fields.push(field('campaignDetail.template', truncate(c.template, 300)));
  if (c.template_alt) fields.push(field('campaignDetail.templateAlt', truncate(c.template_alt, 300)));

  const name = cleanLabel(c.name, 200);
  const blocks: KnownBlock[] = [
    header(t.t('campaignDetail.header', { id: String(c.id) })),
    mrkdwnSection(tmd(t, 'campaignDetail.title', { name, state, channel: channelLabel(channel, t) })),
    ...fieldSections(fields),
    mrkdwnSection(
      tmd(t, 'campaignDetail.scheduleAndCycles', {
        schedule: scheduleInWords(c.scheduling, t),
        cycles: cyclesInWords(c.cycles, {}, t),
      }),
    ),
    ...analyticsBlocks(c, t),
  ];
  if (c.description?.trim()) blocks.push(longTextSection('campaignDetail.description', c.description, t));
  if (c.first_message?.trim()) blocks.push(longTextSection('campaignDetail.firstMessage', c.first_message, t));

  const value = encodeCampaignId(c.id);
  const buttons = [
    ...lifecycleButtons(c, validActions(c.status, c.archived), t),
    button({ text: t.t('campaignDetail.button.contacts'), actionId: ACTION_IDS.campaignContacts, value }),
  ];
  // Calls exist for phone campaigns only; a campaign without integration may still be either.
  if (channel !== 'whatsapp') {
    buttons.push(button({ text: t.t('campaignDetail.button.calls'), actionId: ACTION_IDS.campaignCalls, value }));
  }
  if (c.status !== 'finished') {
    buttons.push(button({ text: t.t('campaignDetail.button.upload'), actionId: ACTION_IDS.campaignUploadOpen, value }));
  }
  buttons.push(button({ text: t.t('campaignDetail.button.watchHere'), actionId: ACTION_IDS.campaignWatchHere, value }));
  // Calls' filter and format: for phone campaigns (a WhatsApp watch posts counts and contacts, not calls).
  if (channel !== 'whatsapp') buttons.push(settingsButton(c.id, undefined, t));
  buttons.push(reportButton(c.id, t));
  blocks.push(actions(buttons));

  return { text: fallback(tmd(t, 'campaignDetail.fallback', { name, id: String(c.id), state })), blocks };
}
