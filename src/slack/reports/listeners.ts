/**
 * `/campaign report <id>` (now, in this conversation), `report <id> daily|weekly … [#channel]` and `report <id> off
 * [#channel]` (changes: src/slack/routes.ts wraps them in `change()`, so only a permitted person schedules), and
 * `/campaign reports`; the Report button of a campaign's detail and of the Home tab's menu.
 */
import { reportGatheringMessage, reportNoScheduleMessage, reportScheduledMessage } from '../../render/report.js';
import { reportUnscheduledMessage, schedulesListMessage } from '../../render/report.js';
import { campaignTimeZone } from '../../reports/figures.js';
import type { AppDeps, CommandContext, CommandHandler } from '../deps.js';
import type { ChangeHandler } from '../middleware/change.js';
import type { ButtonContext } from '../middleware/listener.js';
import { conversationWords } from '../conversation-words.js';
import type { ReportService } from './service.js';

type ReportDeps = AppDeps & { reports: ReportService };

/** `report <id>`: gathered, then posted in the conversation where it was typed. */
export const report: CommandHandler<'report', ReportDeps> = async ({ command, deps, reply, t, channelId, client }) => {
  await reply.ephemeral(reportGatheringMessage(command.id, t));
  const words = await conversationWords(deps, t, channelId);
  await deps.reports.post(command.id, channelId, words, client, { periodDays: deps.reports.nowPeriodDays });
};

/** The Report button: in the conversation of the message, or the person's DM with the app (Home tab). */
export async function reportButton({
  value,
  deps,
  body,
  client,
  reply,
  userId,
  t,
}: ButtonContext<number, ReportDeps>): Promise<void> {
  let channelId = body.channel?.id ?? body.container?.channel_id;
  if (!channelId) {
    const dm = await client.conversations.open({ users: userId });
    channelId = dm.channel?.id;
    if (!channelId) throw new Error('conversations.open answered without a channel');
  }
  await reply.ephemeral(reportGatheringMessage(value, t));
  const words = await conversationWords(deps, t, channelId);
  await deps.reports.post(value, channelId, words, client, { periodDays: deps.reports.nowPeriodDays });
}

/** `report <id> daily HH:MM [#channel]` / `weekly <day> HH:MM [#channel]`. */
export const schedule: ChangeHandler<CommandContext<'reportSchedule', ReportDeps>> = async ({
  command,
  deps,
  userId,
  channelId,
  t,
}) => {
  const campaign = await deps.outreach.getCampaign(command.id);
  const target = command.channel?.id ?? channelId;
  const s = {
    campaignId: command.id,
    channelId: target,
    frequency: command.frequency,
    ...(command.weekday !== undefined ? { weekday: command.weekday } : {}),
    time: command.time,
    timeZone: campaignTimeZone(campaign),
    by: userId,
    at: new Date(deps.reports.now()).toISOString(),
  };
  await deps.reports.schedules.set(s);
  const words = await conversationWords(deps, t, channelId);
  const when = command.frequency === 'daily' ? `daily ${s.time}` : `weekly ${command.weekday} ${s.time}`;
  return {
    audit: { action: `schedule reports (${when} ${s.timeZone}) in ${target}`, result: 'ok' },
    inChannel: reportScheduledMessage({ ...s, nextRun: deps.reports.nextRun(s) }, userId, words),
  };
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
