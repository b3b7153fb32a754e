/**
 * Rules of the Campaign Outreach Service that the app acts on: which lifecycle actions a campaign's status allows
 * (the spec's transition table, see docs/outreach-api-notes.md), which call statuses are final, and which WhatsApp
 * contact statuses are worth a message. Renderers offer what these allow; the poller stops following what they call
 * final.
 */
import type { CampaignStatus, LifecycleAction } from './schemas.js';
import { actionForTarget as unspecifiedActionForTarget } from './unspecified.js';

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

/** Statuses after which a call no longer changes (its outcome is known). */
export const FINAL_CALL_STATUSES: readonly string[] = ['ended', 'busy', 'no-answer', 'failed'];

/** Statuses of WhatsApp contacts that get a message of their own. */
export const WHATSAPP_NOTABLE_STATUSES = ['converted', 'rejected', 'failed'] as const;
