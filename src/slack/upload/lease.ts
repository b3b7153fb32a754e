/**
 * A replica's hold on a record of long-running work (an upload job), kept in the record itself: `lease.owner` (the
 * replica's id) and `lease.until` (ms since the epoch). Several replicas share the store; the one holding the lease
 * runs the work and renews the lease while it runs; when it dies (even by SIGKILL) the lease runs out and any
 * replica may claim the record and resume the work from what the record says was done.
 *
 * Every write of a leased record goes through compare-and-set and succeeds only while the writer still holds the
 * lease, so a replica that lost it (paused past its lease, then woke up) cannot overwrite the progress of the one
 * that took over: its write throws LeaseLostError and it stops. The writes of one holder are made one at a time
 * (a renewal never races the work's own save in one process).
 *
 * Leases compare wall clocks of different machines: `leaseMs` must be far longer than their skew (seconds, not
 * milliseconds).
 */
import type { Collection, WriteOptions } from '../../store/store.js';

export interface LeaseField {
  /** The replica holding the record. */
  owner: string;
  /** ms since the epoch after which another replica may claim it. */
  until: number;
}

/** A record that can be leased while it is `running`. */
export interface Leasable {
  status: string;
  lease?: LeaseField;
}

/** Another replica claimed the record: this one must stop working on it, writing nothing more. */
export class LeaseLostError extends Error {
  override name = 'LeaseLostError';
  constructor(key: string, holder: string | undefined) {
    super(`Another replica${holder ? ` (${holder})` : ''} took over ${key}; this one stops working on it.`);
  }
}

export interface LeaseOptions {
  /** How long a lease lasts without renewal. */
  leaseMs: number;
  now?: () => number;
}

/** Whether `owner` may claim the record now: it is running and nobody else holds a live lease on it. */
function claimable(value: Leasable, owner: string, now: number): boolean {
  if (value.status !== 'running') return false;
  const l = value.lease;
  return !l || l.owner === owner || l.until <= now;
}

export class RecordLease<T extends Leasable> {
  private readonly now: () => number;
  private tail: Promise<unknown> = Promise.resolve();
  private lost = false;

  private constructor(
    private readonly records: Collection<T>,
    readonly key: string,
    readonly owner: string,
    private readonly opts: LeaseOptions,
    /** The expiry the record was last written with (kept by renewals). */
    private writeOpts: WriteOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  /**
   * Claims the record for `owner` if it is running and not held by another live lease (`force`: even then, for a
   * process that knows it is the only one, e.g. on an embedded store where a lease left is its own predecessor's).
   * Resolves with the record as claimed, the lease, and the lease it had before (another replica's that ran out,
   * or undefined), or undefined when it is not to be had.
   */
  static async claim<T extends Leasable>(
    records: Collection<T>,
    key: string,
    owner: string,
    opts: LeaseOptions & { force?: boolean },
  ): Promise<{ value: T; lease: RecordLease<T>; previous: LeaseField | undefined } | undefined> {
    const now = (opts.now ?? Date.now)();
    for (;;) {
      const current = await records.getVersioned(key);
      if (!current) return undefined;
      const v = current.value;
      if (!(opts.force && v.status === 'running') && !claimable(v, owner, now)) return undefined;
      const value: T = { ...v, lease: { owner, until: now + opts.leaseMs } };
      if (await records.compareAndSet(key, current.version, value)) {
        return { value, lease: new RecordLease(records, key, owner, opts, {}), previous: v.lease };
      }
      // Written in between (a renewal of its holder, or another claimant): look again.
    }
  }

  /** The lease's hold on the record was lost (a write found another owner). */
  get isLost(): boolean {
    return this.lost;
  }

  /** Writes the record, extending the lease, if this replica still holds it; else throws LeaseLostError. */
  save(value: T, writeOpts: WriteOptions = {}): Promise<void> {
    return this.serial(async () => {
      this.writeOpts = writeOpts;
      await this.write(() => ({ ...value, lease: { owner: this.owner, until: this.now() + this.opts.leaseMs } }));
    });
  }

  /** Extends the lease (the record otherwise as it is); throws LeaseLostError if another replica holds it. */
  renew(): Promise<void> {
    return this.serial(() =>
      this.write((current) => ({ ...current, lease: { owner: this.owner, until: this.now() + this.opts.leaseMs } })),
    );
  }

  /** Lets the record go at once (this replica stops working on it): another replica may claim it now. */
  release(): Promise<void> {
    return this.serial(async () => {
      if (this.lost) return;
      await this.write((current) => {
        const { lease: _lease, ...rest } = current;
        return rest as T;
      }).catch((err: unknown) => {
        if (!(err instanceof LeaseLostError)) throw err;
      });
    });
  }

  private serial<R>(fn: () => Promise<R>): Promise<R> {
    const run = this.tail.then(fn, fn);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Compare-and-set of `next(current)` while the record is ours; a write by another process is looked at again. */
  private async write(next: (current: T) => T): Promise<void> {
    if (this.lost) throw new LeaseLostError(this.key, undefined);
    for (;;) {
      const current = await this.records.getVersioned(this.key);
      const holder = current?.value.lease?.owner;
      if (!current || holder !== this.owner) {
        this.lost = true;
        throw new LeaseLostError(this.key, holder);
      }
      if (await this.records.compareAndSet(this.key, current.version, next(current.value), this.writeOpts)) return;
    }
  }
}
