/**
 * Campaign reports in Slack: one posted now (`/campaign report <id>`, the Report button) and the scheduled ones.
 *
 * Posting: the figures are gathered (src/reports/gather.ts, at the limiter's bulk priority), the chart drawn in its
 * thread (src/reports/chart.ts), and both go out as one message: Slack's external upload with the report's blocks, so the
 * PNG (with its `alt_txt`) is shown in the report message itself (upload.ts: the three steps of files.uploadV2,
 * with no token sent with the bytes). Words: the conversation's language.
 *
 * Schedules (src/reports/schedules.ts) run only while this replica leads (`LeaderOnly`, src/leader-work.ts): every
 * `tickMs` the scheduler asks, for each schedule, whether one of its minutes passed since it last looked (at most
 * an hour back: a report missed while the app was down is still posted once, within the hour), claims that minute in
 * the store (insert-if-absent: one replica, one post, even across a failover) and posts the report. A campaign
 * finished or archived gets one last report and its schedule is removed.
 */
import type { WebClient } from '@slack/web-api';
import { translator, type Translator } from '../../i18n/translator.js';
import type { CampaignDetail } from '../../outreach/schemas.js';
import type { Clock } from '../../clock.js';
import type { LeaderOnly } from '../../leader-work.js';
import { reportAltText, reportChartInput, reportFileTitle, reportMessage } from '../../render/report.js';
import { ChartRenderer } from '../../reports/chart.js';
import type { ReportFigures } from '../../reports/figures.js';
import { gatherReport } from '../../reports/gather.js';
import { nextRun, periodDaysOf, ReportSchedules, scheduleKey, type ReportSchedule } from '../../reports/schedules.js';
import { CATCH_UP_MS } from '../../reports/schedules.js';
import type { AppDeps } from '../deps.js';
import { errorSummary } from '../middleware/errors.js';
import { sharePicture } from './upload.js';

export interface ReportTuning {
  /** How often the scheduler looks for due reports. */
  tickMs: number;
  /** Length of the compared periods of a report posted now, in days. */
  nowPeriodDays: number;
}

export const DEFAULT_REPORT_TUNING: ReportTuning = { tickMs: 20_000, nowPeriodDays: 7 };

export interface PostOptions {
  periodDays: number;
  /** The schedule stops after this one (the message says so). */
  lastOne?: boolean;
  campaign?: CampaignDetail;
}

export class ReportService implements LeaderOnly {
  readonly schedules: ReportSchedules;
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
  ) {
    this.schedules = new ReportSchedules(deps.store);
  }

  /** Gathers, draws and posts a report in `channelId`, in `t`'s words; resolves with its figures. */
  async post(
    campaignId: number,
    channelId: string,
    t: Translator,
    client: WebClient,
    opts: PostOptions,
  ): Promise<ReportFigures> {
    const figures = await gatherReport(this.deps.outreach, campaignId, {
      clock: this.clock,
      periodDays: opts.periodDays,
      ...(opts.campaign ? { campaign: opts.campaign } : {}),
    });
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
    return figures;
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
      const campaign = await this.deps.outreach.getCampaign(s.campaignId, { priority: 'bulk' });
      const lastOne = campaign.status === 'finished' || campaign.archived === true;
      const t = await this.channelWords(s.channelId);
      await this.post(s.campaignId, s.channelId, t, this.client, { periodDays: periodDaysOf(s), lastOne, campaign });
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
}
