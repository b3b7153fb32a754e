/** One campaign in full (`/campaign show <id>`, the "Show" button). */
import type { Analytics, CampaignDetail } from '../outreach/schemas.js';
import { ACTION_IDS, encodeCampaignId } from './ids.js';
import {
  campaignStateLabel,
  channelLabel,
  formatCount,
  formatDateTime,
  formatPercent,
  humanizeKey,
  NONE,
  plural,
  rateScale,
  yesNo,
} from './format.js';
import { lifecycleButtons } from './lifecycle.js';
import {
  actions,
  button,
  cleanLabel,
  context,
  fallback,
  fieldSections,
  header,
  md,
  mrkdwnSection,
  truncate,
} from './mrkdwn.js';
import { cyclesInWords, scheduleInWords } from './schedule.js';
import type { KnownBlock, SlackMessage } from './types.js';
import { validActions } from '../outreach/rules.js';

/** Known analytics keys per channel, in the order shown, with their labels; other keys follow, humanized. */
const KNOWN_ANALYTICS: Record<string, [key: string, label: string][]> = {
  phone_call: [
    ['calls', 'Calls'],
    ['contactsCalled', 'Contacts called'],
    ['contactsAnswered', 'Contacts answered'],
    ['contactsAnsweredRate', 'Answer rate'],
    ['contactsConverted', 'Contacts converted'],
    ['contactsConvertedRate', 'Conversion rate'],
  ],
  whatsapp: [
    ['sent', 'Sent'],
    ['delivered', 'Delivered'],
    ['read', 'Read'],
    ['replied', 'Replied'],
    ['converted', 'Converted'],
    ['deliveredRate', 'Delivery rate'],
    ['readRate', 'Read rate'],
    ['convertedRate', 'Conversion rate'],
  ],
};

/** At most this many analytics fields (3 sections of 10); the rest are counted in a note. */
const MAX_ANALYTICS_FIELDS = 30;

/** A key names a rate when it ends in "rate" (`convertedRate`, `answer_rate`). */
function isRateKey(key: string): boolean {
  return /rate$/i.test(key);
}

function analyticsValue(key: string, v: unknown, scale: ReturnType<typeof rateScale>): string {
  if (v === null || v === undefined) return NONE;
  if (typeof v === 'number') return isRateKey(key) ? formatPercent(v, scale) : formatCount(v);
  if (typeof v === 'boolean') return yesNo(v);
  if (typeof v === 'string') return truncate(v, 200);
  return truncate(JSON.stringify(v), 200);
}

/**
 * Analytics as mrkdwn fields ("*Calls*\n1,234"): the channel's known keys first in a fixed order, then any other
 * key humanized (`contactsVoicemail` → "Contacts voicemail"). Rates read by the per-snapshot rule of `rateScale`.
 */
export function analyticsFields(analytics: Analytics, channel: string | null | undefined): string[] {
  const known = KNOWN_ANALYTICS[channel ?? ''] ?? [];
  const rates = Object.entries(analytics)
    .filter(([k, v]) => isRateKey(k) && typeof v === 'number')
    .map(([, v]) => v as number);
  const scale = rateScale(rates);
  const knownKeys = new Set(known.map(([k]) => k));
  const entries: [label: string, value: string][] = [];
  for (const [key, label] of known) {
    if (key in analytics) entries.push([label, analyticsValue(key, analytics[key], scale)]);
  }
  for (const [key, v] of Object.entries(analytics)) {
    if (!knownKeys.has(key)) entries.push([cleanLabel(humanizeKey(key), 100), analyticsValue(key, v, scale)]);
  }
  return entries.map(([label, value]) => md`*${label}*\n${value}`);
}

function analyticsBlocks(c: CampaignDetail): KnownBlock[] {
  if (!c.analytics || Object.keys(c.analytics).length === 0) return [];
  const fields = analyticsFields(c.analytics, c.integration?.type);
  const shown = fields.slice(0, MAX_ANALYTICS_FIELDS);
  const blocks: KnownBlock[] = [mrkdwnSection('*Analytics*'), ...fieldSections(shown)];
  if (fields.length > shown.length) {
    blocks.push(context(`…and ${plural(fields.length - shown.length, 'more metric')} not shown.`));
  }
  return blocks;
}

/** A titled block of free text from outside, cut to the section limit with a note saying so. */
function longTextSection(title: string, text: string): KnownBlock {
  return mrkdwnSection(md`*${title}*\n${text}`, LONG_TEXT_NOTE);
}
const LONG_TEXT_NOTE = '… _(shortened: the full text is longer than a Slack message holds)_';

export function campaignDetailMessage(c: CampaignDetail): SlackMessage {
  const tz = c.timezone ?? null;
  const channel = c.integration?.type ?? null;
  const state = campaignStateLabel(c.status, c.archived);
  const agentName = cleanLabel(c.agent.name ?? '', 150);
  const agent = agentName ? md`${agentName}\n\`${c.agent.id}\`` : md`\`${c.agent.id}\``;

  const fields = [
    '*Agent*\n' + agent,
    md`*Integration*\n${c.integration ? c.integration.id : 'none'}`,
    md`*Timezone*\n${tz ?? 'service default'}`,
    md`*Created*\n${formatDateTime(c.created_at, tz)}`,
  ];
  if (c.retries !== null && c.retries !== undefined) fields.push(md`*Retries*\n${formatCount(c.retries)}`);
  if (c.message_limit !== null && c.message_limit !== undefined) {
    fields.push(md`*Message limit*\n${formatCount(c.message_limit)}`);
  }
  if (c.template) fields.push(md`*Template*\n${truncate(c.template, 300)}`);
  if (c.template_alt) fields.push(md`*Alternate template*\n${truncate(c.template_alt, 300)}`);

  const blocks: KnownBlock[] = [
    header(`Campaign #${c.id}`),
    mrkdwnSection(md`*${cleanLabel(c.name, 200)}*\n${state} · ${channelLabel(channel)}`),
    ...fieldSections(fields),
    mrkdwnSection(md`*Weekly schedule*\n🗓 ${scheduleInWords(c.scheduling)}\n*Cycles*\n🔁 ${cyclesInWords(c.cycles)}`),
    ...analyticsBlocks(c),
  ];
  if (c.description?.trim()) blocks.push(longTextSection('Description', c.description));
  if (c.first_message?.trim()) blocks.push(longTextSection('First message', c.first_message));

  const buttons = [
    ...lifecycleButtons(c, validActions(c.status, c.archived)),
    button({ text: '👥 Contacts', actionId: ACTION_IDS.campaignContacts, value: encodeCampaignId(c.id) }),
  ];
  // Calls exist for phone campaigns only; a campaign without integration may still be either.
  if (channel !== 'whatsapp') {
    buttons.push(button({ text: '📞 Calls', actionId: ACTION_IDS.campaignCalls, value: encodeCampaignId(c.id) }));
  }
  if (c.status !== 'finished') {
    buttons.push(
      button({ text: '📤 Upload contacts', actionId: ACTION_IDS.campaignUploadOpen, value: encodeCampaignId(c.id) }),
    );
  }
  buttons.push(
    button({ text: '👀 Watch here', actionId: ACTION_IDS.campaignWatchHere, value: encodeCampaignId(c.id) }),
  );
  blocks.push(actions(buttons));

  return { text: fallback(md`Campaign ${cleanLabel(c.name, 200)} (#${c.id}): ${state}`), blocks };
}
