/**
 * Watching, the Slack surfaces: `/campaign watch`, `unwatch` and `watching`; the "Watch here" button and the Slack
 * Connect confirmation; a call message's "Details" and "Contact" buttons with the end-user modal (PUT /enduser/{id});
 * the message events (replies in watched call threads, messages in a try DM) and the membership events that bring
 * suspended watches back. src/slack/routes.ts registers these, wrapping the changes in `change()`.
 */
import type { BlockAction, Middleware, SlackEventMiddlewareArgs } from '@slack/bolt';
import { z } from 'zod';
import type { EndUser } from '../../outreach/schemas.js';
import {
  END_USER_BLOCKS,
  END_USER_LIMITS,
  endUserModal,
  endUserNotice,
  endUserSummary,
  EndUserModalMeta,
} from '../../render/call-message.js';
import { decodeCampaignId, decodeJson, type ConfirmValue } from '../../render/ids.js';
import { cleanLabel, context, mrkdwnSection } from '../../render/mrkdwn.js';
import { serviceErrorText } from '../../render/service-error.js';
import { tmd } from '../../render/text.js';
import type { SlackMessageEvent } from '../../watch/relay.js';
import type { CommandContext, CommandHandler } from '../deps.js';
import type { ChangeHandler } from '../middleware/change.js';
import { submission, type ButtonContext, type ViewAck, type Saved, type ViewListener } from '../middleware/listener.js';
import { openSettingsModal, typedSettings } from './settings.js';
import { unwatchCampaign, watchChange, watchingReply, type WatchDeps } from './subscribe.js';

/** The channel a watch command names, or the one it was typed in. */
export const commandChannel = (c: { command: { channel?: { id: string } }; channelId: string }) =>
  c.command.channel?.id ?? c.channelId;

/**
 * `/campaign watch <id> [#channel] [options]`: the channel (default: this one) follows the campaign's calls, with
 * the typed settings if any (a channel that watches it already just takes them); `settings` opens the form instead.
 */
export const watch: ChangeHandler<CommandContext<'watch', WatchDeps>> = async (c) => {
  const channelId = commandChannel(c);
  const { id: campaignId, options, openSettings } = c.command;
  if (openSettings) {
    await openSettingsModal(c.deps, c.client, { triggerId: c.triggerId, campaignId, channelId, t: c.t });
    return;
  }
  const settings = options ? typedSettings(await c.deps.watch.subscription(campaignId, channelId), options) : undefined;
  return watchChange(c.deps.watch, c.t, c.client, {
    userId: c.userId,
    campaignId,
    channelId,
    ...(settings ? { settings } : {}),
  });
};

/** `/campaign unwatch <id> [#channel]`: the channel (default: this one) stops following the campaign. */
export const unwatch: ChangeHandler<CommandContext<'unwatch', WatchDeps>> = async (c) => {
  const target = commandChannel(c);
  const outcome = await unwatchCampaign(c.deps.watch, c.t, { campaignId: c.command.id, channelId: target });
  return {
    ...(outcome.changed ? { audit: { action: `unwatch in ${target}`, result: 'ok' as const } } : {}),
    ephemeral: outcome.reply,
  };
};

/** `/campaign watching`: every subscription, per channel (suspended ones with how to restore them). */
export const watching: CommandHandler<'watching', WatchDeps> = async ({ reply, deps, t, person }) => {
  await reply.ephemeral(await watchingReply(deps.watch, t, person));
};

/** Where a "Watch here" button was clicked, with the campaign it names. */
export function decodeWatchHere(value: string | undefined, body: BlockAction): ConfirmValue | null {
  const campaignId = decodeCampaignId(value);
  const channelId = body.channel?.id ?? body.container?.channel_id;
  return campaignId && channelId ? { campaignId, channelId } : null;
}

/** "Watch here" on a campaign's messages: the channel the button is in watches the campaign. */
export const watchHere: ChangeHandler<ButtonContext<ConfirmValue, WatchDeps>> = ({ value, deps, client, userId, t }) =>
  watchChange(deps.watch, t, client, { userId, ...value });

/** "Watch it there anyway" (watch/channel-privacy.ts): the watch into a Slack Connect channel starts here. */
export const watchConfirmed: ChangeHandler<ButtonContext<ConfirmValue, WatchDeps>> = ({
  value,
  deps,
  client,
  userId,
  t,
}) => watchChange(deps.watch, t, client, { userId, ...value, externalConfirmed: true });

const ContactValue = z.object({ callId: z.string().min(1).max(200), threadId: z.string().min(1).max(200) });

export function decodeContactValue(value: string | undefined): z.infer<typeof ContactValue> | null {
  return decodeJson(ContactValue, value);
}

/**
 * A call message's "Contact": the end user in a modal to edit, for whoever may change; a summary (and who can edit)
 * for everyone else.
 */
export async function showEndUser({
  value,
  body,
  deps,
  client,
  reply,
  userId,
  t,
}: ButtonContext<z.infer<typeof ContactValue>>): Promise<void> {
  const loadEndUser = async (): Promise<EndUser> => {
    const thread = await deps.outreach.getThread(value.threadId);
    return deps.outreach.getEndUser(thread.end_user.id);
  };
  const canEdit = await deps.permissions.canChange(userId, client);
  if (!canEdit) {
    await reply.ephemeral(endUserSummary(await loadEndUser(), { note: deps.permissions.whoCan(t) }, t));
    return;
  }
  // The trigger id expires in 3 s: open the modal at once, fill it in when the service has answered.
  const opened = await client.views.open({
    trigger_id: body.trigger_id,
    view: endUserNotice([context(t.t('endUser.loading'))], t),
  });
  const viewId = opened.view?.id;
  try {
    const endUser = await loadEndUser();
    const channelId = body.channel?.id;
    if (viewId) {
      await client.views.update({
        view_id: viewId,
        view: endUserModal(endUser, { endUserId: endUser.id, ...(channelId ? { channelId } : {}) }, t),
      });
    }
  } catch (err) {
    if (viewId) {
      await client.views
        .update({
          view_id: viewId,
          view: endUserNotice([mrkdwnSection(tmd(t, 'feedback.error', { sentence: serviceErrorText(err, t) }))], t),
        })
        .catch(() => undefined);
    }
    throw err;
  }
}

/** A checked submission of the end-user modal, answered in the person's DM, in the words the modal spoke. */
export type EndUserEdit = Saved<EndUserInput>;
interface EndUserInput {
  endUserId: string;
  name: string;
  info: string;
}

/** PUT /enduser/{id} with the new name and notes. */
export const saveEndUser: ChangeHandler<EndUserEdit> = async ({ deps, endUserId, name, info, t }) => {
  const updated = await deps.outreach.updateEndUser(endUserId, { display_name: name, info });
  return {
    audit: { action: `update end user ${endUserId}`, result: 'ok' },
    ephemeral: endUserSummary(
      updated,
      { note: tmd(t, 'endUser.saved', { name: cleanLabel(updated.display_name ?? name, 200) }) },
      t,
    ),
  };
};

/**
 * The end-user modal's submission: checked inside the ack (errors under the fields), then `save` after it (which
 * checks the permission: routes.ts wraps it in `change()`).
 */
export function endUserSubmitted(deps: WatchDeps, save: (edit: EndUserEdit) => Promise<void>): ViewListener {
  const under = (block: string, text: string): ViewAck => ({ response_action: 'errors', errors: { [block]: text } });
  return submission<ViewAck, EndUserModalMeta, EndUserInput>(deps, {
    what: 'end-user submission',
    metadata: { schema: EndUserModalMeta, stale: (t) => under(END_USER_BLOCKS.name, t.t('endUser.stale')) },
    // The modal's language is in its metadata; a stale one is answered in the person's (cached since they clicked).
    locale: (meta) => (meta ? (meta.lang ?? 'en') : undefined),
    read: ({ view, meta, t }) => {
      const values = view.state.values;
      const name = (values[END_USER_BLOCKS.name]?.value?.value ?? '').trim();
      const info = values[END_USER_BLOCKS.info]?.value?.value ?? '';
      if (name === '') return { ack: under(END_USER_BLOCKS.name, t.t('endUser.nameBlank')) };
      if (name.length > END_USER_LIMITS.name || info.length > END_USER_LIMITS.info) {
        const block = name.length > END_USER_LIMITS.name ? END_USER_BLOCKS.name : END_USER_BLOCKS.info;
        return { ack: under(block, t.t('endUser.tooLong')) };
      }
      return { input: { endUserId: meta.endUserId, name, info } };
    },
    save,
    crashed: (t) => ({ response_action: 'push', view: endUserNotice([mrkdwnSection(t.t('submission.crashed'))], t) }),
  });
}

/**
 * Message events: replies in watched call threads and messages in a person's DM with the app during
 * `/campaign try`. Bolt acknowledges events itself before this runs; the relay ignores what is not for it and
 * relays each event id once.
 */
export function onMessage(deps: WatchDeps): Middleware<SlackEventMiddlewareArgs<'message'>> {
  const svc = deps.watch;
  return async ({ event, body, context }) => {
    const { event_id: eventId, api_app_id: appId } = body as { event_id?: unknown; api_app_id?: unknown };
    try {
      const outcome = await svc.relay.onMessage(event as SlackMessageEvent, {
        ...(typeof eventId === 'string' ? { eventId } : {}),
        ...(context.botUserId ? { botUserId: context.botUserId } : {}),
        ...(context.botId ? { botId: context.botId } : {}),
        ...(typeof appId === 'string' ? { appId } : {}),
        // authorizations[0].team_id: the installation's team; the relay prefers auth.test's (see speakers.ts).
        ...(context.teamId ? { teamId: context.teamId } : {}),
      });
      deps.logger.debug({ eventId, outcome }, 'message event');
    } catch (err) {
      deps.logger.error({ eventId, err: err instanceof Error ? err.message : String(err) }, 'message event failed');
    }
  };
}

/**
 * The bot invited (back) into a channel (`member_joined_channel` naming the bot itself; Bolt's ignoreSelf lets these
 * through): the watches Slack had refused there resume.
 */
export function onMemberJoined(deps: WatchDeps): Middleware<SlackEventMiddlewareArgs<'member_joined_channel'>> {
  return async ({ event, context }) => {
    if (!context.botUserId || event.user !== context.botUserId) return;
    try {
      await deps.watch.botJoined(event.channel);
    } catch (err) {
      deps.logger.error({ channel: event.channel, err: String(err) }, 'resuming watches after an invite failed');
    }
  };
}

/** A channel unarchived (`channel_unarchive` for public, `group_unarchive` for private channels). */
export function onUnarchived(deps: WatchDeps): (args: { event: { channel: string } }) => Promise<void> {
  return async ({ event }) => {
    try {
      await deps.watch.channelUnarchived(event.channel);
    } catch (err) {
      deps.logger.error({ channel: event.channel, err: String(err) }, 'resuming watches after an unarchive failed');
    }
  };
}
