/**
 * Which lifecycle actions a campaign offers, following the spec's transition table (outreach-api.md, "Campaign
 * status"), and the buttons that trigger them.
 */
import { actionForTarget as unspecifiedActionForTarget } from '../outreach/unspecified.js';
import type { CampaignStatus, LifecycleAction } from '../outreach/schemas.js';
import { ACTION_IDS, actionId, encodeCampaignAction } from './ids.js';
import { button, cleanLabel, confirmDialog, md } from './mrkdwn.js';
import type { Button } from './types.js';

/** Button labels. */
export const ACTION_LABELS: Record<LifecycleAction, string> = {
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
 * Actions valid from a status: activate from pending/ready/cooldown, pause from active/cooldown, resume from
 * inactive, archive unless already archived. No-op moves (pause an inactive campaign) are not offered.
 */
export function validActions(status: CampaignStatus | string, archived?: boolean | null): LifecycleAction[] {
  const out: LifecycleAction[] = [];
  if (status === 'pending' || status === 'ready' || status === 'cooldown') out.push('activate');
  if (status === 'active' || status === 'cooldown') out.push('pause');
  if (status === 'inactive') out.push('resume');
  if (!archived) out.push('archive');
  return out;
}

/** The action that reaches one of the `valid_targets` of an INVALID_STATUS_TRANSITION error (see unspecified.ts). */
export function actionForTarget(target: string, currentStatus?: string | null): LifecycleAction | null {
  return unspecifiedActionForTarget(target, currentStatus ?? undefined) ?? null;
}

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
