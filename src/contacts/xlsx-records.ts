/**
 * XLSX → records of the first worksheet, with exceljs's streaming reader. Other sheets are skipped unread.
 *
 * "First" is the first visible tab in the workbook's order (what a person sees on opening the file), not the
 * first sheet stored in the ZIP. Excel stores worksheets before the shared strings, so exceljs spools them to temp
 * files and parses them at the end of the ZIP: memory stays flat, the rows just start once the file is read.
 *
 * Cells become the text a person expects, not exceljs's JS values: numbers in plain notation (a phone stored as
 * a number stays 5512345678), dates as ISO dates, rich text joined, formulas by their cached result.
 */
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describeFile, FileFormatError } from './errors.js';
import type { RawRecord } from './csv-records.js';

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
// exceljs reader with UTF-8 decoding across chunk boundaries
//
// exceljs 4.4 decodes every chunk of XML on its own (TextDecoder without `stream: true`), so a multi-byte letter
// split between two chunks becomes "��": "Muñoz" turns into "Mu��oz" in large shared-string tables. We hand its
// XML parsers text already decoded by a streaming decoder instead. These overrides rely on exceljs internals
// (`_parseSharedStrings`, `_parseWorkbook`, `_parseWorksheet` of lib/stream/xlsx/workbook-reader.js, 4.4.0);
// test/contacts-xlsx.test.ts reads a fixture with split letters and fails if this stops working.

interface ReaderInternals {
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseWorksheet(iterator: AsyncIterable<unknown>, sheetNo: string): Generator<unknown>;
}
const baseReader = ExcelJS.stream.xlsx.WorkbookReader.prototype as unknown as ReaderInternals;

type DecodedXml = AsyncGenerator<string> & { source?: unknown };

async function* decodeUtf8(source: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  for await (const chunk of source) {
    const s = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    if (s) yield s;
  }
  const tail = decoder.end();
  if (tail) yield tail;
}

class Utf8SafeWorkbookReader extends ExcelJS.stream.xlsx.WorkbookReader {
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown> {
    entry.setEncoding('utf8');
    return baseReader._parseSharedStrings.call(this, entry);
  }

  _parseWorkbook(entry: Readable): Promise<void> {
    entry.setEncoding('utf8');
    return baseReader._parseWorkbook.call(this, entry);
  }

  _parseWorksheet(iterator: AsyncIterable<Buffer | string>, sheetNo: string): Generator<unknown> {
    const decoded: DecodedXml = decodeUtf8(iterator);
    decoded.source = iterator;
    return baseReader._parseWorksheet.call(this, decoded, sheetNo);
  }
}

// exceljs reads the ZIP with unzipper's Parse stream, which emits 'end' as soon as its input is parsed (on the
// writable side's 'finish'), even while entries it already parsed are still buffered for a paused reader; exceljs
// stops at that 'end' and never sees those entries. When its temp-file writes are slower than unzipper (a busy
// thread pool, an uncompressed ZIP), the workbook part or whole worksheets vanish: a crash ("reading 'sheets'")
// or a sheet silently missing. We drop that early 'end': Parse also ends its readable side properly once the
// buffered entries are read, and a ZIP cut short still fails with FILE_ENDED. test/contacts-xlsx.test.ts
// reproduces the race.
function holdEarlyZipEnd(input: Readable): void {
  const pipe = input.pipe.bind(input);
  input.pipe = <T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T => {
    const zip = destination as unknown as Readable;
    const emit = zip.emit.bind(zip);
    zip.emit = (event: string | symbol, ...args: unknown[]): boolean => {
      if (event === 'end' && !zip.readableEnded) return false;
      return emit(event, ...args);
    };
    return pipe(destination, options);
  };
}

interface SheetInfo {
  name?: string;
  state?: string;
}
interface SheetReader extends AsyncIterable<ExcelJS.Row> {
  name?: string;
  iterator?: DecodedXml;
}

/**
 * A skipped (or abandoned) sheet: close the temp-file stream exceljs opened for it, if any. exceljs deletes the
 * file right after, possibly before the stream's own open() ran: the ENOENT that stream then emits concerns no
 * one, but without a listener it would crash the process.
 */
function release(sheet: SheetReader): void {
  const source = sheet.iterator?.source as
    { destroy?: () => void; on?: (e: string, f: () => void) => void } | undefined;
  if (typeof source?.destroy !== 'function') return;
  source.on?.('error', () => {});
  source.destroy();
}

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
}

/** Records of the first worksheet (one per batch: exceljs hands rows over one at a time). */
export async function* xlsxRecords(input: Readable, opts: XlsxRecordsOptions = {}): AsyncGenerator<RawRecord[]> {
  const file = describeFile(opts.fileName);
  holdEarlyZipEnd(input);
  const reader = new Utf8SafeWorkbookReader(input, {
    sharedStrings: 'cache',
    // Styles carry the number formats that tell a date from a number.
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  const sheets = reader[Symbol.asyncIterator]() as AsyncIterator<SheetReader>;
  const isFirstTab = (sheet: SheetReader): boolean => {
    const tabs = (reader as unknown as { model?: { sheets?: SheetInfo[] } }).model?.sheets;
    // Without a workbook part, or for a sheet it does not list, tab order is unknown: take the first stored.
    if (!tabs || !tabs.some((t) => t.name === sheet.name)) return true;
    const first = tabs.find((t) => t.state !== 'hidden' && t.state !== 'veryHidden') ?? tabs[0]!;
    return first.name === sheet.name;
  };

  let found = false;
  let done = false;
  let current: SheetReader | undefined;
  try {
    for (;;) {
      const r = await sheets.next();
      if (r.done) break;
      const sheet = r.value;
      if (found || !isFirstTab(sheet)) {
        release(sheet);
        continue;
      }
      found = true;
      current = sheet;
      opts.onSheet?.(sheet.name ?? '');
      for await (const row of sheet) yield [{ rowNumber: row.number, values: rowValues(row) }];
      current = undefined;
    }
    done = true;
  } catch (err) {
    done = true;
    if (err instanceof FileFormatError) throw err;
    throw new FileFormatError(
      'UNREADABLE_XLSX',
      `${file} looks like an Excel workbook but could not be read (${(err as Error).message}). ` +
        'Open it in Excel and save it again as .xlsx, or export the sheet as "CSV UTF-8".',
      { cause: err },
    );
  } finally {
    if (!done) {
      // Stopped early: let exceljs run to the end of the ZIP so it deletes its temp files.
      if (current) release(current);
      try {
        for (;;) {
          const r = await sheets.next();
          if (r.done) break;
          release(r.value);
        }
      } catch {
        // the reader was abandoned; errors past this point concern nobody
      }
    }
  }
  if (!found) {
    throw new FileFormatError(
      'UNREADABLE_XLSX',
      `${file} is a ZIP archive without any Excel worksheet. Upload a .xlsx workbook or a .csv file.`,
    );
  }
}
