/**
 * "The end user waits for a person": a call's conversation in which the end user wrote after the call ended and no
 * person has answered since. Such a call is shown in every channel watching its campaign, whatever the channel's
 * filter (a filter never hides a customer waiting for a reply). Pure, over what the core reads of a conversation
 * (GET /message, oldest first) and what it knows went out from Slack.
 *
 * While the call runs, the end user's lines are the live transcript (the agent is talking with them): nobody waits.
 * After it: an end-user message starts a wait; a message a person sent ends it, that is one the service marks as
 * sent by an in-app user (`sent_by_user`), or one the app relayed from a Slack thread (`fromSlack`: the keys of what
 * the service made of those replies, conversation.ts `repliesFromSlack`). The agent's automatic answers do not end it: the customer waits for a person.
 */
import type { Message } from '../outreach/schemas.js';
import { messageKey } from './conversation.js';

export interface WaitingFacts {
  /** When the call ended (ms); undefined while it runs. */
  endedAt?: number;
  /** Keys (conversation.ts `messageKey`) of the service's messages that are replies people sent from Slack. */
  fromSlack?: ReadonlySet<string>;
}

function fromAPerson(m: Message, fromSlack: ReadonlySet<string> | undefined): boolean {
  if (m.sent_by_user) return true;
  if (!fromSlack || m.sent_by !== 'EU') return false;
  return fromSlack.has(messageKey(m));
}

/** Whether the end user waits for a person's reply (see the top of the file). Pure. */
export function endUserWaiting(messages: readonly Message[], facts: WaitingFacts): boolean {
  if (facts.endedAt === undefined) return false;
  let waiting = false;
  for (const m of messages) {
    const at = Date.parse(m.sent_at);
    if (Number.isNaN(at) || at < facts.endedAt) continue;
    if (fromAPerson(m, facts.fromSlack)) waiting = false;
    else if (m.sent_by === 'EU') waiting = true;
  }
  return waiting;
}
