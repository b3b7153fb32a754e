/**
 * Why a row was not added, in the uploader's language, for the failed-rows CSV: the contacts pipeline carries the
 * reason as data (`why`: a code and its values, src/contacts/rejections.ts) beside its English `reason`; English
 * here equals that `reason` (test/unit/row-reason-text.test.ts). Plain text (a CSV cell).
 */
import type { FailureReportRow } from '../../contacts/failure-report.js';
import type { RowReason, RowReasonCode } from '../../contacts/rejections.js';
import type { Locale } from '../../i18n/locale.js';
import type { MessageKey, Translator } from '../../i18n/translator.js';

const ROW_REASON_KEYS: Record<RowReasonCode, MessageKey> = {
  emptyNumber: 'rowReason.emptyNumber',
  noDigits: 'rowReason.noDigits',
  severalNumbers: 'rowReason.severalNumbers',
  scientific: 'rowReason.scientific',
  letters: 'rowReason.letters',
  unknownCountryCode: 'rowReason.unknownCountryCode',
  shortUnparsed: 'rowReason.shortUnparsed',
  longUnparsed: 'rowReason.longUnparsed',
  notPhone: 'rowReason.notPhone',
  extension: 'rowReason.extension',
  tooShort: 'rowReason.tooShort',
  tooLong: 'rowReason.tooLong',
  invalidForCountry: 'rowReason.invalidForCountry',
  cellTooLong: 'rowReason.cellTooLong',
  rowTooLong: 'rowReason.rowTooLong',
  beyondHeader: 'rowReason.beyondHeader',
  phoneTooLong: 'rowReason.phoneTooLong',
  duplicate: 'rowReason.duplicate',
};

const REGION_LOCALE: Record<Locale, string> = { en: 'en', es: 'es-419' };
const regionNames = new Map<Locale, Intl.DisplayNames>();
/** A country's name in `locale` (the code itself when the runtime does not know it). */
function countryName(code: string, locale: Locale): string {
  let names = regionNames.get(locale);
  if (!names) {
    names = new Intl.DisplayNames([REGION_LOCALE[locale]], { type: 'region' });
    regionNames.set(locale, names);
  }
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}

export function rowReasonText(why: RowReason, t: Translator): string {
  const values: Record<string, string | number> = { ...why.values };
  if (typeof values.country === 'string') {
    values.country = countryName(values.country, t.locale);
    values.hasOld = values.oldPrefix ? 'yes' : 'no';
    values.oneLength = values.min === values.max ? 'yes' : 'no';
  }
  return t.t(ROW_REASON_KEYS[why.code], values);
}

/** A report row with its reason in `t`'s language (rows without `why`, from before reasons had codes, as they are). */
export function localizedReportRow(r: FailureReportRow, t: Translator): FailureReportRow {
  return r.why ? { ...r, reason: rowReasonText(r.why, t) } : r;
}
