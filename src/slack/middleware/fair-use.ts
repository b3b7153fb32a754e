/**
 * Fair use of the service's 12 requests/s among people, on the Slack side (the limiter's side is in
 * src/outreach/fair-share.ts):
 *
 * - Every Slack request is handled on behalf of the person who sent it (`onBehalfOf`), so the service requests it
 *   causes take turns with other people's in the shared limiter.
 * - Each person has a token bucket of commands and clicks that use the service: `PERSON_ACTIONS_BURST` at once,
 *   refilled at `PERSON_ACTIONS_PER_MINUTE`, one for the whole app however many replicas (person-budget.ts). What counts: `/campaign` subcommands (not `help` or `lang`, not a mistyped
 *   command: those never reach the service), and buttons and menus in messages and in the Home tab. What does not:
 *   choices inside an open form (a modal) and form submissions (refusing them would lose what the person typed),
 *   opening the Home tab (served from the shared list snapshot and short caches), replies in watched threads (a
 *   conversation with a customer is never refused).
 * - A campaign report also spends it as it reads the service: one action per `requestsPerAction` requests
 *   (src/reports/gatherings.ts, with `take`), and stops when the person has none left.
 * - Over the bucket, the request is acknowledged at once and the person told, kindly, how long to wait: an
 *   ephemeral answer through the command's or message's response_url; for a Home tab button (no response_url), a DM,
 *   once per streak of refusals so a person clicking on does not get a DM per click.
 */
import type { App } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { onBehalfOf } from '../../outreach/on-behalf.js';
import { translator, type Translator } from '../../i18n/translator.js';
import { mrkdwnSection, fallback } from '../../render/mrkdwn.js';
import type { SlackMessage } from '../../render/types.js';
import { parseCommandText } from '../grammar.js';
import type { AppDeps } from '../deps.js';
import { errorSummary } from './errors.js';
import { dmReply } from '../reply.js';
import type { PersonBudget } from './person-budget.js';

/** The polite answer to a person over their share, in their words: the wait in seconds, or minutes past one. */
function overBudgetMessage(waitMs: number, burst: number, t: Translator): SlackMessage {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  const text = t.t('fairUse.wait', {
    burst: t.number(burst),
    wait: seconds < 60 ? 'seconds' : 'minutes',
    seconds,
    minutes: Math.ceil(seconds / 60),
  });
  return { text: fallback(text), blocks: [mrkdwnSection(text)] };
}

type Body = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const obj = (v: unknown): Body | undefined => (v && typeof v === 'object' ? (v as Body) : undefined);

/** The Slack user who sent this request: a command's user_id, an interaction's user, an event's user. */
function personOf(body: Body): string | undefined {
  return str(body.user_id) ?? str(obj(body.user)?.id) ?? str(obj(body.event)?.user);
}

/** Whether this request spends one of the person's actions (see the top of the file). */
export function countsAgainstBudget(body: Body): boolean {
  if (body.type === 'block_actions') return obj(body.view)?.type !== 'modal';
  if (body.command === '/campaign') {
    const parsed = parseCommandText(typeof body.text === 'string' ? body.text : '');
    return parsed.ok && parsed.command.kind !== 'help' && parsed.command.kind !== 'lang';
  }
  return false;
}

/**
 * A global middleware: every request runs on behalf of its sender; a command or click over the sender's bucket is
 * acknowledged and answered here, and goes no further.
 */
export function registerFairUse(app: App, deps: AppDeps, budget: PersonBudget): void {
  app.use(async (args) => {
    const body = args.body as unknown as Body;
    const person = personOf(body);
    if (person && countsAgainstBudget(body)) {
      const answer = await budget.take(person);
      if (!answer.ok) {
        const ack = (args as { ack?: () => Promise<void> }).ack;
        if (ack) await ack();
        await tellToWait(deps, args.client, budget, body, person, answer.waitMs, args);
        return;
      }
    }
    await onBehalfOf(person, args.next);
  });
}

async function tellToWait(
  deps: AppDeps,
  client: WebClient,
  budget: PersonBudget,
  body: Body,
  person: string,
  waitMs: number,
  args: unknown,
): Promise<void> {
  // Logged once the person was told (or it was decided not to DM them again): the line marks the refusal as handled.
  let told: 'ephemeral' | 'dm' | 'not again this streak' | 'failed' = 'not again this streak';
  try {
    const msg = overBudgetMessage(
      waitMs,
      budget.burst,
      translator((await deps.languages.person(person, client)).locale),
    );
    const respond = (args as { respond?: (m: object) => Promise<unknown> }).respond;
    if (respond && str(body.response_url)) {
      await respond({ response_type: 'ephemeral', replace_original: false, text: msg.text, blocks: msg.blocks });
      told = 'ephemeral';
    } else if (await budget.shouldDm(person)) {
      await dmReply(client, person).ephemeral(msg);
      told = 'dm';
    }
  } catch (err) {
    told = 'failed';
    deps.logger.warn({ err: errorSummary(err), user: person }, 'could not ask a person to wait');
  }
  deps.logger.info({ user: person, waitMs, told }, 'a person is over their share of commands; asked to wait');
}
