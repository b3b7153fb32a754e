/**
 * The CSV a person downloads to see which rows were not added and why: `row,value,reason`.
 *
 * RFC 4180: CRLF line ends; a field with a comma, quote, CR or LF is quoted and its quotes doubled. A cell that a
 * spreadsheet would run as a formula (starting with = + - @, or tab / CR as OWASP adds) gets a leading `'`, which
 * spreadsheets show as text. Phone numbers start with +, so `+52 55…` is written `'+52 55…`.
 */

export interface FailureReportRow {
  rowNumber: number;
  original: string;
  reason: string;
}

export const FAILURE_REPORT_HEADER = 'row,value,reason';

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function failureReportCsv(rows: Iterable<FailureReportRow>, opts: { bom?: boolean } = {}): string {
  const lines = [FAILURE_REPORT_HEADER];
  for (const r of rows) lines.push(`${r.rowNumber},${csvCell(r.original)},${csvCell(r.reason)}`);
  // The BOM makes Excel read the file as UTF-8 (accents in values); off by default for other consumers.
  return (opts.bom ? '\uFEFF' : '') + lines.join('\r\n') + '\r\n';
}
