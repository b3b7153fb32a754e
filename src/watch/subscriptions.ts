/**
 * Watching and unwatching: which channel follows which campaign, getting the bot into the channel, and the list of
 * subscriptions (suspending and resuming them: suspensions.ts).
 */
import type { WebClient } from '@slack/web-api';
import type { CampaignDetail } from '../outreach/schemas.js';
import { cleanLabel, context, escapeMrkdwn, fallback, md, mrkdwnSection, raw } from '../render/mrkdwn.js';
import { channelLabel, formatDateTime, plural } from '../render/format.js';
import type { KnownBlock, SlackMessage } from '../render/types.js';
import {
  audienceOf,
  confirmExternalMessage,
  externalChannelSentence,
  needsConfirmation,
  publicChannelSentence,
  type ChannelAudience,
  type ChannelInfoFacts,
} from './channelPrivacy.js';
import { subKey, type Subscription } from './state.js';
import { CAMPAIGN_GONE } from './suspensions.js';
import type { WatchService } from './service.js';

export type ChannelAccess =
  | { ok: true; joined: boolean; audience: ChannelAudience }
  | { ok: false; sentence: string }
  /** A Slack Connect channel (or one whose sharing is unknown) not confirmed yet: not joined, nothing started. */
  | { ok: false; confirm: ChannelAudience };

function slackCode(err: unknown): string | undefined {
  const e = err as { data?: { error?: unknown } };
  return typeof e?.data?.error === 'string' ? e.data.error : undefined;
}

const invite = (channelId: string) =>
  `I can't post in <#${channelId}>: it is private (or I can't see it). Invite me there with \`/invite @Outreach\` in that channel, then run the command again.`;

/**
 * Makes sure the bot can post in the channel: joins a public one by itself, explains how to invite it otherwise.
 * A Slack Connect channel (or one whose sharing Slack would not tell) is neither joined nor watched until the person
 * confirmed it (`externalConfirmed`, from the confirmation button).
 */
export async function ensureBotInChannel(
  client: WebClient,
  channelId: string,
  opts: { externalConfirmed?: boolean } = {},
): Promise<ChannelAccess> {
  if (channelId.startsWith('D')) return { ok: true, joined: false, audience: { kind: 'dm', external: false } };
  let info;
  try {
    info = await client.conversations.info({ channel: channelId });
  } catch (err) {
    const code = slackCode(err);
    if (code === 'channel_not_found') return { ok: false, sentence: invite(channelId) };
    if (code !== 'missing_scope') throw err;
  }
  const ch = info?.channel as
    | ({ is_member?: boolean; is_private?: boolean; is_archived?: boolean; is_im?: boolean } & ChannelInfoFacts)
    | undefined;
  if (ch?.is_archived) {
    return { ok: false, sentence: `<#${channelId}> is archived. Unarchive it or pick another channel.` };
  }
  const audience = audienceOf(ch);
  if (needsConfirmation(audience) && !opts.externalConfirmed) return { ok: false, confirm: audience };
  // conversations.info refused for a scope (confirmed above): post and hope, as before.
  if (!ch || ch.is_member || ch.is_im) return { ok: true, joined: false, audience };
  if (ch.is_private) return { ok: false, sentence: invite(channelId) };
  try {
    await client.conversations.join({ channel: channelId });
    return { ok: true, joined: true, audience };
  } catch (err) {
    const code = slackCode(err) ?? 'unknown error';
    return {
      ok: false,
      sentence: `I couldn't join <#${channelId}> (${escapeMrkdwn(code)}). Invite me with \`/invite @Outreach\` there, then try again.`,
    };
  }
}

function note(sentence: string): SlackMessage {
  return { text: fallback(sentence), blocks: [mrkdwnSection(sentence)] };
}

export interface WatchOutcome {
  /** For the person who asked (ephemeral). */
  reply: SlackMessage;
  changed: boolean;
  /** Set when the channel could not be watched: why, for the audit trail. */
  failure?: string;
  /** Set when the watch started in a channel people of another organization can read (for the audit trail). */
  external?: string;
}

/** Starts (or resumes) a channel watching a campaign. Our sentences carry channel links; outside text is escaped. */
export async function watchCampaign(
  svc: WatchService,
  client: WebClient,
  req: { userId: string; campaignId: number; channelId: string; externalConfirmed?: boolean },
): Promise<WatchOutcome> {
  const { state } = svc;
  const campaign: CampaignDetail = await svc.deps.outreach.getCampaign(req.campaignId);
  const access = await ensureBotInChannel(client, req.channelId, { externalConfirmed: req.externalConfirmed ?? false });
  if (!access.ok && 'confirm' in access) {
    return { reply: confirmExternalMessage(campaign, req.channelId, access.confirm), changed: false };
  }
  if (!access.ok) return { reply: note(`⚠️ ${access.sentence}`), changed: false, failure: access.sentence };

  const key = subKey(req.campaignId, req.channelId);
  const existing = state.subscriptions.get(key);
  const name = md`*${cleanLabel(campaign.name, 120)}* (#${campaign.id})`;
  if (existing && !existing.suspended) {
    return { reply: note(`👀 <#${req.channelId}> already watches ${name}.`), changed: false };
  }
  const now = new Date().toISOString();
  const kind = campaign.integration?.type ?? 'phone_call';
  const sub: Subscription = existing
    ? { ...existing, kind, campaignName: campaign.name, createdBy: req.userId }
    : {
        campaignId: campaign.id,
        channelId: req.channelId,
        createdBy: req.userId,
        createdAt: now,
        startFrom: now,
        campaignName: campaign.name,
        kind,
      };
  delete sub.suspended;
  await state.subscriptions.set(key, sub);
  // What was waiting when the channel was suspended goes out now.
  if (existing?.suspended) svc.resume(req.channelId);

  const what =
    kind === 'whatsapp'
      ? 'contact status counts (one message, updated in place) and each contact that converts, rejects or fails'
      : "each call (one message, updated as it goes) with its conversation in the message's thread";
  const intro =
    md`👀 <@${raw(req.userId)}> set this channel to watch ${raw(name)} · ${channelLabel(kind)}.\n` +
    md`I'll post ${what}. A responder's reply in a call's thread goes to the agent for the contact; start with \`note:\` or \`//\` to keep it internal (other people's replies stay internal too).`;
  try {
    await svc.poster.post(req.channelId, { text: fallback(intro), blocks: [mrkdwnSection(intro)] });
  } catch (err) {
    svc.deps.logger.warn({ channel: req.channelId, err: String(err) }, 'could not post the watch confirmation');
  }
  const resumed = existing ? ' again (it had been suspended)' : '';
  const done = `✅ <#${req.channelId}> now watches ${name}${resumed}. Calls from now on appear there.`;
  // Only reached for a shared channel (or one of unknown sharing) after the confirmation button.
  const external = access.audience.kind !== 'dm' && access.audience.external !== false;
  const warnings = [
    ...(access.audience.kind === 'public' ? [publicChannelSentence(req.channelId)] : []),
    ...(external ? [externalChannelSentence(req.channelId)] : []),
  ];
  return {
    reply: { text: fallback(done), blocks: [mrkdwnSection(done), ...warnings.map((w) => mrkdwnSection(w))] },
    changed: true,
    ...(external ? { external: 'shared with another organization (or sharing unknown), confirmed by the button' } : {}),
  };
}

export async function unwatchCampaign(
  svc: WatchService,
  req: { campaignId: number; channelId: string },
): Promise<WatchOutcome> {
  const key = subKey(req.campaignId, req.channelId);
  const sub = svc.state.subscriptions.get(key);
  if (!sub) {
    return {
      reply: note(`<#${req.channelId}> doesn't watch campaign #${req.campaignId}. See \`/campaign watching\`.`),
      changed: false,
    };
  }
  await svc.state.subscriptions.delete(key);
  return {
    reply: note(
      md`✅ <#${raw(req.channelId)}> no longer watches campaign #${req.campaignId}${raw(sub.campaignName ? md` (${cleanLabel(sub.campaignName, 120)})` : '')}. Messages already posted stay.`,
    ),
    changed: true,
  };
}

/** Every subscription, per channel, suspended ones with the reason. */
export function watchingMessage(subs: Subscription[]): SlackMessage {
  if (subs.length === 0) {
    return note('No channel watches a campaign. Start with `/campaign watch &lt;id&gt; [#channel]`.');
  }
  const byChannel = new Map<string, Subscription[]>();
  for (const s of subs) byChannel.set(s.channelId, [...(byChannel.get(s.channelId) ?? []), s]);
  const sections = [...byChannel].map(([channel, list]) => {
    const lines = list
      .sort((a, b) => a.campaignId - b.campaignId)
      .map((s) => {
        const name = s.campaignName ? md` ${cleanLabel(s.campaignName, 80)}` : '';
        const state = !s.suspended
          ? ''
          : s.suspended.error === CAMPAIGN_GONE
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
