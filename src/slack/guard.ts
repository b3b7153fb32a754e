/**
 * Runs a piece of listener work after the ack and turns anything it throws into a sentence for the person:
 * service errors through `humanMessage`, anything else as a short apology. Never a stack trace in Slack; the
 * details go to the log (with secrets redacted by the logger).
 */
import type { Logger } from '../log.js';
import { OutreachError } from '../outreach/errors.js';
import { serviceErrorMessage } from './usecases/feedback.js';
import type { Reply } from './reply.js';

export async function guarded(
  reply: Reply,
  logger: Logger,
  work: () => Promise<void>,
  context: { campaignId?: number; action?: string } = {},
): Promise<void> {
  try {
    await work();
  } catch (err) {
    if (!(err instanceof OutreachError)) logger.error({ err: errorSummary(err) }, 'listener failed');
    else logger.warn({ err: errorSummary(err) }, 'service call failed');
    try {
      await reply.ephemeral(serviceErrorMessage(err, context));
    } catch (replyErr) {
      logger.error({ err: errorSummary(replyErr) }, 'could not tell the person about a failure');
    }
  }
}

export function errorSummary(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}
