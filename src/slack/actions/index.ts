import type { App } from '@slack/bolt';
import type { AppDeps } from '../deps.js';
import { registerCampaignActions } from './campaign.js';
import { registerContactActions } from './contacts.js';

export function registerActions(app: App, deps: AppDeps): void {
  registerCampaignActions(app, deps);
  registerContactActions(app, deps);
}
