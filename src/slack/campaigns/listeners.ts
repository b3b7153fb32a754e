/**
 * Campaigns, their contacts and calls: the `/campaign` subcommands that read them (help, list, show, contacts, calls),
 * the lifecycle actions (typed or clicked) and removing a contact. src/slack/routes.ts registers these, wrapping the
 * changes in `change()` (permission, audit, the error reply) and the buttons in `button()` / `readButton()`.
 */
import type { Translator } from '../../i18n/translator.js';
import type { LifecycleAction } from '../../outreach/schemas.js';
import { lifecycleResultMessage, successMessage } from '../../render/feedback.js';
import type { CampaignActionValue, ContactRefValue } from '../../render/ids.js';
import type { AppDeps, CommandHandler, CommandContext } from '../deps.js';
import { usageMessage } from '../grammar.js';
import type { Changed, ChangeHandler } from '../middleware/change.js';
import type { ButtonContext } from '../middleware/listener.js';
import { loadCallsPage, loadCampaignDetail, loadCampaignList, loadContactsPage } from './pages.js';
import { conversationWords } from '../conversation-words.js';

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

export const show: CommandHandler<'show'> = async ({ command, reply, deps, t, person }) => {
  await reply.ephemeral(await loadCampaignDetail(deps, t, command.id, person.timeZone));
};

export const contacts: CommandHandler<'contacts'> = async ({ command, reply, deps, t, person }) => {
  const req = { campaignId: command.id, page: 0, status: command.status };
  await reply.ephemeral(await loadContactsPage(deps, t, req, person.timeZone));
};

export const calls: CommandHandler<'calls'> = async ({ command, reply, deps, t, person }) => {
  const req = { campaignId: command.id, page: 0, status: command.status };
  await reply.ephemeral(await loadCallsPage(deps, t, req, person.timeZone));
};

/**
 * The service call of a lifecycle action; the result is posted for the channel (who did what), in the channel's
 * language (a DM with the app: the person's).
 */
async function performLifecycle(
  deps: AppDeps,
  t: Translator,
  where: { userId: string; channelId?: string },
  id: number,
  action: LifecycleAction,
): Promise<Changed> {
  const campaign = await deps.outreach.campaignAction(id, action);
  const words = await conversationWords(deps, t, where.channelId);
  return {
    audit: { action, result: 'ok' },
    inChannel: lifecycleResultMessage({ userId: where.userId, action, campaign }, words),
  };
}

/** activate | pause | resume | archive <id>: acts at once. */
export const lifecycle: ChangeHandler<CommandContext<'lifecycle'>> = ({ command, deps, userId, channelId, t }) =>
  performLifecycle(deps, t, { userId, channelId }, command.id, command.action);

/** A lifecycle button of a campaign list, detail or Home tab. */
export const lifecycleButton: ChangeHandler<ButtonContext<CampaignActionValue>> = ({ value, deps, userId, body, t }) =>
  performLifecycle(
    deps,
    t,
    { userId, channelId: body.channel?.id ?? body.container?.channel_id },
    value.id,
    value.action,
  );

/** The Remove button of a contact. */
export const removeContact: ChangeHandler<ButtonContext<ContactRefValue>> = async ({ value, deps, t }) => {
  await deps.outreach.deleteContact(value.campaignId, value.contactId);
  const removed = t.t('contactsPage.removed', { contactId: String(value.contactId), id: String(value.campaignId) });
  return {
    audit: { action: `remove contact ${value.contactId}`, result: 'ok' },
    ephemeral: successMessage(removed, t),
  };
};
