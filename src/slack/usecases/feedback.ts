import { humanMessage, OutreachError } from '../../outreach/errors.js';
import { errorMessage } from '../../render/feedback.js';
import type { SlackMessage } from '../../render/types.js';

/** A failure, as the person who asked should read it (ephemeral). */
export function serviceErrorMessage(err: unknown, context: { campaignId?: number } = {}): SlackMessage {
  const sentence = humanMessage(err);
  if (err instanceof OutreachError && err.key === 'INVALID_STATUS_TRANSITION') {
    return errorMessage({
      sentence,
      campaignId: context.campaignId,
      currentStatus: err.currentStatus,
      validTargets: err.validTargets,
    });
  }
  return errorMessage({ sentence, campaignId: context.campaignId });
}
