/**
 * The CSV a person downloads to see which rows were not added and why: `row,value,reason` (the header in the
 * uploader's language is the caller's: src/render/upload-progress.ts `failureReportHeader`; this layer knows no
 * languages).
 *
 * RFC 4180: CRLF line ends; a field with a comma, quote, CR or LF is quoted and its quotes doubled. A cell that a
 * spreadsheet would run as a formula (starting with = + - @, or tab / CR as OWASP adds) gets a leading `'`, which
 * spreadsheets show as text. Phone numbers start with +, so `+52 55…` is written `'+52 55…`.
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { setImmediate } from 'node:timers/promises';
import type { RowReason } from './rejections.js';

export interface FailureReportRow {
  rowNumber: number;
  original: string;
  /** In English; the caller may write the row with `why` in the uploader's language instead. */
  reason: string;
  why?: RowReason;
}

const FAILURE_REPORT_HEADER = 'row,value,reason';

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function failureReportCsv(
  rows: Iterable<FailureReportRow>,
  opts: { bom?: boolean; header?: string } = {},
): string {
  const lines = [opts.header ?? FAILURE_REPORT_HEADER];
  for (const r of rows) lines.push(`${r.rowNumber},${csvCell(r.original)},${csvCell(r.reason)}`);
  // The BOM makes Excel read the file as UTF-8 (accents in values); off by default for other consumers.
  return (opts.bom ? '\uFEFF' : '') + lines.join('\r\n') + '\r\n';
}

/** One row of the report as written in the CSV, CRLF included. */
function failureReportLine(r: FailureReportRow): string {
  return `${r.rowNumber},${csvCell(r.original)},${csvCell(r.reason)}\r\n`;
}

// ---------------------------------------------------------------------------------------------------------------
// Rejected rows on disk
//
// A file can reject millions of rows: they are appended to a spool file as they come (one JSON array per line, so
// values holding line breaks stay on one line) instead of being kept in memory, and the report is written from it.
// Only the first `keep` rows are written: the report lists at most that many rows in all, and rows come in order,
// so a rejected row past the first `keep` can never be among the rows the report lists.

export class RejectedRowSpool {
  private readonly out: WriteStream;
  private buffered: string[] = [];
  private kept = 0;
  private full = false;
  private failure: unknown;

  constructor(
    readonly path: string,
    private readonly keep: number,
  ) {
    this.out = createWriteStream(path, { flags: 'w' });
    this.out.on('error', (err) => (this.failure ??= err));
    this.out.on('drain', () => (this.full = false));
  }

  /** Adds a row (rows come in file order). Call `ready()` now and then to let the disk catch up. */
  add(r: FailureReportRow): void {
    if (this.kept >= this.keep) return;
    this.kept++;
    const line = r.why ? [r.rowNumber, r.original, r.reason, r.why] : [r.rowNumber, r.original, r.reason];
    this.buffered.push(`${JSON.stringify(line)}\n`);
    if (this.buffered.length >= 512) this.flush();
  }

  private flush(): void {
    if (this.buffered.length === 0) return;
    const text = this.buffered.join('');
    this.buffered = [];
    if (!this.out.write(text)) this.full = true;
  }

  /** Resolves once what was added is no more than the stream's buffer ahead of the disk. */
  async ready(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.full) await once(this.out, 'drain');
  }

  async close(): Promise<void> {
    this.flush();
    this.out.end();
    await finished(this.out);
    if (this.failure) throw this.failure;
  }
}

/** The rows of a spool file, in order. */
export async function* readRejectedSpool(path: string): AsyncGenerator<FailureReportRow> {
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      if (!line) continue;
      const [rowNumber, original, reason, why] = JSON.parse(line) as [number, string, string, RowReason?];
      yield { rowNumber, original, reason, ...(why ? { why } : {}) };
    }
  } finally {
    lines.close();
  }
}

/**
 * Writes the report to `out` from sources that are each in row order (the file's rejected rows, the service's
 * refusals), merged in row order, stopping after `maxRows` rows. Resolves with the rows written.
 */
export async function writeFailureReport(
  out: Writable,
  sources: AsyncIterable<FailureReportRow>[],
  opts: { maxRows: number; bom?: boolean; header?: string },
): Promise<number> {
  const its = sources.map((s) => s[Symbol.asyncIterator]());
  const heads: (FailureReportRow | undefined)[] = await Promise.all(its.map(async (it) => (await it.next()).value));
  let chunk = (opts.bom ? '\uFEFF' : '') + (opts.header ?? FAILURE_REPORT_HEADER) + '\r\n';
  let written = 0;
  try {
    while (written < opts.maxRows) {
      let at = -1;
      heads.forEach((h, i) => {
        if (h && (at === -1 || h.rowNumber < heads[at]!.rowNumber)) at = i;
      });
      if (at === -1) break;
      chunk += failureReportLine(heads[at]!);
      written++;
      const next = await its[at]!.next();
      heads[at] = next.done ? undefined : next.value;
      if (chunk.length >= 64 * 1024) {
        if (!out.write(chunk)) await once(out, 'drain');
        chunk = '';
        // Rows from memory come without any I/O wait: give the event loop its turn between chunks.
        await setImmediate();
      }
    }
    if (chunk && !out.write(chunk)) await once(out, 'drain');
  } finally {
    await Promise.all(its.map((it) => it.return?.()));
  }
  return written;
}
