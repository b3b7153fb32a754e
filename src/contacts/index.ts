/**
 * Contacts files → contacts for the Campaign Outreach Service. No Slack and no HTTP here: the uploader reads a file
 * with `openContactFile` (or `readTable` + `mapHeaders` + `normalizeRows`), sends `batch(...)` results with
 * `batchIdempotencyKey`, and offers `failureReportCsv` of the rejected rows.
 */
import { requirePhoneColumn, type HeaderMapping } from './headers.js';
import { normalizeRows, type NormalizedRow, type NormalizeOptions } from './normalize.js';
import { readTable, type ReadTableOptions, type Table, type TableInput } from './table.js';
export { FileFormatError } from './errors.js';
export { readTable, headerNames, type Row, type Table, type ReadTableOptions, type TableInput } from './table.js';
export { fileLimits, type FileLimits } from './limits.js';
export { mapHeaders, requirePhoneColumn, headerKey, type HeaderMapping } from './headers.js';
export { normalizePhone, isValidNationalNumber, type CountryCode } from './phone.js';
export { normalizeRows, type NormalizedRow, type RejectedRow, type NormalizeOptions } from './normalize.js';
export { batch, onlyContacts, batchIdempotencyKey, type ContactBatch, type RowContact } from './batch.js';
export {
  failureReportCsv,
  RejectedRowSpool,
  readRejectedSpool,
  writeFailureReport,
  type FailureReportRow,
} from './failure-report.js';

export interface ContactFile {
  table: Table;
  mapping: HeaderMapping;
  /** Every data row, as a contact or a rejection, in file order. Single use. */
  rows: AsyncIterable<NormalizedRow>;
}

/**
 * Opens a contacts file: reads the header, maps the columns (a `FileFormatError` 'NO_PHONE_COLUMN' when there is
 * no phone column) and returns the normalized rows, whose cells are built for the mapped columns only. Every other
 * unreadable-file case is a `FileFormatError` too.
 */
export async function openContactFile(
  input: TableInput,
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
  table.useColumns(mappedColumns(mapping));
  return { table, mapping, rows: normalizeRows(table.rows, mapping, { defaultCountry: opts.defaultCountry }) };
}

/** Every header a mapping reads: the phone, name, context and id columns, and those that go to extracted_data. */
function mappedColumns(m: HeaderMapping): string[] {
  return [m.phone, m.name, m.context, m.fId, ...m.extra].filter((h): h is string => h !== undefined);
}
