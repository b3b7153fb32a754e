/**
 * Weekly schedules and cycles in words. Returns plain (unescaped) text: the times come from the service, so callers
 * put the result into mrkdwn through `md` / `escapeMrkdwn`.
 */
import { DAYS, type Cycles, type Day, type Schedule } from '../outreach/schemas.js';
import { normalizeScheduleTime } from '../outreach/unspecified.js';
import type { MessageKey, Translator } from '../i18n/translator.js';
import { ENGLISH, formatMinutes } from './format.js';

const DAY_NAMES: Record<Day, MessageKey> = {
  mon: 'schedule.day.mon',
  tue: 'schedule.day.tue',
  wed: 'schedule.day.wed',
  thu: 'schedule.day.thu',
  fri: 'schedule.day.fri',
  sat: 'schedule.day.sat',
  sun: 'schedule.day.sun',
};

export const NO_SCHEDULE = ENGLISH.t('schedule.none');

/**
 * "Mon-Fri 09:00-18:00, Sat 10:00-14:00": consecutive active days with the same hours are grouped (Mon to Sun, no
 * wrap-around). "No schedule: runs any time" when there is no schedule or no active day.
 */
export function scheduleInWords(schedule: Schedule | null | undefined, t: Translator = ENGLISH): string {
  if (!schedule) return t.t('schedule.none');
  const groups: { first: Day; last: Day; hours: string }[] = [];
  let previousActive = false;
  for (const day of DAYS) {
    const d = schedule[day];
    if (!d || !d.active) {
      previousActive = false;
      continue;
    }
    const hours = `${normalizeScheduleTime(d.startTime)}-${normalizeScheduleTime(d.stopTime)}`;
    const current = groups[groups.length - 1];
    if (previousActive && current && current.hours === hours) current.last = day;
    else groups.push({ first: day, last: day, hours });
    previousActive = true;
  }
  if (groups.length === 0) return t.t('schedule.none');
  const day = (d: Day) => t.t(DAY_NAMES[d]);
  return groups.map((g) => `${day(g.first)}${g.first === g.last ? '' : `-${day(g.last)}`} ${g.hours}`).join(', ');
}

export interface CyclesWordsOptions {
  /** The round running now (list items carry `cycle_current_iteration`). */
  currentIteration?: number | null;
}

/**
 * "Up to 3 rounds, 30 min apart; skips contacts that are converted, answered" /
 * "Up to 4 rounds on Mon-Fri 09:00-18:00, from 2026-01-01 until 2026-02-01" / "Off".
 */
export function cyclesInWords(
  cycles: Cycles | null | undefined,
  opts: CyclesWordsOptions = {},
  t: Translator = ENGLISH,
): string {
  if (!cycles || !cycles.enabled) return t.t('cycles.off');
  const rounds = cycles.max_iterations ? t.t('cycles.rounds', { max: cycles.max_iterations }) : t.t('cycles.on');
  let out = rounds;
  if (cycles.mode === 'scheduled') {
    const schedule = cycles.schedule ? scheduleInWords(cycles.schedule, t) : t.t('cycles.campaignSchedule');
    const start = cycles.schedule_start_date ?? '';
    const end = cycles.schedule_end_date ?? '';
    const range = start && end ? 'both' : start ? 'start' : end ? 'end' : 'none';
    out = t.t('cycles.dates', { text: t.t('cycles.onSchedule', { rounds, schedule }), range, start, end });
  } else if (cycles.cooldown_minutes !== null && cycles.cooldown_minutes !== undefined) {
    out =
      cycles.cooldown_minutes === 0
        ? t.t('cycles.backToBack', { rounds })
        : t.t('cycles.apart', { rounds, cooldown: formatMinutes(cycles.cooldown_minutes, t) });
  }
  const skipped = (cycles.filter_statuses ?? []).filter((s) => s.trim() !== '');
  if (skipped.length) out = t.t('cycles.skips', { text: out, statuses: skipped.join(', ') });
  if (opts.currentIteration) out = t.t('cycles.nowOnRound', { text: out, round: String(opts.currentIteration) });
  return out;
}
