/** The watch feature's Slack wiring: creates the watch service on the app's client, then its events and buttons. */
import type { App } from '@slack/bolt';
import type { AppDeps } from '../deps.js';
import type { WatchTuning } from '../../watch/service.js';
import { createWatchService } from '../watch/create.js';
import { registerWatchActions } from '../actions/watch.js';
import { registerMembershipEvents } from './membership.js';
import { registerMessageEvents } from './messages.js';

export function registerWatch(app: App, deps: AppDeps, tuning: Partial<WatchTuning> = {}): void {
  createWatchService(deps, app.client, tuning);
  registerMessageEvents(app, deps);
  registerMembershipEvents(app, deps);
  registerWatchActions(app, deps);
}
