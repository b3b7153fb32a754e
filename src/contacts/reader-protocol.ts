/**
 * Messages between the main thread and the worker thread that reads a contacts file (reader-worker.ts,
 * isolated-reader.ts). Everything here crosses `postMessage`, so plain data only.
 */
import type { ContactInput } from '../outreach/schemas.js';
import type { TextEncoding } from './decode.js';
import type { Delimiter } from './delimiter.js';
import type { FileFormatErrorCode, FileProblem } from './errors.js';
import type { HeaderMapping } from './headers.js';
import type { FileLimits } from './limits.js';
import type { CountryCode } from './libphonenumber.js';
import type { RejectionCounts } from './normalize.js';
import type { FileFormat } from './sniff.js';

/** The file the worker reads and how (the `open` message). */
export interface ReaderJob {
  /** The file, already on disk. */
  path: string;
  fileName: string;
  mimeType?: string;
  defaultCountry: CountryCode;
  batchSize: number;
  limits: FileLimits;
  /** Where rejected rows are spooled (see RejectedRowSpool), and how many of them are kept. */
  rejectedPath: string;
  rejectedKept: number;
}

export interface TableSummary {
  format: FileFormat;
  headers: string[];
  headerRowNumber: number;
  delimiter?: Delimiter;
  encoding?: TextEncoding | 'ascii';
  sheetName?: string;
}

/** Where reading stands; sent with every batch and now and then between batches. */
export interface ReadProgress {
  /** Data rows read (blank rows not counted). */
  rowsRead: number;
  /** Row number of the last row read (the header row before any). */
  lastRowSeen: number;
  rejected: RejectionCounts;
  /** Share of the file read, when it can be told. */
  fraction?: number;
}

export interface ReadBatch {
  index: number;
  contacts: ContactInput[];
  rowNumbers: number[];
  /** The phone value as written, per contact (the failure report quotes it when the service refuses one). */
  originals: string[];
}

export interface ReadEnd {
  progress: ReadProgress;
  /** Set when the file has more rows than FileLimits.maxRows: the rows after `lastRow` were not read. */
  truncated?: { maxRows: number; lastRow: number; nextRow: number };
}

interface SerializedError {
  name: string;
  message: string;
  /** Set for a FileFormatError. */
  code?: FileFormatErrorCode;
  problem?: FileProblem;
}

export type FromWorker =
  | { type: 'opened'; table: TableSummary; mapping: HeaderMapping }
  | { type: 'batch'; batch: ReadBatch; progress: ReadProgress }
  | { type: 'progress'; progress: ReadProgress }
  | ({ type: 'end' } & ReadEnd)
  | { type: 'failed'; error: SerializedError };

export type ToWorker =
  /** Open this file: read its header and map it. */
  | { type: 'open'; job: ReaderJob }
  /** Read the rows; batches below `skipBatches` were sent before (a resumed upload) and are not posted. */
  | { type: 'start'; skipBatches: number }
  /** The main thread may take `n` more batches. */
  | { type: 'credit'; n: number };
