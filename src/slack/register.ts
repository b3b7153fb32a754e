/** Wires every Slack surface into Bolt, handing each the services it uses (built once by src/main.ts). */
import type { App } from '@slack/bolt';
import type { WatchService } from '../watch/service.js';
import type { AppDeps } from './deps.js';
import { registerCommands } from './commands/index.js';
import { registerActions } from './actions/index.js';
import { registerCampaignForm } from './actions/campaignForm.js';
import { registerWatch } from './events/index.js';
import { registerUpload } from './actions/upload.js';
import { registerHome } from './events/home.js';
import { registerFairUse } from './fairUse.js';
import type { UploadService } from './upload/service.js';
import type { AgentDirectory, FormSubmissions, SubmitTiming } from './usecases/campaignForm.js';
import type { HomeService } from './usecases/home.js';

/** The app's shared base plus every service a listener uses. */
export interface Services extends AppDeps {
  watch: WatchService;
  uploads: UploadService;
  home: HomeService;
  /** Agents and integrations offered by the campaign form. */
  directory: AgentDirectory;
  /** The campaign form's submissions, each carried out once. */
  submissions: FormSubmissions;
  /** How long a form submission waits for the service before its ack (read at each submission). */
  formTiming: SubmitTiming;
}

export function registerAll(app: App, services: Services): void {
  // First: every request runs on behalf of its sender, and one over their share goes no further.
  registerFairUse(app, services);
  registerCommands(app, services);
  registerActions(app, services);
  registerCampaignForm(app, services);
  registerWatch(app, services);
  registerUpload(app, services);
  registerHome(app, services);
}
