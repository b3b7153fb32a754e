/**
 * Watches that stop, and start again by themselves.
 *
 * - A channel Slack refuses (archived, not found, bot removed, no permission): that channel's watches are suspended,
 *   no other, and whoever set each one is told by DM why and what fixes it. They resume by themselves when the cause
 *   is gone: the bot re-invited (`member_joined_channel`), the channel unarchived (`channel_unarchive` /
 *   `group_unarchive`), or, as a safety net for events missed while the app was down, a periodic `conversations.info`
 *   that finds the channel reachable again.
 * - A campaign the service no longer has (404): its watches are suspended in every channel and their owners told;
 *   nothing brings such a watch back (`/campaign unwatch` removes it).
 *
 * A watch suspended again for the same reason within a day of the last DM about it does not DM again (a cause that
 * `conversations.info` cannot see, such as `no_permission` while still a member, may resume and stop again).
 */
import { cleanLabel, md, raw } from '../render/mrkdwn.js';
import type { PermanentSlackError } from './slackPoster.js';
import { TOKEN_ERRORS } from './slackPoster.js';
import { subKey, type Subscription } from './state.js';
import type { WatchService } from './service.js';

/** A campaign deleted in the service. */
export const CAMPAIGN_GONE = 'campaign_not_found';

const RENOTIFY_AFTER_MS = 24 * 3600_000;

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

const isCampaignGone = (s: Subscription) => s.suspended?.error === CAMPAIGN_GONE;

/** `#12 (Spring promo)`, escaped. */
function campaignLabel(s: Subscription): string {
  return md`#${s.campaignId}${raw(s.campaignName ? md` (${cleanLabel(s.campaignName, 120)})` : '')}`;
}

function listOf(subs: Subscription[]): string {
  const labels = subs.map(campaignLabel);
  return `${subs.length > 1 ? 'campaigns' : 'campaign'} ${labels.join(', ')}`;
}

/** Groups by who set the watch. */
function byOwner(subs: Subscription[]): Map<string, Subscription[]> {
  const m = new Map<string, Subscription[]>();
  for (const s of subs) m.set(s.createdBy, [...(m.get(s.createdBy) ?? []), s]);
  return m;
}

async function dm(svc: WatchService, user: string, text: string): Promise<void> {
  try {
    await svc.client.chat.postMessage({ channel: user, text, unfurl_links: false, unfurl_media: false });
  } catch (e) {
    svc.deps.logger.warn({ user, err: String(e) }, 'could not tell the owner of a watch by DM');
  }
}

/** Suspends the given watches with `error`; returns those whose owners should be told (not told lately). */
async function suspend(svc: WatchService, subs: Subscription[], error: string): Promise<Subscription[]> {
  const at = new Date().toISOString();
  const tell: Subscription[] = [];
  for (const s of subs) {
    const told = s.lastNotice?.error === error && Date.now() - Date.parse(s.lastNotice.at) < RENOTIFY_AFTER_MS;
    const next: Subscription = { ...s, suspended: { error, at } };
    if (!told) {
      next.lastNotice = { error, at };
      tell.push(s);
    }
    await svc.state.subscriptions.set(subKey(s.campaignId, s.channelId), next);
  }
  return tell;
}

/** Slack refused one channel for good: that channel's watches stop, their owners are told why and how to fix it. */
export async function suspendChannel(svc: WatchService, err: PermanentSlackError): Promise<void> {
  const affected = svc.state.subscriptions.values().filter((s) => !s.suspended && s.channelId === err.channel);
  const tell = await suspend(svc, affected, err.code);
  svc.deps.logger.warn(
    { channel: err.channel, error: err.code, suspended: affected.length },
    "Slack refused a channel: that channel's watches are suspended until it is reachable again",
  );
  const { why, fix } = reasonOf(err.code);
  for (const [owner, subs] of byOwner(tell)) {
    await dm(
      svc,
      owner,
      md`⛔ I stopped posting ${raw(listOf(subs))} into <#${raw(err.channel)}>: ${raw(why)}. ${raw(fix)} ` +
        md`Or watch it in another channel: \`/campaign watch ${subs[0]!.campaignId} #other-channel\`.`,
    );
  }
}

/** The service no longer has this campaign: its watches stop everywhere, their owners are told. */
export async function suspendCampaign(svc: WatchService, campaignId: number): Promise<void> {
  const affected = svc.state.activeSubscriptions(campaignId);
  if (affected.length === 0) return;
  const tell = await suspend(svc, affected, CAMPAIGN_GONE);
  svc.deps.logger.warn(
    { campaignId, suspended: affected.length },
    'the outreach service no longer has a watched campaign: its watches are suspended',
  );
  for (const [owner, subs] of byOwner(tell)) {
    const channels = [...new Set(subs.map((s) => `<#${s.channelId}>`))].join(', ');
    await dm(
      svc,
      owner,
      md`⛔ Campaign ${raw(campaignLabel(subs[0]!))} no longer exists in the Outreach service (it was deleted there), so I stopped watching it in ${raw(channels)}. ` +
        md`Messages already posted stay. \`/campaign unwatch ${campaignId} #channel\` removes it from \`/campaign watching\`.`,
    );
  }
}

/** Resumes the channel's watches that Slack had refused (not those of deleted campaigns). */
export async function resumeChannel(svc: WatchService, channelId: string, why: string): Promise<number> {
  const subs = svc.state.subscriptions
    .values()
    .filter((s) => s.channelId === channelId && s.suspended && !isCampaignGone(s));
  if (subs.length === 0) return 0;
  for (const s of subs) {
    const next = { ...s };
    delete next.suspended;
    await svc.state.subscriptions.set(subKey(s.campaignId, s.channelId), next);
  }
  svc.deps.logger.info({ channel: channelId, resumed: subs.length, why }, "a channel's suspended watches resumed");
  svc.resume(channelId);
  // Only those told of this suspension hear of its end (one suspended again silently is not told either way).
  const told = subs.filter((s) => s.lastNotice && Date.parse(s.lastNotice.at) >= Date.parse(s.suspended!.at));
  for (const [owner, list] of byOwner(told)) {
    await dm(
      svc,
      owner,
      md`▶️ <#${raw(channelId)}> watches ${raw(listOf(list))} again (${why}); posting picked up where it stopped.`,
    );
  }
  return subs.length;
}

/** Whether the bot can post in the channel again, by `conversations.info`. */
async function reachable(svc: WatchService, channelId: string): Promise<boolean> {
  try {
    const info = await svc.client.conversations.info({ channel: channelId });
    const ch = info.channel as { is_archived?: boolean; is_member?: boolean; is_im?: boolean } | undefined;
    return !!ch && !ch.is_archived && (ch.is_member === true || ch.is_im === true);
  } catch {
    return false;
  }
}

/** One channel's suspension looked at again (after `channel_unarchive`, or periodically). */
export async function recheckChannel(svc: WatchService, channelId: string, why: string): Promise<number> {
  const suspended = svc.state.subscriptions
    .values()
    .filter((s) => s.channelId === channelId && s.suspended && !isCampaignGone(s));
  if (suspended.length === 0) return 0;
  // Suspended for the token by an older version: the token works (nothing is paused), so they come back.
  const tokenOnly = suspended.every((s) => TOKEN_ERRORS.has(s.suspended!.error));
  if (!tokenOnly && !(await reachable(svc, channelId))) return 0;
  return resumeChannel(svc, channelId, why);
}

/** Every channel with watches Slack had refused, looked at again. */
export async function recheckSuspendedChannels(svc: WatchService): Promise<void> {
  const channels = new Set(
    svc.state.subscriptions
      .values()
      .filter((s) => s.suspended && !isCampaignGone(s))
      .map((s) => s.channelId),
  );
  for (const ch of channels) await recheckChannel(svc, ch, 'the channel is reachable again');
}
