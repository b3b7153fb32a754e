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
 * One button per action (action_id `campaign_action:<action>`, value {"id","action"}). Activate and archive ask for
 * confirmation first: activating starts contacting people, archiving hides the campaign from lists.
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

function confirmFor(action: LifecycleAction, c: { id: number; name?: string | null }, t: Translator) {
  // The dialog text holds 300 characters: shorten the name so the sentence stays whole.
  const name = cleanLabel(c.name ?? '', 80);
  const id = String(c.id);
  const which = name ? tmd(t, 'lifecycle.which.named', { name, id }) : t.t('lifecycle.which.unnamed', { id });
  if (action === 'activate') {
    return confirmDialog({
      title: t.t('lifecycle.confirm.activate.title'),
      text: tmd(t, 'lifecycle.confirm.activate.text', { which: raw(which) }),
      confirm: t.t('lifecycle.confirm.activate.confirm'),
      deny: t.t('common.cancel'),
    });
  }
  if (action === 'archive') {
    return confirmDialog({
      title: t.t('lifecycle.confirm.archive.title'),
      text: tmd(t, 'lifecycle.confirm.archive.text', { which: raw(which) }),
      confirm: t.t('lifecycle.confirm.archive.confirm'),
      deny: t.t('common.cancel'),
      danger: true,
    });
  }
  return undefined;
}
