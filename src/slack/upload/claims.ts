/**
 * Claims about uploads that every replica on the store honours (collection `uploadClaims`), taken with
 * insert-if-absent and compare-and-set, so two replicas cannot both win one:
 *
 * - `${campaignId}/run`: the one upload reading and sending into a campaign (two files into one campaign would race
 *   on the same numbers). Held like a job's lease (lease.ts): an owner and an expiry, renewed while the job runs and
 *   deleted when it ends or lets go. A replica that dies leaves it to run out after `leaseMs`; the job it held is taken
 *   over by another replica, which claims it again (the same job may take its own claim over).
 * - `${campaignId}/file/${fileId}`: a submission of that Slack file for that campaign is being checked (the file opened,
 *   the campaign read) somewhere, so a double submit (here or at another replica) starts one job. Expires after
 *   `submitMs`, in case its replica dies in the middle; deleted once the job is recorded or the submission refused.
 *
 * With the embedded store the process is the only one: a claim of another owner is its predecessor's, taken at once.
 */
import type { Collection, Store } from '../../store/store.js';

/** Who holds a campaign's run claim. */
interface CampaignRunClaim {
  kind: 'run';
  jobId: string;
  fileName: string;
  owner: string;
  until: number;
}

interface SubmissionClaim {
  kind: 'file';
  owner: string;
  until: number;
}

type UploadClaim = CampaignRunClaim | SubmissionClaim;

interface UploadClaimsOptions {
  /** This replica's id (as in job leases). */
  owner: string;
  /** The only process on the store (embedded): claims of other owners are a dead predecessor's. */
  exclusive: boolean;
  /** How long a run claim lasts without renewal. */
  leaseMs: number;
  /** How long a submission may be checked before its claim runs out. */
  submitMs: number;
  now?: () => number;
}

const runKey = (campaignId: number) => `${campaignId}/run`;
const fileKey = (campaignId: number, fileId: string) => `${campaignId}/file/${fileId}`;

/** A campaign's run claim held by this replica for one job. */
export class HeldCampaign {
  constructor(
    private readonly claims: UploadClaims,
    readonly campaignId: number,
    readonly jobId: string,
  ) {}

  /** Extends the claim; false when it is no longer this job's here (it ran out and was taken). */
  renew(): Promise<boolean> {
    return this.claims.renewRun(this.campaignId, this.jobId);
  }

  /** Lets the campaign go: the next upload into it, at any replica, may start. */
  release(): Promise<void> {
    return this.claims.releaseRun(this.campaignId, this.jobId);
  }
}

export class UploadClaims {
  private readonly records: Collection<UploadClaim>;
  private readonly now: () => number;

  constructor(
    store: Store,
    private readonly opts: UploadClaimsOptions,
  ) {
    this.records = store.collection<UploadClaim>({ name: 'uploadClaims' });
    this.now = opts.now ?? Date.now;
  }

  /**
   * Claims the campaign for the job: held, or the claim of the upload that has it now (at this replica or another).
   */
  async claimRun(
    campaignId: number,
    job: { id: string; fileName: string },
  ): Promise<{ held: HeldCampaign } | { holder: CampaignRunClaim }> {
    const key = runKey(campaignId);
    for (;;) {
      const until = this.now() + this.opts.leaseMs;
      const value: CampaignRunClaim = {
        kind: 'run',
        jobId: job.id,
        fileName: job.fileName,
        owner: this.opts.owner,
        until,
      };
      const cur = await this.records.getVersioned(key);
      if (!cur) {
        if (await this.records.insertIfAbsent(key, value, { expiresAt: until })) {
          return { held: new HeldCampaign(this, campaignId, job.id) };
        }
        continue;
      }
      const c = cur.value;
      const takeable = c.kind !== 'run' || c.jobId === job.id || this.stale(c);
      if (!takeable) return { holder: c };
      if (await this.records.compareAndSet(key, cur.version, value, { expiresAt: until })) {
        return { held: new HeldCampaign(this, campaignId, job.id) };
      }
      // Written in between: look again.
    }
  }

  /** @internal HeldCampaign.renew */
  async renewRun(campaignId: number, jobId: string): Promise<boolean> {
    const key = runKey(campaignId);
    for (;;) {
      const cur = await this.records.getVersioned(key);
      if (!cur || !this.ours(cur.value, jobId)) return false;
      const until = this.now() + this.opts.leaseMs;
      if (await this.records.compareAndSet(key, cur.version, { ...cur.value, until }, { expiresAt: until }))
        return true;
    }
  }

  /** @internal HeldCampaign.release */
  async releaseRun(campaignId: number, jobId: string): Promise<void> {
    const cur = await this.records.get(runKey(campaignId));
    if (cur && this.ours(cur, jobId)) await this.records.delete(runKey(campaignId));
  }

  /** Claims the checking of a submission of `fileId` into the campaign; false when it is being checked already. */
  async reserveSubmission(campaignId: number, fileId: string): Promise<boolean> {
    const key = fileKey(campaignId, fileId);
    for (;;) {
      const until = this.now() + this.opts.submitMs;
      const value: SubmissionClaim = { kind: 'file', owner: this.opts.owner, until };
      const cur = await this.records.getVersioned(key);
      if (!cur) {
        if (await this.records.insertIfAbsent(key, value, { expiresAt: until })) return true;
        continue;
      }
      if (!this.stale(cur.value)) return false;
      if (await this.records.compareAndSet(key, cur.version, value, { expiresAt: until })) return true;
    }
  }

  async releaseSubmission(campaignId: number, fileId: string): Promise<void> {
    const key = fileKey(campaignId, fileId);
    const cur = await this.records.get(key);
    if (cur?.owner === this.opts.owner) await this.records.delete(key);
  }

  private ours(c: UploadClaim, jobId: string): boolean {
    return c.kind === 'run' && c.jobId === jobId && c.owner === this.opts.owner;
  }

  /** Left by a process that is gone: ran out (not yet swept), or another owner's on an embedded store. */
  private stale(c: UploadClaim): boolean {
    return c.until <= this.now() || (this.opts.exclusive && c.owner !== this.opts.owner);
  }
}
