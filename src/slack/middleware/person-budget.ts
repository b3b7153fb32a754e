/**
 * Each person's share of the commands and clicks that use the service: a token bucket of `burst` actions, refilled
 * at `perMinute`. One person has one bucket for the whole app, however many replicas serve them:
 *
 * - With PostgreSQL (several replicas), the bucket is a record of the shared store, changed with a conditional write
 *   (`compareAndSet`, `insertIfAbsent`): two replicas taking from one bucket at once never both get the last action;
 *   the one that lost reads the bucket again and decides anew. In one process a person's changes run one at a time,
 *   so only other replicas' changes make one try again. A record vanishes (expires) once its bucket is full again,
 *   which is what an absent bucket means. Times are each replica's clock: a skew of one second between replicas
 *   moves a bucket by `perMinute / 60` actions at most.
 * - Each process also keeps a bucket per person in memory, asked first: it sees only the actions this process
 *   served, so it never refuses what the shared one would allow, and it answers alone (logged) when the shared store
 *   fails or takes longer than a second (the check runs before Slack's request is acknowledged). A person is never
 *   refused because the database is slow, and never gets more than one share per replica then.
 * - With the embedded store (one process), the memory bucket is the bucket.
 */
import type { Logger } from '../../log.js';
import type { Collection, Store } from '../../store/store.js';

type BudgetAnswer = { ok: true } | { ok: false; waitMs: number };

export interface PersonBudget {
  /** Sustained rate: actions per minute. */
  readonly perMinute: number;
  /** Actions at once (the bucket's size). */
  readonly burst: number;
  /**
   * Takes `count` actions (default 1; a count above the burst costs the whole bucket, so it is never refused for
   * ever) from the person's bucket at once; if there are not that many, takes none and says how long until there are.
   */
  take(userId: string, count?: number): Promise<BudgetAnswer>;
  /**
   * Whether a refusal should be told by DM: true for the first refusal of a streak (until the person's next accepted
   * action), false after.
   */
  shouldDm(userId: string): Promise<boolean>;
}

export interface PersonBudgetOptions {
  perMinute: number;
  burst: number;
  /** The store shared by every replica (PostgreSQL): buckets are kept there; otherwise in this process. */
  shared?: Store;
  logger?: Logger;
  now?: () => number;
}

interface Bucket {
  tokens: number;
  /** When `tokens` was counted (ms since the epoch). */
  at: number;
  /** A refusal was told by DM since the person's last accepted action. */
  toldByDm: boolean;
}

/** What a change of one bucket makes of it, and what it answers. */
type Change<R> = (bucket: Bucket) => { next: Bucket; answer: R };

/** Where buckets live: each change is applied to the bucket as it is, atomically. */
interface BucketCells {
  change<R>(userId: string, fresh: Bucket, change: Change<R>): Promise<R>;
}

const COLLECTION = 'person_budgets';
/** Longest a take waits for the shared store (it runs before the request is acknowledged). */
const SHARED_DEADLINE_MS = 1_000;
/** Conditional writes tried at most while other replicas change the same bucket. */
const ATTEMPTS = 8;

/** The token bucket's arithmetic over buckets kept in `cells`. */
class Buckets {
  private readonly perMs: number;

  constructor(
    private readonly burst: number,
    perMinute: number,
    private readonly cells: BucketCells,
    private readonly now: () => number,
  ) {
    this.perMs = perMinute / 60_000;
  }

  /** When a bucket is full again (nothing to keep after that). */
  static fullAt(b: Bucket, burst: number, perMinute: number): number {
    return b.at + Math.ceil(((burst - b.tokens) * 60_000) / perMinute);
  }

  take(userId: string, cost: number): Promise<BudgetAnswer> {
    return this.cells.change<BudgetAnswer>(userId, this.fresh(), (bucket) => {
      const b = this.refilled(bucket);
      if (b.tokens >= cost) return { next: { ...b, tokens: b.tokens - cost, toldByDm: false }, answer: { ok: true } };
      return { next: b, answer: { ok: false, waitMs: Math.ceil((cost - b.tokens) / this.perMs) } };
    });
  }

  /** Gives back what a take took (the shared bucket refused after this one had agreed). */
  refund(userId: string, cost: number): Promise<void> {
    return this.cells.change(userId, this.fresh(), (bucket) => {
      const b = this.refilled(bucket);
      return { next: { ...b, tokens: Math.min(this.burst, b.tokens + cost) }, answer: undefined };
    });
  }

  shouldDm(userId: string): Promise<boolean> {
    return this.cells.change(userId, this.fresh(), (bucket) => {
      const b = this.refilled(bucket);
      return { next: { ...b, toldByDm: true }, answer: !b.toldByDm };
    });
  }

  private fresh(): Bucket {
    return { tokens: this.burst, at: this.now(), toldByDm: false };
  }

  private refilled(b: Bucket): Bucket {
    const now = this.now();
    // A bucket counted by a replica whose clock is ahead is not refilled backwards.
    return {
      ...b,
      tokens: Math.min(this.burst, b.tokens + Math.max(0, now - b.at) * this.perMs),
      at: Math.max(b.at, now),
    };
  }
}

export function createPersonBudget(opts: PersonBudgetOptions): PersonBudget {
  const now = opts.now ?? Date.now;
  const fullAt = (b: Bucket) => Buckets.fullAt(b, opts.burst, opts.perMinute);
  const cost = (count: number) => Math.min(Math.max(count, 0), opts.burst);
  const local = new Buckets(opts.burst, opts.perMinute, new MemoryCells(now, fullAt), now);
  const base = { perMinute: opts.perMinute, burst: opts.burst };
  if (!opts.shared) {
    return {
      ...base,
      take: (userId, count = 1) => local.take(userId, cost(count)),
      shouldDm: (u) => local.shouldDm(u),
    };
  }
  const shared = new Buckets(
    opts.burst,
    opts.perMinute,
    new StoredCells(opts.shared.collection<Bucket>(COLLECTION), fullAt),
    now,
  );
  const logger = opts.logger;
  return {
    ...base,
    // This process's bucket first: it never refuses what the shared one would allow (it sees only some of the
    // person's actions), and it bounds what gets through while the shared store does not answer.
    async take(userId, count = 1) {
      const n = cost(count);
      const here = await local.take(userId, n);
      if (!here.ok) return here;
      const everywhere = await withDeadline(shared.take(userId, n), 'take from', userId, here, logger);
      if (!everywhere.ok) await local.refund(userId, n);
      return everywhere;
    },
    async shouldDm(userId) {
      return withDeadline(shared.shouldDm(userId), 'read', userId, await local.shouldDm(userId), logger);
    },
  };
}

/** This process's buckets. Buckets that have refilled completely are forgotten (they hold nothing). */
class MemoryCells implements BucketCells {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly now: () => number,
    private readonly fullAt: (b: Bucket) => number,
  ) {}

  async change<R>(userId: string, fresh: Bucket, change: Change<R>): Promise<R> {
    if (this.buckets.size > 1000) this.forgetFull();
    const { next, answer } = change(this.buckets.get(userId) ?? fresh);
    this.buckets.set(userId, next);
    return answer;
  }

  private forgetFull(): void {
    const now = this.now();
    for (const [id, b] of this.buckets) if (this.fullAt(b) <= now) this.buckets.delete(id);
  }
}

/**
 * Buckets as records of the shared store, changed by conditional writes; a record expires once full. One change per
 * person at a time in this process (the next waits for it), so only other replicas' changes can make one try again.
 */
class StoredCells implements BucketCells {
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly records: Collection<Bucket>,
    private readonly fullAt: (b: Bucket) => number,
  ) {}

  change<R>(userId: string, fresh: Bucket, change: Change<R>): Promise<R> {
    const run = (this.queues.get(userId) ?? Promise.resolve()).then(() => this.write(userId, fresh, change));
    const settled = run.catch(() => undefined);
    this.queues.set(userId, settled);
    void settled.then(() => {
      if (this.queues.get(userId) === settled) this.queues.delete(userId);
    });
    return run;
  }

  private async write<R>(userId: string, fresh: Bucket, change: Change<R>): Promise<R> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const current = await this.records.getVersioned(userId);
      const { next, answer } = change(current?.value ?? fresh);
      // Kept a moment past full, so a record is never written already expired.
      const opts = { expiresAt: this.fullAt(next) + 1_000 };
      const written = current
        ? await this.records.compareAndSet(userId, current.version, next, opts)
        : await this.records.insertIfAbsent(userId, next, opts);
      if (written) return answer;
    }
    throw new Error(`the bucket changed ${ATTEMPTS} times while being read`);
  }
}

/** The shared store's answer, or `fallback` (logged) when it fails or takes longer than SHARED_DEADLINE_MS. */
async function withDeadline<R>(work: Promise<R>, what: string, userId: string, fallback: R, logger?: Logger) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), SHARED_DEADLINE_MS)));
  try {
    const answer = await Promise.race([work, late]);
    if (answer !== 'late') return answer;
    logger?.warn({ user: userId }, `could not ${what} a person's share in time; let through`);
  } catch (err) {
    logger?.warn({ user: userId, err: String(err) }, `could not ${what} a person's share; let through`);
  } finally {
    clearTimeout(timer);
  }
  work.catch(() => undefined);
  return fallback;
}
