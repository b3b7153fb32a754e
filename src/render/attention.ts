/**
 * Watches that call people in (watch's attention.ts): the assignee mentioned when the end user writes, the one
 * reminder for a customer left waiting, the DMs to a watch's owner about its campaign, and the Home tab's list of
 * conversations waiting for a reply. Pure: ids and data in, mrkdwn out, in the reader's words `t`. The mentions are
 * of Slack user ids the app got from Slack (users.lookupByEmail, or the person who set the watch), never outside text.
 */
import type { Translator } from '../i18n/translator.js';
import { formatDateTime } from './format.js';
import { cleanLabel, context, escapeMrkdwn, header, md, mrkdwnSection, raw } from './mrkdwn.js';
import { tmd } from './text.js';
import type { KnownBlock, SlackMessage } from './types.js';

/** A Slack user id as the app writes one on purpose (anything else is not mentioned). */
const SLACK_USER_ID = /^[UW][A-Z0-9]{2,30}$/;

function mention(userId: string): string | undefined {
  return SLACK_USER_ID.test(userId) ? `<@${userId}>` : undefined;
}

/** The end user's message, with the assignee called in under it (once per turn). */
export function withAssigneeMention(reply: SlackMessage, assignee: string, t: Translator): SlackMessage {
  const who = mention(assignee);
  if (!who) return reply;
  const line = tmd(t, 'attention.mention', { assignee: raw(who) });
  return { ...reply, text: `${reply.text}\n${line}`, blocks: [...(reply.blocks ?? []), context(line)] };
}

/** The one reminder in a call thread whose end user has waited `minutes` for a person's reply. */
export function waitingReminder(
  r: { assignee: string; minutes: number; endUserName?: string },
  t: Translator,
): SlackMessage {
  const name = cleanLabel(r.endUserName ?? '', 80);
  const text = tmd(t, 'attention.reminder', {
    assignee: raw(mention(r.assignee) ?? ''),
    minutes: r.minutes,
    named: name ? 'yes' : 'no',
    name,
  });
  return { text, blocks: [mrkdwnSection(text)] };
}

/** What happened to a watched campaign, told to its watch's owner by DM. */
export type CampaignEvent = 'finished' | 'paused' | 'billing';

export function campaignEventNotice(
  e: { event: CampaignEvent; campaignId: number; campaignName?: string; channelIds: string[] },
  t: Translator,
): string {
  const campaign = md`#${e.campaignId}${raw(e.campaignName ? md` (${cleanLabel(e.campaignName, 120)})` : '')}`;
  const channels = [...new Set(e.channelIds)].map((id) => `<#${id}>`).join(', ');
  return tmd(t, 'attention.notice', {
    event: e.event,
    campaign: raw(campaign),
    channels: raw(channels),
    id: String(e.campaignId),
  });
}

/** One conversation waiting for a reply, for the Home tab. */
export interface WaitingItem {
  channelId: string;
  endUserName?: string;
  /** When the end user's first unanswered message was posted. */
  since: Date;
  link?: string;
  reminded: boolean;
}

/** Conversations listed in the Home tab at most (the oldest ones). */
export const HOME_WAITING_SHOWN = 10;

/** The Home tab's "waiting for a reply" section: oldest first, each with a link to its thread. */
export function homeWaitingBlocks(items: readonly WaitingItem[], t: Translator, timeZone?: string): KnownBlock[] {
  if (items.length === 0) return [];
  const sorted = [...items].sort((a, b) => a.since.getTime() - b.since.getTime());
  const lines = sorted.slice(0, HOME_WAITING_SHOWN).map((w) => {
    const name =
      escapeMrkdwn(cleanLabel(w.endUserName ?? '', 80).replace(/\|/g, '/')) || t.t('attention.home.customer');
    const link = w.link && /^https:\/\/[^\s|<>]+$/.test(w.link) ? w.link : undefined;
    return tmd(t, 'attention.home.line', {
      who: raw(link ? `<${link}|${name}>` : name),
      channel: raw(`<#${w.channelId}>`),
      since: formatDateTime(w.since, timeZone, t),
      reminded: w.reminded ? 'yes' : 'no',
    });
  });
  const blocks: KnownBlock[] = [header(t.t('attention.home.header')), mrkdwnSection(lines.join('\n'))];
  if (sorted.length > HOME_WAITING_SHOWN) {
    blocks.push(context(t.t('attention.home.more', { count: sorted.length - HOME_WAITING_SHOWN })));
  }
  return blocks;
}
