/**
 * How values read in messages: statuses with an emoji, channels, dates in a timezone, durations, counts, rates and
 * phone numbers. Every function returns plain (unescaped) text: put it into mrkdwn through `md` / `escapeMrkdwn`.
 * See docs/messages.md for the rules these implement.
 */
import { fromZonedTime } from 'date-fns-tz';
import { parsePhoneNumberFromString } from '../contacts/libphonenumber.js';
import { isValidTimeZone, translator, type MessageKey, type Translator } from '../i18n/translator.js';
import type { CallStatus, CampaignStatus, ChannelType, ContactStatus } from '../outreach/schemas.js';
import { DEFAULT_TIMEZONE, LAST_CALL_AT_ZONE } from '../outreach/unspecified.js';

/** Shown where a value is missing. */
export const NONE = '—';

/**
 * English, for callers not yet handed a Translator. i18n (issue 15): each area passes its person's or channel's `t`;
 * once every caller does, the `= ENGLISH` defaults below go and `t` becomes required.
 */
export const ENGLISH: Translator = translator('en');

const CAMPAIGN_STATUS_LABELS: Record<CampaignStatus, MessageKey> = {
  pending: 'status.campaign.pending',
  ready: 'status.campaign.ready',
  active: 'status.campaign.active',
  inactive: 'status.campaign.inactive',
  cooldown: 'status.campaign.cooldown',
  finished: 'status.campaign.finished',
};

/** "❔ <status>" for a status we do not know (shown as the service sent it). */
function unknownStatusLabel(status: string, t: Translator = ENGLISH): string {
  return status ? t.t('status.unknown', { status }) : t.t('status.unknownBlank');
}

/** "🟢 Active" / "🟢 Activa". An unknown status still reads (as "❔ <status>"). */
export function statusLabel(status: string, t: Translator = ENGLISH): string {
  const key = (CAMPAIGN_STATUS_LABELS as Record<string, MessageKey>)[status];
  return key ? t.t(key) : unknownStatusLabel(status, t);
}

/** "🟢 Active", or "🟢 Active · 🗄 Archived" for an archived campaign. */
export function campaignStateLabel(status: string, archived?: boolean | null, t: Translator = ENGLISH): string {
  return archived ? `${statusLabel(status, t)} · ${t.t('status.archived')}` : statusLabel(status, t);
}

const CONTACT_STATUS_LABELS: Record<ContactStatus, MessageKey> = {
  queue: 'status.contact.queue',
  sending: 'status.contact.sending',
  sent: 'status.contact.sent',
  delivered: 'status.contact.delivered',
  read: 'status.contact.read',
  accepted: 'status.contact.accepted',
  rejected: 'status.contact.rejected',
  failed: 'status.contact.failed',
  retrying: 'status.contact.retrying',
  converted: 'status.contact.converted',
  voicemail: 'status.contact.voicemail',
  answered: 'status.contact.answered',
};

/** "📨 Sent" / "📨 Enviado"; an unknown status as "❔ <status>". */
export function contactStatusLabel(status: string, t: Translator = ENGLISH): string {
  const key = (CONTACT_STATUS_LABELS as Record<string, MessageKey>)[status];
  return key ? t.t(key) : unknownStatusLabel(status, t);
}

const CALL_STATUS_LABELS: Record<CallStatus, MessageKey> = {
  created: 'status.call.created',
  queued: 'status.call.queued',
  ringing: 'status.call.ringing',
  'in-progress': 'status.call.inProgress',
  forwarding: 'status.call.forwarding',
  ended: 'status.call.ended',
  busy: 'status.call.busy',
  'no-answer': 'status.call.noAnswer',
  failed: 'status.call.failed',
};

/** "☑️ Ended" / "☑️ Terminada"; an unknown status as "❔ <status>". */
export function callStatusLabel(status: string, t: Translator = ENGLISH): string {
  const key = (CALL_STATUS_LABELS as Record<string, MessageKey>)[status];
  return key ? t.t(key) : unknownStatusLabel(status, t);
}

const ANSWERED_BY_LABELS: Record<string, MessageKey> = {
  human: 'answeredBy.human',
  machine: 'answeredBy.machine',
  unknown: 'answeredBy.unknown',
};

export function answeredByLabel(answeredBy: string | null | undefined, t: Translator = ENGLISH): string {
  if (!answeredBy) return NONE;
  const key = ANSWERED_BY_LABELS[answeredBy];
  return key ? t.t(key) : answeredBy;
}

const ENDED_BY_LABELS: Record<string, MessageKey> = {
  agent: 'endedBy.agent',
  user: 'endedBy.user',
  system: 'endedBy.system',
};

/** "the agent (customer-ended-call)" / "—" when the call never connected. */
export function endedByLabel(
  endedBy: string | null | undefined,
  reason?: string | null,
  t: Translator = ENGLISH,
): string {
  const key = endedBy ? ENDED_BY_LABELS[endedBy] : undefined;
  const who = endedBy ? (key ? t.t(key) : endedBy) : '';
  const why = reason?.trim() ?? '';
  if (who && why) return t.t('endedBy.withReason', { who, why });
  return who || why || NONE;
}

const CHANNEL_LABELS: Record<ChannelType, MessageKey> = {
  phone_call: 'channel.phone_call',
  whatsapp: 'channel.whatsapp',
};

/** "📞 Phone call" / "💬 WhatsApp" / "—" when the campaign has no integration. */
export function channelLabel(type: string | null | undefined, t: Translator = ENGLISH): string {
  if (!type) return NONE;
  const key = (CHANNEL_LABELS as Record<string, MessageKey>)[type];
  return key ? t.t(key) : type;
}

/** `true` when `tz` is an IANA zone this runtime knows. */
export { isValidTimeZone };

/**
 * "2026-03-05 08:07 CST": an instant shown in `tz` (default: the service's default zone). An unknown zone falls back
 * to the default; an unreadable value is shown as given.
 */
export function formatDateTime(
  value: string | Date | null | undefined,
  tz?: string | null,
  t: Translator = ENGLISH,
): string {
  if (value === null || value === undefined || value === '') return NONE;
  const zone = tz && isValidTimeZone(tz) ? tz : DEFAULT_TIMEZONE;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return t.date(date, { timeZone: zone });
}

/** Contact `last_call_at` ("YYYY-MM-DD HH:MM:SS", zone not given by the spec: read as LAST_CALL_AT_ZONE). */
export function formatLastCallAt(
  value: string | null | undefined,
  tz?: string | null,
  t: Translator = ENGLISH,
): string {
  if (!value) return NONE;
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(:\d{2})?)$/.exec(value.trim());
  if (!m) return formatDateTime(value, tz, t);
  return formatDateTime(fromZonedTime(`${m[1]}T${m[2]}`, LAST_CALL_AT_ZONE), tz, t);
}

/** Seconds as "45s", "1m 05s", "1h 02m 05s" ("1 h 02 min 05 s" in Spanish); "—" when unknown. */
export function formatDuration(seconds: number | null | undefined, t: Translator = ENGLISH): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return NONE;
  return t.duration(Math.round(seconds) * 1000);
}

/** Minutes as "45 min", "1h 30m", "1 day" (cycles cooldown); "1 h 30 min", "1 día" in Spanish. */
export function formatMinutes(minutes: number, t: Translator = ENGLISH): string {
  if (minutes < 60) return t.t('format.minutes', { m: t.number(minutes) });
  if (minutes === 1440) return t.t('format.oneDay');
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m
    ? t.t('format.hoursMinutes', { h: t.number(h), m: String(m).padStart(2, '0') })
    : t.t('format.hours', { h: t.number(h) });
}

const countFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** "12,345" (en-US grouping, at most 2 decimals). */
export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return NONE;
  return countFormat.format(n);
}

/** "1 contact", "2 contacts", "1,234 contacts", "0 contacts". */
export function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : pluralForm}`;
}

/**
 * How to read a rate. Analytics may give rates as fractions (0.42) or as percents (42); the spec does not say.
 * Rule: look at all the rates of one snapshot together. If any rate is above 1, the snapshot uses percents;
 * otherwise every rate is a fraction (so 1 reads 100%). Decided per snapshot, not per value, so that 0.5 and 40 in
 * one snapshot cannot be read on two scales.
 */
export type RateScale = 'fraction' | 'percent';

export function rateScale(rates: readonly number[]): RateScale {
  return rates.some((r) => Number.isFinite(r) && r > 1) ? 'percent' : 'fraction';
}

/** "42%", "42.5%", "0.3%" ("42.5 %" in Spanish). */
export function formatPercent(rate: number | null | undefined, scale: RateScale, t: Translator = ENGLISH): string {
  if (rate === null || rate === undefined || !Number.isFinite(rate)) return NONE;
  const pct = scale === 'fraction' ? rate * 100 : rate;
  return t.t('format.percent', { value: t.number(Math.round(pct * 10) / 10) });
}

/** "+52 55 1234 5678" when the number parses (E.164 expected), else the number as given. */
export function formatPhone(phone: string | null | undefined): string {
  if (!phone) return NONE;
  const parsed = parsePhoneNumberFromString(phone.trim());
  return parsed?.isValid() ? parsed.formatInternational() : phone;
}

/** "contactsConvertedRate" / "contacts_converted_rate" → "Contacts converted rate". */
export function humanizeKey(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : key;
}

/** "Yes" / "No" / "—". */
export function yesNo(v: boolean | null | undefined, t: Translator = ENGLISH): string {
  return v === null || v === undefined ? NONE : t.t(v ? 'common.yes' : 'common.no');
}
