import type { WebClient } from '@slack/web-api';
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
  // whoCan() holds our own mentions of the admins, so this text is not escaped (nothing in it comes from outside).
  const text = `⚠️ You can't ${action} campaigns. ${deps.permissions.whoCan()}`;
  await reply.ephemeral({ text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] });
  return true;
}
