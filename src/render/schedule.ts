/**
 * Weekly schedules and cycles in words. Returns plain (unescaped) text: the times come from the service, so callers
 * put the result into mrkdwn through `md` / `escapeMrkdwn`.
 */
import { DAYS, type Cycles, type Day, type Schedule } from '../outreach/schemas.js';
import { normalizeScheduleTime } from '../outreach/unspecified.js';
import { formatMinutes } from './format.js';

/** Full day names, for form labels and error messages. */
export const DAY_LABELS: Record<Day, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

const DAY_NAMES: Record<Day, string> = {
  mon: 'Mon',
  tue: 'Tue',
  wed: 'Wed',
  thu: 'Thu',
  fri: 'Fri',
  sat: 'Sat',
  sun: 'Sun',
};

export const NO_SCHEDULE = 'No schedule: runs any time';

/**
 * "Mon-Fri 09:00-18:00, Sat 10:00-14:00": consecutive active days with the same hours are grouped (Mon to Sun, no
 * wrap-around). "No schedule: runs any time" when there is no schedule or no active day.
 */
export function scheduleInWords(schedule: Schedule | null | undefined): string {
  if (!schedule) return NO_SCHEDULE;
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
  if (groups.length === 0) return NO_SCHEDULE;
  return groups
    .map((g) => `${DAY_NAMES[g.first]}${g.first === g.last ? '' : `-${DAY_NAMES[g.last]}`} ${g.hours}`)
    .join(', ');
}

export interface CyclesWordsOptions {
  /** The round running now (list items carry `cycle_current_iteration`). */
  currentIteration?: number | null;
}

/**
 * "Up to 3 rounds, 30 min apart; skips contacts that are converted, answered" /
 * "Up to 4 rounds on Mon-Fri 09:00-18:00, from 2026-01-01 until 2026-02-01" / "Off".
 */
export function cyclesInWords(cycles: Cycles | null | undefined, opts: CyclesWordsOptions = {}): string {
  if (!cycles || !cycles.enabled) return 'Off';
  let out = cycles.max_iterations ? `Up to ${cycles.max_iterations} rounds` : 'On';
  if (cycles.mode === 'scheduled') {
    out += ` on ${cycles.schedule ? scheduleInWords(cycles.schedule) : 'the campaign schedule'}`;
    if (cycles.schedule_start_date) out += `, from ${cycles.schedule_start_date}`;
    if (cycles.schedule_end_date) out += `${cycles.schedule_start_date ? '' : ','} until ${cycles.schedule_end_date}`;
  } else if (cycles.cooldown_minutes !== null && cycles.cooldown_minutes !== undefined) {
    out += cycles.cooldown_minutes === 0 ? ', back to back' : `, ${formatMinutes(cycles.cooldown_minutes)} apart`;
  }
  const skipped = (cycles.filter_statuses ?? []).filter((s) => s.trim() !== '');
  if (skipped.length) out += `; skips contacts that are ${skipped.join(', ')}`;
  if (opts.currentIteration) out += `; now on round ${opts.currentIteration}`;
  return out;
}
