/**
 * The shapes of the app's listeners, written once: a button (ack at once, its value decoded, a stale one answered,
 * the work after the ack with its failure turned into a sentence), a read-only button, and a view submission acked
 * exactly once within Slack's 3 seconds. src/slack/routes.ts puts these around each feature's handlers.
 */
import type {
  BlockAction,
  Middleware,
  RespondFn,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { setTimeout } from 'node:timers/promises';
import { translator, type Translator } from '../../i18n/translator.js';
import { errorMessage } from '../../render/feedback.js';
import type { SlackMessage } from '../../render/types.js';
import type { AppDeps, CommandContext, CommandHandler } from '../deps.js';
import { parseCommandText, usageMessage, type CampaignCommand } from '../grammar.js';
import { errorSummary, guarded } from './errors.js';
import type { PersonLanguage } from '../locale.js';
import { dmReply, respondReply, type Reply } from '../reply.js';

/** The language of the person behind a request, and their words: every listener's answer is in them. */
export interface Words {
  t: Translator;
  person: PersonLanguage;
}

/** `Words` of a person (after the ack: it may ask Slack who they are). */
async function wordsFor(deps: AppDeps, userId: string, client: WebClient): Promise<Words> {
  const person = await deps.languages.person(userId, client);
  return { t: translator(person.locale), person };
}

/** Buttons in messages answer through response_url; buttons in the Home tab or a modal have none: answer in a DM. */
function actionReply(body: BlockAction, respond: RespondFn, client: WebClient): Reply {
  return body.response_url ? respondReply(respond) : dmReply(client, body.user.id);
}

export function buttonValue(body: BlockAction): string | undefined {
  const a = body.actions[0];
  if (!a) return undefined;
  if (a.type === 'button') return a.value;
  if (a.type === 'overflow' || a.type === 'static_select') return a.selected_option?.value;
  return undefined;
}

/** The answer to a button whose value cannot be read (an old message's, or not ours), in the clicker's words. */
function staleButtonMessage(t: Translator): SlackMessage {
  return errorMessage({ sentence: t.t('feedback.staleButton') }, t);
}

/**
 * Resolves to 'slow' after `ms`, without keeping the process alive: raced against a service call to decide whether
 * a Slack request must be answered before the call is done.
 */
export function slowAfter(ms: number): Promise<'slow'> {
  return setTimeout(ms, 'slow' as const, { ref: false });
}

export type ActionListener = Middleware<SlackActionMiddlewareArgs<BlockAction>>;
export type ViewListener = Middleware<SlackViewMiddlewareArgs<ViewSubmitAction>>;

/** What a button's handler gets, after the ack. */
export interface ButtonContext<V, D extends AppDeps = AppDeps> {
  value: V;
  body: BlockAction;
  userId: string;
  triggerId: string;
  client: WebClient;
  reply: Reply;
  deps: D;
  /** The words of the person who clicked (their language), and their language and timezone. */
  t: Translator;
  person: PersonLanguage;
}

export interface ButtonOptions<V> {
  /** The answer to a value that cannot be read, in the clicker's words (default: the button no longer works). */
  stale?: SlackMessage | ((t: Translator) => SlackMessage);
  /** The campaign a failure's sentence names. */
  campaignOf?: (value: V) => number | undefined;
}

/**
 * A button (or menu): ack, decode its value (with the request body, for buttons that also need where they were
 * clicked), answer a malformed one, then run `handler`; whatever it throws becomes a sentence for the person.
 */
export function button<V, D extends AppDeps>(
  deps: D,
  decode: (value: string | undefined, body: BlockAction) => V | null,
  handler: (ctx: ButtonContext<V, D>) => Promise<void>,
  opts: ButtonOptions<V> = {},
): ActionListener {
  return async ({ ack, body, respond, client }) => {
    await ack();
    const reply = actionReply(body, respond, client);
    const value = decode(buttonValue(body), body);
    const words = await wordsFor(deps, body.user.id, client);
    if (value === null) {
      const stale = typeof opts.stale === 'function' ? opts.stale(words.t) : opts.stale;
      return reply.ephemeral(stale ?? staleButtonMessage(words.t));
    }
    const ctx = { value, body, userId: body.user.id, triggerId: body.trigger_id, client, reply, deps, ...words };
    await guarded(reply, deps.logger, () => handler(ctx), { campaignId: opts.campaignOf?.(value), t: words.t });
  };
}

/** A read-only button: the message `load` builds (in the clicker's words), shown to the person who clicked. */
export function readButton<V>(
  deps: AppDeps,
  decode: (value: string | undefined) => V | null,
  load: (value: V, words: Words) => Promise<SlackMessage>,
  campaignOf?: (value: V) => number,
): ActionListener {
  return button(
    deps,
    decode,
    async ({ value, reply, t, person }) => reply.ephemeral(await load(value, { t, person })),
    {
      ...(campaignOf ? { campaignOf } : {}),
    },
  );
}

/** What a view submission's handler gets: its view, who submitted it, and its ack (sent once, whoever calls it). */
export interface SubmissionContext<A> {
  view: ViewSubmitAction['view'];
  userId: string;
  client: WebClient;
  ack: (response: A) => Promise<void>;
}

/**
 * A view submission whose ack carries the answer (errors under their blocks, a refusal, a pushed or updated view, or
 * nothing to close it) and whose work goes on after it. The ack goes out once, whoever sends it; when `handler`
 * crashes before acking, the person gets `crashed` (a view saying nothing was lost) instead of Slack's error.
 */
export function submission<A>(
  deps: AppDeps,
  what: string,
  handler: (ctx: SubmissionContext<A>) => Promise<void>,
  crashed: (view: ViewSubmitAction['view']) => A,
): ViewListener {
  return async ({ ack, body, view, client }) => {
    let acked = false;
    const once = async (response: A) => {
      if (acked) return;
      acked = true;
      await (response ? ack(response as never) : ack());
    };
    try {
      await handler({ view, userId: body.user.id, client, ack: once });
    } catch (err) {
      deps.logger.error({ err: errorSummary(err) }, `${what} crashed`);
      await once(crashed(view));
    }
  };
}

/** One handler per kind of `/campaign` request the grammar parses (a missing one is a compile error). */
export type Subcommands<D extends AppDeps> = { [K in CampaignCommand['kind']]: CommandHandler<K, D> };

/**
 * `/campaign`: ack at once (Slack wants an answer within 3 s and the service may be slow), parse, then run the
 * subcommand's handler; a command that cannot be read gets the usage, whatever a handler throws becomes a sentence.
 */
export function slashCommand<D extends AppDeps>(
  deps: D,
  handlers: Subcommands<D>,
): Middleware<SlackCommandMiddlewareArgs> {
  return async ({ ack, command, client, respond }) => {
    await ack();
    const reply = respondReply(respond);
    const words = await wordsFor(deps, command.user_id, client);
    const parsed = parseCommandText(command.text ?? '');
    if (!parsed.ok) {
      await reply.ephemeral(usageMessage(words.t, parsed.problem));
      return;
    }
    const cmd = parsed.command;
    const ctx = {
      command: cmd,
      body: command,
      userId: command.user_id,
      channelId: command.channel_id,
      triggerId: command.trigger_id,
      client,
      reply,
      deps,
      ...words,
    } as CommandContext<CampaignCommand['kind'], D>;
    const handler = handlers[cmd.kind] as CommandHandler<typeof cmd.kind, D>;
    await guarded(reply, deps.logger, () => handler(ctx as never), {
      t: words.t,
      campaignId: 'id' in cmd ? cmd.id : undefined,
    });
  };
}
