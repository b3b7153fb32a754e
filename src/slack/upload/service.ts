/**
 * The uploads running in this process: started by a view submission, resumed at start-up (every job the store
 * still has as running, oldest first), stopped (not finished: resumable) when the app stops.
 *
 * Several replicas: each job is held by one replica through a lease in its record (lease.ts), renewed while it
 * runs. Every replica looks for running jobs whose lease ran out (their replica died) and takes them over; a job
 * goes on from its first unanswered batch, batches in flight at the death go again with the same Idempotency-Key,
 * so every contact is added once. With the embedded store (one process), start-up takes every running job at once.
 * A stopping replica lets its jobs go, so another takes them over without waiting for the lease. At most
 * UPLOAD_CONCURRENCY read and send at once here (UploadQueue), and one per campaign across every replica (a claim
 * in the store, claims.ts); the others wait and say so. A submission being checked is claimed in the store too, so
 * a double submit through two replicas starts one job. One per app, built with the Bolt app's client and the upload settings by src/main.ts, which starts and stops it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { WebClient } from '@slack/web-api';
import type { UploadWaiting } from '../../render/upload-progress.js';
import { errorSummary } from '../middleware/errors.js';
import { UploadClaims, type HeldCampaign } from './claims.js';
import { emptyCounts, jobsOf, retentionMsOf, saveJob, uploadJobId, type UploadJob } from './jobs.js';
import { LeaseLostError, RecordLease } from './lease.js';
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

/** Who runs the jobs here. */
export interface UploadReplica {
  /** This process's id in job leases (unique per process: host, pid, random). */
  id: string;
  /**
   * The only process on the store (embedded): a lease left in a record is its own predecessor's, taken at once;
   * no other replica's jobs to look for.
   */
  exclusive: boolean;
}

/**
 * How long the checking of a submission (campaign read, file downloaded and opened) may hold its claim: a replica
 * that dies meanwhile blocks a new submission of that same file for at most this long.
 */
const SUBMISSION_CLAIM_MS = 5 * 60_000;

export class UploadService {
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  /** Job ids a submission is checking right now (the file is being opened), so a double submit starts one job. */
  private readonly reserved = new Set<string>();
  private stopped = false;
  private scanTimer: NodeJS.Timeout | undefined;
  private scanning: Promise<void> | undefined;
  readonly queue: UploadQueue;
  /** One upload per campaign and one check per submitted file, across replicas. */
  readonly claims: UploadClaims;

  /** `tuning` is read at each use. */
  constructor(
    readonly deps: UploadDeps,
    readonly client: WebClient,
    readonly tuning: UploadTuning,
    readonly replica: UploadReplica = { id: 'this-process', exclusive: true },
  ) {
    this.queue = new UploadQueue(deps.config.uploadConcurrency);
    this.claims = new UploadClaims(deps.store, {
      owner: replica.id,
      exclusive: replica.exclusive,
      get leaseMs() {
        return tuning.leaseMs;
      },
      submitMs: SUBMISSION_CLAIM_MS,
    });
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
    await this.takeOver(this.replica.exclusive);
    if (!this.replica.exclusive) this.scheduleScan();
    // Finished jobs expire by themselves; those saved before they did (an older state) are dropped here.
    const keepMs = retentionMsOf(this.deps.config);
    for (const status of ['done', 'stopped'] as const) {
      for (const [id, job] of await jobs.list({ where: { status } })) {
        if (now - Date.parse(job.finishedAt ?? job.updatedAt) > keepMs) await jobs.delete(id).catch(() => undefined);
      }
    }
  }

  /**
   * Claims the running jobs nobody holds (their replica died or let go; `force`: every running one) and resumes
   * them, oldest first: they take their turns in the order they were submitted.
   */
  private async takeOver(force: boolean): Promise<void> {
    const jobs = jobsOf(this.deps.store);
    const now = Date.now();
    const running = (await jobs.list({ where: { status: 'running' } }))
      .map(([, job]) => job)
      .filter((job) => force || !job.lease || job.lease.until <= now)
      .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
    for (const job of running) {
      if (this.stopped || this.running.has(job.id) || this.reserved.has(job.id)) continue;
      const claimed = await RecordLease.claim(jobs, job.id, this.replica.id, { leaseMs: this.tuning.leaseMs, force });
      if (!claimed) continue;
      if (claimed.previous && claimed.previous.owner !== this.replica.id && !this.replica.exclusive) {
        this.deps.logger.info(
          { job: job.id, from: claimed.previous.owner, nextBatch: claimed.value.nextBatch },
          'took over an upload whose replica stopped renewing its lease',
        );
      }
      this.run(claimed.value, { resumed: true, lease: claimed.lease });
    }
  }

  /** Looks for jobs to take over every half lease (several replicas). */
  private scheduleScan(): void {
    if (this.stopped) return;
    this.scanTimer = setTimeout(() => {
      this.scanning = this.takeOver(false)
        .catch((err: unknown) =>
          this.deps.logger.warn({ err: errorSummary(err) }, 'could not look for uploads to take over'),
        )
        .finally(() => {
          this.scanning = undefined;
          this.scheduleScan();
        });
    }, this.tuning.leaseMs / 2);
    this.scanTimer.unref();
  }

  /** Stops every running job where it is (they resume at the next start) and waits for them to let go. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.scanTimer);
    await this.scanning;
    const all = [...this.running.values()];
    for (const r of all) r.controller.abort(new Error('the app is stopping'));
    await Promise.allSettled(all.map((r) => r.done));
  }

  job(campaignId: number, fileId: string): Promise<UploadJob | undefined> {
    return jobsOf(this.deps.store).get(uploadJobId(campaignId, fileId));
  }

  /**
   * Claims a job id for a submission, here and in the store (another replica may be checking the same file); false
   * when that file is already being checked or uploaded into the campaign.
   */
  async reserve(campaignId: number, fileId: string): Promise<boolean> {
    const id = uploadJobId(campaignId, fileId);
    if (this.reserved.has(id) || this.running.has(id)) return false;
    this.reserved.add(id);
    try {
      if (await this.claims.reserveSubmission(campaignId, fileId)) return true;
    } catch (err) {
      this.reserved.delete(id);
      throw err;
    }
    this.reserved.delete(id);
    return false;
  }

  async release(campaignId: number, fileId: string): Promise<void> {
    const id = uploadJobId(campaignId, fileId);
    if (!this.reserved.delete(id)) return;
    await this.claims.releaseSubmission(campaignId, fileId);
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
      lease: { owner: this.replica.id, until: Date.now() + this.tuning.leaseMs },
    };
    let lease: RecordLease<UploadJob> | undefined;
    try {
      await saveJob(this.deps.store, job, retentionMsOf(this.deps.config));
      // Written with this replica's lease: the claim takes it as it is.
      lease = (await RecordLease.claim(jobsOf(this.deps.store), job.id, this.replica.id, this.leaseOptions()))?.lease;
    } catch (err) {
      await closeOpenedFile(opened);
      throw err;
    } finally {
      // The job's record answers later submissions of the file from here on.
      await this.release(input.campaignId, input.fileId).catch((err: unknown) =>
        this.deps.logger.warn({ err: errorSummary(err), job: job.id }, 'could not let go of a submission claim'),
      );
    }
    this.run(job, { opened, ...(lease ? { lease } : {}) });
    return job;
  }

  /** Resolves when the job (if running) has ended or let go: for tests and shutdown. */
  async settled(jobId: string): Promise<void> {
    await this.running.get(jobId)?.done;
  }

  private leaseOptions() {
    return { leaseMs: this.tuning.leaseMs };
  }

  /**
   * The job's turn: a place among the uploads running here (the queue: UPLOAD_CONCURRENCY, and one per campaign in
   * this process), then the campaign's claim in the store. While another replica's upload holds the campaign, the
   * place here is given back (uploads into other campaigns go ahead), the job says why it waits, and looks again
   * every little while. The release lets the campaign go first, then the place here: a job of this process waiting
   * for the same campaign finds it free.
   */
  private async takeTurn(
    job: UploadJob,
    onWait: (w: UploadWaiting) => void,
    signal: AbortSignal,
    held: (h: HeldCampaign | undefined, releasing?: Promise<void>) => void,
  ): Promise<() => void> {
    for (;;) {
      const place = await this.queue.take(
        { id: job.id, campaignId: job.campaignId, fileName: job.fileName },
        onWait,
        signal,
      );
      let claim: Awaited<ReturnType<UploadClaims['claimRun']>>;
      try {
        claim = await this.claims.claimRun(job.campaignId, { id: job.id, fileName: job.fileName });
      } catch (err) {
        place();
        throw err;
      }
      if ('held' in claim) {
        const hold = claim.held;
        held(hold);
        return () => {
          const releasing = hold
            .release()
            .catch((err: unknown) =>
              this.deps.logger.warn({ err: errorSummary(err), job: job.id }, 'could not let go of the campaign'),
            )
            .finally(place);
          held(undefined, releasing);
        };
      }
      place();
      onWait({ reason: 'campaign', fileName: claim.holder.fileName });
      await sleep(Math.max(50, Math.min(2000, this.tuning.leaseMs / 6)), undefined, { signal });
    }
  }

  private run(job: UploadJob, opts: { opened?: OpenedFile; resumed?: boolean; lease?: RecordLease<UploadJob> }): void {
    if (this.stopped) {
      void closeOpenedFile(opts.opened);
      void opts.lease?.release().catch(() => undefined);
      return;
    }
    const controller = new AbortController();
    const { lease } = opts;
    // The campaign's claim, once the job has its turn (renewed with the lease).
    let campaign: HeldCampaign | undefined;
    let campaignReleased: Promise<void> | undefined;
    // The lease is renewed while the job runs; lost (another replica took over), the job stops where it is.
    const renewal = setInterval(() => {
      lease?.renew().catch((err: unknown) => {
        if (err instanceof LeaseLostError) controller.abort(err);
        else this.deps.logger.warn({ err: errorSummary(err), job: job.id }, 'could not renew the upload lease');
      });
      campaign?.renew().then(
        (kept) => {
          if (!kept) this.deps.logger.warn({ job: job.id }, 'the campaign claim of a running upload ran out');
        },
        (err: unknown) =>
          this.deps.logger.warn({ err: errorSummary(err), job: job.id }, 'could not renew the campaign claim'),
      );
    }, this.tuning.leaseMs / 3);
    renewal.unref();
    const run = new UploadRun(job, {
      deps: this.deps,
      client: this.client,
      tuning: this.tuning,
      signal: controller.signal,
      takeTurn: (onWait, signal) =>
        this.takeTurn(job, onWait, signal, (h, released) => {
          campaign = h;
          if (released) campaignReleased = released;
        }),
      ...opts,
    });
    const done = run
      .run()
      .catch((err: unknown) => this.deps.logger.error({ err: errorSummary(err), job: job.id }, 'upload job crashed'))
      .finally(async () => {
        clearInterval(renewal);
        // The campaign is free (in the store) before the job counts as settled.
        await campaignReleased;
        // Stopped in the middle (the app stops): another replica may take the job over at once.
        if (lease && !lease.isLost) await lease.release().catch(() => undefined);
        if (this.running.get(job.id)?.done === done) this.running.delete(job.id);
      });
    this.running.set(job.id, { controller, done });
  }
}
