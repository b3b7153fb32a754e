/**
 * The error reply, written once: a piece of listener work runs after the ack, and anything it throws becomes a
 * sentence for the person, in their language: service errors through `serviceErrorText`, anything else as a short
 * apology. Never a stack trace in Slack; the details go to the log (with secrets redacted by the logger).
 */
import type { Translator } from '../../i18n/translator.js';
import type { Logger } from '../../log.js';
import { OutreachError } from '../../outreach/errors.js';
import { errorMessage } from '../../render/feedback.js';
import { ENGLISH } from '../../render/format.js';
import { serviceErrorText } from '../../render/service-error.js';
import type { SlackMessage } from '../../render/types.js';
import type { Reply } from '../reply.js';

/** A failure, as the person who asked should read it (ephemeral), in their words. */
export function serviceErrorMessage(
  err: unknown,
  context: { campaignId?: number } = {},
  t: Translator = ENGLISH,
): SlackMessage {
  const sentence = serviceErrorText(err, t);
  if (err instanceof OutreachError && err.key === 'INVALID_STATUS_TRANSITION') {
    return errorMessage(
      { sentence, campaignId: context.campaignId, currentStatus: err.currentStatus, validTargets: err.validTargets },
      t,
    );
  }
  return errorMessage({ sentence, campaignId: context.campaignId }, t);
}

export async function guarded(
  reply: Reply,
  logger: Logger,
  work: () => Promise<void>,
  context: { t: Translator; campaignId?: number },
): Promise<void> {
  try {
    await work();
  } catch (err) {
    if (!(err instanceof OutreachError)) logger.error({ err: errorSummary(err) }, 'listener failed');
    else logger.warn({ err: errorSummary(err) }, 'service call failed');
    try {
      await reply.ephemeral(serviceErrorMessage(err, { campaignId: context.campaignId }, context.t));
    } catch (replyErr) {
      logger.error({ err: errorSummary(replyErr) }, 'could not tell the person about a failure');
    }
  }
}

export function errorSummary(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}
