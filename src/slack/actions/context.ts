import type { App, BlockAction, RespondFn } from '@slack/bolt';
import { errorMessage } from '../../render/feedback.js';
import type { AppDeps } from '../deps.js';
import { guarded } from '../guard.js';
import type { SlackMessage } from '../../render/types.js';
import type { WebClient } from '@slack/web-api';
import { dmReply, respondReply, type Reply } from '../reply.js';

/** Buttons in messages answer through response_url; buttons in the Home tab or a modal have none: answer in a DM. */
export function actionReply(body: BlockAction, respond: RespondFn, client: WebClient): Reply {
  return body.response_url ? respondReply(respond) : dmReply(client, body.user.id);
}

export function buttonValue(body: BlockAction): string | undefined {
  const a = body.actions[0];
  if (!a) return undefined;
  if (a.type === 'button') return a.value;
  if (a.type === 'overflow' || a.type === 'static_select') return a.selected_option?.value;
  return undefined;
}

/**
 * A read-only button: ack, decode its value (a malformed one is answered, not crashed on), load a message and show
 * it to the person who clicked. Service errors become sentences through `guarded`.
 */
export function readButton<T>(
  app: App,
  deps: AppDeps,
  actionId: string | RegExp,
  decode: (value: string | undefined) => T | null,
  load: (v: T) => Promise<SlackMessage>,
  campaignIdOf?: (v: T) => number,
): void {
  app.action<BlockAction>(actionId, async ({ ack, body, respond, client }) => {
    await ack();
    const reply = actionReply(body, respond, client);
    const v = decode(buttonValue(body));
    if (v === null) return reply.ephemeral(staleButtonMessage);
    await guarded(reply, deps.logger, async () => reply.ephemeral(await load(v)), {
      campaignId: campaignIdOf?.(v),
    });
  });
}

export const staleButtonMessage = errorMessage({
  sentence: 'That button no longer works. Run the command again to get a fresh one.',
});
