/**
 * A lifecycle action asked by a person, from a typed command or a button: permission, the service call, the
 * result for the channel (who did what), a failure only for the person, and the audit trail either way.
 */
import type { WebClient } from '@slack/web-api';
import type { LifecycleAction } from '../../outreach/schemas.js';
import { humanMessage } from '../../outreach/errors.js';
import { lifecycleResultMessage } from '../../render/feedback.js';
import type { AppDeps } from '../deps.js';
import type { Reply } from '../reply.js';
import { serviceErrorMessage } from './feedback.js';
import { refuseIfReadOnly } from './permission.js';

export async function performLifecycle(
  deps: AppDeps,
  client: WebClient,
  reply: Reply,
  userId: string,
  id: number,
  action: LifecycleAction,
): Promise<boolean> {
  if (await refuseIfReadOnly(deps, client, reply, userId, action, id)) return false;
  try {
    const campaign = await deps.outreach.campaignAction(id, action);
    await deps.audit.record({ userId, action, campaignId: id, result: 'ok' }, client);
    await reply.inChannel(lifecycleResultMessage({ userId, action, campaign }));
    return true;
  } catch (err) {
    await deps.audit.record({ userId, action, campaignId: id, result: 'failed', detail: humanMessage(err) }, client);
    await reply.ephemeral(serviceErrorMessage(err, { campaignId: id }));
    return false;
  }
}
