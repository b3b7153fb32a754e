/**
 * Whose turn it is to upload: at most `limit` uploads read and send at once (each has a reader thread, a file on
 * disk and a share of the bulk requests), and at most one per campaign (two files into one campaign would race on
 * the same numbers). The others wait in arrival order; each is told, and told again when the picture changes, why
 * it waits. A job that may not start yet does not hold back a later one into another campaign.
 */
import type { UploadWaiting } from '../../render/upload-progress.js';

export interface QueuedUpload {
  id: string;
  campaignId: number;
  fileName: string;
}

interface Waiter {
  job: QueuedUpload;
  grant: (release: () => void) => void;
  onWait: (w: UploadWaiting) => void;
  /** The last reason told, to tell again only when it changes. */
  told?: string;
}

export class UploadQueue {
  private readonly running = new Map<string, QueuedUpload>();
  private readonly waiting: Waiter[] = [];

  constructor(public limit: number) {}

  /** Uploads reading and sending now. */
  get active(): number {
    return this.running.size;
  }

  /**
   * Resolves with a release function once `job` may run; calls `onWait` first (and again when the reason changes)
   * when it has to wait. Rejects if `signal` aborts while it waits.
   */
  take(job: QueuedUpload, onWait: (w: UploadWaiting) => void, signal?: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const waiter: Waiter = {
        job,
        onWait,
        grant: (release) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
      };
      const onAbort = () => {
        const at = this.waiting.indexOf(waiter);
        if (at !== -1) this.waiting.splice(at, 1);
        reject(signal!.reason);
        this.pump();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
      this.pump();
    });
  }

  private release(id: string): void {
    if (this.running.delete(id)) this.pump();
  }

  private blockedBy(job: QueuedUpload): QueuedUpload | undefined {
    for (const r of this.running.values()) if (r.campaignId === job.campaignId) return r;
    return undefined;
  }

  /** Starts whoever may start, in arrival order, and tells the others why they wait. */
  private pump(): void {
    let ahead = 0;
    for (let i = 0; i < this.waiting.length;) {
      const w = this.waiting[i]!;
      const sameCampaign = this.blockedBy(w.job);
      if (!sameCampaign && this.running.size < this.limit) {
        this.waiting.splice(i, 1);
        this.running.set(w.job.id, w.job);
        let released = false;
        w.grant(() => {
          if (released) return;
          released = true;
          this.release(w.job.id);
        });
        continue;
      }
      const why: UploadWaiting = sameCampaign
        ? { reason: 'campaign', fileName: sameCampaign.fileName }
        : { reason: 'busy', running: this.running.size, ahead };
      const told = JSON.stringify(why);
      if (told !== w.told) {
        w.told = told;
        w.onWait(why);
      }
      if (!sameCampaign) ahead++;
      i++;
    }
  }
}
