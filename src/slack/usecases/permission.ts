import type { WebClient } from '@slack/web-api';
import type { AppDeps } from '../deps.js';
import type { Reply } from '../reply.js';

/**
 * "You can't <what>. <who can>". whoCan() holds our own mentions of the admins, so this text is not escaped (nothing
 * in it comes from outside).
 */
function readOnlySentence(deps: AppDeps, what: string): string {
  return `You can't ${what}. ${deps.permissions.whoCan()}`;
}

function auditReadOnly(deps: AppDeps, client: WebClient, userId: string, action: string, campaignId?: number) {
  return deps.audit.record({ userId, action, campaignId, result: 'refused', detail: 'read-only user' }, client);
}

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
  await auditReadOnly(deps, client, userId, action, campaignId);
  const text = `⚠️ ${readOnlySentence(deps, `${action} campaigns`)}`;
  await reply.ephemeral({ text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] });
  return true;
}

/**
 * The same check for a view submission, whose ack must go out first: true when the person may only read, after
 * `answer` got the refusal (mrkdwn: "You can't <what>. <who can>") and the refusal was audited as `action`.
 */
export async function refuseSubmissionIfReadOnly(
  deps: AppDeps,
  client: WebClient,
  req: { userId: string; action: string; what: string; campaignId?: number },
  answer: (mrkdwn: string) => Promise<void>,
): Promise<boolean> {
  if (await deps.permissions.canChange(req.userId, client)) return false;
  await answer(readOnlySentence(deps, req.what));
  await auditReadOnly(deps, client, req.userId, req.action, req.campaignId);
  return true;
}
