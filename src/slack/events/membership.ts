/**
 * Channel membership events that bring suspended watches back by themselves: the bot invited (back) into a channel
 * (`member_joined_channel` naming the bot itself; Bolt's ignoreSelf lets these through) and a channel unarchived
 * (`channel_unarchive` for public, `group_unarchive` for private channels). Bolt acknowledges events before this runs.
 */
import type { App } from '@slack/bolt';
import type { WatchDeps } from '../commands/watch.js';

export function registerMembershipEvents(app: App, deps: WatchDeps): void {
  const svc = deps.watch;
  app.event('member_joined_channel', async ({ event, context }) => {
    if (!context.botUserId || event.user !== context.botUserId) return;
    try {
      await svc.botJoined(event.channel);
    } catch (err) {
      deps.logger.error({ channel: event.channel, err: String(err) }, 'resuming watches after an invite failed');
    }
  });
  const unarchived = async (channel: string) => {
    try {
      await svc.channelUnarchived(channel);
    } catch (err) {
      deps.logger.error({ channel, err: String(err) }, 'resuming watches after an unarchive failed');
    }
  };
  app.event('channel_unarchive', ({ event }) => unarchived(event.channel));
  app.event('group_unarchive', ({ event }) => unarchived(event.channel));
}
