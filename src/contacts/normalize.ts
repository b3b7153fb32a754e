/**
 * Rows → contacts ready to send, or rejected rows with the reason, in file order. A number that appears again
 * later in the file is rejected there (the first row wins): the service would skip or overwrite it anyway, and
 * saying so per row lets the person see it in the failure report.
 */
import type { ContactInput } from '../outreach/schemas.js';
import type { HeaderMapping } from './headers.js';
import { formatCount } from './limits.js';
import { isSupportedCountry, normalizePhone, type CountryCode } from './phone.js';
import type { RowReason } from './rejections.js';
import type { Row } from './table.js';

interface ContactRow {
  kind: 'contact';
  rowNumber: number;
  contact: ContactInput;
}

export interface RejectedRow {
  kind: 'rejected';
  rowNumber: number;
  /** The phone value as written in the file ('' when empty), cut to ORIGINAL_MAX_CHARS. */
  original: string;
  /** In English (tests, logs). */
  reason: string;
  /** The reason as data, for the uploader's language. */
  why: RowReason;
}

export type NormalizedRow = ContactRow | RejectedRow;

/** Characters of the phone value a rejected row keeps: enough to recognise it, never a runaway cell. */
const ORIGINAL_MAX_CHARS = 100;
/** Invalid values whose reason is remembered (see normalizeRows). */
const INVALID_REMEMBERED = 10_000;
/** Longer than any way of writing one phone number (labels, spaces, an extension included). */
const PHONE_TEXT_MAX_CHARS = 100;

/** Why a row was rejected: in English (tests, logs), and as data (the uploader's language). */
type Reason = { reason: string; why: RowReason };

function shortened(value: string): string {
  return value.length > ORIGINAL_MAX_CHARS ? `${value.slice(0, ORIGINAL_MAX_CHARS)}…` : value;
}

function tooLongReason(t: NonNullable<Row['tooLong']>): Reason {
  return t.column !== undefined
    ? {
        reason:
          `the value in column "${t.column}" has ${formatCount(t.chars)} characters; a cell may have at most ` +
          `${formatCount(t.max)}: shorten it`,
        why: { code: 'cellTooLong', values: { column: t.column, chars: t.chars, max: t.max } },
      }
    : {
        reason:
          `the row has ${formatCount(t.chars)} characters in all; a row may have at most ${formatCount(t.max)}: ` +
          'shorten its longest values',
        why: { code: 'rowTooLong', values: { chars: t.chars, max: t.max } },
      };
}

export interface NormalizeOptions {
  /** Country of numbers written without a country code. */
  defaultCountry: CountryCode;
}

/** Why a row cannot hold one phone number whatever its value says: too long, values beyond the header, a runaway cell. */
function shapeProblem(row: Row, original: string): Reason | undefined {
  if (row.tooLong) return tooLongReason(row.tooLong);
  if (row.extra) {
    const shown = row.extra.slice(0, 3).map((v) => `"${v.length > 40 ? `${v.slice(0, 40)}…` : v}"`);
    if (row.extra.length > 3 || row.moreExtra) shown.push('…');
    const columns = Object.keys(row.cells).length;
    return {
      reason:
        `has values beyond the ${columns} columns of the header (${shown.join(', ')}): a value ` +
        'probably contains the delimiter without quotes, or a column has no header',
      why: { code: 'beyondHeader', values: { columns: String(columns), values: shown.join(', ') } },
    };
  }
  if (original.length > PHONE_TEXT_MAX_CHARS) {
    return {
      reason: `too long to be a phone number (${formatCount(original.length)} characters)`,
      why: { code: 'phoneTooLong', values: { chars: original.length } },
    };
  }
  return undefined;
}

/** A mapped column's value in a row, trimmed ('' when the column is not mapped or the row has none). */
function cellValue(cells: Row['cells'], header: string | undefined): string {
  return header === undefined ? '' : (cells[header] ?? '').trim();
}

/** The contact of a row whose number is `e164`: the mapped columns that have a value. */
function contactOf(e164: string, cells: Row['cells'], mapping: HeaderMapping): ContactInput {
  const contact: ContactInput = { contact: e164 };
  const name = cellValue(cells, mapping.name);
  if (name) contact.name = name;
  const context = cellValue(cells, mapping.context);
  if (context) contact.context = context;
  const fId = cellValue(cells, mapping.fId);
  if (fId) contact.f_id = fId;
  let data: Record<string, string> | undefined;
  for (const h of mapping.extra) {
    const v = cellValue(cells, h);
    if (v) (data ??= {})[h] = v;
  }
  if (data) contact.extracted_data = data;
  return contact;
}

export async function* normalizeRows(
  rows: AsyncIterable<Row> | Iterable<Row>,
  mapping: HeaderMapping,
  opts: NormalizeOptions,
): AsyncGenerator<NormalizedRow> {
  const firstRowOf = new Map<string, number>();
  // Why a value is not a number, for values met again: checking an invalid value takes the library tens of
  // microseconds, and a hostile file repeats one value millions of times. Bounded; real files rarely repeat a bad one.
  const invalid = new Map<string, Reason>();
  const country = opts.defaultCountry;
  if (!isSupportedCountry(country)) throw new RangeError(`normalizeRows: unknown default country ${String(country)}`);

  for await (const row of rows) {
    const { rowNumber } = row;
    const original = (row.cells[mapping.phone] ?? '').trim();
    const problem = shapeProblem(row, original);
    if (problem) {
      yield { kind: 'rejected', rowNumber, original: shortened(original), ...problem };
      continue;
    }
    const known = invalid.get(original);
    if (known !== undefined) {
      yield { kind: 'rejected', rowNumber, original, ...known };
      continue;
    }
    const result = normalizePhone(original, country);
    if (!result.ok) {
      const why = { reason: result.reason, why: result.why };
      if (invalid.size < INVALID_REMEMBERED) invalid.set(original, why);
      yield { kind: 'rejected', rowNumber, original, ...why };
      continue;
    }
    const seenAt = firstRowOf.get(result.e164);
    if (seenAt !== undefined) {
      yield {
        kind: 'rejected',
        rowNumber,
        original,
        reason: `duplicate of row ${seenAt} (same number ${result.e164})`,
        why: { code: 'duplicate', values: { row: String(seenAt), number: result.e164 } },
      };
      continue;
    }
    firstRowOf.set(result.e164, rowNumber);
    yield { kind: 'contact', rowNumber, contact: contactOf(result.e164, row.cells, mapping) };
  }
}

export { noRejections, rejectionKind, type RejectionCounts } from './rejections.js';
