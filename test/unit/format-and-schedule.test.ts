/**
 * The words and numbers people read (src/render/format.ts: labels, dates, counts) and schedules in words
 * (src/render/schedule.ts).
 */
import {
  answeredByLabel,
  callStatusLabel,
  campaignStateLabel,
  channelLabel,
  contactStatusLabel,
  endedByLabel,
  formatCount,
  formatDateTime,
  formatDuration,
  formatLastCallAt,
  formatMinutes,
  formatPercent,
  formatPhone,
  humanizeKey,
  plural,
  rateScale,
  statusLabel,
} from '../../src/render/format.js';
import { cyclesInWords, NO_SCHEDULE, scheduleInWords } from '../../src/render/schedule.js';
import { CAMPAIGN_STATUSES, CALL_STATUSES, CONTACT_STATUSES } from '../../src/outreach/schemas.js';
import { WEEKDAYS_9_TO_6 } from '../support/blocks-fixtures.js';

describe('labels', () => {
  it('every campaign, contact and call status has its own emoji label', () => {
    for (const [all, label] of [
      [CAMPAIGN_STATUSES, statusLabel],
      [CONTACT_STATUSES, contactStatusLabel],
      [CALL_STATUSES, callStatusLabel],
    ] as const) {
      const labels = all.map((s) => label(s));
      expect(new Set(labels).size).toBe(all.length);
      for (const l of labels) expect(l).toMatch(/^\S+ [A-Z]/u);
      expect(label('mystery')).toBe('❔ mystery');
    }
    expect(statusLabel('inactive')).toBe('⏸ Inactive');
    expect(campaignStateLabel('active', true)).toBe('🟢 Active · 🗄 Archived');
  });
  it('channels, answered-by and ended-by read as words', () => {
    expect(channelLabel('phone_call')).toBe('📞 Phone call');
    expect(channelLabel('whatsapp')).toBe('💬 WhatsApp');
    expect(channelLabel(null)).toBe('—');
    expect(answeredByLabel('machine')).toBe('🤖 Machine');
    expect(endedByLabel('user', 'hung up')).toBe('the contact (hung up)');
    expect(endedByLabel('', '')).toBe('—');
    expect(endedByLabel(null, 'timeout')).toBe('timeout');
  });
});

describe('dates', () => {
  it('shows an instant in the campaign timezone with its abbreviation', () => {
    expect(formatDateTime('2026-03-05T14:07:00Z', 'America/Mexico_City')).toBe('2026-03-05 08:07 CST');
    expect(formatDateTime('2026-03-05T14:07:00Z', 'UTC')).toBe('2026-03-05 14:07 UTC');
  });
  it('uses the default zone when none or an unknown one is given, and shows unreadable values as given', () => {
    expect(formatDateTime('2026-03-05T14:07:00Z')).toBe('2026-03-05 08:07 CST');
    expect(formatDateTime('2026-03-05T14:07:00Z', 'Mars/Olympus')).toBe('2026-03-05 08:07 CST');
    expect(formatDateTime('not a date', 'UTC')).toBe('not a date');
    expect(formatDateTime(null)).toBe('—');
  });
  it('reads last_call_at (no zone) as UTC', () => {
    expect(formatLastCallAt('2026-03-06 15:30:00', 'UTC')).toBe('2026-03-06 15:30 UTC');
    expect(formatLastCallAt('2026-03-06 15:30:00', 'America/Mexico_City')).toBe('2026-03-06 09:30 CST');
    expect(formatLastCallAt(undefined)).toBe('—');
  });
});

describe('numbers', () => {
  it('durations', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(45)).toBe('45s');
    expect(formatDuration(65)).toBe('1m 05s');
    expect(formatDuration(3725)).toBe('1h 02m 05s');
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(-1)).toBe('—');
    expect(formatMinutes(30)).toBe('30 min');
    expect(formatMinutes(90)).toBe('1h 30m');
    expect(formatMinutes(120)).toBe('2h');
    expect(formatMinutes(1440)).toBe('1 day');
  });
  it('counts and plurals', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(plural(0, 'contact')).toBe('0 contacts');
    expect(plural(1, 'contact')).toBe('1 contact');
    expect(plural(2, 'contact')).toBe('2 contacts');
    expect(plural(1234, 'contact')).toBe('1,234 contacts');
    expect(plural(2, 'reply', 'replies')).toBe('2 replies');
  });
  it('rates: a snapshot with any rate above 1 is in percents, otherwise in fractions', () => {
    expect(rateScale([0.42, 0.1])).toBe('fraction');
    expect(rateScale([42, 0.5])).toBe('percent');
    expect(formatPercent(0.42, 'fraction')).toBe('42%');
    expect(formatPercent(0.4256, 'fraction')).toBe('42.6%');
    expect(formatPercent(1, 'fraction')).toBe('100%');
    expect(formatPercent(42, 'percent')).toBe('42%');
    expect(formatPercent(0.5, 'percent')).toBe('0.5%');
    expect(formatPercent(undefined, 'percent')).toBe('—');
  });
  it('phones: international format when valid, as given otherwise', () => {
    expect(formatPhone('+14155550123')).toBe('+1 415 555 0123');
    expect(formatPhone('not-a-phone')).toBe('not-a-phone');
    expect(formatPhone('')).toBe('—');
  });
  it('humanizes keys', () => {
    expect(humanizeKey('contactsConvertedRate')).toBe('Contacts converted rate');
    expect(humanizeKey('avg_call_duration')).toBe('Avg call duration');
    expect(humanizeKey('totalSMSSent')).toBe('Total sms sent');
  });
});

describe('scheduleInWords', () => {
  it('groups consecutive active days with the same hours and normalizes HH:MM:SS', () => {
    expect(scheduleInWords(WEEKDAYS_9_TO_6)).toBe('Mon-Fri 09:00-18:00, Sat 10:00-14:00');
  });
  it('does not group days separated by an inactive day or with other hours', () => {
    expect(
      scheduleInWords({
        mon: { startTime: '09:00', stopTime: '18:00', active: true },
        tue: { startTime: '09:00', stopTime: '18:00', active: false },
        wed: { startTime: '09:00', stopTime: '18:00', active: true },
        thu: { startTime: '08:00', stopTime: '18:00', active: true },
        sat: { startTime: '10:00', stopTime: '14:00', active: true },
        sun: { startTime: '10:00', stopTime: '14:00', active: true },
      }),
    ).toBe('Mon 09:00-18:00, Wed 09:00-18:00, Thu 08:00-18:00, Sat-Sun 10:00-14:00');
  });
  it('says when there is no schedule', () => {
    expect(scheduleInWords(undefined)).toBe(NO_SCHEDULE);
    expect(scheduleInWords({})).toBe(NO_SCHEDULE);
    expect(scheduleInWords({ mon: { startTime: '09:00', stopTime: '10:00', active: false } })).toBe(NO_SCHEDULE);
  });
});

describe('cyclesInWords', () => {
  it('reads cooldown and scheduled cycles', () => {
    expect(cyclesInWords(null)).toBe('Off');
    expect(cyclesInWords({ enabled: false, max_iterations: 3 })).toBe('Off');
    expect(
      cyclesInWords({
        enabled: true,
        mode: 'cooldown',
        max_iterations: 3,
        cooldown_minutes: 30,
        filter_statuses: ['converted', 'answered'],
      }),
    ).toBe('Up to 3 rounds, 30 min apart; skips contacts that are converted, answered');
    expect(cyclesInWords({ enabled: true, mode: 'cooldown', max_iterations: 2, cooldown_minutes: 0 })).toBe(
      'Up to 2 rounds, back to back',
    );
    expect(
      cyclesInWords(
        {
          enabled: true,
          mode: 'scheduled',
          max_iterations: 4,
          schedule: { mon: { startTime: '09:00', stopTime: '12:00', active: true } },
          schedule_start_date: '2026-01-01',
          schedule_end_date: '2026-02-01',
        },
        { currentIteration: 2 },
      ),
    ).toBe('Up to 4 rounds on Mon 09:00-12:00, from 2026-01-01 until 2026-02-01; now on round 2');
  });
});
