/**
 * The worker thread that reads one contacts file (started by isolated-reader.ts): the whole pipeline — sniff,
 * decode, parse, header mapping, normalization, batching — runs here, so a file built to be slow or huge costs
 * this thread's time and this thread's heap (capped with `resourceLimits`), never the event loop of the app.
 *
 * Flow: started ahead of time (its modules load while the file downloads), it waits for `open`; opens the file and
 * posts `opened` (header and mapping); waits for `start`; then posts batches, each one only
 * when the main thread has given credit for it (so reading runs at most a few batches ahead of sending). Rejected
 * rows go to a spool file, not across to the main thread. Any FileFormatError is posted as `failed`.
 */
import { parentPort } from 'node:worker_threads';
import { batch, onlyContacts } from './batch.js';
import { FileFormatError } from './errors.js';
import { RejectedRowSpool } from './failure-report.js';
import { openContactFile } from './index.js';
import { noRejections, normalizeRows, rejectionKind } from './normalize.js';
import type { FromWorker, ReaderJob, ReadProgress, ToWorker } from './reader-protocol.js';
import type { Row, Table } from './table.js';

const port = parentPort!;

const post = (m: FromWorker): void => port.postMessage(m);

/** How often progress is posted while no batch goes out (a file of rejected rows, batches skipped on resume). */
const PROGRESS_EVERY_MS = 250;

let opened: ((job: ReaderJob) => void) | undefined;
const open = new Promise<ReaderJob>((resolve) => (opened = resolve));
let started: ((skip: number) => void) | undefined;
const start = new Promise<number>((resolve) => (started = resolve));
let credits = 0;
let waiting: (() => void) | undefined;

port.on('message', (m: ToWorker) => {
  if (m.type === 'open') opened?.(m.job);
  else if (m.type === 'start') started?.(m.skipBatches);
  else if (m.type === 'credit') {
    credits += m.n;
    const w = waiting;
    waiting = undefined;
    w?.();
  }
});

async function credit(): Promise<void> {
  while (credits <= 0) await new Promise<void>((resolve) => (waiting = resolve));
  credits--;
}

/** Opens the job's file and posts its header and mapping. */
async function openFile(job: ReaderJob) {
  const file = await openContactFile(
    { path: job.path },
    {
      fileName: job.fileName,
      ...(job.mimeType ? { mimeType: job.mimeType } : {}),
      defaultCountry: job.defaultCountry,
      limits: job.limits,
    },
  );
  const { table, mapping } = file;
  post({
    type: 'opened',
    table: {
      format: table.format,
      headers: table.headers,
      headerRowNumber: table.headerRowNumber,
      ...(table.delimiter ? { delimiter: table.delimiter } : {}),
      ...(table.encoding ? { encoding: table.encoding } : {}),
      ...(table.sheetName !== undefined ? { sheetName: table.sheetName } : {}),
    },
    mapping,
  });
  return file;
}

/** How far the reading is; posted at most every PROGRESS_EVERY_MS while no batch goes out (a batch carries it). */
class Progress {
  readonly now: ReadProgress;
  private lastPost = Date.now();

  constructor(private readonly table: Table) {
    this.now = { rowsRead: 0, lastRowSeen: table.headerRowNumber, rejected: noRejections() };
  }

  snapshot(): ReadProgress {
    const fraction = this.table.progress();
    return { ...this.now, rejected: { ...this.now.rejected }, ...(fraction !== undefined ? { fraction } : {}) };
  }

  maybePost(): void {
    const now = Date.now();
    if (now - this.lastPost < PROGRESS_EVERY_MS) return;
    this.lastPost = now;
    post({ type: 'progress', progress: this.snapshot() });
  }

  /** A batch is posted now, with its snapshot: the next progress post waits from here. */
  batchPosted(): ReadProgress {
    this.lastPost = Date.now();
    return this.snapshot();
  }
}

async function main(): Promise<void> {
  const job = await open;
  const { table, mapping } = await openFile(job);
  const skip = await start;

  const spool = new RejectedRowSpool(job.rejectedPath, job.rejectedKept);
  const progress = new Progress(table);
  // The phone value as written, for rows not yet in a posted batch.
  const originals = new Map<number, string>();
  const phoneHeader = mapping.phone;
  async function* tap(rows: AsyncIterable<Row>): AsyncGenerator<Row> {
    for await (const r of rows) {
      progress.now.rowsRead++;
      progress.now.lastRowSeen = r.rowNumber;
      originals.set(r.rowNumber, (r.cells[phoneHeader] ?? '').trim());
      if ((progress.now.rowsRead & 1023) === 0) {
        progress.maybePost();
        await spool.ready();
      }
      yield r;
    }
  }
  const normalized = normalizeRows(tap(table.rows), mapping, { defaultCountry: job.defaultCountry });
  const batches = batch(
    onlyContacts(normalized, (r) => {
      originals.delete(r.rowNumber);
      progress.now.rejected[rejectionKind(r)]++;
      spool.add(r);
    }),
    job.batchSize,
  );
  for await (const b of batches) {
    const batchOriginals = b.rowNumbers.map((n) => {
      const o = originals.get(n) ?? '';
      originals.delete(n);
      return o;
    });
    if (b.index < skip) {
      progress.maybePost();
      continue;
    }
    await credit();
    post({ type: 'batch', batch: { ...b, originals: batchOriginals }, progress: progress.batchPosted() });
  }
  await spool.close();
  post({ type: 'end', progress: progress.snapshot(), ...(table.truncated ? { truncated: table.truncated } : {}) });
}

main().then(
  () => port.close(),
  (err: unknown) => {
    const e = err as Error;
    post({
      type: 'failed',
      error: {
        name: e?.name ?? 'Error',
        message: e?.message ?? String(err),
        ...(err instanceof FileFormatError ? { code: err.code, problem: err.problem } : {}),
      },
    });
    port.close();
  },
);
