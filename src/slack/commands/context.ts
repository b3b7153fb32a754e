import type { SlashCommand } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { AppDeps } from '../deps.js';
import type { Reply } from '../reply.js';
import type { CampaignCommand } from './grammar.js';

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
  /** The app's base and the services this handler uses (src/slack/register.ts hands every handler all of them). */
  deps: D;
}

export type CommandHandler<K extends CampaignCommand['kind'], D extends AppDeps = AppDeps> = (
  ctx: CommandContext<K, D>,
) => Promise<void>;
