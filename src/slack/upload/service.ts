/**
 * The uploads running in this process: started by a view submission, resumed at start-up (every job the store
 * still has as running, oldest first), stopped (not finished: resumable) when the app stops. At most
 * UPLOAD_CONCURRENCY read and send at once, one per campaign (UploadQueue); the others wait and say so. One per
 * app, built with the Bolt app's client and the upload settings by src/main.ts, which starts and stops it.
 */
import type { WebClient } from '@slack/web-api';
import { errorSummary } from '../middleware/errors.js';
import { emptyCounts, jobsOf, uploadJobId, type UploadJob } from './jobs.js';
import { UploadQueue } from './queue.js';
import { UploadRun, type UploadDeps, type UploadTuning } from './runner.js';
import { closeOpenedFile, type OpenedFile } from './source.js';
import { sweepDeadWorkspaces } from './workspace.js';

/** What a new job needs beyond the defaults. */
export interface NewUploadJob {
  fileId: string;
  fileName: string;
  campaignId: number;
  campaignName: string;
  ifDuplicate: UploadJob['ifDuplicate'];
  defaultCountry: string;
  userId: string;
  /** Conversation for the progress message; the person's DM when absent. */
  channelId?: string;
}

/**
 * How long an ended job is remembered: its record answers "this file was already uploaded" to a second submission
 * of the same Slack file (a double submit happens within seconds; a month is plenty).
 */
const FINISHED_JOB_KEEP_MS = 30 * 24 * 3600_000;

export class UploadService {
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  /** Job ids a submission is checking right now (the file is being opened), so a double submit starts one job. */
  private readonly reserved = new Set<string>();
  private stopped = false;
  readonly queue: UploadQueue;

  /** `tuning` is read at each use. */
  constructor(
    readonly deps: UploadDeps,
    readonly client: WebClient,
    readonly tuning: UploadTuning,
  ) {
    this.queue = new UploadQueue(deps.config.uploadConcurrency);
  }

  /**
   * Resumes every job the store has as running (the app stopped in the middle of them), and forgets jobs that ended
   * more than FINISHED_JOB_KEEP_MS ago.
   */
  async start(now = Date.now()): Promise<void> {
    this.stopped = false;
    // Temp directories of a process that died in the middle of uploads (killed, out of memory).
    const swept = await sweepDeadWorkspaces();
    if (swept > 0) this.deps.logger.info({ swept }, 'removed the temp files of uploads of a process that ended');
    const jobs = jobsOf(this.deps.store);
    // Oldest first: they take their turns in the order they were submitted.
    const all = [...jobs.values()].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
    for (const job of all) {
      if (job.status === 'running' && !this.running.has(job.id)) this.run(job, { resumed: true });
      else if (job.status !== 'running' && now - Date.parse(job.finishedAt ?? job.updatedAt) > FINISHED_JOB_KEEP_MS) {
        void jobs.delete(job.id).catch(() => undefined);
      }
    }
  }

  /** Stops every running job where it is (they resume at the next start) and waits for them to let go. */
  async stop(): Promise<void> {
    this.stopped = true;
    const all = [...this.running.values()];
    for (const r of all) r.controller.abort(new Error('the app is stopping'));
    await Promise.allSettled(all.map((r) => r.done));
  }

  job(campaignId: number, fileId: string): UploadJob | undefined {
    return jobsOf(this.deps.store).get(uploadJobId(campaignId, fileId));
  }

  /** Claims a job id for a submission; false when that file is already being checked or uploaded into the campaign. */
  reserve(campaignId: number, fileId: string): boolean {
    const id = uploadJobId(campaignId, fileId);
    if (this.reserved.has(id) || this.running.has(id)) return false;
    this.reserved.add(id);
    return true;
  }

  release(campaignId: number, fileId: string): void {
    this.reserved.delete(uploadJobId(campaignId, fileId));
  }

  /** Records a new job (durably) and runs it on the already opened file. */
  async launch(input: NewUploadJob, opened: OpenedFile): Promise<UploadJob> {
    const now = new Date().toISOString();
    const job: UploadJob = {
      id: uploadJobId(input.campaignId, input.fileId),
      fileId: input.fileId,
      fileName: input.fileName,
      campaignId: input.campaignId,
      campaignName: input.campaignName,
      ifDuplicate: input.ifDuplicate,
      defaultCountry: input.defaultCountry,
      batchSize: this.tuning.batchSize,
      userId: input.userId,
      channelId: input.channelId ?? input.userId,
      status: 'running',
      nextBatch: 0,
      lastRow: 0,
      counts: emptyCounts(),
      serviceFailures: [],
      rowsRead: 0,
      rejected: 0,
      resumes: 0,
      createdAt: now,
      updatedAt: now,
    };
    try {
      await jobsOf(this.deps.store).set(job.id, job);
    } catch (err) {
      await closeOpenedFile(opened);
      throw err;
    } finally {
      this.reserved.delete(job.id);
    }
    this.run(job, { opened });
    return job;
  }

  /** Resolves when the job (if running) has ended or let go: for tests and shutdown. */
  async settled(jobId: string): Promise<void> {
    await this.running.get(jobId)?.done;
  }

  private run(job: UploadJob, opts: { opened?: OpenedFile; resumed?: boolean }): void {
    if (this.stopped) {
      void closeOpenedFile(opts.opened);
      return;
    }
    const controller = new AbortController();
    const run = new UploadRun(job, {
      deps: this.deps,
      client: this.client,
      tuning: this.tuning,
      signal: controller.signal,
      takeTurn: (onWait, signal) =>
        this.queue.take({ id: job.id, campaignId: job.campaignId, fileName: job.fileName }, onWait, signal),
      ...opts,
    });
    const done = run
      .run()
      .catch((err: unknown) => this.deps.logger.error({ err: errorSummary(err), job: job.id }, 'upload job crashed'))
      .finally(() => {
        if (this.running.get(job.id)?.done === done) this.running.delete(job.id);
      });
    this.running.set(job.id, { controller, done });
  }
}
