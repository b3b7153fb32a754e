/**
 * Report schedules: what the store keeps of them, and when each one is due.
 *
 * A schedule is kept per campaign and channel (`report_schedules`, key `<campaign>/<channel>`). Its time is local to
 * the campaign's timezone, kept with it. Each time is a cron expression (`MM HH * * *`, `MM HH * * D`): whether a
 * minute is one of its times is decided by `node-cron` with its `timezone` option (`task.match`); the next time shown
 * by `/campaign reports` comes from `cron-parser` in the same timezone. Neither starts a timer: the scheduler
 * (src/slack/reports/scheduler.ts) asks at each of its ticks against the app's Clock, which tests move forward.
 *
 * A run is claimed before it is posted: `report_runs` key `<campaign>/<channel>/<minute ISO>`, inserted only if
 * absent, so of any number of replicas, ticks or restarts exactly one posts it.
 */
import { CronExpressionParser } from 'cron-parser';
import cron, { type ScheduledTask } from 'node-cron';
import type { Collection, Store } from '../store/store.js';

type Frequency = 'daily' | 'weekly';

export interface ReportSchedule {
  campaignId: number;
  channelId: string;
  frequency: Frequency;
  /** Weekly: 0 = Sunday … 6 = Saturday (cron's numbering). */
  weekday?: number;
  /** Local time in `timeZone`, `HH:MM`. */
  time: string;
  /** The campaign's IANA timezone when the schedule was set. */
  timeZone: string;
  /** Who set it (Slack user id) and when (ISO). */
  by: string;
  at: string;
  /**
   * The channel is shared with another organization (or Slack would not say), and a permitted person pressed the
   * confirmation button for it (who, when ISO). Without it, a run into a shared channel is not posted.
   */
  confirmedShared?: { by: string; at: string };
}

/** A claimed run: written once, before posting. */
export interface ReportRun {
  claimedAt: string;
  /** Set once the report went out. */
  postedAt?: string;
  error?: string;
}

const SCHEDULES = { name: 'report_schedules' } as const;
const RUNS = { name: 'report_runs' } as const;
/**
 * A claim is kept long enough to cover the catch-up window of any schedule. Its expiry is on the store's clock (the
 * system's: the store sweeps by it), not the app's Clock.
 */
const RUN_KEPT_MS = 8 * 86_400_000;
const keptUntil = () => Date.now() + RUN_KEPT_MS;
/** A report missed while the app was down is still posted this long after its time. */
export const CATCH_UP_MS = 60 * 60_000;

export const scheduleKey = (campaignId: number, channelId: string): string => `${campaignId}/${channelId}`;

function cronExpression(s: Pick<ReportSchedule, 'frequency' | 'weekday' | 'time'>): string {
  const [hh, mm] = s.time.split(':').map(Number);
  return `${mm} ${hh} * * ${s.frequency === 'weekly' ? (s.weekday ?? 1) : '*'}`;
}

/** The length of the period a schedule's report compares: a day for daily reports, a week for weekly ones. */
export const periodDaysOf = (s: Pick<ReportSchedule, 'frequency'>): number => (s.frequency === 'daily' ? 1 : 7);

/** The next time (ms) after `now` the schedule posts. */
export function nextRun(s: ReportSchedule, now: number): number {
  return CronExpressionParser.parse(cronExpression(s), { currentDate: new Date(now), tz: s.timeZone })
    .next()
    .getTime();
}

const MINUTE = 60_000;

export class ReportSchedules {
  readonly schedules: Collection<ReportSchedule>;
  private readonly runs: Collection<ReportRun>;
  /** node-cron tasks (never started: only asked whether a minute matches), by expression and zone. */
  private readonly matchers = new Map<string, ScheduledTask>();

  constructor(store: Store) {
    this.schedules = store.collection<ReportSchedule>(SCHEDULES);
    this.runs = store.collection<ReportRun>(RUNS);
  }

  async set(s: ReportSchedule): Promise<void> {
    await this.schedules.put(scheduleKey(s.campaignId, s.channelId), s);
  }

  /** Removes the schedule; false when there was none. */
  async remove(campaignId: number, channelId: string): Promise<boolean> {
    const key = scheduleKey(campaignId, channelId);
    if (!(await this.schedules.get(key))) return false;
    await this.schedules.delete(key);
    return true;
  }

  async all(): Promise<ReportSchedule[]> {
    return (await this.schedules.list()).map(([, s]) => s);
  }

  /**
   * The latest minute in (`after`, `now`] that is one of the schedule's times and no older than the catch-up window;
   * undefined when there is none.
   */
  dueSlot(s: ReportSchedule, now: number, after: number): number | undefined {
    const last = Math.floor(now / MINUTE) * MINUTE;
    const first = Math.max(Math.floor(after / MINUTE) * MINUTE + MINUTE, last - CATCH_UP_MS);
    const task = this.matcher(s);
    for (let m = last; m >= first; m -= MINUTE) if (task.match(new Date(m))) return m;
    return undefined;
  }

  /** True when this call claimed the run (no one else did before, in any replica). */
  claim(s: ReportSchedule, slot: number, now: number): Promise<boolean> {
    return this.runs.insertIfAbsent(
      runKey(s, slot),
      { claimedAt: new Date(now).toISOString() },
      { expiresAt: keptUntil() },
    );
  }

  async finish(s: ReportSchedule, slot: number, outcome: { postedAt?: number; error?: string }): Promise<void> {
    const key = runKey(s, slot);
    const run = await this.runs.get(key);
    await this.runs.put(
      key,
      {
        claimedAt: run?.claimedAt ?? new Date(slot).toISOString(),
        ...(outcome.postedAt !== undefined ? { postedAt: new Date(outcome.postedAt).toISOString() } : {}),
        ...(outcome.error !== undefined ? { error: outcome.error } : {}),
      },
      { expiresAt: keptUntil() },
    );
  }

  /** Forgets the node-cron matchers (the scheduler stopped). */
  async close(): Promise<void> {
    const tasks = [...this.matchers.values()];
    this.matchers.clear();
    for (const t of tasks) await t.destroy();
  }

  private matcher(s: ReportSchedule): ScheduledTask {
    const expr = cronExpression(s);
    const key = `${expr}|${s.timeZone}`;
    let task = this.matchers.get(key);
    if (!task) {
      task = cron.createTask(expr, () => undefined, { timezone: s.timeZone, name: `report ${key}` });
      this.matchers.set(key, task);
    }
    return task;
  }
}

const runKey = (s: ReportSchedule, slot: number) =>
  `${scheduleKey(s.campaignId, s.channelId)}/${new Date(slot).toISOString()}`;
