/**
 * Message events: replies in watched call threads and messages in a person's DM with the app during
 * `/campaign try`. Bolt acknowledges events itself before this runs; the relay ignores what is not for it and
 * relays each event id once.
 */
import type { App } from '@slack/bolt';
import type { WatchDeps } from '../commands/watch.js';
import type { SlackMessageEvent } from '../../watch/relay.js';

export function registerMessageEvents(app: App, deps: WatchDeps): void {
  const svc = deps.watch;
  app.event('message', async ({ event, body, context }) => {
    const { event_id: eventId, api_app_id: appId } = body as { event_id?: unknown; api_app_id?: unknown };
    try {
      const outcome = await svc.relay.onMessage(event as SlackMessageEvent, {
        ...(typeof eventId === 'string' ? { eventId } : {}),
        ...(context.botUserId ? { botUserId: context.botUserId } : {}),
        ...(context.botId ? { botId: context.botId } : {}),
        ...(typeof appId === 'string' ? { appId } : {}),
        // authorizations[0].team_id: the installation's team; the relay prefers auth.test's (see watch/speakers.ts).
        ...(context.teamId ? { teamId: context.teamId } : {}),
      });
      deps.logger.debug({ eventId, outcome }, 'message event');
    } catch (err) {
      deps.logger.error({ eventId, err: err instanceof Error ? err.message : String(err) }, 'message event failed');
    }
  });
}
