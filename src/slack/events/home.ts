/**
 * The Home tab: published when a person opens it, and again after every change that person makes anywhere in the
 * app (every change passes through the audit trail, which tells us). Other people's cached lists are marked stale
 * by any change, so their next open reads the service again.
 */
import type { App } from '@slack/bolt';
import type { AppDeps } from '../deps.js';
import { registerHomeActions } from '../actions/home.js';
import { homeService } from '../usecases/home.js';

export function registerHome(app: App, deps: AppDeps): void {
  const home = homeService(deps);

  deps.audit.subscribe((entry, client) => {
    if (entry.result === 'refused') return;
    // A failed change may still have moved something (or found the view stale): refresh either way.
    home.changed(entry.campaignId);
    if (!home.knows(entry.userId)) return;
    home.refresh(entry.userId, client).catch((err: unknown) => {
      deps.logger.warn({ err: String(err), user: entry.userId }, 'could not refresh the Home tab after a change');
    });
  });

  app.event('app_home_opened', async ({ event, client }) => {
    if (event.tab !== 'home') return;
    await home.remember(event.user);
    await home.refresh(event.user, client, { firstOpen: !event.view });
  });

  registerHomeActions(app, deps);
}
