/**
 * `/campaign`: ack at once (Slack wants an answer within 3 s and the service may be slow), parse, then run the
 * subcommand's handler; whatever it throws becomes a sentence for the person.
 */
import type { App } from '@slack/bolt';
import { usageMessage } from '../../render/feedback.js';
import type { Services } from '../register.js';
import { guarded } from '../guard.js';
import { respondReply } from '../reply.js';
import type { CampaignCommand } from './grammar.js';
import { parseCommandText } from './grammar.js';
import type { CommandContext, CommandHandler } from './context.js';
import { help } from './help.js';
import { list } from './list.js';
import { show } from './show.js';
import { lifecycle } from './lifecycle.js';
import { contacts } from './contacts.js';
import { calls } from './calls.js';
import { watch } from './watch.js';
import { unwatch } from './unwatch.js';
import { watching } from './watching.js';
import { tryAgent } from './try.js';
import { create } from './create.js';
import { edit } from './edit.js';
import { upload } from './upload.js';

export type CommandHandlers = { [K in CampaignCommand['kind']]: CommandHandler<K, Services> };

export const defaultHandlers: CommandHandlers = {
  help,
  list,
  show,
  lifecycle,
  contacts,
  calls,
  create,
  edit,
  upload,
  watch,
  unwatch,
  watching,
  try: tryAgent,
};

export function registerCommands(app: App, deps: Services, handlers: CommandHandlers = defaultHandlers): void {
  app.command('/campaign', async ({ ack, command, client, respond }) => {
    await ack();
    const reply = respondReply(respond);
    const parsed = parseCommandText(command.text ?? '');
    if (!parsed.ok) {
      await reply.ephemeral(usageMessage(parsed.problem));
      return;
    }
    const cmd = parsed.command;
    const ctx = {
      command: cmd,
      body: command,
      userId: command.user_id,
      channelId: command.channel_id,
      triggerId: command.trigger_id,
      client,
      reply,
      deps,
    } as CommandContext<CampaignCommand['kind'], Services>;
    const handler = handlers[cmd.kind] as CommandHandler<typeof cmd.kind, Services>;
    await guarded(reply, deps.logger, () => handler(ctx as never), {
      campaignId: 'id' in cmd ? cmd.id : undefined,
    });
  });
}
