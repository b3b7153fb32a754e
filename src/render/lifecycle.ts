/** The buttons of the lifecycle actions a campaign offers (which ones: outreach/rules.ts). */
import type { LifecycleAction } from '../outreach/schemas.js';
import { ACTION_IDS, actionId, encodeCampaignAction } from './ids.js';
import type { MessageKey, Translator } from '../i18n/translator.js';
import { ENGLISH } from './format.js';
import { button, cleanLabel, confirmDialog, raw } from './mrkdwn.js';
import { tmd } from './text.js';
import type { Button } from './types.js';

/** Button labels. */
const ACTION_LABELS: Record<LifecycleAction, MessageKey> = {
  activate: 'lifecycle.button.activate',
  pause: 'lifecycle.button.pause',
  resume: 'lifecycle.button.resume',
  archive: 'lifecycle.button.archive',
};

/**
 * One button per action (action_id `campaign_action:<action>`, value {"id","action"}). Activate, pause and archive ask
 * for confirmation first: activating starts contacting people, pausing stops it mid-schedule, archiving hides the
 * campaign from lists. Resuming goes back to what was confirmed before.
 */
export function lifecycleButtons(
  campaign: { id: number; name?: string | null },
  lifecycle: readonly LifecycleAction[],
  t: Translator = ENGLISH,
): Button[] {
  return lifecycle.map((action) =>
    button({
      text: t.t(ACTION_LABELS[action]),
      actionId: actionId(ACTION_IDS.campaignAction, action),
      value: encodeCampaignAction({ id: campaign.id, action }),
      style: action === 'activate' ? 'primary' : undefined,
      confirm: confirmFor(action, campaign, t),
    }),
  );
}

interface ConfirmKeys {
  title: MessageKey;
  text: MessageKey;
  confirm: MessageKey;
  danger?: true;
}

/** The dialog of each action that asks first; archiving's is red. */
const CONFIRMED: Partial<Record<LifecycleAction, ConfirmKeys>> = {
  activate: {
    title: 'lifecycle.confirm.activate.title',
    text: 'lifecycle.confirm.activate.text',
    confirm: 'lifecycle.confirm.activate.confirm',
  },
  pause: {
    title: 'lifecycle.confirm.pause.title',
    text: 'lifecycle.confirm.pause.text',
    confirm: 'lifecycle.confirm.pause.confirm',
  },
  archive: {
    title: 'lifecycle.confirm.archive.title',
    text: 'lifecycle.confirm.archive.text',
    confirm: 'lifecycle.confirm.archive.confirm',
    danger: true,
  },
};

function confirmFor(action: LifecycleAction, c: { id: number; name?: string | null }, t: Translator) {
  const keys = CONFIRMED[action];
  if (!keys) return undefined;
  // The dialog text holds 300 characters: shorten the name so the sentence stays whole.
  const name = cleanLabel(c.name ?? '', 80);
  const id = String(c.id);
  const which = name ? tmd(t, 'lifecycle.which.named', { name, id }) : t.t('lifecycle.which.unnamed', { id });
  return confirmDialog({
    title: t.t(keys.title),
    text: tmd(t, keys.text, { which: raw(which) }),
    confirm: t.t(keys.confirm),
    deny: t.t('common.cancel'),
    ...(keys.danger ? { danger: true } : {}),
  });
}
