/**
 * Runs one upload job: reads the file (streaming), sends its batches through the shared limiter at bulk priority,
 * keeps the job's progress in the store after every batch, keeps the progress message up to date, and ends with the
 * summary and the failed-rows CSV in the message's thread.
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
import type { WebClient } from '@slack/web-api';
import {
  batch,
  batchIdempotencyKey,
  FileFormatError,
  failureReportCsv,
  normalizeRows,
  onlyContacts,
  type ContactBatch,
  type CountryCode,
  type FailureReportRow,
  type RejectedRow,
  type Row,
} from '../../contacts/index.js';
import type { Logger } from '../../log.js';
import { humanMessage, OutreachError } from '../../outreach/errors.js';
import type { BatchResult } from '../../outreach/schemas.js';
import { MAX_CONTACTS_PER_BATCH } from '../../outreach/unspecified.js';
import {
  failureReportComment,
  failureReportFileName,
  uploadProgressMessage,
  uploadSummaryMessage,
  type UploadFailureGroup,
  type UploadStats,
} from '../blocks/uploadProgress.js';
import type { SlackMessage } from '../blocks/types.js';
import type { AppDeps } from '../deps.js';
import { errorSummary } from '../guard.js';
import { SlackFileError } from './download.js';
import { jobsOf, type UploadJob } from './jobs.js';
import { postProgressMessage, ProgressMessage } from './progressMessage.js';
import { fileSize, openSlackContactsFile, type OpenedFile } from './source.js';

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
};

/** The outreach service said no for good (campaign gone or finished, request refused). */
function isTransient(err: unknown): boolean {
  if (err instanceof SlackFileError) return err.transient;
  if (!(err instanceof OutreachError)) return false;
  if (err.kind === 'network' || err.kind === 'timeout') return true;
  return err.kind === 'service' && err.status !== undefined && [429, 500, 502, 503, 504].includes(err.status);
}

const SERVICE_REASONS: Record<string, string> = {
  INVALID_PHONE_NUMBER: 'the outreach service refused the number as invalid',
  MISSING_CONTACT: 'the outreach service received no number for this row',
  SERVER_ERROR: 'the outreach service failed to add it (internal error); upload this row again',
};

function serviceReason(error: string | null | undefined): string {
  if (!error) return 'the outreach service did not add it (no reason given)';
  return SERVICE_REASONS[error] ?? `the outreach service did not add it (${error})`;
}

/** Groups failed rows for the summary line ("12 not valid numbers · 3 repeated in the file"). */
export function failureGroups(rejected: readonly RejectedRow[], serviceFailed: number): UploadFailureGroup[] {
  let empty = 0;
  let repeated = 0;
  let broken = 0;
  let invalid = 0;
  for (const r of rejected) {
    if (r.original === '') empty++;
    else if (r.reason.startsWith('duplicate of row')) repeated++;
    else if (r.reason.startsWith('has values beyond')) broken++;
    else invalid++;
  }
  return [
    { label: invalid === 1 ? 'number not valid' : 'numbers not valid', count: invalid },
    { label: empty === 1 ? 'row without a number' : 'rows without a number', count: empty },
    { label: 'repeated in the file', count: repeated },
    { label: broken === 1 ? 'row with more values than columns' : 'rows with more values than columns', count: broken },
    { label: 'refused by the outreach service', count: serviceFailed },
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
  deps: AppDeps;
  client: WebClient;
  tuning: UploadTuning;
  signal: AbortSignal;
  /** The file already opened by the submission (first run); otherwise it is opened here. */
  opened?: OpenedFile;
  /** True when the app restarted in the middle of this job. */
  resumed?: boolean;
}

/** Live state of the pass reading the file now (the file is read again from the top on a resume). */
interface PassState {
  rowsRead: number;
  rejected: RejectedRow[];
  headerRow: number;
  lastRowSeen: number;
  readingDone: boolean;
  bytesRead: () => number;
  size: number | undefined;
}

export class UploadRun {
  private readonly deps: AppDeps;
  private readonly client: WebClient;
  private readonly tuning: UploadTuning;
  private readonly signal: AbortSignal;
  private readonly logger: Logger;
  private job: UploadJob;
  private progress: ProgressMessage | undefined;
  private pass: PassState | undefined;
  private note: string | undefined;
  private readonly startedAt = Date.now();
  /** Rows rejected while reading counted in the metrics up to here (a pass reading the file again skips them). */
  private rejectedCountedUpTo: number;

  constructor(
    job: UploadJob,
    private readonly opts: RunOptions,
  ) {
    this.job = job;
    this.rejectedCountedUpTo = job.lastRow;
    this.deps = opts.deps;
    this.client = opts.client;
    this.tuning = opts.tuning;
    this.signal = opts.signal;
    this.logger = opts.deps.logger.child({ component: 'upload', job: job.id });
  }

  private async save(): Promise<void> {
    this.job.updatedAt = new Date().toISOString();
    await jobsOf(this.deps.store).set(this.job.id, this.job);
  }

  private stats(): UploadStats {
    const c = this.job.counts;
    return {
      rowsRead: this.pass?.rowsRead ?? this.job.rowsRead,
      sent: c.sent,
      created: c.created,
      updated: c.updated,
      skipped: c.skipped,
      rejected: this.pass?.rejected.length ?? this.job.rejected,
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
    if (!p.size) return undefined;
    const bytesShare = Math.min(1, p.bytesRead() / p.size);
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
    return uploadProgressMessage({
      ...this.heading(),
      stats: this.stats(),
      ...(fraction !== undefined ? { fraction } : {}),
      ...(this.job.resumedAfterRow !== undefined ? { resumedAfterRow: this.job.resumedAfterRow } : {}),
      ...(this.note ? { note: this.note } : {}),
    });
  }

  /** Runs the job to its end (done or stopped), or until the signal aborts (the job then stays to be resumed). */
  async run(): Promise<void> {
    let stopReason: string | undefined;
    let cause: unknown;
    try {
      await this.begin();
      await this.readAndSend();
    } catch (err) {
      if (this.signal.aborted) {
        await this.progress?.stop();
        return;
      }
      stopReason = this.stopReason(err);
      cause = err;
    } finally {
      await this.opts.opened?.table.close().catch(() => undefined);
    }
    try {
      await this.finish(stopReason, cause);
    } catch (err) {
      if (!this.signal.aborted) this.logger.error({ err: errorSummary(err) }, 'could not close the upload');
    }
  }

  private async begin(): Promise<void> {
    const j = this.job;
    if (this.opts.resumed) {
      j.resumes++;
      j.resumedAfterRow = j.lastRow;
      this.logger.info({ nextBatch: j.nextBatch, lastRow: j.lastRow }, 'resuming an upload after a restart');
      await this.save();
    }
    if (!j.messageTs) {
      const ref = await postProgressMessage(this.client, this.logger, j.channelId, j.userId, this.progressMessage());
      j.channelId = ref.channel;
      j.messageTs = ref.ts;
      await this.save();
    }
    this.progress = new ProgressMessage(
      this.client,
      this.logger,
      { channel: j.channelId, ts: j.messageTs },
      this.tuning.progressIntervalMs,
      () => this.progressMessage(),
      (ref) => {
        j.channelId = ref.channel;
        j.messageTs = ref.ts;
        void this.save().catch(() => undefined);
      },
    );
    if (this.opts.resumed) this.progress.request();
  }

  private async open(): Promise<OpenedFile> {
    const { config } = this.deps;
    return openSlackContactsFile(this.client, this.job.fileId, {
      botToken: config.slackBotToken,
      slackApiUrl: config.slackApiUrl,
      maxBytes: config.uploadMaxBytes,
      signal: this.signal,
    });
  }

  /** Reads the file and sends what is not sent yet; reads it again (skipping what is done) if the download breaks. */
  private async readAndSend(): Promise<void> {
    let opened = this.opts.opened;
    for (let attempt = 1; ; attempt++) {
      let file: OpenedFile | undefined;
      try {
        file = opened ?? (await this.open());
        opened = undefined;
        await this.readPass(file);
        return;
      } catch (err) {
        opened = undefined;
        await file?.table.close().catch(() => undefined);
        if (this.signal.aborted || !(err instanceof SlackFileError) || !err.transient) throw err;
        if (attempt >= this.tuning.downloadAttempts) throw err;
        this.logger.warn({ err: errorSummary(err), attempt }, 'the download broke off; reading the file again');
        await sleep(Math.min(this.tuning.retryMaxMs, this.tuning.retryBaseMs * attempt), this.signal);
      }
    }
  }

  private async readPass(file: OpenedFile): Promise<void> {
    const job = this.job;
    const pass: PassState = {
      rowsRead: 0,
      rejected: [],
      headerRow: file.table.headerRowNumber,
      lastRowSeen: file.table.headerRowNumber,
      readingDone: false,
      bytesRead: file.download.bytesRead,
      size: fileSize(file),
    };
    this.pass = pass;
    // The phone value as written, for rows not yet answered: the failure report quotes it.
    const originals = new Map<number, string>();
    const phoneHeader = file.mapping.phone;
    async function* tap(rows: AsyncIterable<Row>): AsyncGenerator<Row> {
      for await (const r of rows) {
        pass.rowsRead++;
        pass.lastRowSeen = r.rowNumber;
        originals.set(r.rowNumber, (r.cells[phoneHeader] ?? '').trim());
        yield r;
      }
    }
    const normalized = normalizeRows(tap(file.table.rows), file.mapping, {
      defaultCountry: job.defaultCountry as CountryCode,
    });
    const batches = batch(
      onlyContacts(normalized, (r) => {
        originals.delete(r.rowNumber);
        pass.rejected.push(r);
        if (r.rowNumber > this.rejectedCountedUpTo) {
          this.rejectedCountedUpTo = r.rowNumber;
          this.deps.metrics?.uploadRowsProcessed('rejected', 1);
        }
      }),
      job.batchSize,
    );

    const controller = new AbortController();
    const onAbort = () => controller.abort(this.signal.reason);
    this.signal.addEventListener('abort', onAbort, { once: true });
    const inflight: { b: ContactBatch; p: Promise<BatchResult> }[] = [];
    const commit = async () => {
      const { b, p } = inflight.shift()!;
      const res = await p;
      this.count(b, res, originals);
      for (const r of b.rowNumbers) originals.delete(r);
      job.nextBatch = b.index + 1;
      job.lastRow = b.rowNumbers[b.rowNumbers.length - 1] ?? job.lastRow;
      job.rowsRead = pass.rowsRead;
      job.rejected = pass.rejected.length;
      await this.save();
      this.progress?.request();
    };
    try {
      let lastProgress = Date.now();
      for await (const b of batches) {
        if (b.index < job.nextBatch) {
          // Answered before a restart: counted already, not sent again.
          for (const r of b.rowNumbers) originals.delete(r);
          if (Date.now() - lastProgress > this.tuning.progressIntervalMs) {
            lastProgress = Date.now();
            this.progress?.request();
          }
          continue;
        }
        const p = this.send(b, controller.signal);
        p.catch(() => undefined); // awaited in order by commit(); a failure there stops the pass
        inflight.push({ b, p });
        while (inflight.length >= this.tuning.concurrency) await commit();
      }
      pass.readingDone = true;
      while (inflight.length > 0) await commit();
    } catch (err) {
      controller.abort(err);
      await Promise.allSettled(inflight.map((x) => x.p));
      throw err;
    } finally {
      this.signal.removeEventListener('abort', onAbort);
    }
    job.rowsRead = pass.rowsRead;
    job.rejected = pass.rejected.length;
  }

  private count(b: ContactBatch, res: BatchResult, originals: Map<number, string>): void {
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
      this.job.serviceFailures.push({
        rowNumber,
        original: originals.get(rowNumber) ?? b.contacts[item.index]?.contact ?? item.contact ?? '',
        reason: serviceReason(item.error),
      });
    }
  }

  /** One batch, tried again (same key) while the service is unavailable or rate-limits, up to batchAttempts. */
  private async send(b: ContactBatch, signal: AbortSignal): Promise<BatchResult> {
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
        this.note =
          `The outreach service is not taking contacts right now (${humanMessage(err)}); ` +
          `trying again in ${Math.max(1, Math.round(delay / 1000))} s. Nothing is lost.`;
        this.logger.warn(
          { err: errorSummary(err), batch: b.index, attempt, delayMs: delay },
          'batch failed; will retry',
        );
        this.progress?.request();
        await sleep(delay, signal);
      }
    }
  }

  private stopReason(err: unknown): string {
    const sent = this.job.counts.sent;
    const kept =
      sent > 0
        ? ` The ${sent === 1 ? 'contact' : `${sent.toLocaleString('en-US')} contacts`} the service confirmed before ` +
          `${sent === 1 ? 'is' : 'are'} in the campaign.`
        : ' Nothing was added.';
    if (err instanceof FileFormatError || err instanceof SlackFileError) {
      return `${err.message}${kept}`;
    }
    if (err instanceof OutreachError) {
      const again = isTransient(err)
        ? ' Upload the file again later to add the rest; contacts already added are recognised and not added twice.'
        : '';
      return `${humanMessage(err)}${kept}${again}`;
    }
    this.logger.error({ err: errorSummary(err) }, 'upload failed');
    return `Something unexpected went wrong; the details are in the app's logs.${kept}`;
  }

  /** The summary in place of the progress, and the CSV of failed rows in its thread; then the job is closed. */
  private async finish(stopReason?: string, cause?: unknown): Promise<void> {
    const j = this.job;
    if (cause !== undefined) this.logger.warn({ err: errorSummary(cause) }, 'upload stopped');
    const rejected = this.pass?.rejected ?? [];
    const failures: FailureReportRow[] = [
      ...rejected.map((r) => ({ rowNumber: r.rowNumber, original: r.original, reason: r.reason })),
      ...j.serviceFailures,
    ].sort((a, b) => a.rowNumber - b.rowNumber);
    if (this.pass) {
      j.rowsRead = this.pass.rowsRead;
      j.rejected = rejected.length;
    }
    let report: 'attached' | 'none' | 'failed' = failures.length ? 'failed' : 'none';
    if (failures.length && j.reportFileId) report = 'attached';
    else if (failures.length && j.messageTs) {
      try {
        const name = failureReportFileName(j.fileName);
        const res = await this.client.filesUploadV2({
          channel_id: j.channelId,
          thread_ts: j.messageTs,
          file: Buffer.from(failureReportCsv(failures, { bom: true }), 'utf8'),
          filename: name,
          title: name,
          initial_comment: failureReportComment(j.fileName, failures.length),
        });
        const uploaded = (res.files as Array<{ files?: Array<{ id?: string }> }> | undefined)?.[0]?.files?.[0]?.id;
        j.reportFileId = uploaded ?? 'uploaded';
        await this.save();
        report = 'attached';
      } catch (err) {
        this.logger.warn({ err: errorSummary(err) }, 'could not upload the failed-rows report');
      }
    }
    const summary = uploadSummaryMessage({
      ...this.heading(),
      stats: this.stats(),
      ...(stopReason ? { stopReason } : {}),
      failureGroups: failureGroups(rejected, j.counts.failed),
      report,
      ...(j.resumedAfterRow !== undefined ? { resumedAfterRow: j.resumedAfterRow } : {}),
      elapsedMs: Date.now() - Date.parse(j.createdAt),
    });
    if (this.progress) await this.progress.final(summary);
    else {
      // The progress message could not even be posted: try once more with the summary.
      try {
        const ref = await postProgressMessage(this.client, this.logger, j.channelId, j.userId, summary);
        j.channelId = ref.channel;
        j.messageTs = ref.ts;
      } catch (err) {
        this.logger.error({ err: errorSummary(err) }, 'could not post the upload summary');
      }
    }
    j.status = stopReason ? 'stopped' : 'done';
    if (stopReason) j.stopReason = stopReason;
    j.finishedAt = new Date().toISOString();
    await this.save();
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
        } not added${stopReason ? `; stopped: ${stopReason}` : ''}`,
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
