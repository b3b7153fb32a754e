/**
 * How much of a contacts file the pipeline is willing to read. A file comes from outside and may be broken or
 * hostile: every dimension that costs memory or time has a cap, and each cap, when hit, is named in the message.
 *
 * - columns: a header wider than this is refused before any row is read (a header of 200,000 commas took 17 s to
 *   map and made every row an object of 200,000 keys);
 * - rows: data rows read from one file; the rows after the cap are not read, and the person is told which row to
 *   start the next file at;
 * - characters per cell, and per row (all kept cells together): a row over either is rejected, with the column
 *   named, so one runaway cell (or an XLSX shared string referenced by every row) cannot make requests of gigabytes;
 * - unpacked bytes: what the entries of an XLSX (a ZIP) may inflate to, declared and actual, all entries together.
 */
export interface FileLimits {
  maxColumns: number;
  maxRows: number;
  maxCellChars: number;
  maxRowChars: number;
  maxUnpackedBytes: number;
}

const MAX_COLUMNS = 200;
const DEFAULT_MAX_ROWS = 200_000;
const DEFAULT_MAX_CELL_CHARS = 5_000;
/** A row may hold this many times the cell cap in all. */
const ROW_CHARS_PER_CELL_CAP = 4;
const MAX_UNPACKED_BYTES = 100 * 1024 * 1024;

export function fileLimits(opts: { maxRows?: number; maxCellChars?: number } = {}): FileLimits {
  const maxCellChars = opts.maxCellChars ?? DEFAULT_MAX_CELL_CHARS;
  return {
    maxColumns: MAX_COLUMNS,
    maxRows: opts.maxRows ?? DEFAULT_MAX_ROWS,
    maxCellChars,
    maxRowChars: maxCellChars * ROW_CHARS_PER_CELL_CAP,
    maxUnpackedBytes: MAX_UNPACKED_BYTES,
  };
}

export const DEFAULT_FILE_LIMITS: FileLimits = fileLimits();

/** "200,000" */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}
