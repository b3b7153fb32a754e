/**
 * The watch service on Slack: watch's core (src/watch/) handed the Slack layer's poster, lookups, people check and
 * audit trail, all on the app's client.
 */
import type { WebClient } from '@slack/web-api';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { LeaderFence } from '../../store/coordination.js';
import { defaultTuning, WatchService, type WatchTuning } from '../../watch/service.js';
import type { AppDeps } from '../deps.js';
import type { SlackMethodBudget } from '../method-budget.js';
import { watchSlack } from './ports.js';
import { SlackPoster } from './poster.js';
import { Speakers } from './speakers.js';

/** The live service's origin (recording links on it are shown); none in sandbox mode. */
function serviceOrigin(config: Config): string | undefined {
  const base = config.outreach.mode === 'live' ? config.outreach.baseUrl : undefined;
  if (!base) return undefined;
  try {
    return new URL(base).origin;
  } catch {
    return undefined;
  }
}

/**
 * `client` serves what people start (checks of a channel at `/campaign watch`, who may reply in a thread, the audit
 * trail); `posterClient` carries the background writes of delivery, which leave part of each Slack budget to people
 * (src/slack/method-budget.ts). Without it both are `client`.
 */
export function createWatch(
  deps: AppDeps,
  client: WebClient,
  tuning: Partial<WatchTuning> = {},
  posterClient: WebClient = client,
  clock?: Clock,
  /** Slack's limits for the workspace (main.ts): the watch's share of its posts comes from there. */
  slackBudget?: SlackMethodBudget,
  /** The leader lease's fence (src/leader-work.ts): delivery's and reminders' writes go out only in a current term. */
  fence?: LeaderFence,
): WatchService {
  const full: WatchTuning = {
    ...defaultTuning(deps.config.pollIntervalSeconds),
    retentionMs: deps.config.retentionDays * 24 * 3600_000,
    ...tuning,
  };
  // Posts Slack takes from the watch between two polls, for the interval actually used: the background share of
  // chat.postMessage's budget (the tenth kept for people left out).
  const allowance = slackBudget?.backgroundPerInterval('chat.postMessage', full.pollIntervalMs);
  if (tuning.workspacePostsPerInterval === undefined && allowance !== undefined) {
    full.workspacePostsPerInterval = allowance;
  }
  // chat.update (Slack's Tier 3, ~50 a minute for the workspace): its minute here, and the open call messages (each
  // owing one final update) and recent updates may together take two of the watch's minutes of it.
  const updates = slackBudget?.windowsFor('chat.update').at(-1);
  if (slackBudget && updates) {
    full.updateWindowMs ??= updates.windowMs;
    if (tuning.maxOpenCalls === undefined) {
      full.maxOpenCalls = 2 * (updates.limit - slackBudget.reserveOf(updates.limit, 'background'));
    }
  }
  const logger = deps.logger.child({ component: 'watch' });
  const origin = serviceOrigin(deps.config);
  const poster = new SlackPoster(posterClient, {
    minGapMs: full.minGapMs,
    maxAttempts: full.maxAttempts,
    backoffMs: full.backoffMs,
    logger,
  });
  return new WatchService({
    store: deps.store,
    outreach: deps.outreach,
    logger: deps.logger,
    poster,
    ...(fence ? { leaderPoster: poster.fenced(fence) } : {}),
    slack: watchSlack(client, posterClient),
    speakers: new Speakers(client, deps.permissions, logger),
    // Watch renders each message in its reader's language: a channel's (`/campaign lang`, else DEFAULT_LOCALE) or,
    // for a DM or an ephemeral, the person's (their choice, else their Slack locale; users.info on `client`).
    languages: {
      channel: async (channelId) => (await deps.languages.channel(channelId)).locale,
      person: (userId) => deps.languages.person(userId, client),
    },
    audit: (entry) => deps.audit.record(entry, client),
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
    tuning: full,
    ...(origin ? { serviceOrigin: origin } : {}),
    ...(clock ? { clock } : {}),
  });
}
