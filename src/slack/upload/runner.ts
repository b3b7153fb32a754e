/**
 * Runs one upload job: waits for its turn (UploadQueue), reads the file in a worker thread (isolated-reader.ts),
 * sends its batches through the shared limiter at bulk priority, keeps the job's progress in the store after every
 * batch, keeps the progress message up to date, and ends with the summary in place of the progress and the
 * failed-rows CSV (phone numbers) in a direct message to the person who uploaded the file (failed-rows-report.ts).
 *
 * Nothing twice: batches are committed in file order; after batch i is answered and counted, the job is saved
 * (awaited: durable) with `nextBatch = i + 1` before the next batch is counted. A restart reads the file again and
 * skips batches below `nextBatch` without sending them; batches sent but not yet committed go again with the same
 * Idempotency-Key, so the service replays its answer instead of adding them again (and, as numbers are unique per
 * campaign, a service without replay would at worst report them as duplicates).
 *
 * Several batches may be in flight at once (`concurrency`): while one waits for the service, the next is parsed and
 * queued in the limiter, so reading never stalls sending. The limiter starts them in order.
 */
import type { ResourceLimits } from 'node:worker_threads';
import type { WebClient } from '@slack/web-api';
// The contacts modules the main thread needs, one by one: the parsing pipeline itself loads in the reader thread.
import { batchIdempotencyKey } from '../../contacts/batch.js';
import { FileFormatError } from '../../contacts/errors.js';
import type { CountryCode } from '../../contacts/libphonenumber.js';
import { fileLimits } from '../../contacts/limits.js';
import type { RejectedRow } from '../../contacts/normalize.js';
import { noRejections, rejectionKind, totalRejected, type RejectionCounts } from '../../contacts/rejections.js';
import type { ReadBatch, ReadProgress } from '../../contacts/isolated-reader.js';
import type { Logger } from '../../log.js';
import { translator, type Translator } from '../../i18n/translator.js';
import { OutreachError, UNAVAILABLE_STATUSES } from '../../outreach/errors.js';
import type { BatchResult } from '../../outreach/schemas.js';
import { MAX_CONTACTS_PER_BATCH, RATE_LIMITED_STATUS } from '../../outreach/unspecified.js';
import { ENGLISH } from '../../render/format.js';
import { serviceErrorText } from '../../render/service-error.js';
import {
  uploadProgressMessage,
  uploadStoppedDm,
  uploadSummaryMessage,
  type UploadFailureGroup,
  type UploadStats,
  type UploadWaiting,
} from '../../render/upload-progress.js';
import type { SlackMessage } from '../../render/types.js';
import { postOnce, type OncePoster } from '../../watch/poster.js';
import type { AppDeps } from '../deps.js';

/** What an upload works with: settings, the store (its job), the service, the log, the audit trail, metrics. */
export type UploadDeps = Pick<AppDeps, 'config' | 'store' | 'outreach' | 'logger' | 'audit' | 'metrics' | 'languages'>;
import { errorSummary } from '../middleware/errors.js';
import { SlackFileError } from './download.js';
import { fileErrorSentence } from './file-problem-text.js';
import { jobWriteOptions, retentionMsOf, saveJob, type UploadJob } from './jobs.js';
import { LeaseLostError, type RecordLease } from './lease.js';
import { sendFailedRowsReport, serviceFailureReason } from './failed-rows-report.js';
import { progressMetadata, progressPoster, ProgressMessage, type MessageRef } from './progress-message.js';
import { closeOpenedFile, openSlackContactsFile, startReader, type OpenedFile, type ReaderSettings } from './source.js';

export interface UploadTuning {
  /** Contacts per request (1..1000). Saved with each job, so a resumed job keeps its own. */
  batchSize: number;
  /** Batches sent and not yet answered, at most. */
  concurrency: number;
  /** Least time between two updates of the progress message. */
  progressIntervalMs: number;
  /** Tries of one batch when the service is unavailable or rate-limits (each try is the client's own retries). */
  batchAttempts: number;
  /** Wait before the second try of a batch; doubles each time, up to retryMaxMs. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Times the file is downloaded again when the download breaks off. */
  downloadAttempts: number;
  /** How long a view submission may wait for the campaign and the file's first rows before answering Slack. */
  ackBudgetMs: number;
  /** Rows the failed-rows report lists at most; it says how many more there were. */
  reportMaxRows: number;
  /** Heap of the worker thread that reads a file; a file that needs more is refused, the app goes on. */
  readerResourceLimits?: ResourceLimits;
  /**
   * How long a replica's hold on a running job lasts without renewal (renewed every third of it): a job whose
   * replica died is taken over by another within about 1.5 × this.
   */
  leaseMs: number;
}

export const DEFAULT_UPLOAD_TUNING: UploadTuning = {
  batchSize: MAX_CONTACTS_PER_BATCH,
  concurrency: 4,
  progressIntervalMs: 1200,
  batchAttempts: 8,
  retryBaseMs: 2000,
  retryMaxMs: 60_000,
  downloadAttempts: 3,
  ackBudgetMs: 2200,
  reportMaxRows: 100_000,
  leaseMs: 30_000,
};

/**
 * Resumes (app restarts) in a row without a batch answered in between, after which a job is stopped instead of
 * resumed again: a file (or anything about a job) that brings the app down would otherwise do it at every start.
 */
const MAX_STALLED_RESUMES = 3;

/** HTTP's Internal Server Error: the client does not try it again, a batch does (see isTransient). */
const INTERNAL_ERROR_STATUS = 500;

/** How a job gets its turn (UploadQueue in service.ts): resolves when it may read and send; `release` when done. */
type TakeTurn = (onWait: (w: UploadWaiting) => void, signal: AbortSignal) => Promise<() => void>;

/** The reader settings of a job: its own batch size and country, the limits of the app's configuration. */
export function readerSettings(
  deps: Pick<UploadDeps, 'config'>,
  tuning: UploadTuning,
  job: Pick<UploadJob, 'defaultCountry' | 'batchSize'>,
): ReaderSettings {
  return {
    defaultCountry: job.defaultCountry as CountryCode,
    batchSize: job.batchSize,
    limits: fileLimits({ maxRows: deps.config.uploadMaxRows, maxCellChars: deps.config.uploadMaxCellChars }),
    reportMaxRows: tuning.reportMaxRows,
    ...(tuning.readerResourceLimits ? { resourceLimits: tuning.readerResourceLimits } : {}),
  };
}

/**
 * A failure that may pass when tried again later: a download from Slack that broke off, or a service that did not
 * answer, rate-limited, was unavailable for a moment (the client's own statuses) or had an internal error (a batch
 * carries its Idempotency-Key, so trying it again cannot add it twice). False when the service said no for good
 * (campaign gone or finished, request refused).
 */
function isTransient(err: unknown): boolean {
  if (err instanceof SlackFileError) return err.transient;
  if (!(err instanceof OutreachError)) return false;
  if (err.kind === 'network' || err.kind === 'timeout') return true;
  const status = err.status;
  if (err.kind !== 'service' || status === undefined) return false;
  return status === RATE_LIMITED_STATUS || status === INTERNAL_ERROR_STATUS || UNAVAILABLE_STATUSES.has(status);
}

/** Why an upload stopped, in the words of whoever reads it (the summary, the uploader's DM, the English record). */
type StopReason = (t: Translator) => string;

/** Groups failed rows for the summary line ("12 not valid numbers · 3 repeated in the file"). */
export function failureGroups(
  rejected: readonly (Pick<RejectedRow, 'original' | 'reason'> & Partial<Pick<RejectedRow, 'why'>>)[],
  serviceFailed: number,
): UploadFailureGroup[] {
  const counts = noRejections();
  for (const r of rejected) counts[rejectionKind(r)]++;
  return failureGroupsOf(counts, serviceFailed);
}

function failureGroupsOf(c: RejectionCounts, serviceFailed: number): UploadFailureGroup[] {
  return [
    { kind: 'invalid', count: c.invalid },
    { kind: 'empty', count: c.empty },
    { kind: 'repeated', count: c.repeated },
    { kind: 'broken', count: c.broken },
    { kind: 'tooLong', count: c.tooLong },
    { kind: 'service', count: serviceFailed },
  ];
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export interface RunOptions {
  deps: UploadDeps;
  client: WebClient;
  tuning: UploadTuning;
  signal: AbortSignal;
  /** The file already opened by the submission (first run); otherwise it is opened here. */
  opened?: OpenedFile;
  /** True when the app restarted in the middle of this job. */
  resumed?: boolean;
  /** Waits for the job's turn; without it the job runs at once. */
  takeTurn?: TakeTurn;
  /** This replica's hold on the job: every save goes through it (and fails once another replica took over). */
  lease?: RecordLease<UploadJob>;
}

/** Live state of the pass reading the file now (the file is read again from the top on a resume). */
interface PassState {
  rowsRead: number;
  rejected: RejectionCounts;
  headerRow: number;
  lastRowSeen: number;
  readingDone: boolean;
  /** Share of the file read (from the reader), when it can tell. */
  read: number | undefined;
  /** The rejected rows spooled by the reader (the first `reportMaxRows`). */
  rejectedPath: string;
  truncated?: { maxRows: number; lastRow: number; nextRow: number };
}

/** The crash-loop stop: how often the app stopped, and the row the last batch added ended at. */
class StalledError extends Error {
  constructor(
    readonly stops: number,
    readonly lastRow: number,
  ) {
    super(`the app stopped ${stops} times while this upload was running`);
  }
}

export class UploadRun {
  private readonly deps: UploadDeps;
  private readonly client: WebClient;
  private readonly tuning: UploadTuning;
  private readonly signal: AbortSignal;
  private readonly logger: Logger;
  private job: UploadJob;
  private progress: ProgressMessage | undefined;
  private pass: PassState | undefined;
  /** Why sending is slow right now, in the progress message's words. */
  private note: ((t: Translator) => string) | undefined;
  private waiting: UploadWaiting | undefined;
  /**
   * The progress message's words (its conversation's language: a channel's, or the uploader's in their DM) and the
   * uploader's (the CSV, direct messages). Read when the run starts.
   */
  private words: { message: Translator; uploader: Translator } = { message: ENGLISH, uploader: ENGLISH };
  /** Posts the progress message in its conversation (else the uploader's DM) and finds it again after a takeover. */
  private readonly progressPoster: OncePoster;
  /** The file of the pass under way (and its temp directory), let go on every way out. */
  private file: OpenedFile | undefined;
  private readonly startedAt = Date.now();
  /** Rows rejected while reading counted in the metrics up to here (a pass reading the file again skips them). */
  private rejectedCountedUpTo: number;

  constructor(
    job: UploadJob,
    private readonly opts: RunOptions,
  ) {
    this.job = job;
    this.rejectedCountedUpTo = job.rejected;
    this.deps = opts.deps;
    this.client = opts.client;
    this.tuning = opts.tuning;
    this.signal = opts.signal;
    this.logger = opts.deps.logger.child({ component: 'upload', job: job.id });
    this.progressPoster = progressPoster(this.client, this.logger, job.userId);
  }

  private async save(): Promise<void> {
    this.job.updatedAt = new Date().toISOString();
    const retentionMs = retentionMsOf(this.deps.config);
    if (this.opts.lease) await this.opts.lease.save(this.job, jobWriteOptions(this.job, retentionMs));
    else await saveJob(this.deps.store, this.job, retentionMs);
  }

  private stats(): UploadStats {
    const c = this.job.counts;
    return {
      rowsRead: this.pass?.rowsRead ?? this.job.rowsRead,
      sent: c.sent,
      created: c.created,
      updated: c.updated,
      skipped: c.skipped,
      rejected: this.pass ? totalRejected(this.pass.rejected) : this.job.rejected,
      serviceFailed: c.failed,
    };
  }

  /** Share of the file settled: rows up to the last answered batch, over the (estimated) rows in the file. */
  private fraction(): number | undefined {
    const p = this.pass;
    if (!p) return undefined;
    const done = Math.max(0, this.job.lastRow - p.headerRow);
    const seen = Math.max(1, p.lastRowSeen - p.headerRow);
    if (p.readingDone) return done / seen;
    if (p.read === undefined) return undefined;
    const bytesShare = Math.min(1, p.read);
    if (bytesShare <= 0) return 0;
    return Math.min(1, done / (seen / bytesShare));
  }

  private heading() {
    const j = this.job;
    return {
      fileName: j.fileName,
      campaignId: j.campaignId,
      campaignName: j.campaignName,
      userId: j.userId,
      ifDuplicate: j.ifDuplicate,
    };
  }

  private progressMessage(): SlackMessage {
    const fraction = this.fraction();
    const t = this.words.message;
    return uploadProgressMessage(
      {
        ...this.heading(),
        stats: this.stats(),
        ...(fraction !== undefined ? { fraction } : {}),
        ...(this.job.resumedAfterRow !== undefined ? { resumedAfterRow: this.job.resumedAfterRow } : {}),
        ...(this.note ? { note: this.note(t) } : {}),
        ...(this.waiting ? { waiting: this.waiting } : {}),
      },
      t,
    );
  }

  /** The languages of the progress message's conversation and of the uploader (English when they can't be read). */
  private async readWords(): Promise<void> {
    const j = this.job;
    const languages = this.deps.languages;
    try {
      const uploader = translator((await languages.person(j.userId, this.client)).locale);
      const inDm = j.channelId === j.userId || j.channelId.startsWith('D');
      const message = inDm ? uploader : translator((await languages.channel(j.channelId)).locale);
      this.words = { message, uploader };
    } catch (err) {
      this.logger.warn({ err: errorSummary(err) }, 'could not read the languages of an upload; English it is');
    }
  }

  /** Runs the job to its end (done or stopped), or until the signal aborts (the job then stays to be resumed). */
  async run(): Promise<void> {
    let stopReason: StopReason | undefined;
    let cause: unknown;
    let release: (() => void) | undefined;
    this.file = this.opts.opened;
    try {
      try {
        await this.readWords();
        await this.begin();
        release = await this.turn();
        await this.countResume();
        await this.readAndSend();
      } catch (err) {
        // Stopped where it is: the app stops, or another replica took the job over (it goes on from the record).
        if (this.signal.aborted || err instanceof LeaseLostError) {
          await this.progress?.stop();
          return;
        }
        stopReason = this.stopReason(err);
        cause = err;
      } finally {
        // The reader ends here: nothing of the file stays in memory while the summary is written.
        await this.file?.reader?.close().catch(() => undefined);
      }
      try {
        await this.finish(stopReason, cause);
      } catch (err) {
        if (!this.signal.aborted && !(err instanceof LeaseLostError)) {
          this.logger.error({ err: errorSummary(err) }, 'could not close the upload');
        }
      }
    } finally {
      release?.();
      await closeOpenedFile(this.file);
    }
  }

  /** Waits for the job's turn, saying so in the progress message while it waits. */
  private async turn(): Promise<(() => void) | undefined> {
    if (!this.opts.takeTurn) return undefined;
    let waited = false;
    const release = await this.opts.takeTurn((w) => {
      if (!waited) {
        waited = true;
        // A file opened for a job that has to wait: its reader is let go (the file stays on disk).
        void this.file?.reader?.close().catch(() => undefined);
        if (this.file) this.file.reader = undefined;
      }
      this.waiting = w;
      this.progress?.request();
    }, this.signal);
    if (waited) {
      this.waiting = undefined;
      this.progress?.request();
    }
    return release;
  }

  /**
   * A resumed job counts its resumes without progress (a batch answered resets the count): after
   * MAX_STALLED_RESUMES it is stopped instead of read again.
   */
  private async countResume(): Promise<void> {
    if (!this.opts.resumed) return;
    const j = this.job;
    const stalled = j.stalledResumes ?? 0;
    if (stalled >= MAX_STALLED_RESUMES) throw new StalledError(stalled + 1, j.lastRow);
    j.stalledResumes = stalled + 1;
    await this.save();
  }

  private async begin(): Promise<void> {
    const j = this.job;
    if (this.opts.resumed) {
      j.resumes++;
      j.resumedAfterRow = j.lastRow;
      this.logger.info({ nextBatch: j.nextBatch, lastRow: j.lastRow }, 'resuming an upload after a restart');
      await this.save();
    }
    if (!j.messageTs) await this.postProgress(this.progressMessage());
    this.progress = new ProgressMessage(
      this.client,
      this.logger,
      { channel: j.channelId, ts: j.messageTs! },
      this.tuning.progressIntervalMs,
      () => this.progressMessage(),
      (msg) => this.postProgress(msg),
    );
    if (this.opts.resumed) this.progress.request();
  }

  /**
   * Posts the progress message (or the summary in its place) as a new message, once across a kill: the job is marked
   * (saved) before the post, the message's `ts` saved after it; a run that finds the mark without a `ts` (it took
   * the job over from a replica killed in between) looks the message up by its metadata first (`postOnce`).
   */
  private async postProgress(msg: SlackMessage): Promise<MessageRef> {
    const j = this.job;
    const posted = await postOnce(
      this.progressPoster,
      j.channelId,
      { ...msg, metadata: progressMetadata(j.id) },
      j.progressPostingSince,
      async (since) => {
        j.progressPostingSince = since;
        await this.save();
        return true;
      },
    );
    if (!posted) throw new Error('the progress post was called off by its own mark'); // never: the mark goes on
    if (posted.recovered) this.logger.info({ ts: posted.ts }, 'found the progress message posted before the takeover');
    j.channelId = posted.channel;
    j.messageTs = posted.ts;
    delete j.progressPostingSince;
    await this.save();
    return { channel: posted.channel, ts: posted.ts };
  }

  /** The job's file with a reader on it: the one the submission opened, or downloaded again (a resume). */
  private async open(): Promise<OpenedFile> {
    const settings = readerSettings(this.deps, this.tuning, this.job);
    const f = this.file;
    if (f) {
      f.reader ??= await startReader(f, settings);
      return f;
    }
    const { config } = this.deps;
    this.file = await openSlackContactsFile(this.client, this.job.fileId, {
      botToken: config.slackBotToken,
      slackApiUrl: config.slackApiUrl,
      maxBytes: config.uploadMaxBytes,
      signal: this.signal,
      reader: settings,
    });
    return this.file;
  }

  /** Reads the file and sends what is not sent yet; reads it again (skipping what is done) if the download breaks. */
  private async readAndSend(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.readPass(await this.open());
        return;
      } catch (err) {
        // The next attempt downloads the file again, into a new temp directory.
        const used = this.file;
        this.file = undefined;
        await closeOpenedFile(used);
        if (this.signal.aborted || !(err instanceof SlackFileError) || !err.transient) throw err;
        if (attempt >= this.tuning.downloadAttempts) throw err;
        this.logger.warn({ err: errorSummary(err), attempt }, 'the download broke off; reading the file again');
        await sleep(Math.min(this.tuning.retryMaxMs, this.tuning.retryBaseMs * attempt), this.signal);
      }
    }
  }

  private async readPass(file: OpenedFile): Promise<void> {
    const job = this.job;
    const reader = file.reader!;
    const pass: PassState = {
      rowsRead: 0,
      rejected: noRejections(),
      headerRow: reader.table.headerRowNumber,
      lastRowSeen: reader.table.headerRowNumber,
      readingDone: false,
      read: undefined,
      rejectedPath: file.rejectedPath,
    };
    this.pass = pass;
    // The first report of the reader shows at once (rows read, the bar), later ones at the message's pace.
    let lastProgress = 0;
    reader.onProgress = (p: ReadProgress) => {
      pass.rowsRead = p.rowsRead;
      pass.lastRowSeen = p.lastRowSeen;
      pass.rejected = p.rejected;
      pass.read = p.fraction;
      this.countRejectedInMetrics(totalRejected(p.rejected));
      // Batches skipped on a resume, or a file of rejected rows, still move the bar.
      if (Date.now() - lastProgress > this.tuning.progressIntervalMs) {
        lastProgress = Date.now();
        this.progress?.request();
      }
    };

    const controller = new AbortController();
    const onAbort = () => controller.abort(this.signal.reason);
    this.signal.addEventListener('abort', onAbort, { once: true });
    const inflight: { b: ReadBatch; p: Promise<BatchResult> }[] = [];
    const commit = async () => {
      const { b, p } = inflight.shift()!;
      const res = await p;
      this.count(b, res);
      job.nextBatch = b.index + 1;
      job.lastRow = b.rowNumbers[b.rowNumbers.length - 1] ?? job.lastRow;
      job.rowsRead = pass.rowsRead;
      job.rejected = totalRejected(pass.rejected);
      job.stalledResumes = 0;
      await this.save();
      this.progress?.request();
    };
    try {
      for await (const b of reader.batches(job.nextBatch)) {
        const p = this.send(b, controller.signal);
        p.catch(() => undefined); // awaited in order by commit(); a failure there stops the pass
        inflight.push({ b, p });
        while (inflight.length >= this.tuning.concurrency) await commit();
      }
      pass.readingDone = true;
      if (reader.end?.truncated) pass.truncated = reader.end.truncated;
      while (inflight.length > 0) await commit();
    } catch (err) {
      controller.abort(err);
      await Promise.allSettled(inflight.map((x) => x.p));
      throw err;
    } finally {
      this.signal.removeEventListener('abort', onAbort);
    }
    job.rowsRead = pass.rowsRead;
    job.rejected = totalRejected(pass.rejected);
  }

  /** Rejected rows go to the metrics once each, also when a resumed pass reads them again. */
  private countRejectedInMetrics(total: number): void {
    if (total <= this.rejectedCountedUpTo) return;
    this.deps.metrics?.uploadRowsProcessed('rejected', total - this.rejectedCountedUpTo);
    this.rejectedCountedUpTo = total;
  }

  private count(b: ReadBatch, res: BatchResult): void {
    const c = this.job.counts;
    c.sent += b.contacts.length;
    c.created += res.summary.created;
    c.updated += res.summary.updated;
    c.skipped += res.summary.skipped_duplicate;
    c.failed += res.summary.failed;
    const m = this.deps.metrics;
    m?.uploadRowsProcessed('created', res.summary.created);
    m?.uploadRowsProcessed('updated', res.summary.updated);
    m?.uploadRowsProcessed('skipped', res.summary.skipped_duplicate);
    m?.uploadRowsProcessed('failed', res.summary.failed);
    for (const item of res.results) {
      if (item.status !== 'failed') continue;
      const rowNumber = b.rowNumbers[item.index];
      if (rowNumber === undefined) continue;
      // Kept with the job (it survives a restart) up to what the report lists; the count is in counts.failed.
      if (this.job.serviceFailures.length >= this.tuning.reportMaxRows) break;
      this.job.serviceFailures.push({
        rowNumber,
        original: b.originals[item.index] || b.contacts[item.index]?.contact || item.contact || '',
        reason: serviceFailureReason(item.error, this.words.uploader),
      });
    }
  }

  /** One batch, tried again (same key) while the service is unavailable or rate-limits, up to batchAttempts. */
  private async send(b: ReadBatch, signal: AbortSignal): Promise<BatchResult> {
    const j = this.job;
    const idempotencyKey = batchIdempotencyKey(j.fileId, j.campaignId, b.index);
    for (let attempt = 1; ; attempt++) {
      try {
        const res = await this.deps.outreach.addContacts(
          j.campaignId,
          { contacts: b.contacts, if_duplicate: j.ifDuplicate },
          { priority: 'bulk', idempotencyKey, signal },
        );
        if (this.note) {
          this.note = undefined;
          this.progress?.request();
        }
        return res;
      } catch (err) {
        if (signal.aborted || !isTransient(err) || attempt >= this.tuning.batchAttempts) throw err;
        const retryAfterMs = err instanceof OutreachError && err.retryAfterSeconds ? err.retryAfterSeconds * 1000 : 0;
        const delay = Math.max(
          retryAfterMs,
          Math.min(this.tuning.retryMaxMs, this.tuning.retryBaseMs * 2 ** (attempt - 1)),
        );
        const seconds = Math.max(1, Math.round(delay / 1000));
        this.note = (t) => t.t('uploadRun.retrying', { problem: serviceErrorText(err, t), seconds });
        this.logger.warn(
          { err: errorSummary(err), batch: b.index, attempt, delayMs: delay },
          'batch failed; will retry',
        );
        this.progress?.request();
        await sleep(delay, signal);
      }
    }
  }

  private stopReason(err: unknown): StopReason {
    const sent = this.job.counts.sent;
    const kept = (t: Translator) => t.t('uploadRun.kept', { sent });
    if (err instanceof StalledError) {
      const { stops, lastRow } = err;
      return (t) => t.t('uploadRun.stalled', { stops, lastRow, kept: kept(t) });
    }
    if (err instanceof FileFormatError || err instanceof SlackFileError) {
      return (t) => t.t('uploadRun.withKept', { sentence: fileErrorSentence(err, t), kept: kept(t) });
    }
    if (err instanceof OutreachError) {
      const again = isTransient(err) ? 'yes' : 'no';
      return (t) => t.t('uploadRun.service', { sentence: serviceErrorText(err, t), kept: kept(t), again });
    }
    this.logger.error({ err: errorSummary(err) }, 'upload failed');
    return (t) => t.t('uploadRun.unexpected', { kept: kept(t) });
  }

  /** Why reading stopped at the row cap, and where the rest of the file starts. */
  private truncatedReason(cut: NonNullable<PassState['truncated']>): StopReason {
    return (t) => t.t('uploadRun.truncated', { maxRows: cut.maxRows, lastRow: cut.lastRow, nextRow: cut.nextRow });
  }

  /** A job stopped for crash-looping: its uploader is told by DM (a summary in a channel notifies no one). */
  private async tellUploader(stopReason: StopReason): Promise<void> {
    const j = this.job;
    try {
      const t = this.words.uploader;
      const msg = uploadStoppedDm({ ...this.heading(), stopReason: stopReason(t) }, t);
      await this.client.chat.postMessage({
        channel: j.userId,
        text: msg.text,
        blocks: msg.blocks,
        unfurl_links: false,
        unfurl_media: false,
      });
    } catch (err) {
      this.logger.warn({ err: errorSummary(err) }, 'could not tell the uploader why the upload stopped');
    }
  }

  /** The summary in place of the progress, the CSV of failed rows to the uploader; then the job is closed. */
  private async finish(stopReason?: StopReason, cause?: unknown): Promise<void> {
    const j = this.job;
    if (cause !== undefined) this.logger.warn({ err: errorSummary(cause) }, 'upload stopped');
    if (!stopReason && this.pass?.truncated) stopReason = this.truncatedReason(this.pass.truncated);
    const rejected = this.pass?.rejected ?? noRejections();
    if (this.pass) {
      j.rowsRead = this.pass.rowsRead;
      j.rejected = totalRejected(rejected);
    }
    const total = (this.pass ? totalRejected(rejected) : 0) + j.counts.failed;
    const { report, to } = await sendFailedRowsReport(
      {
        job: j,
        save: () => this.save(),
        client: this.client,
        slackApiUrl: this.deps.config.slackApiUrl,
        logger: this.logger,
        uploader: this.words.uploader,
        maxRows: this.tuning.reportMaxRows,
        file: this.file,
        spoolPath: this.pass?.rejectedPath,
      },
      total,
    );
    // The file and the report are no longer needed: gone before the job is marked ended.
    await closeOpenedFile(this.file);
    this.file = undefined;
    const t = this.words.message;
    const summary = uploadSummaryMessage(
      {
        ...this.heading(),
        stats: this.stats(),
        ...(stopReason ? { stopReason: stopReason(t) } : {}),
        failureGroups: failureGroupsOf(rejected, j.counts.failed),
        report,
        reportTo: to,
        ...(j.resumedAfterRow !== undefined ? { resumedAfterRow: j.resumedAfterRow } : {}),
        elapsedMs: Date.now() - Date.parse(j.createdAt),
      },
      t,
    );
    if (this.progress) await this.progress.final(summary);
    else {
      // The progress message could not even be posted: try once more with the summary.
      try {
        await this.postProgress(summary);
      } catch (err) {
        this.logger.error({ err: errorSummary(err) }, 'could not post the upload summary');
      }
    }
    j.status = stopReason ? 'stopped' : 'done';
    // The record keeps the reason in English (for whoever reads the store, and the audit trail below).
    const recorded = stopReason?.(ENGLISH);
    if (recorded) j.stopReason = recorded;
    j.finishedAt = new Date().toISOString();
    await this.save();
    if (cause instanceof StalledError && stopReason) await this.tellUploader(stopReason);
    // The start was audited when the person submitted; the result is audited here, when it is known.
    const c = j.counts;
    await this.deps.audit.record(
      {
        userId: j.userId,
        action: 'upload finished',
        campaignId: j.campaignId,
        result: stopReason ? 'failed' : 'ok',
        detail: `${j.fileName}: ${c.created} created, ${c.updated} updated, ${c.skipped} skipped, ${
          c.failed + j.rejected
        } not added${recorded ? `; stopped: ${recorded}` : ''}`,
      },
      this.client,
    );
    this.logger.info(
      {
        status: j.status,
        counts: j.counts,
        rowsRead: j.rowsRead,
        rejected: j.rejected,
        ms: Date.now() - this.startedAt,
      },
      'upload ended',
    );
  }
}
