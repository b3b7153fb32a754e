/** The watch feature's Slack wiring: its events and buttons. */
import type { App } from '@slack/bolt';
import type { WatchDeps } from '../commands/watch.js';
import { registerWatchActions } from '../actions/watch.js';
import { registerMembershipEvents } from './membership.js';
import { registerMessageEvents } from './messages.js';

export function registerWatch(app: App, deps: WatchDeps): void {
  registerMessageEvents(app, deps);
  registerMembershipEvents(app, deps);
  registerWatchActions(app, deps);
}
