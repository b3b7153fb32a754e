/**
 * The Home tab: published when a person opens it, and again after every change that person makes anywhere in the
 * app (every change passes through the audit trail, which tells the Home service: src/main.ts wires it). Other
 * people's cached lists are marked stale by any change, so their next open reads the service again.
 */
import type { App } from '@slack/bolt';
import type { Services } from '../register.js';
import { registerHomeActions } from '../actions/home.js';

export function registerHome(app: App, deps: Services): void {
  const { home } = deps;

  app.event('app_home_opened', async ({ event, client }) => {
    if (event.tab !== 'home') return;
    await home.remember(event.user);
    await home.refresh(event.user, client, { firstOpen: !event.view });
  });

  registerHomeActions(app, deps);
}
