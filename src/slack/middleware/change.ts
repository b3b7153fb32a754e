/**
 * Permission and audit, written once around every route that changes something (src/slack/routes.ts shows which): a
 * read-only person is refused (told who can, the refusal audited), otherwise the handler runs and its outcome is
 * audited `ok` or `failed` before the answer goes out (the audit entry refreshes the person's Home tab). A failure
 * becomes a sentence for the person in the listener around the change (src/slack/middleware/listener.ts). A view
 * submission refuses inside its ack instead (`refuseSubmissionIfReadOnly`, the refusal step of `submission()`) and
 * audits its own outcome, exactly once per submission.
 */
import type { WebClient } from '@slack/web-api';
import type { Translator } from '../../i18n/translator.js';
import { isOutreachError } from '../../outreach/errors.js';
import { ENGLISH } from '../../render/format.js';
import { raw } from '../../render/mrkdwn.js';
import { englishErrorText } from '../../render/service-error.js';
import { tmd } from '../../render/text.js';
import type { SlackMessage } from '../../render/types.js';
import type { AppDeps } from '../deps.js';
import type { Reply } from '../reply.js';

/**
 * What a read-only person may be refused, keyed as the catalog's `readOnly.refused` names it (`{what, select, …}`:
 * both languages word each key; test/unit/read-only-refusals.test.ts holds them to it), with the action the refusal
 * is audited under. A key that is not here does not compile.
 */
const REFUSAL_AUDIT_ACTION = {
  activate: 'activate',
  pause: 'pause',
  resume: 'resume',
  archive: 'archive',
  create: 'create',
  edit: 'edit',
  uploadTo: 'upload contacts to',
  upload: 'upload',
  watch: 'watch',
  unwatch: 'unwatch',
  removeContacts: 'remove contacts from',
  editEndUsers: 'edit end users of',
  scheduleReports: 'schedule reports for',
  postReports: 'post reports of',
} as const;

/** What a read-only person tried: `ChangeSpec.what`, a submission's refusal. */
export type RefusedChange = keyof typeof REFUSAL_AUDIT_ACTION;

/** Every `RefusedChange`, for the test that holds the catalogs to them. */
export const REFUSED_CHANGES = Object.keys(REFUSAL_AUDIT_ACTION) as RefusedChange[];

/**
 * "You can't <what>. <who can>", in the person's words. whoCan() holds our own mentions of the admins, so this text
 * is mrkdwn of our own (nothing in it comes from outside).
 */
function readOnlySentence(deps: AppDeps, what: RefusedChange, t: Translator): string {
  return tmd(t, 'readOnly.refused', { what, whoCan: raw(deps.permissions.whoCan(t)) });
}

function auditReadOnly(deps: AppDeps, client: WebClient, userId: string, what: RefusedChange, campaignId?: number) {
  const action = REFUSAL_AUDIT_ACTION[what];
  return deps.audit.record({ userId, action, campaignId, result: 'refused', detail: 'read-only user' }, client);
}

/**
 * For every change: true (and the person told who can do it, and the refusal audited) when they may only read.
 */
async function refuseIfReadOnly(ctx: ChangeContext, what: RefusedChange, campaignId?: number): Promise<boolean> {
  const { deps, client, reply, userId } = ctx;
  const t = ctx.t ?? ENGLISH;
  if (await deps.permissions.canChange(userId, client)) return false;
  await auditReadOnly(deps, client, userId, what, campaignId);
  const text = tmd(t, 'feedback.error', { sentence: raw(readOnlySentence(deps, what, t)) });
  await reply.ephemeral({ text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] });
  return true;
}

/**
 * The same check for a view submission, whose ack must go out first: true when the person may only read, after
 * `answer` got the refusal (mrkdwn: "You can't <what>. <who can>", in `req.t`'s words) and the refusal was audited.
 * `submission()` runs it as its refusal step.
 */
export async function refuseSubmissionIfReadOnly(
  deps: AppDeps,
  client: WebClient,
  req: { userId: string; what: RefusedChange; campaignId?: number; t?: Translator },
  answer: (mrkdwn: string) => Promise<void>,
): Promise<boolean> {
  if (await deps.permissions.canChange(req.userId, client)) return false;
  await answer(readOnlySentence(deps, req.what, req.t ?? ENGLISH));
  await auditReadOnly(deps, client, req.userId, req.what, req.campaignId);
  return true;
}

/** Where a change comes from: who asked, and how to answer them. */
export interface ChangeContext {
  deps: AppDeps;
  client: WebClient;
  reply: Reply;
  userId: string;
  /**
   * The words of the person who asked: refusals and failures are told in them. Commands and buttons always have them;
   * optional only while every hand-built context (Home tab, end-user form) gains one. Without: English.
   */
  t?: Translator;
}

export interface ChangeSpec<C> {
  /** What a read-only person can't do ("You can't <what>"), which also names the refusal's audit action. */
  what: (ctx: C) => RefusedChange;
  /** The campaign it is about: audit entries and the failure's sentence name it. */
  campaign?: (ctx: C) => number | undefined;
  /** A throw is audited as `failed` under this action before it becomes the person's answer. */
  failedAs?: (ctx: C) => string;
}

/** What a change did: audited first (none: nothing changed), then the answer. */
export interface Changed {
  audit?: { action: string; result: 'ok' | 'failed'; detail?: string };
  /** For the person who asked. */
  ephemeral?: SlackMessage;
  /** For the conversation (who did what). */
  inChannel?: SlackMessage;
}

export type ChangeHandler<C> = (ctx: C) => Promise<Changed | void>;

async function carryOut<C extends ChangeContext>(ctx: C, spec: Omit<ChangeSpec<C>, 'what'>, handler: ChangeHandler<C>) {
  const { deps, client, reply, userId } = ctx;
  const campaignId = spec.campaign?.(ctx);
  let out: Changed | void;
  try {
    out = await handler(ctx);
  } catch (err) {
    if (spec.failedAs) {
      const action = spec.failedAs(ctx);
      const code = isOutreachError(err) ? err.key : undefined;
      await deps.audit.record(
        { userId, action, campaignId, result: 'failed', detail: englishErrorText(err), ...(code ? { code } : {}) },
        client,
      );
    }
    throw err;
  }
  if (out?.audit) await deps.audit.record({ userId, campaignId, ...out.audit }, client);
  if (out?.inChannel) await reply.inChannel(out.inChannel);
  if (out?.ephemeral) await reply.ephemeral(out.ephemeral);
}

/**
 * A change: the permission checked first (see the top of the file). A failure is not caught here: the listener around
 * it (`button()`, `slashCommand()`, `submission()`) turns it into a sentence, once.
 */
export function change<C extends ChangeContext>(
  spec: ChangeSpec<C>,
  handler: ChangeHandler<C>,
): (ctx: C) => Promise<void> {
  return async (ctx) => {
    if (await refuseIfReadOnly(ctx, spec.what(ctx), spec.campaign?.(ctx))) return;
    await carryOut(ctx, spec, handler);
  };
}

/** A change whose permission a view submission checked inside its ack: audited and answered like any change. */
export function changeAfterAck<C extends ChangeContext>(
  spec: Omit<ChangeSpec<C>, 'what'>,
  handler: ChangeHandler<C>,
): (ctx: C) => Promise<void> {
  return (ctx) => carryOut(ctx, spec, handler);
}
