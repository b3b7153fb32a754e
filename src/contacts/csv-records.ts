/**
 * Delimited text → records, streaming, with csv-parse. Each record carries the row number a spreadsheet would show
 * for it: every record counts (blank lines included, since Excel shows them as empty rows), and a quoted value that
 * spans lines is still one row.
 */
import { Readable, pipeline } from 'node:stream';
import { CsvError, parse, type Options } from 'csv-parse';
import { detectDelimiter, type Delimiter } from './delimiter.js';
import { describeFile, FileFormatError, type FileProblem } from './errors.js';

export interface RawRecord {
  /** 1-based row number as a spreadsheet shows it. */
  rowNumber: number;
  values: string[];
}

/** Characters of text read before guessing the delimiter. */
const DELIMITER_SAMPLE_CHARS = 64 * 1024;
/** A record larger than this is a quote left open swallowing the file: fail instead of buffering it all. */
const MAX_RECORD_CHARS = 1024 * 1024;

export interface CsvRecordsOptions {
  fileName?: string;
  delimiterHint?: string;
  /** Called once, before the first record, with the delimiter chosen. */
  onDelimiter?: (d: Delimiter) => void;
}

function csvErrorToFileError(err: CsvError, rowNumber: number, fileName: string | undefined): FileFormatError {
  const file = describeFile(fileName);
  const name = fileName ?? '';
  let what: string;
  let problem: FileProblem;
  switch (err.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      what =
        `row ${rowNumber} opens a quoted value with " that is never closed, so the rest of the file could not be read. ` +
        'Close the quote, or remove it if it is part of a value.';
      problem = { kind: 'quoteNotClosed', file: name, row: rowNumber };
      break;
    case 'CSV_MAX_RECORD_SIZE':
      what =
        `row ${rowNumber} is longer than ${MAX_RECORD_CHARS} characters: most likely a " opens a quoted value that ` +
        'is never closed. Close the quote, or remove it if it is part of a value.';
      problem = { kind: 'recordTooLong', file: name, row: rowNumber, max: MAX_RECORD_CHARS };
      break;
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      what =
        `row ${rowNumber} has text right after the closing " of a quoted value. ` +
        'Put the whole value in quotes and double the quotes inside it ("like ""this""").';
      problem = { kind: 'textAfterQuote', file: name, row: rowNumber };
      break;
    default:
      what = `row ${rowNumber} could not be read (${err.message}).`;
      problem = { kind: 'csvUnreadable', file: name, row: rowNumber, detail: err.message };
  }
  return new FileFormatError('MALFORMED_CSV', `${file} is not valid CSV: ${what}`, problem, { cause: err });
}

const WAKE_EVENTS = ['readable', 'end', 'error', 'close'] as const;

/** The first characters of the text, to guess the delimiter from; `complete` when they are the whole text. */
interface Sample {
  text: string;
  complete: boolean;
}

async function readSample(it: AsyncIterator<string>): Promise<Sample> {
  let text = '';
  while (text.length < DELIMITER_SAMPLE_CHARS) {
    const r = await it.next();
    if (r.done) return { text, complete: true };
    text += r.value;
  }
  return { text, complete: false };
}

/** The whole text again: the sample (let go once given), then the rest of `it`, closed when left early. */
async function* rejoined(sample: Sample, it: AsyncIterator<string>): AsyncGenerator<string> {
  let finished = sample.complete;
  try {
    if (sample.text) yield sample.text;
    sample.text = '';
    while (!finished) {
      const r = await it.next();
      if (r.done) finished = true;
      else yield r.value;
    }
  } finally {
    if (!finished) await it.return?.();
  }
}

function csvParser(delimiter: Delimiter) {
  return parse({
    delimiter,
    quote: '"',
    escape: '"',
    // Any line ending, even mixed in one file (Excel for Mac, hand-edited files).
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_column_count: true,
    // A quote inside an unquoted value (`5" pantalla`) is kept as a character.
    relax_quotes: true,
    // Whitespace around values, also around a quoted value (`a, "b"`).
    trim: true,
    skip_empty_lines: false,
    max_record_size: MAX_RECORD_CHARS,
    bom: true,
    // Stream option passed through to the Transform: room for a few chunks' worth of records.
    readableHighWaterMark: 2048,
  } as Options);
}

/** Resolves once the parser has more to read, has ended, failed or closed (after `read()` returned null). */
function untilReadable(parser: ReturnType<typeof parse>): Promise<void> {
  return new Promise<void>((resolve) => {
    const wake = (): void => {
      for (const e of WAKE_EVENTS) parser.off(e, wake);
      resolve();
    };
    for (const e of WAKE_EVENTS) parser.on(e, wake);
  });
}

/** Records in file order, in batches (whatever the parser had ready). */
export async function* csvRecords(
  text: AsyncIterable<string>,
  opts: CsvRecordsOptions = {},
): AsyncGenerator<RawRecord[]> {
  const it = text[Symbol.asyncIterator]();
  const sample = await readSample(it);
  const delimiter = detectDelimiter(sample.text, sample.complete, opts.delimiterHint);
  opts.onDelimiter?.(delimiter);

  const parser = csvParser(delimiter);
  const source = Readable.from(rejoined(sample, it), { objectMode: true });
  // pipeline() destroys both on error or early stop; a decoding error reaches us through the parser.
  let failure: unknown;
  let ended = false;
  pipeline(source, parser, (err) => {
    if (err) failure ??= err;
  });
  parser.on('error', (err) => (failure ??= err));
  parser.on('end', () => (ended = true));

  // Records are taken from the parser's buffer in batches (one wait per batch, not per record): with 100,000
  // rows the per-record promise of a stream's async iterator was a visible share of the time.
  let rowNumber = 0;
  try {
    for (;;) {
      const batch: RawRecord[] = [];
      let values: string[] | null;
      while (failure === undefined && (values = parser.read() as string[] | null) !== null) {
        batch.push({ rowNumber: ++rowNumber, values });
      }
      if (failure !== undefined) throw failure;
      if (batch.length > 0) {
        yield batch;
        continue; // read again before waiting: records may have arrived while the consumer worked
      }
      if (ended) return;
      // Destroyed without 'end': its error came first ('error' precedes 'close'); never end silently here, that
      // would pass a truncated file for a complete one.
      if (parser.closed) throw failure ?? new Error('the CSV parser stopped before the end of the file');
      // read() returned null, so the parser will emit 'readable' when it has more.
      await untilReadable(parser);
    }
  } catch (err) {
    if (err instanceof CsvError) {
      // The parser may be ahead of us: its own count of records before the bad one is the exact row.
      const before = (err as CsvError & { records?: unknown }).records;
      throw csvErrorToFileError(err, (typeof before === 'number' ? before : rowNumber) + 1, opts.fileName);
    }
    throw err;
  } finally {
    if (!parser.destroyed) parser.destroy();
    if (!source.destroyed) source.destroy();
  }
}
