/**
 * XLSX → records of the first worksheet, with exceljs's XML readers fed from the ZIP read at random (xlsx-zip.ts).
 * Other sheets are never inflated.
 *
 * "First" is the first visible tab in the workbook's order (what a person sees on opening the file), not the
 * first sheet stored in the ZIP. The parts are read in the order that needs nothing kept aside: the workbook and
 * its relationships (which sheet is first), the styles (which numbers are dates), the shared strings, then the
 * sheet, streaming. exceljs's own reader takes the ZIP front to back and spools every worksheet stored before the
 * shared strings (Excel's order) into a temp file; nothing is spooled here.
 *
 * Cells become the text a person expects, not exceljs's JS values: numbers in plain notation (a phone stored as
 * a number stays 5512345678), dates as ISO dates, rich text joined, formulas by their cached result.
 */
import type { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describeFile, FileFormatError } from './errors.js';
import type { RawRecord } from './csv-records.js';
import { partPath, unreadable, type XlsxZip } from './xlsx-zip.js';

// ---------------------------------------------------------------------------------------------------------------
// Cell values → text

function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return '';
  // Integers below 1e21 print without exponent; phone numbers (≤ 15 digits) are exact in a double.
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return n.toString();
  const s = n.toString();
  if (!s.includes('e')) return s;
  return n.toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
}

const pad = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** exceljs gives dates as the wall-clock time in UTC. Date only when there is no time; a bare time for times. */
function formatDate(d: Date): string {
  if (Number.isNaN(d.getTime())) return '';
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  if (time === '00:00:00') return date;
  // Excel's day 0 (a time-only cell such as 10:30) is 1899-12-30.
  if (date === '1899-12-30') return time;
  return `${date}T${time}`;
}

export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      return formatNumber(value);
    case 'boolean':
      return value ? 'TRUE' : 'FALSE';
    case 'object':
      break;
    default:
      return String(value);
  }
  if (value instanceof Date) return formatDate(value);
  const v = value as Record<string, unknown>;
  if (Array.isArray(v.richText)) return (v.richText as { text?: unknown }[]).map((r) => cellText(r.text)).join('');
  if ('formula' in v || 'sharedFormula' in v) return cellText(v.result);
  if ('error' in v) return cellText(v.error);
  if ('text' in v) return cellText(v.text); // hyperlink
  return '';
}

// ---------------------------------------------------------------------------------------------------------------
// exceljs's part readers, fed by us
//
// We call the part parsers of exceljs's WorkbookReader (`_parseRels`, `_parseWorkbook`, `_parseStyles`,
// `_parseSharedStrings`, `_parseWorksheet` of lib/stream/xlsx/workbook-reader.js, 4.4.0) with streams of our own
// instead of its `parse()`, which reads the ZIP front to back. Each stream is decoded as UTF-8 with
// `setEncoding` (a streaming decoder): exceljs decodes every chunk on its own, so a letter split between two
// chunks became "��" ("Muñoz" → "Mu��oz"). test/unit/contacts-xlsx.test.ts fails if this stops working.

interface Relationship {
  Id?: string;
  Target?: string;
}
interface SheetInfo {
  name?: string;
  state?: string;
  rId?: string;
}
interface ReaderInternals {
  workbookRels?: Relationship[];
  model?: { sheets?: SheetInfo[] };
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseStyles(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown>;
  _parseWorksheet(iterator: AsyncIterable<unknown>, sheetNo: string): Generator<{ value: SheetReader }>;
}
interface SheetReader extends AsyncIterable<ExcelJS.Row> {
  name?: string;
}

const WORKBOOK = 'xl/workbook.xml';
const WORKBOOK_RELS = 'xl/_rels/workbook.xml.rels';
const STYLES = 'xl/styles.xml';
const SHARED_STRINGS = 'xl/sharedStrings.xml';
const WORKSHEET = /^xl\/worksheets\/[^/]+\.xml$/i;

function rowValues(row: ExcelJS.Row): string[] {
  const raw = row.values as unknown[];
  const out: string[] = new Array<string>(Math.max(raw.length - 1, 0));
  // Holes (cells never written) are undefined and become ''.
  for (let c = 1; c < raw.length; c++) out[c - 1] = cellText(raw[c]).trim();
  return out;
}

export interface XlsxRecordsOptions {
  fileName?: string;
  /** Called with the name of the worksheet being read. */
  onSheet?: (name: string) => void;
  /** Called as the sheet's part is inflated: the share of it read so far (0..1). */
  onProgress?: (fraction: number) => void;
}

/** The sheet to read: the first visible tab, else the first worksheet stored. */
function chooseSheet(zip: XlsxZip, reader: ReaderInternals): { path: string; name?: string } | undefined {
  const tabs = reader.model?.sheets ?? [];
  const rels = reader.workbookRels ?? [];
  const first = tabs.find((t) => t.state !== 'hidden' && t.state !== 'veryHidden') ?? tabs[0];
  const target = first && rels.find((r) => r.Id === first.rId)?.Target;
  if (target) {
    const path = partPath('xl', target);
    if (zip.has(path)) return { path, ...(first.name !== undefined ? { name: first.name } : {}) };
  }
  // Without a workbook part, or for a tab it does not list, tab order is unknown: take the first stored.
  const stored = zip.names.find((n) => WORKSHEET.test(n));
  return stored ? { path: stored } : undefined;
}

async function part(zip: XlsxZip, name: string, onBytes?: (n: number) => void): Promise<Readable | undefined> {
  if (!zip.has(name)) return undefined;
  const stream = await zip.open(name, onBytes);
  stream.setEncoding('utf8');
  return stream;
}

/** Records of the first worksheet (one per batch: exceljs hands rows over one at a time). Closes the ZIP. */
export async function* xlsxRecords(zip: XlsxZip, opts: XlsxRecordsOptions = {}): AsyncGenerator<RawRecord[]> {
  const file = describeFile(opts.fileName);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(undefined as never, {
    sharedStrings: 'cache',
    // Styles carry the number formats that tell a date from a number.
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  }) as unknown as ReaderInternals;
  const open: Readable[] = [];
  const read = async (name: string, onBytes?: (n: number) => void): Promise<Readable | undefined> => {
    const s = await part(zip, name, onBytes);
    if (s) open.push(s);
    return s;
  };
  try {
    let sheet: { path: string; name?: string } | undefined;
    let sheetReader: SheetReader | undefined;
    try {
      const rels = await read(WORKBOOK_RELS);
      if (rels) await reader._parseRels(rels);
      const workbook = await read(WORKBOOK);
      if (workbook) await reader._parseWorkbook(workbook);
      sheet = chooseSheet(zip, reader);
      if (!sheet) {
        throw new FileFormatError(
          'UNREADABLE_XLSX',
          `${file} is a ZIP archive without any Excel worksheet. Upload a .xlsx workbook or a .csv file.`,
          { kind: 'noWorksheet', file: opts.fileName ?? '' },
        );
      }
      const styles = await read(STYLES);
      if (styles) await reader._parseStyles(styles);
      const strings = await read(SHARED_STRINGS);
      if (strings) for await (const _ of reader._parseSharedStrings(strings)); // cached on the reader
      const size = zip.size(sheet.path);
      const onBytes = opts.onProgress && size > 0 ? (n: number) => opts.onProgress!(Math.min(1, n / size)) : undefined;
      const stream = (await read(sheet.path, onBytes))!;
      const sheetNo = /(\d+)\.xml$/i.exec(sheet.path)?.[1] ?? '1';
      for (const { value } of reader._parseWorksheet(stream, sheetNo)) sheetReader = value;
    } catch (err) {
      throw toFileError(opts.fileName, err);
    }
    if (!sheetReader) throw unreadable(opts.fileName, new Error('the worksheet could not be opened'));
    opts.onSheet?.(sheet.name ?? sheetReader.name ?? '');
    const rows = sheetReader[Symbol.asyncIterator]();
    for (;;) {
      let r: IteratorResult<ExcelJS.Row>;
      try {
        r = await rows.next();
      } catch (err) {
        throw toFileError(opts.fileName, err);
      }
      if (r.done) break;
      yield [{ rowNumber: r.value.number, values: rowValues(r.value) }];
    }
  } finally {
    // Also when the reader stops early: no part stream is left open, the file is let go.
    for (const s of open) if (!s.destroyed) s.destroy();
    zip.close();
  }
}

function toFileError(fileName: string | undefined, err: unknown): FileFormatError {
  return err instanceof FileFormatError ? err : unreadable(fileName, err);
}
