/** The buttons of the lifecycle actions a campaign offers (which ones: outreach/rules.ts). */
import type { LifecycleAction } from '../outreach/schemas.js';
import { ACTION_IDS, actionId, encodeCampaignAction } from './ids.js';
import { button, cleanLabel, confirmDialog, md } from './mrkdwn.js';
import type { Button } from './types.js';

/** Button labels. */
const ACTION_LABELS: Record<LifecycleAction, string> = {
  activate: '▶️ Activate',
  pause: '⏸ Pause',
  resume: '⏯ Resume',
  archive: '🗄 Archive',
};

/** Past tense, for "who did what" lines. */
export const ACTION_PAST: Record<LifecycleAction, string> = {
  activate: 'activated',
  pause: 'paused',
  resume: 'resumed',
  archive: 'archived',
};

/**
 * One button per action (action_id `campaign_action:<action>`, value {"id","action"}). Activate and archive ask for
 * confirmation first: activating starts contacting people, archiving hides the campaign from lists.
 */
export function lifecycleButtons(
  campaign: { id: number; name?: string | null },
  lifecycle: readonly LifecycleAction[],
): Button[] {
  return lifecycle.map((action) =>
    button({
      text: ACTION_LABELS[action],
      actionId: actionId(ACTION_IDS.campaignAction, action),
      value: encodeCampaignAction({ id: campaign.id, action }),
      style: action === 'activate' ? 'primary' : undefined,
      confirm: confirmFor(action, campaign),
    }),
  );
}

function confirmFor(action: LifecycleAction, c: { id: number; name?: string | null }) {
  // The dialog text holds 300 characters: shorten the name so the sentence stays whole.
  const name = cleanLabel(c.name ?? '', 80);
  const which = name ? md`*${name}* (#${c.id})` : `Campaign #${c.id}`;
  if (action === 'activate') {
    return confirmDialog({
      title: 'Activate campaign?',
      text: `${which} will start contacting its contacts within its schedule.`,
      confirm: 'Activate',
    });
  }
  if (action === 'archive') {
    return confirmDialog({
      title: 'Archive campaign?',
      text: `${which} will be hidden from lists. Its status does not change.`,
      confirm: 'Archive',
      danger: true,
    });
  }
  return undefined;
}
