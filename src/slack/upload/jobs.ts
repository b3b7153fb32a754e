/**
 * Upload jobs as the store keeps them (collection `uploadJobs`): enough to resume an upload after a restart from
 * the first batch the service has not answered, and to show its counts and post its summary once.
 *
 * A job is one Slack file sent into one campaign; its id is `<campaignId>:<fileId>`. Batches of a job are cut the
 * same way every time the file is read (same file, same `batchSize`, same default country), so batch `i` always
 * holds the same contacts and carries the same Idempotency-Key (`batchIdempotencyKey(fileId, campaignId, i)`).
 */
import type { FailureReportRow } from '../../contacts/index.js';
import type { DuplicatePolicy } from '../../outreach/schemas.js';
import type { Collection, Store, WriteOptions } from '../../store/store.js';
import type { LeaseField } from './lease.js';

const UPLOAD_JOBS = 'uploadJobs';

export interface ServiceCounts {
  /** Contacts sent and answered for. */
  sent: number;
  created: number;
  updated: number;
  skipped: number;
  /** Items the service answered `failed` for. */
  failed: number;
}

type UploadJobStatus = 'running' | 'done' | 'stopped';

export interface UploadJob {
  id: string;
  fileId: string;
  fileName: string;
  campaignId: number;
  campaignName: string;
  ifDuplicate: DuplicatePolicy;
  defaultCountry: string;
  batchSize: number;
  /** Who uploaded the file. */
  userId: string;
  /** Conversation the progress message is (to be) in. */
  channelId: string;
  messageTs?: string;
  /**
   * A post of the progress message was under way at this time (epoch ms) and its `ts` not saved yet: whoever runs
   * the job next looks for it in Slack before posting (runner.ts `postProgress`).
   */
  progressPostingSince?: number;
  status: UploadJobStatus;
  /** Batches 0 … nextBatch-1 were answered by the service and are counted in `counts`. */
  nextBatch: number;
  /** File row of the last contact of batch nextBatch-1 (0 before the first batch). */
  lastRow: number;
  counts: ServiceCounts;
  /** Rows the service answered `failed` for, in the batches counted. */
  serviceFailures: FailureReportRow[];
  /** Rows read and rows rejected in the file, as of the last save (the file is read again on resume). */
  rowsRead: number;
  rejected: number;
  /** Times the job was resumed after the app stopped in the middle. */
  resumes: number;
  /**
   * Resumes since the last batch answered: a job the app keeps stopping in (a crash loop) is stopped after
   * MAX_STALLED_RESUMES of them (runner.ts).
   */
  stalledResumes?: number;
  /** Row the last resume started after (`lastRow` when it resumed). */
  resumedAfterRow?: number;
  createdAt: string;
  updatedAt: string;
  finishedAt?: string;
  /** Why a stopped job stopped: a sentence for people. */
  stopReason?: string;
  /** The failure report was uploaded (its Slack file id), or there was nothing to report. */
  reportFileId?: string;
  /** The report went into the progress message's thread (the progress is in the uploader's DM). */
  reportInThread?: boolean;
  /**
   * The report's file is uploaded to Slack (not shared yet, private to the bot) and its share into the DM under way:
   * whoever runs the job next asks Slack whether that file is shared there before uploading the report again
   * (failed-rows-report.ts `sendFailedRowsReport`).
   */
  reportSharing?: { fileId: string; channelId: string; threadTs?: string };
  /** The replica running the job and until when (lease.ts): another takes the job over once it runs out. */
  lease?: LeaseField;
}

export function uploadJobId(campaignId: number, fileId: string): string {
  return `${campaignId}:${fileId}`;
}

export function emptyCounts(): ServiceCounts {
  return { sent: 0, created: 0, updated: 0, skipped: 0, failed: 0 };
}

/** Jobs listed by `status` (the running ones are resumed at start; no need to read the finished ones). */
export function jobsOf(store: Store): Collection<UploadJob> {
  return store.collection<UploadJob>({ name: UPLOAD_JOBS, indexes: ['status'] });
}

/** How a job is written: a finished one (done or stopped) expires `retentionMs` after it finished. */
export function jobWriteOptions(job: UploadJob, retentionMs: number): WriteOptions {
  const finished = job.status === 'running' ? undefined : Date.parse(job.finishedAt ?? job.updatedAt);
  return finished === undefined || Number.isNaN(finished) ? {} : { expiresAt: finished + retentionMs };
}

/** Writes the job (see jobWriteOptions). */
export async function saveJob(store: Store, job: UploadJob, retentionMs: number): Promise<void> {
  await jobsOf(store).put(job.id, job, jobWriteOptions(job, retentionMs));
}

export const retentionMsOf = (config: { retentionDays: number }): number => config.retentionDays * 24 * 3600_000;
