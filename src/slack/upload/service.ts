/**
 * The uploads running in this process: started by a view submission, resumed at start-up (every job the store
 * still has as running, oldest first), stopped (not finished: resumable) when the app stops. At most
 * UPLOAD_CONCURRENCY read and send at once, one per campaign (UploadQueue); the others wait and say so. One per
 * app, built with the Bolt app's client and the upload settings by src/main.ts, which starts and stops it.
 */
import type { WebClient } from '@slack/web-api';
import { errorSummary } from '../middleware/errors.js';
import { emptyCounts, jobsOf, retentionMsOf, saveJob, uploadJobId, type UploadJob } from './jobs.js';
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
   * Resumes every job the store has as running (the app stopped in the middle of them). An ended job is remembered
   * for RETENTION_DAYS (it expires then): its record answers "this file was already uploaded" to a second submission
   * of the same Slack file.
   */
  async start(now = Date.now()): Promise<void> {
    this.stopped = false;
    // Temp directories of a process that died in the middle of uploads (killed, out of memory).
    const swept = await sweepDeadWorkspaces();
    if (swept > 0) this.deps.logger.info({ swept }, 'removed the temp files of uploads of a process that ended');
    const jobs = jobsOf(this.deps.store);
    // Oldest first: they take their turns in the order they were submitted.
    const running = (await jobs.list({ where: { status: 'running' } }))
      .map(([, job]) => job)
      .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
    for (const job of running) if (!this.running.has(job.id)) this.run(job, { resumed: true });
    // Finished jobs expire by themselves; those saved before they did (an older state) are dropped here.
    const keepMs = retentionMsOf(this.deps.config);
    for (const status of ['done', 'stopped'] as const) {
      for (const [id, job] of await jobs.list({ where: { status } })) {
        if (now - Date.parse(job.finishedAt ?? job.updatedAt) > keepMs) await jobs.delete(id).catch(() => undefined);
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

  job(campaignId: number, fileId: string): Promise<UploadJob | undefined> {
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
      await saveJob(this.deps.store, job, retentionMsOf(this.deps.config));
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
