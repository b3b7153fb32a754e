/**
 * A contacts file (CSV/TSV/TXT or XLSX) as a header and a stream of rows: `readTable()` reads up to the first
 * contact row, so an empty file, a header-only file or an unreadable one fails here, before anything is sent.
 *
 * Within FileLimits (limits.ts): a header wider than the column cap is refused here; rows stop at the row cap
 * (`truncated` says where); a row with a cell, or a total, over the character caps comes with `tooLong` (and the
 * long value cut), for `normalizeRows` to reject it.
 */
import { createReadStream } from 'node:fs';
import { open as openFile } from 'node:fs/promises';
import { ByteSource, type ByteInput } from './byte-source.js';
import { csvRecords, type RawRecord } from './csv-records.js';
import { decodeText, type DecodeState, type TextEncoding } from './decode.js';
import type { Delimiter } from './delimiter.js';
import { describeFile, FileFormatError } from './errors.js';
import { DEFAULT_FILE_LIMITS, formatCount, type FileLimits } from './limits.js';
import { SNIFF_BYTES, sniffFormat, type FileFormat, type Sniffed } from './sniff.js';
import type { xlsxRecords as XlsxRecords } from './xlsx-records.js';
import type { ZipSource } from './xlsx-zip.js';

export interface Row {
  /** 1-based row number as a spreadsheet shows it (the header row of a plain file is 1). */
  rowNumber: number;
  /** Trimmed value of every column, by header (see `Table.headers`); '' for a value the row does not have. */
  cells: Record<string, string>;
  /**
   * Non-empty values beyond the last header column (the first three, each cut to 41 characters). In a CSV this
   * usually means a value holds the delimiter without quotes, shifting the row; `normalizeRows` rejects such rows
   * rather than guess.
   */
  extra?: string[];
  /** How many more such values there were beyond those in `extra`. */
  moreExtra?: number;
  /**
   * A cell longer than FileLimits.maxCellChars (its column named; the value in `cells` is cut to its first 100
   * characters), or, without `column`, a row whose kept cells hold more than maxRowChars in all.
   */
  tooLong?: { column?: string; chars: number; max: number };
}

/** A file already on disk: read at random for XLSX (its ZIP directory first), streamed for text. */
interface LocalFile {
  path: string;
}

export type TableInput = ByteInput | LocalFile;

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
  /**
   * Rows carry cells for these headers only (call before reading rows): the columns nobody uses are not copied
   * row after row.
   */
  useColumns(headers: readonly string[]): void;
  /** Set when the rows stopped at FileLimits.maxRows with more rows in the file. */
  readonly truncated?: { maxRows: number; lastRow: number; nextRow: number };
  /** Share of the input read so far (0..1), when the input's size is known. */
  progress(): number | undefined;
  /** Releases the input when the rows are not read to the end (not needed after a complete iteration). */
  close(): Promise<void>;
}

export interface ReadTableOptions {
  /** Used in messages and, for `.tsv`, as a delimiter hint. The content decides the format. */
  fileName?: string;
  mimeType?: string;
  /** Caps on columns, rows, characters and unpacked bytes (DEFAULT_FILE_LIMITS when absent). */
  limits?: FileLimits;
}

/** Characters of a too-long cell kept in the row (enough to recognise it in a report). */
const KEPT_OF_LONG_CELL = 100;
/** Values beyond the header kept for the message, and the characters kept of each. */
const EXTRA_KEPT = 3;
const EXTRA_CHARS = 41;

function columnLetter(index: number): string {
  let s = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** Names that would not be plain keys of a `Record` (assigning `__proto__` sets the prototype). */
const RESERVED_KEYS = new Set(['__proto__']);

export function headerNames(values: string[]): string[] {
  const used = new Set<string>();
  // Next suffix to try per name: a header repeated thousands of times must not retry "(2)", "(3)"… each time.
  const nextSuffix = new Map<string, number>();
  return values.map((raw, i) => {
    let name = raw.trim().replace(/\s+/g, ' ');
    if (!name) name = `Column ${columnLetter(i)}`;
    if (RESERVED_KEYS.has(name)) name = `${name} (column ${columnLetter(i)})`;
    let unique = name;
    if (used.has(unique)) {
      let n = nextSuffix.get(name) ?? 2;
      do unique = `${name} (${n++})`;
      while (used.has(unique));
      nextSuffix.set(name, n);
    }
    used.add(unique);
    return unique;
  });
}

function isLocalFile(input: TableInput): input is LocalFile {
  return !(Symbol.asyncIterator in input) && typeof (input as LocalFile).path === 'string';
}

async function readHead(path: string): Promise<{ head: Buffer; size: number }> {
  const fh = await openFile(path, 'r');
  try {
    const size = (await fh.stat()).size;
    const buf = Buffer.alloc(Math.min(SNIFF_BYTES, size));
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return { head: buf.subarray(0, bytesRead), size };
  } finally {
    await fh.close();
  }
}

/** The whole of a streamed XLSX in memory (a ZIP is read from its end), up to `max` bytes. */
async function collect(source: ByteSource, max: number, fileName: string | undefined): Promise<Buffer> {
  const parts: Buffer[] = [];
  let n = 0;
  for await (const chunk of source.chunks()) {
    n += chunk.length;
    if (n > max) {
      throw new FileFormatError(
        'TOO_LARGE_UNPACKED',
        `${describeFile(fileName)} is larger than ${formatCount(Math.floor(max / 1048576))} MB, the most a workbook ` +
          'may be here. Export the sheet as "CSV UTF-8" and upload that file.',
        { kind: 'workbookTooLarge', file: fileName ?? '', mb: Math.floor(max / 1048576) },
      );
    }
    parts.push(chunk);
  }
  return Buffer.concat(parts, n);
}

function tooWide(fileName: string | undefined, width: number, max: number): FileFormatError {
  return new FileFormatError(
    'TOO_MANY_COLUMNS',
    `${describeFile(fileName)} has ${formatCount(width)} columns in its header row; at most ${formatCount(max)} ` +
      'can be read. Keep the columns you need (the phone, name, notes…) and upload it again; if the first row is ' +
      'not the header, remove the rows above it.',
    { kind: 'tooManyColumns', file: fileName ?? '', width, max },
  );
}

function lastNonBlank(values: string[]): number {
  for (let i = values.length - 1; i >= 0; i--) if (values[i] !== '') return i;
  return -1;
}

function isBlank(values: string[]): boolean {
  for (const v of values) if (v !== '') return false;
  return true;
}

/** What the parsers found while reading: the CSV's delimiter, the worksheet's name, the share of a workbook read. */
interface Found {
  delimiter?: Delimiter;
  sheetName?: string;
  xlsxRead: number;
}

/** The input's format from its first bytes, and the stream to read a text file from (a workbook on disk has none). */
async function sniffInput(
  input: TableInput,
  opts: ReadTableOptions,
): Promise<{ source: ByteSource | undefined; size: number | undefined; sniffed: Sniffed }> {
  let source: ByteSource | undefined;
  try {
    if (isLocalFile(input)) {
      const h = await readHead(input.path);
      const sniffed = sniffFormat(h.head, opts);
      if (sniffed.format === 'csv') source = new ByteSource(createReadStream(input.path, { highWaterMark: 64 * 1024 }));
      return { source, size: h.size, sniffed };
    }
    source = new ByteSource(input);
    return { source, size: undefined, sniffed: sniffFormat(await source.peek(SNIFF_BYTES), opts) };
  } catch (err) {
    source?.release();
    throw err;
  }
}

/** The records of the input in batches, parsed as its format says (`found` and `decodeState` kept up to date). */
async function openRecords(
  input: TableInput,
  source: ByteSource | undefined,
  sniffed: Sniffed,
  opts: ReadTableOptions & { limits: FileLimits },
  found: Found,
  decodeState: DecodeState,
): Promise<AsyncGenerator<RawRecord[]>> {
  if (sniffed.format !== 'xlsx') {
    return csvRecords(decodeText(source!.chunks(), decodeState, opts), {
      fileName: opts.fileName,
      delimiterHint: sniffed.delimiterHint,
      onDelimiter: (d) => (found.delimiter = d),
    });
  }
  const max = opts.limits.maxUnpackedBytes;
  let zip: ZipSource;
  try {
    zip = isLocalFile(input) ? { path: input.path } : { buffer: await collect(source!, max, opts.fileName) };
  } catch (err) {
    source?.release();
    throw err;
  }
  return lazyXlsxRecords(zip, max, {
    fileName: opts.fileName,
    onSheet: (n) => (found.sheetName = n),
    onProgress: (f) => (found.xlsxRead = f),
  });
}

/** Records come in batches: the rest of the current one is held while the header is looked for. */
class RecordCursor {
  private pending: RawRecord[] = [];
  private at = 0;

  constructor(private readonly records: AsyncGenerator<RawRecord[]>) {}

  /** The next record that is not blank; undefined at the end of the input. */
  async nextNonBlank(): Promise<RawRecord | undefined> {
    for (;;) {
      while (this.at < this.pending.length) {
        const rec = this.pending[this.at++]!;
        if (!isBlank(rec.values)) return rec;
      }
      const r = await this.records.next();
      if (r.done) return undefined;
      this.pending = r.value;
      this.at = 0;
    }
  }

  /** The records not read yet: the rest of the current batch, then the batches still to come. */
  async *rest(): AsyncGenerator<RawRecord[]> {
    const left = this.pending.slice(this.at);
    this.pending = [];
    if (left.length > 0) yield left;
    for await (const batch of this.records) yield batch;
  }
}

/** The header row and the first row under it. */
interface Head {
  header: RawRecord;
  headers: string[];
  first: RawRecord;
}

/** Reads the header and the first contact row; an empty file, a header alone or one too wide is refused. */
async function readHeader(
  cursor: RecordCursor,
  format: FileFormat,
  found: Found,
  opts: ReadTableOptions & { limits: FileLimits },
): Promise<Head> {
  const file = describeFile(opts.fileName);
  const { maxColumns } = opts.limits;
  const header = await cursor.nextNonBlank();
  if (!header) {
    const where = format === 'xlsx' ? `The worksheet "${found.sheetName ?? ''}" of ${file}` : file;
    throw new FileFormatError(
      'EMPTY_FILE',
      `${where} has no rows: it is empty or holds only blank lines. Upload a file with a header row and contacts.`,
      format === 'xlsx'
        ? { kind: 'noRowsInSheet', file: opts.fileName ?? '', sheet: found.sheetName ?? '' }
        : { kind: 'noRows', file: opts.fileName ?? '' },
    );
  }
  let headerValues = header.values;
  if (headerValues.length > maxColumns) {
    // Trailing blank header cells (an export's empty columns) do not count; named columns past the cap do.
    const width = lastNonBlank(headerValues) + 1;
    if (width > maxColumns) throw tooWide(opts.fileName, width, maxColumns);
    headerValues = headerValues.slice(0, width);
  }
  const headers = headerNames(headerValues);
  const first = await cursor.nextNonBlank();
  if (!first) {
    const quoted = headers.map((h) => `"${h}"`).join(', ');
    throw new FileFormatError(
      'NO_CONTACT_ROWS',
      `${file} has a header row but no contacts: there are no rows under ` +
        `${quoted}. Add one contact per row and upload it again.`,
      { kind: 'noContacts', file: opts.fileName ?? '', headers: quoted },
    );
  }
  return { header, headers, first };
}

/** A record as a row: the cells of the `columns` in use, cut to the character caps, the values beyond the header. */
function toRow(rec: RawRecord, headers: readonly string[], columns: readonly number[], limits: FileLimits): Row {
  const { maxCellChars, maxRowChars } = limits;
  const values = rec.values;
  const cells: Record<string, string> = {};
  let total = 0;
  let tooLong: Row['tooLong'];
  for (const i of columns) {
    let v = values[i] ?? '';
    if (v.length > maxCellChars) {
      tooLong ??= { column: headers[i]!, chars: v.length, max: maxCellChars };
      v = `${v.slice(0, KEPT_OF_LONG_CELL)}…`;
    }
    total += v.length;
    cells[headers[i]!] = v;
  }
  if (!tooLong && total > maxRowChars) tooLong = { chars: total, max: maxRowChars };
  const row: Row = { rowNumber: rec.rowNumber, cells };
  if (tooLong) row.tooLong = tooLong;
  let extras = 0;
  for (let i = headers.length; i < values.length; i++) {
    const v = values[i]!;
    if (v === '') continue;
    if (++extras <= EXTRA_KEPT) (row.extra ??= []).push(v.length > EXTRA_CHARS ? v.slice(0, EXTRA_CHARS) : v);
  }
  if (extras > EXTRA_KEPT) row.moreExtra = extras - EXTRA_KEPT;
  return row;
}

/**
 * Every non-blank record from `first` on as a row, up to `maxRows`: the record after the last allowed one only
 * says there is more (`onTruncated`). `release` ends the parsers, then the input, however the rows stop.
 */
async function* cappedRows(
  first: RawRecord,
  cursor: RecordCursor,
  maxRows: number,
  row: (rec: RawRecord) => Row,
  onTruncated: (t: NonNullable<Table['truncated']>) => void,
  release: () => Promise<void>,
): AsyncGenerator<Row> {
  let count = 0;
  let lastRow = 0;
  let truncated = false;
  const take = (rec: RawRecord): Row | undefined => {
    if (isBlank(rec.values)) return undefined;
    if (count >= maxRows) {
      truncated = true;
      onTruncated({ maxRows, lastRow, nextRow: rec.rowNumber });
      return undefined;
    }
    count++;
    lastRow = rec.rowNumber;
    return row(rec);
  };
  try {
    const firstRow = take(first);
    if (firstRow) yield firstRow;
    if (truncated) return;
    for await (const batch of cursor.rest()) {
      for (const rec of batch) {
        const r = take(rec);
        if (r) yield r;
        if (truncated) return;
      }
    }
  } finally {
    await release();
  }
}

export async function readTable(input: TableInput, opts: ReadTableOptions = {}): Promise<Table> {
  const o = { ...opts, limits: opts.limits ?? DEFAULT_FILE_LIMITS };
  const { source, size, sniffed } = await sniffInput(input, o);
  const found: Found = { xlsxRead: 0 };
  const decodeState: DecodeState = { encoding: 'ascii' };
  const records = await openRecords(input, source, sniffed, o, found, decodeState);
  // Ends the parsers, then the input.
  const release = async () => {
    await records.return(undefined);
    source?.release();
  };
  const cursor = new RecordCursor(records);
  let head: Head;
  try {
    head = await readHeader(cursor, sniffed.format, found, o);
  } catch (err) {
    await release();
    throw err;
  }
  const { headers } = head;
  let columns: number[] = headers.map((_, i) => i);
  let truncated: Table['truncated'];
  const rowIterator = cappedRows(
    head.first,
    cursor,
    o.limits.maxRows,
    (rec) => toRow(rec, headers, columns, o.limits),
    (t) => (truncated = t),
    release,
  );
  const table: Table = {
    format: sniffed.format,
    headers,
    headerRowNumber: head.header.rowNumber,
    ...(found.delimiter ? { delimiter: found.delimiter } : {}),
    ...(found.sheetName !== undefined ? { sheetName: found.sheetName } : {}),
    rows: rowIterator,
    useColumns(names) {
      const wanted = new Set(names);
      columns = headers.flatMap((h, i) => (wanted.has(h) ? [i] : []));
    },
    progress: () => {
      if (sniffed.format === 'xlsx') return found.xlsxRead;
      return size ? Math.min(1, source!.bytesRead / size) : undefined;
    },
    async close() {
      await rowIterator.return(undefined);
      await release();
    },
  };
  Object.defineProperty(table, 'truncated', { enumerable: false, get: () => truncated });
  if (sniffed.format === 'csv') {
    // Live: the encoding is only decided at the first non-ASCII byte, which may come after the header.
    Object.defineProperty(table, 'encoding', { enumerable: true, get: () => decodeState.encoding });
  }
  return table;
}

/** exceljs (~14 MB of memory) is loaded on the first XLSX file, not at start-up: most uploads are CSV. */
async function* lazyXlsxRecords(
  source: ZipSource,
  maxUnpackedBytes: number,
  opts: Parameters<typeof XlsxRecords>[1],
): ReturnType<typeof XlsxRecords> {
  const [{ xlsxRecords }, { XlsxZip }] = await Promise.all([import('./xlsx-records.js'), import('./xlsx-zip.js')]);
  const zip = await XlsxZip.open(source, { maxUnpackedBytes, ...(opts?.fileName ? { fileName: opts.fileName } : {}) });
  yield* xlsxRecords(zip, opts);
}
