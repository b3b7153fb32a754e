/**
 * Each person's share of the commands and clicks that use the service: a token bucket of `burst` actions, refilled
 * at `perMinute` (src/store/token-buckets.ts). One person has one bucket for the whole app, however many replicas
 * serve them:
 *
 * - With PostgreSQL (several replicas), the bucket is a row every replica takes from in one statement under the row's
 *   lock (src/store/pg-token-buckets.ts): two replicas taking at once never both get the last action.
 * - Each process also keeps a bucket per person in memory, asked first: it sees only the actions this process
 *   served, so it never refuses what the shared one would allow (what the shared one then refuses is given back to
 *   it), and it answers alone, logged, when the shared store fails or takes longer than a second (the check runs
 *   before Slack's request is acknowledged). A person is never refused because the database is slow, and never gets
 *   more than one share per replica then.
 * - With the embedded store (one process), the memory bucket is the bucket.
 */
import type { Logger } from '../../log.js';
import { LocalTokenBuckets, type Taken, type TokenBuckets } from '../../store/token-buckets.js';

export interface PersonBudget {
  /** Sustained rate: actions per minute. */
  readonly perMinute: number;
  /** Actions at once (the bucket's size). */
  readonly burst: number;
  /**
   * Takes `count` actions (default 1; a count above the burst costs the whole bucket, so it is never refused for
   * ever) from the person's bucket at once; if there are not that many, takes none and says how long until there are.
   */
  take(userId: string, count?: number): Promise<Taken>;
  /**
   * Whether a refusal should be told by DM: true for the first refusal of a streak (until the person's next accepted
   * action), false after.
   */
  shouldDm(userId: string): Promise<boolean>;
}

export interface PersonBudgetOptions {
  perMinute: number;
  burst: number;
  /** The buckets every replica shares (PostgreSQL); without them, this process's memory is the budget. */
  shared?: TokenBuckets;
  logger?: Logger;
  /** The clock of this process's buckets (tests). */
  now?: () => number;
  /** Longest a take waits for the shared buckets (it runs before the request is acknowledged). Default 1 s. */
  sharedDeadlineMs?: number;
}

export function createPersonBudget(opts: PersonBudgetOptions): PersonBudget {
  const rate = { burst: opts.burst, perMinute: opts.perMinute };
  const local = new LocalTokenBuckets(opts.now ? { now: opts.now } : {});
  const cost = (count: number) => Math.min(Math.max(count, 0), opts.burst);
  const key = (userId: string) => `person:${userId}`;
  const { shared } = opts;
  const deadline = { ms: opts.sharedDeadlineMs ?? 1_000, ...(opts.logger ? { logger: opts.logger } : {}) };
  return {
    perMinute: opts.perMinute,
    burst: opts.burst,
    async take(userId, count = 1) {
      const n = cost(count);
      const here = await local.take(key(userId), n, rate);
      if (!here.ok || !shared) return here;
      const everywhere = await withDeadline(shared.take(key(userId), n, rate), 'take from', userId, here, deadline);
      if (!everywhere.ok) await local.refund(key(userId), n, rate);
      return everywhere;
    },
    async shouldDm(userId) {
      const here = await local.markTold(key(userId), rate);
      if (!shared) return here;
      return withDeadline(shared.markTold(key(userId), rate), 'read', userId, here, deadline);
    },
  };
}

/** The shared buckets' answer, or `fallback` (logged) when they fail or take longer than `deadline.ms`. */
async function withDeadline<R>(
  work: Promise<R>,
  what: string,
  userId: string,
  fallback: R,
  { ms, logger }: { ms: number; logger?: Logger },
) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  try {
    const answer = await Promise.race([work, late]);
    if (answer !== 'late') return answer;
    logger?.warn({ user: userId }, `could not ${what} the shared bucket of a person in time; this replica's decides`);
  } catch (err) {
    logger?.warn(
      { user: userId, err: String(err) },
      `could not ${what} the shared bucket of a person; this replica's decides`,
    );
  } finally {
    clearTimeout(timer);
  }
  work.catch(() => undefined);
  return fallback;
}
