/**
 * A contacts file (CSV/TSV/TXT or XLSX) as a header and a stream of rows: `readTable()` reads up to the first
 * contact row, so an empty file, a header-only file or an unreadable one fails here, before anything is sent.
 */
import { Readable } from 'node:stream';
import { ByteSource, type ByteInput } from './byte-source.js';
import { csvRecords, type RawRecord } from './csv-records.js';
import { decodeText, type DecodeState, type TextEncoding } from './decode.js';
import type { Delimiter } from './delimiter.js';
import { describeFile, FileFormatError } from './errors.js';
import { SNIFF_BYTES, sniffFormat, type FileFormat } from './sniff.js';
import type { xlsxRecords as XlsxRecords } from './xlsx-records.js';

export interface Row {
  /** 1-based row number as a spreadsheet shows it (the header row of a plain file is 1). */
  rowNumber: number;
  /** Trimmed value of every column, by header (see `Table.headers`); '' for a value the row does not have. */
  cells: Record<string, string>;
  /**
   * Non-empty values beyond the last header column. In a CSV this usually means a value holds the delimiter
   * without quotes, shifting the row; `normalizeRows` rejects such rows rather than guess.
   */
  extra?: string[];
}

export interface Table {
  format: FileFormat;
  /**
   * Column names from the header row (the first non-blank row), trimmed, inner whitespace collapsed. A blank
   * header cell is named after its column letter (`Column C`); a repeated name gets a suffix (`Teléfono (2)`).
   */
  headers: string[];
  headerRowNumber: number;
  /** CSV: the delimiter found. */
  delimiter?: Delimiter;
  /** CSV: the encoding used; `ascii` until a non-ASCII byte was read (it may change while rows are read). */
  readonly encoding?: TextEncoding | 'ascii';
  /** XLSX: the worksheet read. */
  sheetName?: string;
  /** The data rows, blank rows skipped. Can be iterated once; stopping early releases the input. */
  rows: AsyncIterable<Row>;
  /** Releases the input when the rows are not read to the end (not needed after a complete iteration). */
  close(): Promise<void>;
}

export interface ReadTableOptions {
  /** Used in messages and, for `.tsv`, as a delimiter hint. The content decides the format. */
  fileName?: string;
  mimeType?: string;
}

function columnLetter(index: number): string {
  let s = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** Names that would not be plain keys of a `Record` (assigning `__proto__` sets the prototype). */
const RESERVED_KEYS = new Set(['__proto__']);

export function headerNames(values: string[]): string[] {
  const used = new Set<string>();
  return values.map((raw, i) => {
    let name = raw.trim().replace(/\s+/g, ' ');
    if (!name) name = `Column ${columnLetter(i)}`;
    if (RESERVED_KEYS.has(name)) name = `${name} (column ${columnLetter(i)})`;
    let unique = name;
    for (let n = 2; used.has(unique); n++) unique = `${name} (${n})`;
    used.add(unique);
    return unique;
  });
}

function isBlank(values: string[]): boolean {
  for (const v of values) if (v !== '') return false;
  return true;
}

export async function readTable(input: ByteInput, opts: ReadTableOptions = {}): Promise<Table> {
  const file = describeFile(opts.fileName);
  const source = new ByteSource(input);
  let sniffed;
  try {
    sniffed = sniffFormat(await source.peek(SNIFF_BYTES), opts);
  } catch (err) {
    source.release();
    throw err;
  }

  const decodeState: DecodeState = { encoding: 'ascii' };
  let delimiter: Delimiter | undefined;
  let sheetName: string | undefined;
  const records: AsyncGenerator<RawRecord[]> =
    sniffed.format === 'xlsx'
      ? lazyXlsxRecords(Readable.from(source.chunks()), { fileName: opts.fileName, onSheet: (n) => (sheetName = n) })
      : csvRecords(decodeText(source.chunks(), decodeState, opts), {
          fileName: opts.fileName,
          delimiterHint: sniffed.delimiterHint,
          onDelimiter: (d) => (delimiter = d),
        });

  // Records come in batches; `pending` holds the rest of the current one while we look for the header.
  let pending: RawRecord[] = [];
  let pendingAt = 0;
  const nextNonBlank = async (): Promise<RawRecord | undefined> => {
    for (;;) {
      while (pendingAt < pending.length) {
        const rec = pending[pendingAt++]!;
        if (!isBlank(rec.values)) return rec;
      }
      const r = await records.next();
      if (r.done) return undefined;
      pending = r.value;
      pendingAt = 0;
    }
  };

  let headerRecord: RawRecord | undefined;
  let firstRecord: RawRecord | undefined;
  let headers: string[];
  try {
    headerRecord = await nextNonBlank();
    if (!headerRecord) {
      const where = sniffed.format === 'xlsx' ? `The worksheet "${sheetName ?? ''}" of ${file}` : file;
      throw new FileFormatError(
        'EMPTY_FILE',
        `${where} has no rows: it is empty or holds only blank lines. Upload a file with a header row and contacts.`,
      );
    }
    headers = headerNames(headerRecord.values);
    firstRecord = await nextNonBlank();
    if (!firstRecord) {
      throw new FileFormatError(
        'NO_CONTACT_ROWS',
        `${file} has a header row but no contacts: there are no rows under ` +
          `${headers.map((h) => `"${h}"`).join(', ')}. Add one contact per row and upload it again.`,
      );
    }
  } catch (err) {
    await records.return(undefined);
    source.release();
    throw err;
  }

  const width = headers.length;
  const toRow = (rec: RawRecord): Row => {
    const values = rec.values;
    const cells: Record<string, string> = {};
    for (let i = 0; i < width; i++) cells[headers[i]!] = values[i] ?? '';
    const row: Row = { rowNumber: rec.rowNumber, cells };
    for (let i = width; i < values.length; i++) if (values[i] !== '') (row.extra ??= []).push(values[i]!);
    return row;
  };

  async function* rows(): AsyncGenerator<Row> {
    try {
      yield toRow(firstRecord!);
      for (let i = pendingAt; i < pending.length; i++) if (!isBlank(pending[i]!.values)) yield toRow(pending[i]!);
      pending = [];
      for await (const batch of records) for (const rec of batch) if (!isBlank(rec.values)) yield toRow(rec);
    } finally {
      // Ends the parsers (for XLSX, lets exceljs finish and delete its temp files), then the input.
      await records.return(undefined);
      source.release();
    }
  }
  const rowIterator = rows();

  const table: Table = {
    format: sniffed.format,
    headers,
    headerRowNumber: headerRecord.rowNumber,
    ...(delimiter ? { delimiter } : {}),
    ...(sheetName !== undefined ? { sheetName } : {}),
    rows: rowIterator,
    async close() {
      await rowIterator.return(undefined);
      await records.return(undefined);
      source.release();
    },
  };
  if (sniffed.format === 'csv') {
    // Live: the encoding is only decided at the first non-ASCII byte, which may come after the header.
    Object.defineProperty(table, 'encoding', { enumerable: true, get: () => decodeState.encoding });
  }
  return table;
}

/** exceljs (~14 MB of memory) is loaded on the first XLSX file, not at start-up: most uploads are CSV. */
async function* lazyXlsxRecords(...args: Parameters<typeof XlsxRecords>): ReturnType<typeof XlsxRecords> {
  const { xlsxRecords } = await import('./xlsx-records.js');
  yield* xlsxRecords(...args);
}
