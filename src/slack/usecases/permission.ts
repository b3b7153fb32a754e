import type { WebClient } from '@slack/web-api';
import { errorMessage } from '../blocks/feedback.js';
import type { AppDeps } from '../deps.js';
import type { Reply } from '../reply.js';

/**
 * For every change: true (and the person told who can do it, and the refusal audited) when they may only read.
 */
export async function refuseIfReadOnly(
  deps: AppDeps,
  client: WebClient,
  reply: Reply,
  userId: string,
  action: string,
  campaignId?: number,
): Promise<boolean> {
  if (await deps.permissions.canChange(userId, client)) return false;
  await deps.audit.record({ userId, action, campaignId, result: 'refused', detail: 'read-only user' }, client);
  await reply.ephemeral(errorMessage({ sentence: `You can't ${action} campaigns. ${deps.permissions.whoCan()}` }));
  return true;
}
