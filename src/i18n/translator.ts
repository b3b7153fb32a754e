/**
 * The app's words in a person's language. Library: @formatjs/intl (ICU MessageFormat: plurals, select, numbers and
 * dates by locale, CLDR data from the runtime's Intl), chosen over i18next because ICU is its native syntax (no
 * plugin), it formats numbers, dates and lists with the same locale data as the messages, and it has no I/O (the
 * catalogs are TypeScript objects, checked by the compiler). No Slack here: src/render builders take a Translator.
 */
import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import { formatInTimeZone } from 'date-fns-tz';
import { en, type MessageKey } from './catalog/en.js';
import { es } from './catalog/es.js';
import type { Locale } from './locale.js';

export type { MessageKey } from './catalog/en.js';

/** A value a message may interpolate: text as given, numbers through the locale (and plural rules), dates. */
export type MessageValue = string | number | Date;
type MessageValues = Readonly<Record<string, MessageValue>>;

export interface Translator {
  readonly locale: Locale;
  /** The catalog message `key`, with `values` put in (ICU syntax: `{n, plural, one {…} other {…}}`, `{x, select, …}`). */
  t(key: MessageKey, values?: MessageValues): string;
  /** "1,234" / "1,234.5" as the locale writes it (at most 2 decimals). */
  number(n: number): string;
  /**
   * An instant in `timeZone`, naming the zone: "2026-03-05 08:07 CST" (en) / "5 mar 2026, 08:07 GMT-6" (es). A zone
   * the runtime does not know reads as UTC (and says so).
   */
  date(d: Date | string | number, opts: { timeZone: string }): string;
  /** "45s", "1m 05s", "1h 02m 05s" (en) / "45 s", "1 min 05 s", "1 h 02 min 05 s" (es); rounded to the second. */
  duration(ms: number): string;
  /** "a, b, and c" / "a, b y c" (`or`: "a, b, or c" / "a, b o c"). */
  list(items: readonly string[], type?: 'and' | 'or'): string;
}

/** The language tag each locale formats with: neutral Latin American Spanish, US English. */
const INTL_LOCALE: Record<Locale, string> = { en: 'en-US', es: 'es-419' };
const CATALOGS: Record<Locale, Record<MessageKey, string>> = { en, es };

const cache = createIntlCache();

/** Zones already asked about: asking Intl costs a DateTimeFormat each time, and every date on a call card asks. */
const knownZones = new Map<string, boolean>();
/** Zones remembered at most (they come from campaigns and people: few; a flood of odd ones is not kept). */
const MAX_KNOWN_ZONES = 1000;

/** Whether Intl knows the time zone `tz` (an IANA name such as America/Mexico_City). */
export function isValidTimeZone(tz: string): boolean {
  const known = knownZones.get(tz);
  if (known !== undefined) return known;
  let valid = true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
  } catch {
    valid = false;
  }
  if (knownZones.size < MAX_KNOWN_ZONES) knownZones.set(tz, valid);
  return valid;
}

function validZone(tz: string): string {
  return isValidTimeZone(tz) ? tz : 'UTC';
}

function create(locale: Locale): Translator {
  const intl: IntlShape<string> = createIntl(
    {
      locale: INTL_LOCALE[locale],
      messages: CATALOGS[locale],
      // A message that does not format is a bug (test/unit/i18n-catalog.test.ts formats every one): fail loudly
      // rather than show a key; the listener's error reply turns it into an apology.
      onError: (err) => {
        throw err;
      },
    },
    cache,
  );
  const pad = (n: number) => String(n).padStart(2, '0');
  const tr: Translator = {
    locale,
    // ignoreTag: our messages are mrkdwn, where `<` only ever appears escaped; `<…>` is never an ICU tag.
    t: (key, values) => intl.formatMessage({ id: key }, values as Record<string, MessageValue>, { ignoreTag: true }),
    number: (n) => intl.formatNumber(n, { maximumFractionDigits: 2 }),
    date(d, { timeZone }) {
      const date = d instanceof Date ? d : new Date(d);
      const zone = validZone(timeZone);
      // English keeps the house style of docs/messages.md (ISO-like, unambiguous between US and UK readers).
      if (locale === 'en') return formatInTimeZone(date, zone, 'yyyy-MM-dd HH:mm zzz');
      return intl.formatDate(date, {
        timeZone: zone,
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        timeZoneName: 'short',
      });
    },
    duration(ms) {
      const total = Math.max(0, Math.round(ms / 1000));
      const h = Math.floor(total / 3600);
      const m = Math.floor((total % 3600) / 60);
      const s = total % 60;
      if (h > 0) return tr.t('format.duration.hms', { h: tr.number(h), m: pad(m), s: pad(s) });
      if (m > 0) return tr.t('format.duration.ms', { m: String(m), s: pad(s) });
      return tr.t('format.duration.s', { s: String(s) });
    },
    list: (items, type = 'and') =>
      intl.formatList(items, { type: type === 'and' ? 'conjunction' : 'disjunction' }) as string,
  };
  return tr;
}

const translators = new Map<Locale, Translator>();

/** The translator of `locale`, built once. */
export function translator(locale: Locale): Translator {
  let tr = translators.get(locale);
  if (!tr) {
    tr = create(locale);
    translators.set(locale, tr);
  }
  return tr;
}
