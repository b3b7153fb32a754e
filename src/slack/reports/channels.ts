/**
 * Where a report may go, by who asks and where:
 *
 * - A person who may only read gets every report privately, in their DM with the app; nothing is posted where they
 *   asked. So does anyone asking from the Home tab, or in a conversation the app is not in (a DM between people).
 * - A report posted in a channel: the bot must be able to post there (a public channel is joined, as for a watch; a
 *   private one needs an invitation), and a Slack Connect channel, or one whose sharing Slack would not tell, needs
 *   the confirmation a watch needs there (src/slack/watch/channel-privacy.ts, src/slack/watch/subscribe.ts
 *   `ensureBotInChannel`): a button only a permitted person's press gets past.
 * - A schedule: the same, and the person must be in the target channel when it is not the one they typed in; a channel
 *   id typed by hand (not picked from Slack's list) must be a channel both the person and the bot are in already.
 * - A scheduled run: the bot must still be in the channel (it does not join by itself then), and a shared channel must
 *   have been confirmed when the schedule was set (service.ts).
 */
import type { WebClient } from '@slack/web-api';
import type { Translator } from '../../i18n/translator.js';
import { personNotInChannelSentence, typedChannelSentence } from '../../render/report.js';
import { inviteSentence } from '../../render/watch.js';
import type { AppDeps } from '../deps.js';
import type { ChannelRef } from '../grammar.js';
import { platformError } from '../platform.js';
import { ensureBotInChannel, type ChannelAccess } from '../watch/subscribe.js';

/** Members asked of Slack per page (conversations.members, Tier 4). */
const MEMBERS_PAGE = 999;

/** Where a report asked for now goes. */
export type NowTarget =
  | { ok: true; channelId: string; where: 'here' }
  | { ok: true; channelId: string; where: 'dm'; why: 'readOnly' | 'elsewhere' | 'home' }
  /** A Slack Connect channel (or of unknown sharing) not confirmed yet: nothing gathered, nothing posted. */
  | { ok: false; confirm: boolean | undefined }
  | { ok: false; sentence: string };

/** Where a schedule may post: `external` when it goes to a channel shared (or maybe shared) with another organization. */
export type ScheduleTarget =
  { ok: true; external: boolean } | { ok: false; confirm: boolean | undefined } | { ok: false; sentence: string };

/** The person's DM with the app (conversations.open: the same channel every time). */
async function openDm(client: WebClient, userId: string): Promise<string> {
  const dm = await client.conversations.open({ users: userId });
  const id = dm.channel?.id;
  if (!id) throw new Error('conversations.open answered without a channel');
  return id;
}

export async function nowTarget(
  deps: AppDeps,
  client: WebClient,
  t: Translator,
  req: { userId: string; channelId?: string; externalConfirmed?: boolean },
): Promise<NowTarget> {
  const dm = async (why: 'readOnly' | 'elsewhere' | 'home'): Promise<NowTarget> => ({
    ok: true,
    where: 'dm',
    why,
    channelId: await openDm(client, req.userId),
  });
  if (!req.channelId) return dm('home');
  if (req.channelId.startsWith('D')) {
    const own = await openDm(client, req.userId);
    return own === req.channelId ? { ok: true, where: 'here', channelId: own } : dm('elsewhere');
  }
  if (!(await deps.permissions.canChange(req.userId, client))) return dm('readOnly');
  const access = await ensureBotInChannel(client, t, req.channelId, {
    externalConfirmed: req.externalConfirmed ?? false,
  });
  if (access.ok) return { ok: true, where: 'here', channelId: req.channelId };
  return refusal(access);
}

/**
 * Whether a person is in a channel (conversations.members, page by page until found); undefined when Slack would not
 * list its members (a private channel the bot is not in, or no such channel).
 */
async function personInChannel(client: WebClient, channelId: string, userId: string): Promise<boolean | undefined> {
  let cursor: string | undefined;
  do {
    let page;
    try {
      page = await client.conversations.members({
        channel: channelId,
        limit: MEMBERS_PAGE,
        ...(cursor ? { cursor } : {}),
      });
    } catch (err) {
      if (platformError(err) === 'channel_not_found') return undefined;
      throw err;
    }
    if (page.members?.includes(userId)) return true;
    cursor = page.response_metadata?.next_cursor || undefined;
  } while (cursor);
  return false;
}

/** Whether a report may be scheduled into `target` by `userId`, who typed the command in `here`. */
export async function scheduleTarget(
  client: WebClient,
  t: Translator,
  req: { userId: string; here: string; target: ChannelRef; externalConfirmed?: boolean },
): Promise<ScheduleTarget> {
  const { target } = req;
  const typed = target.typed === true;
  if (target.id.startsWith('D')) {
    const own = await openDm(client, req.userId);
    return own === target.id ? { ok: true, external: false } : { ok: false, sentence: inviteSentence(target.id, t) };
  }
  if (target.id !== req.here || typed) {
    const member = await personInChannel(client, target.id, req.userId);
    if (typed && member !== true) return { ok: false, sentence: typedChannelSentence(target.id, t) };
    if (member === false) return { ok: false, sentence: personNotInChannelSentence(target.id, t) };
  }
  // A typed id must name a channel the bot is in already: it is not joined on the strength of a guess.
  const access = await ensureBotInChannel(client, t, target.id, {
    externalConfirmed: req.externalConfirmed ?? false,
    join: !typed,
  });
  if (access.ok) return { ok: true, external: access.audience.external !== false };
  if (typed && !('confirm' in access)) return { ok: false, sentence: typedChannelSentence(target.id, t) };
  return refusal(access);
}

/** Whether a scheduled run may post: the bot still in the channel, a shared channel confirmed when it was set. */
export async function runTarget(
  client: WebClient,
  t: Translator,
  channelId: string,
  confirmedShared: boolean,
): Promise<ScheduleTarget> {
  const access = await ensureBotInChannel(client, t, channelId, { externalConfirmed: confirmedShared, join: false });
  return access.ok ? { ok: true, external: access.audience.external !== false } : refusal(access);
}

function refusal(access: Exclude<ChannelAccess, { ok: true }>):
  | { ok: false; confirm: boolean | undefined }
  | {
      ok: false;
      sentence: string;
    } {
  return 'confirm' in access
    ? { ok: false, confirm: access.confirm.external }
    : { ok: false, sentence: access.sentence };
}
