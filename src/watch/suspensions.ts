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
import type { Translator } from '../i18n/translator.js';
import type { Logger } from '../log.js';
import {
  campaignGoneNotice,
  channelResumedNotice,
  channelSuspendedNotice,
  type ResumeReason,
} from '../render/watch.js';
import type { PermanentSlackError } from './poster.js';
import type { WatchSlack } from './ports.js';
import type { Subscription, WatchState } from './state.js';

/** A campaign deleted in the service. */
export const CAMPAIGN_GONE = 'campaign_not_found';

const RENOTIFY_AFTER_MS = 24 * 3600_000;

/** What suspending and resuming works with (the watch service). */
export interface SuspensionContext {
  readonly state: WatchState;
  readonly slack: WatchSlack;
  readonly logger: Logger;
  /** Queues again what waited for the channel. */
  resume(channelId: string): Promise<void>;
  /** The words of one person (a notice is a DM to the watch's owner, in their language). */
  personWords(userId: string): Promise<{ t: Translator }>;
}

const isCampaignGone = (s: Subscription) => s.suspended?.error === CAMPAIGN_GONE;

/** Groups by who set the watch. */
function byOwner(subs: Subscription[]): Map<string, Subscription[]> {
  const m = new Map<string, Subscription[]>();
  for (const s of subs) m.set(s.createdBy, [...(m.get(s.createdBy) ?? []), s]);
  return m;
}

/** Tells the owner by DM, in their language (`text` renders the notice with their words). */
async function dm(svc: SuspensionContext, user: string, text: (t: Translator) => string): Promise<void> {
  try {
    await svc.slack.dm(user, text((await svc.personWords(user)).t));
  } catch (e) {
    svc.logger.warn({ user, err: String(e) }, 'could not tell the owner of a watch by DM');
  }
}

/** Suspends the given watches with `error`; returns those whose owners should be told (not told lately). */
async function suspend(svc: SuspensionContext, subs: Subscription[], error: string): Promise<Subscription[]> {
  const at = new Date().toISOString();
  const tell: Subscription[] = [];
  for (const s of subs) {
    const told = s.lastNotice?.error === error && Date.now() - Date.parse(s.lastNotice.at) < RENOTIFY_AFTER_MS;
    const next: Subscription = { ...s, suspended: { error, at } };
    if (!told) {
      next.lastNotice = { error, at };
      tell.push(s);
    }
    await svc.state.putSubscription(next);
  }
  return tell;
}

/** Slack refused one channel for good: that channel's watches stop, their owners are told why and how to fix it. */
export async function suspendChannel(svc: SuspensionContext, err: PermanentSlackError): Promise<void> {
  const affected = (await svc.state.subscriptionsIn(err.channel)).filter((s) => !s.suspended);
  const tell = await suspend(svc, affected, err.code);
  svc.logger.warn(
    { channel: err.channel, error: err.code, suspended: affected.length },
    "Slack refused a channel: that channel's watches are suspended until it is reachable again",
  );
  for (const [owner, subs] of byOwner(tell)) {
    await dm(svc, owner, (t) => channelSuspendedNotice(subs, err.channel, err.code, t));
  }
}

/** The service no longer has this campaign: its watches stop everywhere, their owners are told. */
export async function suspendCampaign(svc: SuspensionContext, campaignId: number): Promise<void> {
  const affected = await svc.state.activeSubscriptions(campaignId);
  if (affected.length === 0) return;
  const tell = await suspend(svc, affected, CAMPAIGN_GONE);
  svc.logger.warn(
    { campaignId, suspended: affected.length },
    'the outreach service no longer has a watched campaign: its watches are suspended',
  );
  for (const [owner, subs] of byOwner(tell)) {
    await dm(svc, owner, (t) =>
      campaignGoneNotice(
        subs[0]!,
        subs.map((s) => s.channelId),
        t,
      ),
    );
  }
}

/** Resumes the channel's watches that Slack had refused (not those of deleted campaigns). */
export async function resumeChannel(svc: SuspensionContext, channelId: string, why: ResumeReason): Promise<number> {
  const subs = (await svc.state.subscriptionsIn(channelId)).filter((s) => s.suspended && !isCampaignGone(s));
  if (subs.length === 0) return 0;
  for (const s of subs) {
    const next = { ...s };
    delete next.suspended;
    await svc.state.putSubscription(next);
  }
  svc.logger.info({ channel: channelId, resumed: subs.length, why }, "a channel's suspended watches resumed");
  await svc.resume(channelId);
  // Only those told of this suspension hear of its end (one suspended again silently is not told either way).
  const told = subs.filter((s) => s.lastNotice && Date.parse(s.lastNotice.at) >= Date.parse(s.suspended!.at));
  for (const [owner, list] of byOwner(told)) {
    await dm(svc, owner, (t) => channelResumedNotice(list, channelId, why, t));
  }
  return subs.length;
}

/** One channel's suspension looked at again (after `channel_unarchive`, or periodically). */
export async function recheckChannel(svc: SuspensionContext, channelId: string, why: ResumeReason): Promise<number> {
  const suspended = (await svc.state.subscriptionsIn(channelId)).filter((s) => s.suspended && !isCampaignGone(s));
  if (suspended.length === 0) return 0;
  // Suspended for the token by an older version: the token works (nothing is paused), so they come back.
  const tokenOnly = suspended.every((s) => svc.slack.isTokenError(s.suspended!.error));
  if (!tokenOnly && !(await svc.slack.reachable(channelId))) return 0;
  return resumeChannel(svc, channelId, why);
}

/** Every channel with watches Slack had refused, looked at again. */
export async function recheckSuspendedChannels(svc: SuspensionContext): Promise<void> {
  const channels = new Set(
    (await svc.state.allSubscriptions()).filter((s) => s.suspended && !isCampaignGone(s)).map((s) => s.channelId),
  );
  for (const ch of channels) await recheckChannel(svc, ch, 'reachable');
}
