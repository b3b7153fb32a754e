/** What every listener and use case may use: built once in src/index.ts and passed down. */
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { AppMetrics } from '../metrics.js';
import type { OutreachApi } from '../outreach/api.js';
import type { Store } from '../store/store.js';
import type { Permissions } from './permissions.js';
import type { Audit } from './audit.js';

export interface AppDeps {
  config: Config;
  outreach: OutreachApi;
  store: Store;
  logger: Logger;
  permissions: Permissions;
  audit: Audit;
  /** The app's metrics (absent where a test builds deps by hand). */
  metrics?: AppMetrics;
}
