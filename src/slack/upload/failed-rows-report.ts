/**
 * The failed-rows report of an upload: a CSV of the rows that were not added (the file's rejected rows the reader
 * spooled, and the rows the service refused), each with its reason in the uploader's language, shared once into the
 * uploader's DM with the app (it holds phone numbers: no one else gets it), in the progress message's thread when
 * that message is in the DM.
 *
 * Once, even across a kill (mark, act, record): the file is uploaded first (private to the bot, shared nowhere), its
 * id saved with the job (the mark), then shared, then its id recorded as the job's report. A run that finds the mark
 * (it took the job over from a replica killed in between) asks Slack whether that file is in the DM before uploading
 * the report again; a file that never got there is deleted.
 */
import { createWriteStream } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import type { WebClient } from '@slack/web-api';
import { readRejectedSpool, writeFailureReport, type FailureReportRow } from '../../contacts/failure-report.js';
import type { MessageKey, Translator } from '../../i18n/translator.js';
import type { Logger } from '../../log.js';
import { failureReportComment, failureReportFileName, failureReportHeader } from '../../render/upload-progress.js';
import { errorSummary } from '../middleware/errors.js';
import { fileSharedIn, shareFile, uploadFile } from './file-share.js';
import type { UploadJob } from './jobs.js';
import { LeaseLostError } from './lease.js';
import { localizedReportRow } from './row-reason-text.js';
import type { OpenedFile } from './source.js';

/** What the report of one job works with, handed by its run. */
export interface FailedRowsReportContext {
  /** The job (its report marks and records are written on it, then saved with `save`). */
  job: UploadJob;
  save: () => Promise<void>;
  client: WebClient;
  slackApiUrl: string;
  logger: Logger;
  /** The uploader's words: the CSV's header, reasons, name and comment. */
  uploader: Translator;
  /** Rows the report lists at most; it says how many more there were. */
  maxRows: number;
  /** The job's file (its temp directory holds the CSV while it is written); undefined when none is open. */
  file: OpenedFile | undefined;
  /** The rejected rows the reader spooled, when a pass read the file. */
  spoolPath: string | undefined;
}

/** What became of the report: attached (into the DM, or the thread there), none to send, or could not be sent. */
export interface FailedRowsReportOutcome {
  report: 'attached' | 'none' | 'failed';
  to: 'dm' | 'thread';
}

const SERVICE_REASONS: Record<string, MessageKey> = {
  INVALID_PHONE_NUMBER: 'uploadRun.service.invalidPhone',
  MISSING_CONTACT: 'uploadRun.service.missingContact',
  SERVER_ERROR: 'uploadRun.service.serverError',
};

/** The failed-rows CSV's reason for a row the service refused (its batch item's `error`), in the uploader's words. */
export function serviceFailureReason(error: string | null | undefined, t: Translator): string {
  if (!error) return t.t('uploadRun.service.noReason');
  const key = SERVICE_REASONS[error];
  return key ? t.t(key) : t.t('uploadRun.service.other', { error });
}

/**
 * Sends the report of `total` failed rows to the uploader, once (a job that has its report says where it went).
 * Resolves with what became of it; a failure other than a lost lease is logged and said as `failed`.
 */
export async function sendFailedRowsReport(
  ctx: FailedRowsReportContext,
  total: number,
): Promise<FailedRowsReportOutcome> {
  const j = ctx.job;
  if (total === 0) return { report: 'none', to: 'dm' };
  if (j.reportFileId) return { report: 'attached', to: j.reportInThread ? 'thread' : 'dm' };
  try {
    const shared = await shareReport(ctx, total);
    if (!shared) return { report: 'failed', to: 'dm' };
    j.reportFileId = shared.fileId;
    if (shared.inThread) j.reportInThread = true;
    delete j.reportSharing;
    await ctx.save();
    return { report: 'attached', to: shared.inThread ? 'thread' : 'dm' };
  } catch (err) {
    // Another replica has the job now: it sends the report (and finds this one's share, if it went through).
    if (err instanceof LeaseLostError) throw err;
    ctx.logger.warn({ err: errorSummary(err) }, 'could not send the failed-rows report');
    return { report: 'failed', to: 'dm' };
  }
}

/** Shares the CSV once (see the top of this file). Undefined when there is no report to write. */
async function shareReport(
  ctx: FailedRowsReportContext,
  total: number,
): Promise<{ fileId: string; inThread: boolean } | undefined> {
  const { job: j, client } = ctx;
  const pending = j.reportSharing;
  if (pending) {
    const shared = await fileSharedIn(client, pending.fileId, pending.channelId);
    if (shared) {
      ctx.logger.info({ file: pending.fileId }, 'found the failed-rows report shared before the takeover');
      return { fileId: pending.fileId, inThread: pending.threadTs !== undefined };
    }
    // Slack could not tell (undefined): the file is kept, and the report shared again (twice at worst, never lost).
    if (shared === false) await client.files.delete({ file: pending.fileId }).catch(() => undefined);
  }
  const report = await writeReport(ctx);
  if (!report) return undefined;
  const dm = await client.conversations.open({ users: j.userId });
  const dmId = dm.channel?.id;
  if (!dmId) throw new Error('conversations.open answered without a channel');
  const name = failureReportFileName(j.fileName, ctx.uploader);
  const threadTs = j.channelId === dmId ? j.messageTs : undefined;
  const fileId = await uploadFile(client, ctx.slackApiUrl, { filename: name, bytes: report.bytes });
  j.reportSharing = { fileId, channelId: dmId, ...(threadTs ? { threadTs } : {}) };
  await ctx.save();
  try {
    const about = { listed: report.listed, campaignName: j.campaignName, campaignId: j.campaignId };
    await shareFile(client, {
      fileId,
      title: name,
      channelId: dmId,
      ...(threadTs ? { threadTs } : {}),
      initialComment: failureReportComment(j.fileName, total, about, ctx.uploader),
    });
  } catch (err) {
    // The summary will say the report could not be sent: its file does not stay in Slack either.
    delete j.reportSharing;
    await client.files.delete({ file: fileId }).catch(() => undefined);
    throw err;
  }
  return { fileId, inThread: threadTs !== undefined };
}

/**
 * The CSV, written from the rejected rows the reader spooled and the service's refusals, in row order, at most
 * `maxRows` rows. Resolves with its bytes and the rows it lists (undefined when no file is open to write it beside).
 */
async function writeReport(ctx: FailedRowsReportContext): Promise<{ bytes: Buffer; listed: number } | undefined> {
  const { file, spoolPath, uploader: t } = ctx;
  if (!file) return undefined;
  const sources: AsyncIterable<FailureReportRow>[] = [];
  if (spoolPath !== undefined && (await exists(spoolPath))) {
    const spooled = readRejectedSpool(spoolPath);
    // The file's rejected rows, each reason in the uploader's language.
    sources.push(
      (async function* () {
        for await (const r of spooled) yield localizedReportRow(r, t);
      })(),
    );
  }
  const serviceFailures = [...ctx.job.serviceFailures].sort((a, b) => a.rowNumber - b.rowNumber);
  sources.push(
    (async function* () {
      yield* serviceFailures;
    })(),
  );
  const path = file.workspace.path('failed-rows.csv');
  const out = createWriteStream(path);
  const header = failureReportHeader(t);
  const listed = await writeFailureReport(out, sources, { maxRows: ctx.maxRows, bom: true, header }).finally(() =>
    out.end(),
  );
  await finished(out);
  return { bytes: await readFile(path), listed };
}

function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
