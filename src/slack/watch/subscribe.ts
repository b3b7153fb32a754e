/**
 * Watching and unwatching, the Slack side: getting the bot into the channel (joining a public one, explaining how to
 * invite it otherwise, asking first for a Slack Connect channel), then the watch service's state change, the intro
 * posted in the channel and the answer for whoever asked. Suspending and resuming: src/watch/suspensions.ts.
 */
import type { WebClient } from '@slack/web-api';
import type { Translator } from '../../i18n/translator.js';
import type { CampaignDetail } from '../../outreach/schemas.js';
import { ENGLISH } from '../../render/format.js';
import type { SlackMessage } from '../../render/types.js';
import {
  alreadyWatchingMessage,
  archivedSentence,
  confirmExternalMessage,
  inviteSentence,
  joinFailedSentence,
  note,
  notInChannelSentence,
  notWatchingMessage,
  unwatchedMessage,
  watchIntroMessage,
  watchingMessage,
  watchStartedMessage,
} from '../../render/watch.js';
import type { WatchService, WatchSettings } from '../../watch/service.js';
import { settingsSavedMessage } from '../../render/watch-settings.js';
import type { AppDeps } from '../deps.js';
import type { Changed } from '../middleware/change.js';
import { CAMPAIGN_GONE } from '../../watch/suspensions.js';
import { readFilter } from '../../watch/filter.js';
import { platformError } from '../platform.js';
import { audienceOf, needsConfirmation, type ChannelAudience, type ChannelInfoFacts } from './channel-privacy.js';

/** The app's base and the watch service. */
export type WatchDeps = AppDeps & { watch: WatchService };

/** What a watch request names; `externalConfirmed`: the Slack Connect confirmation button was pressed. */
export interface WatchRequest {
  userId: string;
  campaignId: number;
  channelId: string;
  externalConfirmed?: boolean;
  /** Settings chosen with the watch (the Watch settings form, or typed: settings.ts `typedSettings`). */
  settings?: WatchSettings;
}

export type ChannelAccess =
  | { ok: true; joined: boolean; audience: ChannelAudience }
  | { ok: false; sentence: string }
  /** A Slack Connect channel (or one whose sharing is unknown) not confirmed yet: not joined, nothing started. */
  | { ok: false; confirm: ChannelAudience };

/**
 * Makes sure the bot can post in the channel: joins a public one by itself, explains how to invite it otherwise.
 * A Slack Connect channel (or one whose sharing Slack would not tell) is neither joined nor watched until the person
 * confirmed it (`externalConfirmed`, from the confirmation button). Reports use it too (src/slack/reports/channels.ts),
 * some with `join: false`: the bot must be a member already.
 */
export async function ensureBotInChannel(
  client: WebClient,
  t: Translator,
  channelId: string,
  opts: { externalConfirmed?: boolean; join?: boolean } = {},
): Promise<ChannelAccess> {
  if (channelId.startsWith('D')) return { ok: true, joined: false, audience: { kind: 'dm', external: false } };
  let info;
  try {
    info = await client.conversations.info({ channel: channelId });
  } catch (err) {
    const code = platformError(err);
    if (code === 'channel_not_found') return { ok: false, sentence: inviteSentence(channelId, t) };
    if (code !== 'missing_scope') throw err;
  }
  const ch = info?.channel as
    | ({ is_member?: boolean; is_private?: boolean; is_archived?: boolean; is_im?: boolean } & ChannelInfoFacts)
    | undefined;
  if (ch?.is_archived) {
    return { ok: false, sentence: archivedSentence(channelId, t) };
  }
  const audience = audienceOf(ch);
  if (needsConfirmation(audience) && !opts.externalConfirmed) return { ok: false, confirm: audience };
  // conversations.info refused for a scope (confirmed above): post and hope, as before.
  if (!ch || ch.is_member || ch.is_im) return { ok: true, joined: false, audience };
  if (ch.is_private) return { ok: false, sentence: inviteSentence(channelId, t) };
  if (opts.join === false) return { ok: false, sentence: notInChannelSentence(channelId, t) };
  try {
    await client.conversations.join({ channel: channelId });
    return { ok: true, joined: true, audience };
  } catch (err) {
    return { ok: false, sentence: joinFailedSentence(channelId, platformError(err) ?? 'unknown error', t) };
  }
}

export interface WatchOutcome {
  /** For the person who asked (ephemeral). */
  reply: SlackMessage;
  changed: boolean;
  /** Set when the channel could not be watched: why, for the audit trail. */
  failure?: string;
  /** Set when the watch started in a channel people of another organization can read (for the audit trail). */
  external?: string;
  /** The channel watched the campaign already: only its settings changed. */
  settingsOnly?: boolean;
}

/**
 * Starts (or resumes) a channel watching a campaign. Our sentences carry channel links; outside text is escaped. The
 * answer is in the words `t` of the person who asked; the intro posted in the channel in the channel's language.
 */
async function watchCampaign(
  svc: WatchService,
  t: Translator,
  client: WebClient,
  req: WatchRequest,
): Promise<WatchOutcome> {
  const campaign: CampaignDetail = await svc.deps.outreach.getCampaign(req.campaignId);
  const access = await ensureBotInChannel(client, t, req.channelId, {
    externalConfirmed: req.externalConfirmed ?? false,
  });
  if (!access.ok && 'confirm' in access) {
    return { reply: confirmExternalMessage(campaign, req.channelId, access.confirm.external, t), changed: false };
  }
  if (!access.ok) return { reply: note(`⚠️ ${access.sentence}`), changed: false, failure: access.sentence };

  const started = await svc.subscribe({
    campaign,
    channelId: req.channelId,
    userId: req.userId,
    ...(req.settings ? { settings: req.settings } : {}),
  });
  if (started === 'already') return { reply: alreadyWatchingMessage(req.channelId, campaign, t), changed: false };
  if (started === 'updated') {
    const sub = await svc.subscription(campaign.id, req.channelId);
    return {
      reply: settingsSavedMessage(
        { campaignId: campaign.id, campaignName: campaign.name, channelId: req.channelId, settings: sub ?? {} },
        t,
      ),
      changed: true,
      settingsOnly: true,
    };
  }
  const settings = req.settings ? await svc.subscription(campaign.id, req.channelId) : undefined;
  const kind = campaign.integration?.type ?? 'phone_call';
  try {
    const channelWords = await svc.channelWords(req.channelId);
    await svc.poster.post(req.channelId, watchIntroMessage({ userId: req.userId, campaign, kind }, channelWords));
  } catch (err) {
    svc.deps.logger.warn({ channel: req.channelId, err: String(err) }, 'could not post the watch confirmation');
  }
  // Only reached for a shared channel (or one of unknown sharing) after the confirmation button.
  const external = access.audience.kind !== 'dm' && access.audience.external !== false;
  return {
    reply: watchStartedMessage(
      {
        channelId: req.channelId,
        campaign,
        resumed: started === 'resumed',
        publicChannel: access.audience.kind === 'public',
        external,
        ...(settings ? { settings } : {}),
      },
      t,
    ),
    changed: true,
    ...(external ? { external: 'shared with another organization (or sharing unknown), confirmed by the button' } : {}),
  };
}

export async function unwatchCampaign(
  svc: WatchService,
  t: Translator,
  req: { campaignId: number; channelId: string },
): Promise<WatchOutcome> {
  const removed = await svc.unsubscribe(req.campaignId, req.channelId);
  if (!removed) return { reply: notWatchingMessage(req.channelId, req.campaignId, t), changed: false };
  return { reply: unwatchedMessage(req.channelId, req.campaignId, removed.campaignName, t), changed: true };
}

/**
 * `/campaign watching`: every subscription, per channel, suspended ones with the reason; in the words and the
 * timezone of the person who asked.
 */
export async function watchingReply(
  svc: WatchService,
  t: Translator,
  person: { timeZone?: string },
): Promise<SlackMessage> {
  return watchingMessage(
    (await svc.state.allSubscriptions()).map((s) => ({
      ...s,
      filter: readFilter(s.filter),
      campaignGone: s.suspended?.error === CAMPAIGN_GONE,
    })),
    person.timeZone ? { timeZone: person.timeZone } : {},
    t,
  );
}

/**
 * A permitted person sets a channel to watch a campaign (the command, "Watch here", the Slack Connect confirmation,
 * the Home tab's form): what to audit (`watch in <channel>`) and what to tell them.
 */
export async function watchChange(
  svc: WatchService,
  t: Translator | undefined,
  client: WebClient,
  req: WatchRequest,
): Promise<Changed> {
  // A context without words (ChangeContext's `t` is optional while hand-built ones gain it) answers in English.
  const outcome = await watchCampaign(svc, t ?? ENGLISH, client, req);
  const action = outcome.settingsOnly ? `watch settings in ${req.channelId}` : `watch in ${req.channelId}`;
  const audit: Changed['audit'] = outcome.changed
    ? { action, result: 'ok', ...(outcome.external ? { detail: outcome.external } : {}) }
    : outcome.failure
      ? { action, result: 'failed', detail: outcome.failure }
      : undefined;
  return { ...(audit ? { audit } : {}), ephemeral: outcome.reply };
}
