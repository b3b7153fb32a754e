/** Wires every Slack surface into Bolt; each folder has its own register function. */
import type { App } from '@slack/bolt';
import type { WatchTuning } from '../watch/service.js';
import type { AppDeps } from './deps.js';
import { registerCommands } from './commands/index.js';
import { registerActions } from './actions/index.js';
import { registerCampaignForm } from './actions/campaignForm.js';
import { registerWatch } from './events/index.js';
import { registerUpload } from './actions/upload.js';
import { registerHome } from './events/home.js';
import { registerFairUse } from './fairUse.js';

export function registerAll(app: App, deps: AppDeps, opts: { watch?: Partial<WatchTuning> } = {}): void {
  // First: every request runs on behalf of its sender, and one over their share goes no further.
  registerFairUse(app, deps);
  registerCommands(app, deps);
  registerActions(app, deps);
  registerCampaignForm(app, deps);
  registerWatch(app, deps, opts.watch);
  registerUpload(app, deps);
  registerHome(app, deps);
}
