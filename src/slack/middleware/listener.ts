/**
 * The shapes of the app's listeners, written once: a button (ack at once, its value decoded, a stale one answered,
 * the work after the ack with its failure turned into a sentence), a read-only button, `/campaign`, and a view
 * submission (its metadata, words, refusal, checks and work in steps, acked exactly once within Slack's 3 seconds).
 * src/slack/routes.ts puts these around each feature's handlers; a failure becomes a sentence here and only here.
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
import type { z } from 'zod';
import type { Locale } from '../../i18n/locale.js';
import { translator, type Translator } from '../../i18n/translator.js';
import { errorMessage } from '../../render/feedback.js';
import { decodeJson } from '../../render/ids.js';
import type { SlackMessage, View } from '../../render/types.js';
import type { AppDeps, CommandContext, CommandHandler } from '../deps.js';
import { parseCommandText, usageMessage, type CampaignCommand } from '../grammar.js';
import { errorSummary, guarded } from './errors.js';
import type { PersonLanguage } from '../locale.js';
import { dmReply, respondReply, type Reply } from '../reply.js';
import { refuseSubmissionIfReadOnly, type ChangeContext, type RefusedChange } from './change.js';

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

/** What a view submission is acked with: errors under their blocks, a view pushed or put in its place; none closes it. */
export type ViewAck =
  | { response_action: 'errors'; errors: Record<string, string> }
  | { response_action: 'update' | 'push'; view: View }
  | undefined;

/** What a view submission's steps get: its view, who submitted it, its metadata read back, its words, and its ack. */
interface SubmissionContext<A, M> {
  view: ViewSubmitAction['view'];
  userId: string;
  client: WebClient;
  /** The view's private_metadata as its schema read it (`undefined` for a submission that reads none here). */
  meta: M;
  /** The words the modal speaks: its metadata's language, else the submitter's. */
  t: Translator;
  /** Sent once, whoever calls it. */
  ack: (response: A) => Promise<void>;
}

/** What a submission's `save` gets after the ack: a change's context (answered in the person's DM) and the input. */
export type Saved<I> = ChangeContext & { t: Translator } & I;

/** A submission's values checked inside the ack: what to save, or the ack that says what is wrong. */
type Checked<A, I> = { input: I } | { ack: A };

/** After the checks, either the whole rest (`handler` acks when it knows how), or `read` then `save`. */
type SubmissionWork<A, M, I> =
  | { handler: (ctx: SubmissionContext<A, M>) => Promise<void> }
  | {
      /** The values: what to save, or the ack for what is wrong (errors under their fields). */
      read: (ctx: SubmissionContext<A, M>) => Checked<A, I>;
      /**
       * After the empty ack (the modal closes): the person is answered in their DM, and what `save` throws is told
       * there (naming the input's campaign) like any listener's failure.
       */
      save: (ctx: Saved<I>) => Promise<void>;
    };

/** Who may not: what they tried, about which campaign, and the ack that tells them ("You can't …", `mrkdwn`). */
interface SubmissionRefusal<A, M> {
  what: (meta: M) => RefusedChange;
  campaign?: (meta: M) => number | undefined;
  answer: (mrkdwn: string, t: Translator) => A;
}

export type SubmissionSpec<A, M, I> = SubmissionWork<A, M, I> & {
  /** Names the submission in the log. */
  what: string;
  /** The view's private_metadata: its schema (render/), and the ack for a view it does not fit (out of date). */
  metadata?: { schema: z.ZodType<M>; stale: (t: Translator) => A };
  /** The language the modal speaks, from its metadata (null: out of date); undefined: the submitter's own. */
  locale?: (meta: M | null) => Locale | undefined;
  /** A change, refused inside the ack to a read-only person. */
  refuse?: SubmissionRefusal<A, M>;
  /**
   * The ack when a step crashed before acking (a view saying nothing was lost, instead of Slack's error), in the
   * modal's words once they are known (before: its metadata's language, else English).
   */
  crashed: (t: Translator) => A;
};

/**
 * A view submission, its steps written once: its metadata read back (a stale view answered), its words picked, a
 * read-only person refused inside the ack, then the values checked, the ack, and the work after it. The ack goes out
 * exactly once within Slack's 3 seconds, whoever sends it; a crash before it becomes `crashed`.
 */
export function submission<A extends ViewAck, M = undefined, I extends object = object>(
  deps: AppDeps,
  spec: SubmissionSpec<A, M, I>,
): ViewListener {
  return async ({ ack, body, view, client }) => {
    let acked = false;
    const once = async (response?: A) => {
      if (acked) return;
      acked = true;
      await (response ? ack(response as never) : ack());
    };
    const userId = body.user.id;
    const decoded = spec.metadata ? decodeJson(spec.metadata.schema, view.private_metadata) : undefined;
    const locale = spec.locale?.(decoded ?? null);
    let t = translator(locale ?? 'en');
    try {
      // A modal opened moments ago: the submitter's language is cached, so this rarely asks Slack before the ack.
      if (locale === undefined) t = (await wordsFor(deps, userId, client)).t;
      if (spec.metadata && decoded === null) return await once(spec.metadata.stale(t));
      const ctx: SubmissionContext<A, M> = { view, userId, client, meta: decoded as M, t, ack: once };
      if (spec.refuse && (await refused(deps, ctx, spec.refuse))) return;
      if ('handler' in spec) return await spec.handler(ctx);
      const checked = spec.read(ctx);
      if ('ack' in checked) return await once(checked.ack);
      await once();
      const reply = dmReply(client, userId);
      const { input } = checked;
      const campaignId = 'campaignId' in input && typeof input.campaignId === 'number' ? input.campaignId : undefined;
      await guarded(reply, deps.logger, () => spec.save({ deps, client, reply, userId, t, ...input }), {
        t,
        campaignId,
      });
    } catch (err) {
      deps.logger.error({ err: errorSummary(err) }, `${spec.what} crashed`);
      await once(spec.crashed(t));
    }
  };
}

/** The refusal step of a submission: true when the person may only read (answered inside the ack, audited). */
function refused<A, M>(deps: AppDeps, ctx: SubmissionContext<A, M>, refuse: SubmissionRefusal<A, M>): Promise<boolean> {
  const { client, userId, meta, t } = ctx;
  const req = { userId, what: refuse.what(meta), campaignId: refuse.campaign?.(meta), t };
  return refuseSubmissionIfReadOnly(deps, client, req, (text) => ctx.ack(refuse.answer(text, t)));
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
