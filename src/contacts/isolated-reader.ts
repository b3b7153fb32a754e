/**
 * A contacts file read in a worker thread (reader-worker.ts), seen from the main thread: `openIsolatedContactFile`
 * resolves with the header and its mapping, `batches()` then yields the contacts batch by batch.
 *
 * Why a thread: a hostile or broken file (a header of 200,000 columns, a ZIP bomb, millions of bad rows) must cost
 * the reader, not the app; every Slack request still has to be answered within 3 seconds. The worker has its own
 * heap, capped (`resourceLimits`): a file that needs more ends the worker with ERR_WORKER_OUT_OF_MEMORY, which is
 * reported here as a FileFormatError ('TOO_COMPLEX'); the app goes on.
 *
 * Back-pressure: the worker posts a batch only against a credit; `batches()` keeps `window` credits out, so
 * reading runs a few batches ahead of whoever consumes them and never further.
 */
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { workerScript } from '../worker-script.js';
import { describeFile, FileFormatError, type FileFormatErrorCode, type FileProblem } from './errors.js';
import type { HeaderMapping } from './headers.js';
import type {
  FromWorker,
  ReadBatch,
  ReadEnd,
  ReaderJob,
  ReadProgress,
  TableSummary,
  ToWorker,
} from './reader-protocol.js';

export type { ReadBatch, ReadEnd, ReaderJob, ReadProgress, TableSummary } from './reader-protocol.js';

/**
 * The reader's heap. The largest legitimate file the limits let through needs ~150 MB: a 10 MB workbook of 200,000
 * rows whose cells are all different, as exceljs holds every shared string. A heap is a cap, not a reservation: an
 * ordinary upload uses 20 to 30 MB of it.
 */
const DEFAULT_READER_RESOURCE_LIMITS: ResourceLimits = {
  maxOldGenerationSizeMb: 256,
  // Below ~16 MB the young generation is collected so often that reading slows down noticeably.
  maxYoungGenerationSizeMb: 16,
};

export interface SpawnOptions {
  resourceLimits?: ResourceLimits;
  /** Batches the worker may read ahead of the consumer. Default 2. */
  window?: number;
}

export type IsolatedReaderOptions = ReaderJob & SpawnOptions;

function errorFrom(
  fileName: string,
  e: { name: string; message: string; code?: string; problem?: FileProblem },
): Error {
  if (e.name === 'FileFormatError' && e.code && e.problem)
    return new FileFormatError(e.code as FileFormatErrorCode, e.message, e.problem);
  const err = new Error(`reading ${describeFile(fileName)} failed in its worker: ${e.message}`);
  err.name = e.name;
  return err;
}

function tooComplex(fileName: string, cause: unknown): FileFormatError {
  return new FileFormatError(
    'TOO_COMPLEX',
    `${describeFile(fileName)} needs more memory to read than an upload may use: it is damaged, or built to be that ` +
      'way. Open it in Excel or Google Sheets, export the sheet as "CSV UTF-8" and upload that file.',
    { kind: 'tooComplex', file: fileName },
    { cause },
  );
}

export class IsolatedContactFile {
  table!: TableSummary;
  mapping!: HeaderMapping;
  /** The latest progress the worker reported. */
  progress: ReadProgress | undefined;
  /** Set once the worker read the file to its end. */
  end: ReadEnd | undefined;
  /** Called with every progress report (with each batch, and now and then in between). */
  onProgress: ((p: ReadProgress) => void) | undefined;

  private readonly worker: Worker;
  private readonly queue: FromWorker[] = [];
  private wake: (() => void) | undefined;
  private failure: Error | undefined;
  private exited = false;
  private opening = false;
  private started = false;
  private readonly window: number;
  /** For messages: the file's name once `open` was called. */
  private fileName = '';

  private constructor(opts: SpawnOptions) {
    this.window = Math.max(1, opts.window ?? 2);
    const { script, evalCode } = workerScript(import.meta.url, 'reader-worker');
    this.worker = new Worker(script, {
      eval: evalCode,
      // None of the app's own flags (`--input-type`, `--eval`, … would stop the worker; V8's apply to it anyway).
      execArgv: [],
      resourceLimits: opts.resourceLimits ?? DEFAULT_READER_RESOURCE_LIMITS,
    });
    this.worker.on('message', (m: FromWorker) => {
      if (m.type === 'progress') {
        this.progress = m.progress;
        this.onProgress?.(m.progress);
        return;
      }
      this.queue.push(m);
      this.notify();
    });
    this.worker.on('error', (err: Error & { code?: string }) => {
      this.failure ??=
        err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? tooComplex(this.fileName, err) : errorFrom(this.fileName, err);
      this.notify();
    });
    this.worker.on('exit', (code) => {
      this.exited = true;
      if (code !== 0) this.failure ??= tooComplex(this.fileName, new Error(`the reader stopped with code ${code}`));
      this.notify();
    });
  }

  /**
   * Starts a reader thread, which loads the pipeline and waits for `open`: started while the file downloads, its
   * start-up (~150 ms) is not added to the upload's.
   */
  static spawn(opts: SpawnOptions = {}): IsolatedContactFile {
    return new IsolatedContactFile(opts);
  }

  /** Opens `job.path` in the reader; resolves once it has read and mapped the header. Ends the reader if not. */
  async open(job: ReaderJob): Promise<this> {
    if (this.opening) throw new Error('IsolatedContactFile.open() can only be called once');
    this.opening = true;
    this.fileName = job.fileName;
    try {
      this.send({ type: 'open', job });
      const m = await this.next();
      if (m.type !== 'opened') throw new Error(`the reader sent ${m.type} before the header`);
      this.table = m.table;
      this.mapping = m.mapping;
      return this;
    } catch (err) {
      await this.close();
      throw err;
    }
  }

  private notify(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  /** The next message other than progress; throws what the worker failed with. */
  private async next(): Promise<FromWorker> {
    for (;;) {
      const m = this.queue.shift();
      if (m) {
        if (m.type === 'failed') throw errorFrom(this.fileName, m.error);
        return m;
      }
      if (this.failure) throw this.failure;
      if (this.exited) throw new Error(`the reader of ${describeFile(this.fileName)} ended early`);
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private send(m: ToWorker): void {
    this.worker.postMessage(m);
  }

  /**
   * The batches of contacts, in order, from batch `skipBatches` on (those before were sent already). Single use.
   * Ends with `end` set; throws a FileFormatError for a file that turns out unreadable on the way.
   */
  async *batches(skipBatches = 0): AsyncGenerator<ReadBatch> {
    if (this.started) throw new Error('IsolatedContactFile.batches() can only be read once');
    this.started = true;
    this.send({ type: 'start', skipBatches });
    this.send({ type: 'credit', n: this.window });
    try {
      for (;;) {
        const m = await this.next();
        if (m.type === 'batch') {
          this.progress = m.progress;
          this.onProgress?.(m.progress);
          yield m.batch;
          this.send({ type: 'credit', n: 1 });
        } else if (m.type === 'end') {
          this.progress = m.progress;
          this.end = { progress: m.progress, ...(m.truncated ? { truncated: m.truncated } : {}) };
          this.onProgress?.(m.progress);
          return;
        }
      }
    } finally {
      if (!this.end) await this.close();
    }
  }

  /** Ends the worker (at once, wherever it is). Safe to call more than once. */
  async close(): Promise<void> {
    if (this.exited) return;
    await this.worker.terminate();
  }
}

/** A reader started and opened on `opts.path` (header read and mapped). */
export function openIsolatedContactFile(opts: IsolatedReaderOptions): Promise<IsolatedContactFile> {
  const { resourceLimits, window, ...job } = opts;
  return IsolatedContactFile.spawn({
    ...(resourceLimits ? { resourceLimits } : {}),
    ...(window !== undefined ? { window } : {}),
  }).open(job);
}
