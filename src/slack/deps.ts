/**
 * What every listener and use case may use: the app's shared base (built once in src/main.ts and passed down; each
 * service takes what it needs on top of it), and what every `/campaign` subcommand handler gets.
 */
import type { SlashCommand } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { AppMetrics } from '../metrics.js';
import type { OutreachApi } from '../outreach/api.js';
import type { Store } from '../store/store.js';
import type { Translator } from '../i18n/translator.js';
import type { CampaignCommand } from './grammar.js';
import type { Audit } from './audit.js';
import type { Languages, PersonLanguage } from './locale.js';
import type { Permissions } from './permissions.js';
import type { Reply } from './reply.js';

export interface AppDeps {
  config: Config;
  outreach: OutreachApi;
  store: Store;
  logger: Logger;
  permissions: Permissions;
  audit: Audit;
  /** Who gets which language and timezone (people, channels). */
  languages: Languages;
  /** The app's metrics (absent where a test builds deps by hand). */
  metrics?: AppMetrics;
}

/** Everything a subcommand handler gets, after the request was acknowledged. */
export interface CommandContext<
  K extends CampaignCommand['kind'] = CampaignCommand['kind'],
  D extends AppDeps = AppDeps,
> {
  command: Extract<CampaignCommand, { kind: K }>;
  body: SlashCommand;
  userId: string;
  channelId: string;
  triggerId: string;
  client: WebClient;
  reply: Reply;
  /** The words of the person who typed the command (their language; src/slack/locale.ts). */
  t: Translator;
  /** Their language, where it comes from, and their timezone. */
  person: PersonLanguage;
  /** The app's base and the services this handler uses (src/slack/routes.ts hands every handler all of them). */
  deps: D;
}

export type CommandHandler<K extends CampaignCommand['kind'], D extends AppDeps = AppDeps> = (
  ctx: CommandContext<K, D>,
) => Promise<void>;
