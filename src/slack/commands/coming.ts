import { errorMessage } from '../../render/feedback.js';
import type { CampaignCommand } from './grammar.js';
import type { CommandHandler } from './context.js';

/** Subcommands that a later issue adds answer that they are coming, never silence. */
export function coming<K extends CampaignCommand['kind']>(name: string): CommandHandler<K> {
  return async ({ reply }) => {
    await reply.ephemeral(
      errorMessage({ sentence: `\`/campaign ${name}\` is coming soon and doesn't work yet. See \`/campaign help\`.` }),
    );
  };
}
