/**
 * Campaigns, their contacts and calls: the `/campaign` subcommands that read them (help, list, show, contacts, calls),
 * the lifecycle actions (typed or clicked) and removing a contact. src/slack/routes.ts registers these, wrapping the
 * changes in `change()` (permission, audit, the error reply) and the buttons in `button()` / `readButton()`.
 */
import type { LifecycleAction } from '../../outreach/schemas.js';
import { lifecycleResultMessage, successMessage } from '../../render/feedback.js';
import type { CampaignActionValue, ContactRefValue } from '../../render/ids.js';
import type { AppDeps, CommandHandler, CommandContext } from '../deps.js';
import { usageMessage } from '../grammar.js';
import type { Changed, ChangeHandler } from '../middleware/change.js';
import type { ButtonContext } from '../middleware/listener.js';
import { loadCallsPage, loadCampaignDetail, loadCampaignList, loadContactsPage } from './pages.js';

export const help: CommandHandler<'help'> = async ({ reply, t }) => {
  await reply.ephemeral(usageMessage(t));
};

export const list: CommandHandler<'list'> = async ({ command, reply, deps, t }) => {
  await reply.ephemeral(
    await loadCampaignList(deps, t, {
      ...(command.status ? { status: command.status } : {}),
      ...(command.channel ? { integrationType: command.channel } : {}),
      ...(command.archived ? { includeArchived: true } : {}),
    }),
  );
};

export const show: CommandHandler<'show'> = async ({ command, reply, deps }) => {
  await reply.ephemeral(await loadCampaignDetail(deps, command.id));
};

export const contacts: CommandHandler<'contacts'> = async ({ command, reply, deps }) => {
  await reply.ephemeral(await loadContactsPage(deps, { campaignId: command.id, page: 0, status: command.status }));
};

export const calls: CommandHandler<'calls'> = async ({ command, reply, deps }) => {
  await reply.ephemeral(await loadCallsPage(deps, { campaignId: command.id, page: 0, status: command.status }));
};

/** The service call of a lifecycle action; the result is posted for the channel (who did what). */
async function performLifecycle(deps: AppDeps, userId: string, id: number, action: LifecycleAction): Promise<Changed> {
  const campaign = await deps.outreach.campaignAction(id, action);
  return { audit: { action, result: 'ok' }, inChannel: lifecycleResultMessage({ userId, action, campaign }) };
}

/** activate | pause | resume | archive <id>: acts at once. */
export const lifecycle: ChangeHandler<CommandContext<'lifecycle'>> = ({ command, deps, userId }) =>
  performLifecycle(deps, userId, command.id, command.action);

/** A lifecycle button of a campaign list, detail or Home tab. */
export const lifecycleButton: ChangeHandler<ButtonContext<CampaignActionValue>> = ({ value, deps, userId }) =>
  performLifecycle(deps, userId, value.id, value.action);

/** The Remove button of a contact. */
export const removeContact: ChangeHandler<ButtonContext<ContactRefValue>> = async ({ value, deps }) => {
  await deps.outreach.deleteContact(value.campaignId, value.contactId);
  return {
    audit: { action: `remove contact ${value.contactId}`, result: 'ok' },
    ephemeral: successMessage(`Contact ${value.contactId} was removed from campaign #${value.campaignId}.`),
  };
};
