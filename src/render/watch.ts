/**
 * What watching and `/campaign try` say: the answers to watch, unwatch and watching, the confirmation a Slack Connect
 * channel needs, the notices owners get by DM when their watches stop or resume, the agent list and the try intro.
 * Plain inputs in, escaped mrkdwn out; outside text (campaign and agent names, Slack's error codes) goes through `md`
 * or `cleanLabel`.
 */
import type { MessageKey, Translator } from '../i18n/translator.js';
import { channelLabel, formatDateTime } from './format.js';
import { encodeConfirmValue, TRY_AGENT_ACTION, WATCH_CONFIRM_EXTERNAL_ACTION } from './ids.js';
import { actions, button, cleanLabel, context, fallback, md, mrkdwnSection, raw, truncate } from './mrkdwn.js';
import { tmd } from './text.js';
import type { KnownBlock, SlackMessage } from './types.js';
import { settingsButton, settingsWords, type SettingsShown } from './watch-settings.js';

/** One sentence as a message. */
export function note(sentence: string): SlackMessage {
  return { text: fallback(sentence), blocks: [mrkdwnSection(sentence)] };
}

/** `<#C123>`: a channel id (from Slack's payload or our records) as a link, our own mrkdwn. */
const channelLink = (channelId: string) => raw(`<#${channelId}>`);

// ---------------------------------------------------------------------------------------------------------------
// Getting the bot into a channel

export const inviteSentence = (channelId: string, t: Translator) =>
  tmd(t, 'watch.invite', { channel: channelLink(channelId) });

/** The bot is not in a public channel it was not to join by itself (a report's target). */
export const notInChannelSentence = (channelId: string, t: Translator) =>
  tmd(t, 'watch.notInChannel', { channel: channelLink(channelId) });

export const archivedSentence = (channelId: string, t: Translator) =>
  tmd(t, 'watch.archived', { channel: channelLink(channelId) });

export const joinFailedSentence = (channelId: string, code: string, t: Translator) =>
  tmd(t, 'watch.joinFailed', { channel: channelLink(channelId), code });

// ---------------------------------------------------------------------------------------------------------------
// Who will read what a watch posts (see slack/watch/channel-privacy.ts)

/**
 * The answer to a watch into a Slack Connect channel (`external` true) or one whose sharing is unknown (`external`
 * undefined): nothing started yet, a button to confirm.
 */
export function confirmExternalMessage(
  campaign: { id: number; name: string },
  channelId: string,
  external: boolean | undefined,
  t: Translator,
): SlackMessage {
  return sharedChannelConfirmation({
    text: tmd(t, 'watch.confirm.text', {
      sharing: external === undefined ? 'unknown' : 'external',
      channel: channelLink(channelId),
      campaign: raw(campaignNameLabel(campaign)),
    }),
    button: t.t('watch.confirm.button'),
    actionId: WATCH_CONFIRM_EXTERNAL_ACTION,
    value: encodeConfirmValue({ campaignId: campaign.id, channelId }),
    alternative: tmd(t, 'watch.confirm.alternative', { id: String(campaign.id) }),
  });
}

/**
 * The shape of every Slack Connect confirmation (a watch's, a report's, a report schedule's): who would read what
 * (mrkdwn), the button that goes ahead, and the other way (mrkdwn).
 */
export function sharedChannelConfirmation(c: {
  text: string;
  button: string;
  actionId: string;
  value: string;
  alternative: string;
}): SlackMessage {
  return {
    text: fallback(c.text),
    blocks: [
      mrkdwnSection(c.text),
      actions([button({ text: c.button, actionId: c.actionId, value: c.value, style: 'danger' })]),
      context(c.alternative),
    ],
  };
}

/** `*Spring promo* (#12)`, escaped. */
export function campaignNameLabel(campaign: { id: number; name: string }): string {
  return md`*${cleanLabel(campaign.name, 120)}* (#${campaign.id})`;
}

// ---------------------------------------------------------------------------------------------------------------
// Watch, unwatch, watching

export function alreadyWatchingMessage(
  channelId: string,
  campaign: { id: number; name: string },
  t: Translator,
): SlackMessage {
  const m = note(
    tmd(t, 'watch.already', { channel: channelLink(channelId), campaign: raw(campaignNameLabel(campaign)) }),
  );
  return { ...m, blocks: [...m.blocks, actions([settingsButton(campaign.id, channelId, t)])] };
}

/** Posted in the channel that starts watching (in the channel's language): who set it, and what will appear there. */
export function watchIntroMessage(
  input: {
    userId: string;
    campaign: { id: number; name: string };
    kind: 'phone_call' | 'whatsapp';
  },
  t: Translator,
): SlackMessage {
  const intro = tmd(t, 'watch.intro', {
    who: raw(`<@${input.userId}>`),
    campaign: raw(campaignNameLabel(input.campaign)),
    channel: channelLabel(input.kind, t),
    kind: input.kind,
  });
  return { text: fallback(intro), blocks: [mrkdwnSection(intro)] };
}

/** The answer to whoever started a watch, with who can read the channel. */
export function watchStartedMessage(
  input: {
    channelId: string;
    campaign: { id: number; name: string };
    /** It had been suspended. */
    resumed: boolean;
    publicChannel: boolean;
    external: boolean;
    /** Settings typed with the watch: what the channel will show. */
    settings?: SettingsShown;
  },
  t: Translator,
): SlackMessage {
  const channel = channelLink(input.channelId);
  const done = tmd(t, 'watch.started', {
    channel,
    campaign: raw(campaignNameLabel(input.campaign)),
    resumed: input.resumed ? 'yes' : 'no',
  });
  const warnings = [
    ...(input.publicChannel ? [tmd(t, 'watch.publicChannel', { channel })] : []),
    ...(input.external ? [tmd(t, 'watch.externalChannel', { channel })] : []),
  ];
  return {
    text: fallback(done),
    blocks: [
      mrkdwnSection(done),
      ...(input.settings ? [context(settingsWords(input.settings, t))] : []),
      ...warnings.map((w) => mrkdwnSection(w)),
      actions([settingsButton(input.campaign.id, input.channelId, t)]),
    ],
  };
}

export function notWatchingMessage(channelId: string, campaignId: number, t: Translator): SlackMessage {
  return note(tmd(t, 'watch.notWatching', { channel: channelLink(channelId), id: String(campaignId) }));
}

export function unwatchedMessage(
  channelId: string,
  campaignId: number,
  campaignName: string | undefined,
  t: Translator,
): SlackMessage {
  return note(
    tmd(t, 'watch.unwatched', {
      channel: channelLink(channelId),
      id: String(campaignId),
      named: campaignName ? 'yes' : 'no',
      name: cleanLabel(campaignName ?? '', 120),
    }),
  );
}

/** A channel's watch of a campaign, as `/campaign watching` lists it. */
export interface WatchingLine {
  campaignId: number;
  campaignName?: string;
  channelId: string;
  kind: 'phone_call' | 'whatsapp' | 'unknown';
  createdAt: string;
  createdBy: string;
  /** Stopped: Slack refused the channel (its error code), or the campaign is gone from the service. */
  suspended?: { error: string };
  campaignGone: boolean;
  /** Its format and filter (absent: detailed, every call). */
  format?: SettingsShown['format'];
  filter?: SettingsShown['filter'];
}

/** Sections a `/campaign watching` answer holds at most (Slack: 50 blocks; one for the header, one for "more"). */
const WATCHING_SECTIONS = 48;

/**
 * Every subscription, per channel, suspended ones with the reason; in the words and the timezone (`timeZone`, the
 * service's default without one) of the person who asked.
 */
export function watchingMessage(subs: WatchingLine[], opts: { timeZone?: string }, t: Translator): SlackMessage {
  if (subs.length === 0) return note(t.t('watching.none'));
  const byChannel = new Map<string, WatchingLine[]>();
  for (const s of subs) byChannel.set(s.channelId, [...(byChannel.get(s.channelId) ?? []), s]);
  // One section per watch, its channel named above its first one, with its settings in words and their button.
  const sections: KnownBlock[] = [];
  let channelsShown = 0;
  let watchesShown = 0;
  for (const [channel, list] of byChannel) {
    if (sections.length >= WATCHING_SECTIONS) break;
    channelsShown++;
    list.sort((a, b) => a.campaignId - b.campaignId);
    for (const [i, s] of list.entries()) {
      if (sections.length >= WATCHING_SECTIONS) break;
      watchesShown++;
      const line = tmd(t, 'watching.line', {
        id: String(s.campaignId),
        named: s.campaignName ? 'yes' : 'no',
        name: cleanLabel(s.campaignName ?? '', 80),
        kind: channelLabel(s.kind === 'unknown' ? null : s.kind, t),
        since: formatDateTime(s.createdAt, opts.timeZone, t),
        who: raw(`<@${s.createdBy}>`),
        state: !s.suspended ? 'watching' : s.campaignGone ? 'gone' : 'suspended',
        error: s.suspended?.error ?? '',
        channel: channelLink(channel),
      });
      const settings = s.kind === 'whatsapp' ? '' : `\n      ${settingsWords(s, t)}`;
      sections.push({
        ...mrkdwnSection(`${i === 0 ? `*<#${channel}>*\n` : ''}${line}${settings}`),
        ...(s.kind === 'whatsapp' ? {} : { accessory: settingsButton(s.campaignId, channel, t) }),
      });
    }
  }
  const blocks: KnownBlock[] = [
    mrkdwnSection(t.t('watching.header', { subs: subs.length, channels: byChannel.size })),
    ...sections,
  ];
  if (watchesShown < subs.length) {
    blocks.push(context(t.t('watching.more', { count: Math.max(1, byChannel.size - channelsShown) })));
  }
  return { text: fallback(t.t('watching.fallback', { subs: subs.length })), blocks };
}

// ---------------------------------------------------------------------------------------------------------------
// Watches that stop and resume: what their owners are told by DM (in the owner's language)

/** A watched campaign as a notice names it. */
export interface WatchedCampaign {
  campaignId: number;
  campaignName?: string;
}

/** Why Slack refused a channel, and what fixes it, per error code. */
const CHANNEL_REASONS: Record<string, { why: MessageKey; fix: MessageKey }> = {
  is_archived: { why: 'watch.reason.archived', fix: 'watch.fix.unarchive' },
  not_in_channel: { why: 'watch.reason.removed', fix: 'watch.fix.invite' },
  no_permission: { why: 'watch.reason.noPermission', fix: 'watch.fix.invite' },
  channel_not_found: { why: 'watch.reason.notFound', fix: 'watch.fix.invite' },
  restricted_action: { why: 'watch.reason.restricted', fix: 'watch.fix.postingPermissions' },
};
CHANNEL_REASONS.channel_is_archived = CHANNEL_REASONS.is_archived!;

/** Why (a clause) and what fixes it (a sentence), as mrkdwn. */
function reasonOf(code: string, t: Translator): { why: string; fix: string } {
  const known =
    CHANNEL_REASONS[code] ?? (code.startsWith('restricted_action') ? CHANNEL_REASONS.restricted_action : undefined);
  if (known) return { why: t.t(known.why), fix: t.t(known.fix) };
  return { why: tmd(t, 'watch.reason.other', { code }), fix: t.t('watch.fix.other') };
}

/** `#12 (Spring promo)`, escaped. */
function campaignLabel(s: WatchedCampaign): string {
  return md`#${s.campaignId}${raw(s.campaignName ? md` (${cleanLabel(s.campaignName, 120)})` : '')}`;
}

const labelsOf = (subs: WatchedCampaign[]) => raw(subs.map(campaignLabel).join(', '));

/** Slack refused a channel: which of the owner's watches stopped there, why, and what fixes it. */
export function channelSuspendedNotice(
  subs: WatchedCampaign[],
  channelId: string,
  code: string,
  t: Translator,
): string {
  const { why, fix } = reasonOf(code, t);
  return tmd(t, 'watch.notice.suspended', {
    count: subs.length,
    campaigns: labelsOf(subs),
    channel: channelLink(channelId),
    why: raw(why),
    fix: raw(fix),
    id: String(subs[0]!.campaignId),
  });
}

/** The service no longer has a campaign: the owner's watches of it stopped in `channelIds`. */
export function campaignGoneNotice(campaign: WatchedCampaign, channelIds: string[], t: Translator): string {
  const channels = [...new Set(channelIds.map((id) => `<#${id}>`))].join(', ');
  return tmd(t, 'watch.notice.gone', {
    campaign: raw(campaignLabel(campaign)),
    channels: raw(channels),
    id: String(campaign.campaignId),
  });
}

/** Why a channel's suspended watches resumed. */
export type ResumeReason = 'invited' | 'unarchived' | 'reachable';

/** A channel's suspended watches resumed. */
export function channelResumedNotice(
  subs: WatchedCampaign[],
  channelId: string,
  why: ResumeReason,
  t: Translator,
): string {
  return tmd(t, 'watch.notice.resumed', {
    channel: channelLink(channelId),
    count: subs.length,
    campaigns: labelsOf(subs),
    why,
  });
}

// ---------------------------------------------------------------------------------------------------------------
// `/campaign try` (for the person who tries, in their language)

const MAX_AGENTS_SHOWN = 20;

/** The agents seen in the organization's campaigns (id -> name), each with a Try button. */
export function tryableAgentsMessage(known: Map<string, string>, t: Translator): SlackMessage {
  const agents = [...known];
  if (agents.length === 0) {
    const text = t.t('try.noAgents');
    return { text, blocks: [mrkdwnSection(text)] };
  }
  const blocks: KnownBlock[] = [mrkdwnSection(t.t('try.header'))];
  for (const [id, name] of agents.slice(0, MAX_AGENTS_SHOWN)) {
    blocks.push({
      ...mrkdwnSection(md`*${cleanLabel(name, 150)}*\n\`${truncate(id, 80)}\``),
      accessory: button({ text: t.t('try.button'), actionId: TRY_AGENT_ACTION, value: id.slice(0, 100) }),
    });
  }
  if (agents.length > MAX_AGENTS_SHOWN) {
    blocks.push(context(t.t('try.more', { count: agents.length - MAX_AGENTS_SHOWN })));
  }
  return { text: t.t('try.fallback'), blocks };
}

/** Posted in the person's DM when a try starts. */
export function tryIntroMessage(
  input: { agentId: string; agentName?: string; endUserId: string },
  t: Translator,
): SlackMessage {
  const { agentId, agentName, endUserId } = input;
  const intro = tmd(t, 'try.intro', {
    agent: cleanLabel(agentName ?? agentId, 150),
    named: agentName ? 'yes' : 'no',
    agentId,
    endUserId,
  });
  return { text: fallback(intro), blocks: [mrkdwnSection(intro)] };
}

/** The answer where the person asked for the try. */
export function tryStartedMessage(agentId: string, agentName: string | undefined, t: Translator): SlackMessage {
  return note(tmd(t, 'try.started', { agent: cleanLabel(agentName ?? agentId, 150) }));
}

// ---------------------------------------------------------------------------------------------------------------
// Replies relayed from Slack (src/watch/relay.ts): what their author is told

/** Someone wrote in their DM with the app without a try going on (a message's text, no blocks). */
export function tryHintText(t: Translator): string {
  return t.t('relay.tryHint');
}

/** A reply could not be sent to the service (`reason`: the service's error in words, escaped here). */
export function relayFailedSentence(reason: string, t: Translator): string {
  return tmd(t, 'relay.failed', { reason });
}

/** A reply in the thread of a call whose campaign the channel no longer watches (or whose watch is suspended there). */
export function relayUnwatchedSentence(campaignId: number, suspended: boolean, t: Translator): string {
  return tmd(t, 'relay.unwatched', { id: String(campaignId), state: suspended ? 'suspended' : 'unwatched' });
}
