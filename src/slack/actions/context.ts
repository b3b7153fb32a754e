import type { BlockAction, RespondFn } from '@slack/bolt';
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
