/**
 * Phone number → E.164 (`PHONE_FORMAT` of ../outreach/unspecified.ts), or a reason in plain words.
 *
 * Parsing and validation use libphonenumber-js with its "max" metadata, the one that checks numbers against each
 * country's real number ranges (the "min" set mostly checks lengths). We keep max for correctness and win the
 * speed back twice (measured in bench/parse.bench.ts, on the same numbers):
 *  - validity is the library's `isValid()` logic with each country's patterns compiled once (the library builds
 *    new RegExps on every call), and
 *  - plainly written numbers of the default country (digits, spaces, - . ( ), optional +code) skip the library's
 *    general-purpose parse (see `shortcut`); everything else takes the full path.
 * The library path alone ran ~140,000 numbers/s, `parsePhoneNumberFromString(...).isValid()` ~100,000, the
 * shortcut over a million. test/unit/contacts-phone.test.ts checks both speed-ups agree with the library exactly.
 *
 * Mexico dropped its dialling prefixes in 2019-2020, and the current metadata no longer knows them, but contact
 * lists are full of them: `044`/`045` (mobile), `01` (long distance) before a national number, and `1` after +52
 * for mobiles (`+52 1 55 1234 5678`, still what WhatsApp shows). No Mexican number starts with 0 or 1, so when a
 * +52 number is not valid as written we drop such a prefix and check again.
 */
import {
  isSupportedCountry,
  MAX_METADATA,
  Metadata,
  parsePhoneNumberFromString,
  validatePhoneNumberLength,
  type CountryCode,
} from './libphonenumber.js';
import type { RowReason, RowReasonCode } from './rejections.js';

export type { CountryCode };
export { isSupportedCountry };
export type PhoneResult = { ok: true; e164: string } | { ok: false; reason: string; why: RowReason };

// ---------------------------------------------------------------------------------------------------------------
// Validity with compiled patterns (same logic as libphonenumber-js isValid()/getNumberType(), max metadata)

interface TypeInternals {
  pattern(): string;
  possibleLengths(): number[] | undefined;
}
interface PlanInternals {
  nationalNumberPattern(): string;
  possibleLengths(): number[];
  hasTypes(): boolean;
  type(t: string): TypeInternals | undefined;
}
interface NumberingPlanChecks {
  nationalNumber: RegExp;
  /** undefined: the metadata has no per-type patterns for this country, the national pattern decides. */
  types?: { re: RegExp; lengths?: number[] }[];
  possibleLengths: number[];
}

const NUMBER_TYPES = [
  'FIXED_LINE',
  'MOBILE',
  'PREMIUM_RATE',
  'TOLL_FREE',
  'SHARED_COST',
  'VOIP',
  'PERSONAL_NUMBER',
  'PAGER',
  'UAN',
  'VOICEMAIL',
];

const metadata = new Metadata(MAX_METADATA);
const checksCache = new Map<string, NumberingPlanChecks>();

/** Compiled checks of a country (`MX`) or calling code (`52`: its main country). */
function checksFor(countryOrCallingCode: string): NumberingPlanChecks {
  let c = checksCache.get(countryOrCallingCode);
  if (c) return c;
  metadata.selectNumberingPlan(countryOrCallingCode as CountryCode);
  const plan = metadata.numberingPlan as unknown as PlanInternals;
  c = {
    nationalNumber: new RegExp(`^(?:${plan.nationalNumberPattern()})$`),
    possibleLengths: plan.possibleLengths() ?? [],
  };
  if (plan.hasTypes()) {
    c.types = [];
    for (const t of NUMBER_TYPES) {
      const def = plan.type(t);
      const pattern = def?.pattern();
      if (!def || !pattern) continue;
      c.types.push({ re: new RegExp(`^(?:${pattern})$`), lengths: def.possibleLengths() });
    }
  }
  checksCache.set(countryOrCallingCode, c);
  return c;
}

/** What `PhoneNumber.isValid()` answers for a number of this country (or calling code) and national number. */
export function isValidNationalNumber(countryOrCallingCode: string, nationalNumber: string): boolean {
  const c = checksFor(countryOrCallingCode);
  if (!c.nationalNumber.test(nationalNumber)) return false;
  if (!c.types) return true;
  for (const t of c.types) {
    if (t.lengths && !t.lengths.includes(nationalNumber.length)) continue;
    if (t.re.test(nationalNumber)) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------------------------
// Shortcut for plainly written numbers
//
// Most cells hold digits with spaces, dashes, dots or parentheses, in the default country's national format or
// after its "+code". For those, the library's parse comes down to: no country code or national prefix to strip,
// national number = the digits. When that is certain (the calling code belongs to this country alone, the digits
// do not start with its international or national prefix, their length is possible) and the number is valid,
// the E.164 form is "+" + code + digits; anything else goes through the library. The shortcut skips about half
// of the per-number cost; test/unit/contacts-phone.test.ts checks it gives exactly the library path's answers.

interface ShortcutPlan {
  callingCode: string;
  /** `^(?:IDD)`: digits starting so may be an international call prefix. */
  internationalPrefix: RegExp;
  /** `^(?:national prefix for parsing)`, when the country has one. */
  nationalPrefix?: RegExp;
  lengths: number[];
}

interface MetadataInternals {
  getCountryCodesForCallingCode(callingCode: string): string[] | undefined;
  getCountryCodeForCallingCode(callingCode: string): string | undefined;
  numberingPlan: {
    callingCode(): string;
    IDDPrefix(): string;
    nationalPrefixForParsing(): string | undefined;
    possibleLengths(): number[];
  };
}

const shortcutPlans = new Map<string, ShortcutPlan | null>();

function shortcutPlanFor(country: CountryCode): ShortcutPlan | null {
  let plan = shortcutPlans.get(country);
  if (plan !== undefined) return plan;
  const m = metadata as unknown as MetadataInternals;
  metadata.selectNumberingPlan(country);
  const np = m.numberingPlan;
  const callingCode = np.callingCode();
  const npp = np.nationalPrefixForParsing();
  plan =
    m.getCountryCodesForCallingCode(callingCode)?.length === 1
      ? {
          callingCode,
          internationalPrefix: new RegExp(`^(?:${np.IDDPrefix()})`),
          ...(npp ? { nationalPrefix: new RegExp(`^(?:${npp})`) } : {}),
          lengths: np.possibleLengths() ?? [],
        }
      : null;
  shortcutPlans.set(country, plan);
  return plan;
}

/** E.164 of a plainly written valid number of `country`, or undefined to take the library path. */
function shortcut(text: string, country: CountryCode): string | undefined {
  const plan = shortcutPlanFor(country);
  if (!plan) return undefined;
  let digits = '';
  let plus = false;
  let dot = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) digits += text[i];
    else if (c === 43 /* + */ && i === 0) plus = true;
    else if (c === 46 /* . */) dot = true;
    else if (c !== 32 && c !== 45 && c !== 40 && c !== 41) return undefined; // space - ( )
  }
  if (dot && DECIMAL_ZERO.test(text)) return undefined; // 5512345678.0: the ".0" is not part of the number
  let national: string;
  if (plus) {
    if (!digits.startsWith(plan.callingCode)) return undefined;
    national = digits.slice(plan.callingCode.length);
  } else {
    if (plan.internationalPrefix.test(digits)) return undefined;
    national = digits;
  }
  if (plan.callingCode === '52' && national.length > MX_NATIONAL_LENGTH) {
    // +52 1 55…, 044 55…, 01 55…: drop the old prefix as the library path does (a bare leading 1 is left to it).
    const old = MX_OLD_PREFIX.exec(national);
    if (!old || (old[1] === '1' && !plus)) return undefined;
    national = old[2]!;
  }
  if (!plan.lengths.includes(national.length)) return undefined;
  if (plan.nationalPrefix?.test(national)) return undefined;
  if (!isValidNationalNumber(country, national)) return undefined;
  return `+${plan.callingCode}${national}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Reasons

/** The main country of a calling code (US for +1, GB for +44). */
function mainCountryOf(callingCode: string): string {
  return (metadata as unknown as MetadataInternals).getCountryCodeForCallingCode(callingCode) ?? callingCode;
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
const countryNames = new Map<string, string>();
/** English name of a country code; cached, Intl lookups are slow. */
function countryName(country: string): string {
  let name = countryNames.get(country);
  if (name === undefined) {
    try {
      name = regionNames.of(country) ?? country;
    } catch {
      name = country;
    }
    countryNames.set(country, name);
  }
  return name;
}

function lengthsText(lengths: number[]): string {
  if (lengths.length === 0) return '';
  const min = Math.min(...lengths);
  const max = Math.max(...lengths);
  return min === max ? `${min}` : `${min} to ${max}`;
}

/** A rejection whose reason has no values. */
function fail(reason: string, code: RowReasonCode): PhoneResult {
  return { ok: false, reason, why: { code } };
}

/**
 * Why a national number of this country is not valid: its length if that is wrong, else "not valid". `country` and
 * `callingCode` name the country (with its code when it is not the default one); `oldPrefix`, a Mexican prefix
 * already dropped.
 */
function invalidReason(
  place: { country: string; callingCode: string; foreign: boolean },
  countryOrCallingCode: string,
  nationalNumber: string,
  oldPrefix?: string,
): PhoneResult {
  const where = place.foreign ? `${countryName(place.country)} (+${place.callingCode})` : countryName(place.country);
  const note = oldPrefix !== undefined ? `without the old ${oldPrefix} prefix` : undefined;
  const lengths = checksFor(countryOrCallingCode).possibleLengths;
  const n = nationalNumber.length;
  const digits = note ? `${n} digits (${note})` : `${n} digits`;
  const values = {
    country: place.country,
    callingCode: place.callingCode,
    foreign: place.foreign ? 'yes' : 'no',
    oldPrefix: oldPrefix ?? '',
    digits: String(n),
    min: lengths.length ? String(Math.min(...lengths)) : '',
    max: lengths.length ? String(Math.max(...lengths)) : '',
  };
  if (lengths.length && n < Math.min(...lengths)) {
    return {
      ok: false,
      reason: `too short: ${digits}; a number in ${where} has ${lengthsText(lengths)}`,
      why: { code: 'tooShort', values },
    };
  }
  if (lengths.length && n > Math.max(...lengths)) {
    return {
      ok: false,
      reason: `too long: ${digits}; a number in ${where} has ${lengthsText(lengths)}`,
      why: { code: 'tooLong', values },
    };
  }
  return {
    ok: false,
    reason: note ? `not a valid number for ${where} (even ${note})` : `not a valid number for ${where}`,
    why: { code: 'invalidForCountry', values },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Normalization

/** A label before the number: `tel:` (RFC 3966 URI), `Tel.`, `Cel:`, `WhatsApp:`... */
const LABEL = /^(?:tel|t[eé]l[eé]fono|cel|celular|cell|phone|mobile|m[oó]vil|whatsapp|wa)\s*[:.]?\s*(?=[+(\d])/i;
/** Characters that may separate two numbers written in one cell. */
const LIST_SEPARATOR = /[,;/|\n]/;
/** 5.51234E+09: a number a spreadsheet wrote in scientific notation, its last digits lost. */
const SCIENTIFIC = /^[+-]?\d+(?:[.,]\d+)?e\+?\d+$/i;
/** 5512345678.0: a whole number exported as a decimal. */
const DECIMAL_ZERO = /^(\+?\d+)\.0+$/;
const LETTER = /\p{L}/u;
const DIGIT = /\d/;
/** A decimal digit of any script: the library reads full-width and Arabic-Indic digits too. */
const ANY_DIGIT = /\p{Nd}/u;
/** Dialling prefixes Mexico no longer uses (see the top of this file). */
const MX_OLD_PREFIX = /^(04[45]|01|1)(\d+)$/;
const MX_NATIONAL_LENGTH = 10;

function countDigits(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) n++;
  }
  return n;
}

/** Whether the digits before the national number end with the country code (`+52 1 55…`, `521 55…`, `0052…`). */
function writtenWithCountryCode(text: string, nationalNumber: string, callingCode: string): boolean {
  let digits = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) digits += text[i];
  }
  return digits.endsWith(nationalNumber) && digits.slice(0, -nationalNumber.length).endsWith(callingCode);
}

function holdsSeveralNumbers(text: string): boolean {
  let numbers = 0;
  for (const part of text.split(LIST_SEPARATOR)) if (countDigits(part) >= 7) numbers++;
  return numbers >= 2;
}

function unparsableReason(text: string, defaultCountry: CountryCode): PhoneResult {
  if (!DIGIT.test(text)) return fail('no digits: not a phone number', 'noDigits');
  if (LETTER.test(text)) return fail('contains letters: write the number with digits only', 'letters');
  switch (validatePhoneNumberLength(text, defaultCountry)) {
    case 'INVALID_COUNTRY':
      return fail('unknown country code', 'unknownCountryCode');
    case 'TOO_SHORT':
      return fail('too short', 'shortUnparsed');
    case 'TOO_LONG':
      return fail('too long', 'longUnparsed');
    default:
      return fail('not a phone number', 'notPhone');
  }
}

/**
 * `raw` → E.164. `defaultCountry` is the country of numbers written without a country code (for Mexico, `MX`).
 * Numbers of other countries written with their code (`+1 415 555 2671`) are accepted when valid.
 */
export function normalizePhone(raw: string, defaultCountry: CountryCode = 'MX'): PhoneResult {
  const e164 = shortcut(raw.trim(), defaultCountry);
  if (e164 !== undefined) return { ok: true, e164 };
  // Text without a digit of any script is never a number; the library takes ~40 µs to say so (a file of a million
  // such rows is a hostile one). The same answers as the library path.
  if (!ANY_DIGIT.test(raw)) {
    return raw.trim() ? fail('no digits: not a phone number', 'noDigits') : fail('empty number', 'emptyNumber');
  }
  return normalizePhoneWithoutShortcut(raw, defaultCountry);
}

/** `normalizePhone` through the library only: what the shortcut must agree with (tests, bench). */
export function normalizePhoneWithoutShortcut(raw: string, defaultCountry: CountryCode = 'MX'): PhoneResult {
  let text = raw.trim();
  if (!text) return fail('empty number', 'emptyNumber');
  text = text.replace(LABEL, '');
  if (LIST_SEPARATOR.test(text) && holdsSeveralNumbers(text)) {
    return fail('holds more than one number: put one number per row', 'severalNumbers');
  }
  if (SCIENTIFIC.test(text)) {
    return fail(
      'written in scientific notation, so its last digits were lost: format the column as Text (or as a ' +
        'number without decimals) in the spreadsheet and export the file again',
      'scientific',
    );
  }
  const decimal = DECIMAL_ZERO.exec(text);
  if (decimal) text = decimal[1]!;

  const parsed = parsePhoneNumberFromString(text, { defaultCountry, extract: false });
  if (!parsed) return unparsableReason(text, defaultCountry);
  if (parsed.ext) {
    return {
      ok: false,
      reason: `has an extension (${parsed.ext}): calls cannot dial extensions; remove it to call the main number`,
      why: { code: 'extension', values: { ext: parsed.ext } },
    };
  }
  const callingCode = parsed.countryCallingCode;
  const plan = parsed.country ?? callingCode;
  const nationalNumber = parsed.nationalNumber;
  if (isValidNationalNumber(plan, nationalNumber)) return { ok: true, e164: parsed.number };

  const country = parsed.country ?? mainCountryOf(callingCode);
  const place = { country, callingCode, foreign: country !== defaultCountry };
  if (callingCode === '52' && nationalNumber.length > MX_NATIONAL_LENGTH) {
    const old = MX_OLD_PREFIX.exec(nationalNumber);
    // The mobile "1" only ever followed the country code: a bare 1 + 10 digits may as well be a US number.
    if (old && (old[1] !== '1' || writtenWithCountryCode(text, nationalNumber, callingCode))) {
      const stripped = old[2]!;
      if (isValidNationalNumber(plan, stripped)) return { ok: true, e164: `+52${stripped}` };
      return invalidReason(place, plan, stripped, old[1]);
    }
  }
  return invalidReason(place, plan, nationalNumber);
}
