/**
 * What watching and `/campaign try` say: the answers to watch, unwatch and watching, the confirmation a Slack Connect
 * channel needs, the notices owners get by DM when their watches stop or resume, the agent list and the try intro.
 * Plain inputs in, escaped mrkdwn out; outside text (campaign and agent names, Slack's error codes) goes through `md`
 * or `cleanLabel`.
 */
import { channelLabel, formatDateTime, plural } from './format.js';
import { encodeConfirmValue, TRY_AGENT_ACTION, WATCH_CONFIRM_EXTERNAL_ACTION } from './ids.js';
import {
  actions,
  button,
  cleanLabel,
  context,
  escapeMrkdwn,
  fallback,
  md,
  mrkdwnSection,
  raw,
  truncate,
} from './mrkdwn.js';
import type { KnownBlock, SlackMessage } from './types.js';

/** One sentence as a message. */
export function note(sentence: string): SlackMessage {
  return { text: fallback(sentence), blocks: [mrkdwnSection(sentence)] };
}

// ---------------------------------------------------------------------------------------------------------------
// Getting the bot into a channel

export const inviteSentence = (channelId: string) =>
  `I can't post in <#${channelId}>: it is private (or I can't see it). Invite me there with \`/invite @Outreach\` in that channel, then run the command again.`;

export const archivedSentence = (channelId: string) =>
  `<#${channelId}> is archived. Unarchive it or pick another channel.`;

export const joinFailedSentence = (channelId: string, code: string) =>
  `I couldn't join <#${channelId}> (${escapeMrkdwn(code)}). Invite me with \`/invite @Outreach\` there, then try again.`;

// ---------------------------------------------------------------------------------------------------------------
// Who will read what a watch posts (see slack/watch/channel-privacy.ts)

/** Added to the answer when a public channel starts watching. */
function publicChannelSentence(channelId: string): string {
  return (
    md`⚠️ <#${raw(channelId)}> is a public channel: the call details, phone numbers and conversation transcripts ` +
    'I post there can be read by everyone in the workspace, not only its members.'
  );
}

/** Added to the answer when a confirmed Slack Connect channel starts watching. */
function externalChannelSentence(channelId: string): string {
  return md`⚠️ <#${raw(channelId)}> is shared with another organization: its people can read what I post there.`;
}

/**
 * The answer to a watch into a Slack Connect channel (`external` true) or one whose sharing is unknown (`external`
 * undefined): nothing started yet, a button to confirm.
 */
export function confirmExternalMessage(
  campaign: { id: number; name: string },
  channelId: string,
  external: boolean | undefined,
): SlackMessage {
  const name = md`*${cleanLabel(campaign.name, 120)}* (#${campaign.id})`;
  const why =
    external === undefined
      ? md`I can't tell whether <#${raw(channelId)}> is shared with people of another organization (Slack would not say).`
      : md`<#${raw(channelId)}> is a Slack Connect channel: people of another organization are members.`;
  const text =
    md`🔐 ${raw(why)} If it watches ${raw(name)}, they will read its call details, phone numbers and conversation ` +
    'transcripts. Nothing has started yet.';
  return {
    text: fallback(text),
    blocks: [
      mrkdwnSection(text),
      actions([
        button({
          text: 'Watch it there anyway',
          actionId: WATCH_CONFIRM_EXTERNAL_ACTION,
          value: encodeConfirmValue({ campaignId: campaign.id, channelId }),
          style: 'danger',
        }),
      ]),
      context(md`Or watch it in a channel of your organization only: \`/campaign watch ${campaign.id} #channel\`.`),
    ],
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Watch, unwatch, watching

/** `*Spring promo* (#12)`, escaped. */
function campaignNameLabel(campaign: { id: number; name: string }): string {
  return md`*${cleanLabel(campaign.name, 120)}* (#${campaign.id})`;
}

export function alreadyWatchingMessage(channelId: string, campaign: { id: number; name: string }): SlackMessage {
  return note(`👀 <#${channelId}> already watches ${campaignNameLabel(campaign)}.`);
}

/** Posted in the channel that starts watching: who set it, and what will appear there. */
export function watchIntroMessage(input: {
  userId: string;
  campaign: { id: number; name: string };
  kind: 'phone_call' | 'whatsapp';
}): SlackMessage {
  const what =
    input.kind === 'whatsapp'
      ? 'contact status counts (one message, updated in place) and each contact that converts, rejects or fails'
      : "each call (one message, updated as it goes) with its conversation in the message's thread";
  const intro =
    md`👀 <@${raw(input.userId)}> set this channel to watch ${raw(campaignNameLabel(input.campaign))} · ${channelLabel(input.kind)}.\n` +
    md`I'll post ${what}. A responder's reply in a call's thread goes to the agent for the contact; start with \`note:\` or \`//\` to keep it internal (other people's replies stay internal too).`;
  return { text: fallback(intro), blocks: [mrkdwnSection(intro)] };
}

/** The answer to whoever started a watch, with who can read the channel. */
export function watchStartedMessage(input: {
  channelId: string;
  campaign: { id: number; name: string };
  /** It had been suspended. */
  resumed: boolean;
  publicChannel: boolean;
  external: boolean;
}): SlackMessage {
  const { channelId } = input;
  const resumed = input.resumed ? ' again (it had been suspended)' : '';
  const done = `✅ <#${channelId}> now watches ${campaignNameLabel(input.campaign)}${resumed}. Calls from now on appear there.`;
  const warnings = [
    ...(input.publicChannel ? [publicChannelSentence(channelId)] : []),
    ...(input.external ? [externalChannelSentence(channelId)] : []),
  ];
  return { text: fallback(done), blocks: [mrkdwnSection(done), ...warnings.map((w) => mrkdwnSection(w))] };
}

export function notWatchingMessage(channelId: string, campaignId: number): SlackMessage {
  return note(`<#${channelId}> doesn't watch campaign #${campaignId}. See \`/campaign watching\`.`);
}

export function unwatchedMessage(
  channelId: string,
  campaignId: number,
  campaignName: string | undefined,
): SlackMessage {
  return note(
    md`✅ <#${raw(channelId)}> no longer watches campaign #${campaignId}${raw(campaignName ? md` (${cleanLabel(campaignName, 120)})` : '')}. Messages already posted stay.`,
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
}

/** Every subscription, per channel, suspended ones with the reason. */
export function watchingMessage(subs: WatchingLine[]): SlackMessage {
  if (subs.length === 0) {
    return note('No channel watches a campaign. Start with `/campaign watch &lt;id&gt; [#channel]`.');
  }
  const byChannel = new Map<string, WatchingLine[]>();
  for (const s of subs) byChannel.set(s.channelId, [...(byChannel.get(s.channelId) ?? []), s]);
  const sections = [...byChannel].map(([channel, list]) => {
    const lines = list
      .sort((a, b) => a.campaignId - b.campaignId)
      .map((s) => {
        const name = s.campaignName ? md` ${cleanLabel(s.campaignName, 80)}` : '';
        const state = !s.suspended
          ? ''
          : s.campaignGone
            ? md` · ⛔ deleted in the service — \`/campaign unwatch ${s.campaignId} <#${raw(channel)}>\` removes it`
            : md` · ⛔ suspended (${s.suspended.error}): resumes by itself once I can post there again, or run \`/campaign watch ${s.campaignId} <#${raw(channel)}>\``;
        return md`• #${s.campaignId}${raw(name)} · ${channelLabel(s.kind === 'unknown' ? null : s.kind)} · since ${formatDateTime(s.createdAt)} by <@${raw(s.createdBy)}>${raw(state)}`;
      });
    return mrkdwnSection(`*<#${channel}>*\n${lines.join('\n')}`);
  });
  const blocks: KnownBlock[] = [
    mrkdwnSection(
      `*👀 Watching* · ${escapeMrkdwn(plural(subs.length, 'subscription'))} in ${escapeMrkdwn(plural(byChannel.size, 'channel'))}`,
    ),
    ...sections.slice(0, 47),
  ];
  if (sections.length > 47) blocks.push(context(`…and ${sections.length - 47} more channels.`));
  return { text: fallback(`Watching: ${plural(subs.length, 'subscription')}`), blocks };
}

// ---------------------------------------------------------------------------------------------------------------
// Watches that stop and resume: what their owners are told by DM

/** A watched campaign as a notice names it. */
export interface WatchedCampaign {
  campaignId: number;
  campaignName?: string;
}

const INVITE = 'Invite me back with `/invite @Outreach` in that channel: posting picks up again by itself.';

/** Why Slack refused a channel, and what fixes it, per error code. */
const CHANNEL_REASONS: Record<string, { why: string; fix: string }> = {
  is_archived: {
    why: 'the channel was archived',
    fix: 'Unarchive it (and invite me back with `/invite @Outreach` if I am no longer in it): posting picks up again by itself.',
  },
  not_in_channel: { why: 'I was removed from the channel', fix: INVITE },
  no_permission: { why: 'Slack no longer lets me post there (I am probably no longer in it)', fix: INVITE },
  channel_not_found: {
    why: 'the channel no longer exists, or I can no longer see it (a private channel I was removed from)',
    fix: INVITE,
  },
  restricted_action: {
    why: "the channel's posting permissions do not let me post",
    fix: 'Let apps post there (channel settings › Posting permissions), then run `/campaign watch` again for it.',
  },
};
CHANNEL_REASONS.channel_is_archived = CHANNEL_REASONS.is_archived!;

function reasonOf(code: string): { why: string; fix: string } {
  const known =
    CHANNEL_REASONS[code] ?? (code.startsWith('restricted_action') ? CHANNEL_REASONS.restricted_action : undefined);
  return (
    known ?? {
      why: md`Slack answered \`${code}\``,
      fix: 'Once that is sorted out in Slack, run `/campaign watch` again for it.',
    }
  );
}

/** `#12 (Spring promo)`, escaped. */
function campaignLabel(s: WatchedCampaign): string {
  return md`#${s.campaignId}${raw(s.campaignName ? md` (${cleanLabel(s.campaignName, 120)})` : '')}`;
}

function listOf(subs: WatchedCampaign[]): string {
  const labels = subs.map(campaignLabel);
  return `${subs.length > 1 ? 'campaigns' : 'campaign'} ${labels.join(', ')}`;
}

/** Slack refused a channel: which of the owner's watches stopped there, why, and what fixes it. */
export function channelSuspendedNotice(subs: WatchedCampaign[], channelId: string, code: string): string {
  const { why, fix } = reasonOf(code);
  return (
    md`⛔ I stopped posting ${raw(listOf(subs))} into <#${raw(channelId)}>: ${raw(why)}. ${raw(fix)} ` +
    md`Or watch it in another channel: \`/campaign watch ${subs[0]!.campaignId} #other-channel\`.`
  );
}

/** The service no longer has a campaign: the owner's watches of it stopped in `channelIds`. */
export function campaignGoneNotice(campaign: WatchedCampaign, channelIds: string[]): string {
  const channels = [...new Set(channelIds.map((id) => `<#${id}>`))].join(', ');
  return (
    md`⛔ Campaign ${raw(campaignLabel(campaign))} no longer exists in the Outreach service (it was deleted there), so I stopped watching it in ${raw(channels)}. ` +
    md`Messages already posted stay. \`/campaign unwatch ${campaign.campaignId} #channel\` removes it from \`/campaign watching\`.`
  );
}

/** A channel's suspended watches resumed (`why`: our own words). */
export function channelResumedNotice(subs: WatchedCampaign[], channelId: string, why: string): string {
  return md`▶️ <#${raw(channelId)}> watches ${raw(listOf(subs))} again (${why}); posting picked up where it stopped.`;
}

// ---------------------------------------------------------------------------------------------------------------
// `/campaign try`

const MAX_AGENTS_SHOWN = 20;

/** The agents seen in the organization's campaigns (id -> name), each with a Try button. */
export function tryableAgentsMessage(known: Map<string, string>): SlackMessage {
  const agents = [...known];
  if (agents.length === 0) {
    const text = 'No agent found in your campaigns yet. Run `/campaign try &lt;agent id&gt;` with the id of an agent.';
    return { text, blocks: [mrkdwnSection(text)] };
  }
  const blocks: KnownBlock[] = [
    mrkdwnSection('*🧪 Try an agent* in your DM with me before launching a campaign. Agents seen in your campaigns:'),
  ];
  for (const [id, name] of agents.slice(0, MAX_AGENTS_SHOWN)) {
    blocks.push({
      ...mrkdwnSection(md`*${cleanLabel(name, 150)}*\n\`${truncate(id, 80)}\``),
      accessory: button({ text: 'Try', actionId: TRY_AGENT_ACTION, value: id.slice(0, 100) }),
    });
  }
  if (agents.length > MAX_AGENTS_SHOWN) {
    blocks.push(context(`…and ${agents.length - MAX_AGENTS_SHOWN} more: use \`/campaign try &lt;agent id&gt;\`.`));
  }
  return { text: 'Try an agent', blocks };
}

/** Posted in the person's DM when a try starts. */
export function tryIntroMessage(input: { agentId: string; agentName?: string; endUserId: string }): SlackMessage {
  const { agentId, agentName, endUserId } = input;
  const intro =
    md`🧪 You are trying agent *${cleanLabel(agentName ?? agentId, 150)}*${raw(agentName ? md` (\`${agentId}\`)` : '')}.\n` +
    md`Write here: each message goes to the agent as your test contact (end user \`${endUserId}\`), and its answers appear here. ` +
    // A plain string: Prettier rewrites an `md` template without interpolations as Markdown (see mrkdwn.ts).
    '\nRun `/campaign try &lt;agent id&gt;` again to switch agents.';
  return { text: fallback(intro), blocks: [mrkdwnSection(intro)] };
}

/** The answer where the person asked for the try. */
export function tryStartedMessage(agentId: string, agentName: string | undefined): SlackMessage {
  return note(md`🧪 Started: open your DM with me and write to agent *${cleanLabel(agentName ?? agentId, 150)}*.`);
}
