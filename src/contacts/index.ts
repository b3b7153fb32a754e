/**
 * Contacts files → contacts for the Campaign Outreach Service. No Slack and no HTTP here: the uploader reads a file
 * with `openContactFile` (or `readTable` + `mapHeaders` + `normalizeRows`), sends `batch(...)` results with
 * `batchIdempotencyKey`, and offers `failureReportCsv` of the rejected rows.
 */
import type { ByteInput } from './byte-source.js';
import { requirePhoneColumn, type HeaderMapping } from './headers.js';
import { normalizeRows, type NormalizedRow, type NormalizeOptions } from './normalize.js';
import { readTable, type ReadTableOptions, type Table } from './table.js';

export type { ByteInput } from './byte-source.js';
export { FileFormatError, type FileFormatErrorCode } from './errors.js';
export { readTable, headerNames, type Row, type Table, type ReadTableOptions } from './table.js';
export type { FileFormat } from './sniff.js';
export type { TextEncoding } from './decode.js';
export type { Delimiter } from './delimiter.js';
export {
  mapHeaders,
  requirePhoneColumn,
  headerKey,
  HEADER_ALIASES,
  type HeaderMapping,
  type MissingPhoneColumn,
} from './headers.js';
export { normalizePhone, isValidNationalNumber, type PhoneResult, type CountryCode } from './phone.js';
export {
  normalizeRows,
  type NormalizedRow,
  type ContactRow,
  type RejectedRow,
  type NormalizeOptions,
} from './normalize.js';
export { batch, onlyContacts, batchIdempotencyKey, type ContactBatch, type RowContact } from './batch.js';
export { failureReportCsv, csvCell, FAILURE_REPORT_HEADER, type FailureReportRow } from './failure-report.js';

export interface ContactFile {
  table: Table;
  mapping: HeaderMapping;
  /** Every data row, as a contact or a rejection, in file order. Single use. */
  rows: AsyncIterable<NormalizedRow>;
}

/**
 * Opens a contacts file: reads the header, maps the columns (a `FileFormatError` 'NO_PHONE_COLUMN' when there is
 * no phone column) and returns the normalized rows. Every other unreadable-file case is a `FileFormatError` too.
 */
export async function openContactFile(
  input: ByteInput,
  opts: ReadTableOptions & NormalizeOptions,
): Promise<ContactFile> {
  const table = await readTable(input, opts);
  let mapping: HeaderMapping;
  try {
    mapping = requirePhoneColumn(table.headers, opts.fileName);
  } catch (err) {
    await table.close();
    throw err;
  }
  return { table, mapping, rows: normalizeRows(table.rows, mapping, { defaultCountry: opts.defaultCountry }) };
}
