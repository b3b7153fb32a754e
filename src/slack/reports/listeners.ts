/**
 * `/campaign report <id>` (now), `report <id> daily|weekly … [#channel]` and `report <id> off [#channel]` (changes:
 * src/slack/routes.ts wraps them in `change()`, so only a permitted person schedules), and `/campaign reports`; the
 * Report button of a campaign's detail and of the Home tab's menu; the Slack Connect confirmations of a report and of
 * a schedule (wrapped in `change()` too). Where a report may go: channels.ts.
 */
import type { BlockAction } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { Translator } from '../../i18n/translator.js';
import type { ConfirmValue, ScheduleConfirmValue } from '../../render/ids.js';
import { reportConfirmExternalMessage, reportGatheringMessage, reportOverBudgetMessage } from '../../render/report.js';
import { reportNoScheduleMessage, reportScheduledMessage } from '../../render/report.js';
import { reportUnscheduledMessage, schedulesListMessage } from '../../render/report.js';
import { note } from '../../render/watch.js';
import { campaignTimeZone } from '../../reports/figures.js';
import { ReportOverBudget } from '../../reports/gatherings.js';
import type { ReportSchedule } from '../../reports/schedules.js';
import type { AppDeps, CommandContext, CommandHandler } from '../deps.js';
import type { ChannelRef } from '../grammar.js';
import type { ChangeHandler, Changed } from '../middleware/change.js';
import type { ButtonContext } from '../middleware/listener.js';
import type { Reply } from '../reply.js';
import { conversationWords } from '../conversation-words.js';
import { nowTarget, scheduleTarget } from './channels.js';
import type { ReportService } from './service.js';

type ReportDeps = AppDeps & { reports: ReportService };

/** Who asks, and how to answer them. */
interface Asker {
  deps: ReportDeps;
  client: WebClient;
  reply: Reply;
  userId: string;
  t: Translator;
}

const CONFIRMED_DETAIL = 'shared with another organization (or sharing unknown), confirmed by the button';

/**
 * A report now, asked in `channelId` (none: the Home tab): where it may go (channels.ts), then its gathering (shared
 * with other asks for the campaign, maybe queued, charged to the person), then posted there. True once posted.
 */
async function reportNow(
  ctx: Asker,
  req: { campaignId: number; channelId?: string; externalConfirmed?: boolean },
): Promise<boolean> {
  const { deps, client, reply, userId, t } = ctx;
  const target = await nowTarget(deps, client, t, { userId, ...req });
  if (!target.ok) {
    if ('sentence' in target) return reply.ephemeral(note(`⚠️ ${target.sentence}`)).then(() => false);
    const campaign = await deps.outreach.getCampaign(req.campaignId);
    await reply.ephemeral(reportConfirmExternalMessage(campaign, req.channelId!, target.confirm, t));
    return false;
  }
  const { status, figures } = deps.reports.gather({
    campaignId: req.campaignId,
    periodDays: deps.reports.nowPeriodDays,
    payer: userId,
  });
  // Settled at once, so a failure is never left unhandled while the person is answered.
  const settled = figures.then(
    (f) => ({ ok: true as const, f }),
    (err: unknown) => ({ ok: false as const, err }),
  );
  const { maxGathering, requestsPerAction } = deps.reports.gathering;
  const where = target.where === 'dm' ? { where: 'dm' as const, why: target.why } : { where: 'here' as const };
  await reply.ephemeral(
    reportGatheringMessage({ campaignId: req.campaignId, ...status, maxAtOnce: maxGathering, ...where }, t),
  );
  const got = await settled;
  if (!got.ok) {
    if (!(got.err instanceof ReportOverBudget)) throw got.err;
    const { requests, waitMs } = got.err;
    await reply.ephemeral(
      reportOverBudgetMessage({ campaignId: req.campaignId, requests, waitMs, requestsPerAction }, t),
    );
    return false;
  }
  const words = target.where === 'dm' ? t : await conversationWords(deps, t, target.channelId);
  await deps.reports.deliver(got.f, target.channelId, words, client);
  return true;
}

/** `report <id>`: in the conversation where it was typed, or only to the person (channels.ts). */
export const report: CommandHandler<'report', ReportDeps> = async (ctx) => {
  await reportNow(ctx, { campaignId: ctx.command.id, channelId: ctx.channelId });
};

/** The channel a button was clicked in; none in the Home tab. */
const clickedIn = (body: BlockAction): string | undefined => body.channel?.id ?? body.container?.channel_id;

/** The Report button: in the conversation of the message, or the person's DM with the app (Home tab). */
export async function reportButton(ctx: ButtonContext<number, ReportDeps>): Promise<void> {
  const channelId = clickedIn(ctx.body);
  await reportNow(ctx, { campaignId: ctx.value, ...(channelId ? { channelId } : {}) });
}

/** "Post it there anyway": a permitted person confirms a report into a Slack Connect channel. */
export const reportConfirmed: ChangeHandler<ButtonContext<ConfirmValue, ReportDeps>> = async (ctx) => {
  const { campaignId, channelId } = ctx.value;
  if (!(await reportNow(ctx, { campaignId, channelId, externalConfirmed: true }))) return;
  return { audit: { action: `post a report in ${channelId}`, result: 'ok', detail: CONFIRMED_DETAIL } };
};

interface ScheduleRequest {
  campaignId: number;
  channel: ChannelRef;
  frequency: 'daily' | 'weekly';
  weekday?: number;
  time: string;
}

/**
 * Sets a schedule, once the channel passed the checks of channels.ts (`here`: where the person asked); a Slack Connect
 * channel first gets the confirmation, whose press comes back here with `externalConfirmed`.
 */
async function setSchedule(
  ctx: Asker & { here: string },
  req: ScheduleRequest,
  externalConfirmed: boolean,
): Promise<Changed> {
  const { deps, client, userId, t } = ctx;
  const campaign = await deps.outreach.getCampaign(req.campaignId);
  const channelId = req.channel.id;
  const target = await scheduleTarget(client, t, { userId, here: ctx.here, target: req.channel, externalConfirmed });
  if (!target.ok && 'sentence' in target) {
    const audit = { action: `schedule reports in ${channelId}`, result: 'failed' as const, detail: target.sentence };
    return { audit, ephemeral: note(`⚠️ ${target.sentence}`) };
  }
  const { frequency, weekday, time } = req;
  const typed = {
    campaignId: req.campaignId,
    channelId,
    frequency,
    ...(weekday !== undefined ? { weekday } : {}),
    time,
  };
  if (!target.ok) return { ephemeral: reportConfirmExternalMessage(campaign, channelId, target.confirm, t, typed) };
  const at = new Date(deps.reports.now()).toISOString();
  const s: ReportSchedule = {
    ...typed,
    timeZone: campaignTimeZone(campaign),
    by: userId,
    at,
    ...(target.external ? { confirmedShared: { by: userId, at } } : {}),
  };
  await deps.reports.schedules.set(s);
  const words = await conversationWords(deps, t, ctx.here);
  const when = frequency === 'daily' ? `daily ${time}` : `weekly ${weekday} ${time}`;
  return {
    audit: {
      action: `schedule reports (${when} ${s.timeZone}) in ${channelId}`,
      result: 'ok',
      ...(target.external ? { detail: CONFIRMED_DETAIL } : {}),
    },
    inChannel: reportScheduledMessage({ ...s, nextRun: deps.reports.nextRun(s) }, userId, words),
  };
}

/** `report <id> daily HH:MM [#channel]` / `weekly <day> HH:MM [#channel]`. */
export const schedule: ChangeHandler<CommandContext<'reportSchedule', ReportDeps>> = (ctx) => {
  const { command, channelId } = ctx;
  const { id, frequency, weekday, time } = command;
  const req = { campaignId: id, channel: command.channel ?? { id: channelId }, frequency, time };
  return setSchedule({ ...ctx, here: channelId }, weekday !== undefined ? { ...req, weekday } : req, false);
};

/** "Schedule it there anyway": a permitted person confirms a schedule into a Slack Connect channel. */
export const scheduleConfirmed: ChangeHandler<ButtonContext<ScheduleConfirmValue, ReportDeps>> = (ctx) => {
  const { channelId, ...rest } = ctx.value;
  return setSchedule({ ...ctx, here: clickedIn(ctx.body) ?? channelId }, { ...rest, channel: { id: channelId } }, true);
};

/** `report <id> off [#channel]`. */
export const unschedule: ChangeHandler<CommandContext<'reportOff', ReportDeps>> = async ({
  command,
  deps,
  userId,
  channelId,
  t,
}) => {
  const target = command.channel?.id ?? channelId;
  if (!(await deps.reports.schedules.remove(command.id, target)))
    return { ephemeral: reportNoScheduleMessage(command.id, target, t) };
  const words = await conversationWords(deps, t, channelId);
  return {
    audit: { action: `stop scheduled reports in ${target}`, result: 'ok' },
    inChannel: reportUnscheduledMessage(command.id, target, userId, words),
  };
};

/** `reports`: every schedule and its next run. */
export const reports: CommandHandler<'reports', ReportDeps> = async ({ deps, reply, t }) => {
  const all = await deps.reports.schedules.all();
  await reply.ephemeral(
    schedulesListMessage(
      all.map((s) => ({ ...s, nextRun: deps.reports.nextRun(s) })),
      t,
    ),
  );
};
