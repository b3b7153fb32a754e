/**
 * Campaign reports in Slack: one posted now (`/campaign report <id>`, the Report button) and the scheduled ones.
 *
 * Gathering: src/reports/gatherings.ts (one gathering per campaign and period at a time, later asks share it; at most
 * `maxGathering` at once across campaigns; each charged to the people who asked, as it reads). Posting: the chart is
 * drawn in its thread (src/reports/chart.ts), and figures and chart go out as one message: Slack's external upload
 * with the report's blocks, so the PNG (with its `alt_txt`) is shown in the report message itself (upload.ts: the
 * three steps of files.uploadV2, with no token sent with the bytes). Where a report may go: channels.ts.
 *
 * Schedules (src/reports/schedules.ts) run only while this replica leads (`LeaderOnly`, src/leader-work.ts): every
 * `tickMs` the scheduler asks, for each schedule, whether one of its minutes passed since it last looked (at most
 * an hour back: a report missed while the app was down is still posted once, within the hour), claims that minute in
 * the store (insert-if-absent: one replica, one post, even across a failover) and posts the report, if the bot is
 * still in the channel and a shared channel was confirmed; otherwise its owner is told by DM. A campaign finished or
 * archived gets one last report and its schedule is removed.
 */
import type { WebClient } from '@slack/web-api';
import { translator, type Translator } from '../../i18n/translator.js';
import type { Clock } from '../../clock.js';
import type { LeaderOnly } from '../../leader-work.js';
import { reportAltText, reportChartInput, reportFileTitle, reportMessage } from '../../render/report.js';
import { reportSkippedMessage } from '../../render/report.js';
import { ChartRenderer } from '../../reports/chart.js';
import type { ReportFigures } from '../../reports/figures.js';
import { ReportGatherings, type ActionBudget, type AskStatus, type GatherAsk } from '../../reports/gatherings.js';
import { nextRun, periodDaysOf, ReportSchedules, scheduleKey, type ReportSchedule } from '../../reports/schedules.js';
import { CATCH_UP_MS } from '../../reports/schedules.js';
import type { AppDeps } from '../deps.js';
import { errorSummary } from '../middleware/errors.js';
import { dmReply } from '../reply.js';
import { runTarget } from './channels.js';
import { sharePicture } from './upload.js';

export interface ReportTuning {
  /** How often the scheduler looks for due reports. */
  tickMs: number;
  /** Length of the compared periods of a report posted now, in days. */
  nowPeriodDays: number;
  /** Reports gathering at once in this process, across campaigns (others wait their turn). */
  maxGathering: number;
  /** Service requests a report reads per action of its asker's budget (PERSON_ACTIONS_*). */
  requestsPerAction: number;
}

export const DEFAULT_REPORT_TUNING: ReportTuning = {
  tickMs: 20_000,
  nowPeriodDays: 7,
  maxGathering: 2,
  requestsPerAction: 20,
};

export interface PostOptions {
  /** The schedule stops after this one (the message says so). */
  lastOne?: boolean;
}

export class ReportService implements LeaderOnly {
  readonly schedules: ReportSchedules;
  private readonly gatherings: ReportGatherings;
  private readonly charts = new ChartRenderer();
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  /** Per schedule, the last instant this replica looked for its times (so each minute is looked at once). */
  private readonly lookedUntil = new Map<string, number>();

  constructor(
    private readonly deps: AppDeps,
    /** The client scheduled reports post with (Slack's budget: behind people's requests). */
    private readonly client: WebClient,
    private readonly clock: Clock,
    private readonly tuning: ReportTuning,
    /** People's budget of actions (src/slack/middleware/fair-use.ts): a report asked for now costs its asker. */
    budget?: ActionBudget,
  ) {
    this.schedules = new ReportSchedules(deps.store);
    this.gatherings = new ReportGatherings(deps.outreach, clock, {
      maxAtOnce: tuning.maxGathering,
      requestsPerAction: tuning.requestsPerAction,
      ...(budget ? { budget } : {}),
    });
  }

  /** Joins the campaign's gathering or starts one; says at once whether it waits. */
  gather(ask: GatherAsk): { status: AskStatus; figures: Promise<ReportFigures> } {
    return this.gatherings.ask(ask);
  }

  /** Draws the chart and posts figures and chart in `channelId`, in `t`'s words. */
  async deliver(
    figures: ReportFigures,
    channelId: string,
    t: Translator,
    client: WebClient,
    opts: PostOptions = {},
  ): Promise<void> {
    const campaignId = figures.campaign.id;
    const png = await this.charts.render(reportChartInput(figures, t));
    const message = reportMessage(figures, t, { lastOne: opts.lastOne ?? false });
    await sharePicture(client, this.deps.config.slackApiUrl, {
      channelId,
      png,
      filename: `campaign-${campaignId}-report.png`,
      title: reportFileTitle(campaignId, t),
      altText: reportAltText(figures, t),
      blocks: message.blocks,
    });
    this.deps.logger.info(
      { campaign: campaignId, channel: channelId, requests: figures.gathered.requests, ms: figures.gathered.ms },
      'posted a campaign report',
    );
  }

  /** The words of a channel (its language, else DEFAULT_LOCALE). */
  async channelWords(channelId: string): Promise<Translator> {
    return translator((await this.deps.languages.channel(channelId)).locale);
  }

  nextRun(s: ReportSchedule): number {
    return nextRun(s, this.clock.now());
  }

  now(): number {
    return this.clock.now();
  }

  /** The compared periods of a report posted now, in days. */
  get nowPeriodDays(): number {
    return this.tuning.nowPeriodDays;
  }

  /** The settings of gatherings (what the person is told about them). */
  get gathering(): Pick<ReportTuning, 'maxGathering' | 'requestsPerAction'> {
    return { maxGathering: this.tuning.maxGathering, requestsPerAction: this.tuning.requestsPerAction };
  }

  // LeaderOnly: the scheduler runs while this replica leads.

  async start(): Promise<void> {
    if (this.timer) return;
    this.lookedUntil.clear();
    this.timer = setInterval(() => void this.tick(), this.tuning.tickMs);
    this.timer.unref();
    // At once too: a report missed while no replica ran goes out now.
    void this.tick();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking;
  }

  /** Stops the scheduler and the chart thread (the app stops). */
  async close(): Promise<void> {
    await this.stop();
    await this.charts.close();
    await this.schedules.close();
  }

  /** One look at every schedule (never two at once). */
  tick(): Promise<void> {
    if (this.ticking) return this.ticking;
    this.ticking = this.runDue()
      .catch((err: unknown) => this.deps.logger.error({ err: errorSummary(err) }, 'the report scheduler failed'))
      .finally(() => (this.ticking = undefined));
    return this.ticking;
  }

  private async runDue(): Promise<void> {
    const now = this.clock.now();
    for (const s of await this.schedules.all()) {
      if (!this.timer) return;
      const key = scheduleKey(s.campaignId, s.channelId);
      const after = Math.max(this.lookedUntil.get(key) ?? now - CATCH_UP_MS, Date.parse(s.at) || 0);
      this.lookedUntil.set(key, now);
      const slot = this.schedules.dueSlot(s, now, after);
      if (slot === undefined) continue;
      if (!(await this.schedules.claim(s, slot, now))) continue;
      await this.runScheduled(s, slot);
    }
  }

  private async runScheduled(s: ReportSchedule, slot: number): Promise<void> {
    const log = this.deps.logger.child({ campaign: s.campaignId, channel: s.channelId, slot: new Date(slot) });
    try {
      const t = await this.channelWords(s.channelId);
      const target = await runTarget(this.client, t, s.channelId, s.confirmedShared !== undefined);
      if (!target.ok) {
        log.warn(
          { why: 'confirm' in target ? 'shared, not confirmed' : target.sentence },
          'a scheduled report was not posted',
        );
        await this.schedules.finish(s, slot, {
          error: 'confirm' in target ? 'shared channel not confirmed' : 'cannot post there',
        });
        await this.tellOwner(s);
        return;
      }
      const campaign = await this.deps.outreach.getCampaign(s.campaignId, { priority: 'bulk' });
      const lastOne = campaign.status === 'finished' || campaign.archived === true;
      const figures = await this.gather({ campaignId: s.campaignId, periodDays: periodDaysOf(s), campaign }).figures;
      await this.deliver(figures, s.channelId, t, this.client, { lastOne });
      await this.schedules.finish(s, slot, { postedAt: this.clock.now() });
      if (lastOne) {
        await this.schedules.remove(s.campaignId, s.channelId);
        log.info('the campaign is over: its report schedule stopped after one last report');
      }
    } catch (err) {
      log.warn({ err: errorSummary(err) }, 'a scheduled report could not be posted');
      await this.schedules.finish(s, slot, { error: errorSummary(err) }).catch(() => undefined);
    }
  }

  /**
   * DM to the schedule's owner, in their words: the run was not posted, why (the check again, worded for them; a shared
   * channel no one confirmed comes with the button that does), and how to stop it.
   */
  private async tellOwner(s: ReportSchedule): Promise<void> {
    try {
      const t = translator((await this.deps.languages.person(s.by, this.client)).locale);
      const why = await runTarget(this.client, t, s.channelId, s.confirmedShared !== undefined);
      if (why.ok) return;
      const view = { ...s, nextRun: this.nextRun(s) };
      const reason = 'sentence' in why ? why.sentence : undefined;
      await dmReply(this.client, s.by).ephemeral(reportSkippedMessage(view, reason, t));
    } catch (err) {
      this.deps.logger.warn({ err: errorSummary(err), user: s.by }, 'could not tell the owner of a report schedule');
    }
  }
}
