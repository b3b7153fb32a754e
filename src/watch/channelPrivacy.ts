/**
 * Who will read what a watch posts. Call details, phone numbers and conversation transcripts go into the watching
 * channel, so before a watch starts:
 *
 * - a public channel: the answer says that everyone in the workspace can read them (the watch starts);
 * - a Slack Connect channel (`is_ext_shared`, or an invitation pending, `is_pending_ext_shared`: people of another
 *   organization are, or are about to be, members): the typed command, the "Watch here" button or the Home tab form
 *   only shows a confirmation button; the watch starts when a permitted person presses it (checked and audited like
 *   any watch). So does a channel whose sharing Slack would not tell us (conversations.info refused for a scope).
 */
import { encodeConfirmValue, WATCH_CONFIRM_EXTERNAL_ACTION } from '../render/ids.js';
import { actions, button, cleanLabel, context, fallback, md, mrkdwnSection, raw } from '../render/mrkdwn.js';
import type { SlackMessage } from '../render/types.js';

/** Who can read a channel, as far as watching it is concerned. */
export interface ChannelAudience {
  kind: 'dm' | 'private' | 'public' | 'unknown';
  /** People of another organization are (or may be) members; undefined: Slack did not say. */
  external: boolean | undefined;
}

/** The channel facts conversations.info gives that matter here. */
export interface ChannelInfoFacts {
  is_im?: boolean;
  is_mpim?: boolean;
  is_private?: boolean;
  is_ext_shared?: boolean;
  is_pending_ext_shared?: boolean;
}

export function audienceOf(info: ChannelInfoFacts | undefined): ChannelAudience {
  if (!info) return { kind: 'unknown', external: undefined };
  const external = Boolean(info.is_ext_shared || info.is_pending_ext_shared);
  if (info.is_im) return { kind: 'dm', external };
  return { kind: info.is_private || info.is_mpim ? 'private' : 'public', external };
}

/** Whether starting a watch there needs the confirmation button first. */
export function needsConfirmation(a: ChannelAudience): boolean {
  return a.external !== false;
}

/** Added to the answer when a public channel starts watching. */
export function publicChannelSentence(channelId: string): string {
  return (
    md`⚠️ <#${raw(channelId)}> is a public channel: the call details, phone numbers and conversation transcripts ` +
    'I post there can be read by everyone in the workspace, not only its members.'
  );
}

/** Added to the answer when a confirmed Slack Connect channel starts watching. */
export function externalChannelSentence(channelId: string): string {
  return md`⚠️ <#${raw(channelId)}> is shared with another organization: its people can read what I post there.`;
}

/** The answer to a watch into a Slack Connect channel (or one whose sharing is unknown): nothing started yet. */
export function confirmExternalMessage(
  campaign: { id: number; name: string },
  channelId: string,
  audience: ChannelAudience,
): SlackMessage {
  const name = md`*${cleanLabel(campaign.name, 120)}* (#${campaign.id})`;
  const why =
    audience.external === undefined
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
