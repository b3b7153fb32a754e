/**
 * The work only one replica may do at a time — polling the service, delivering to Slack, the periodic sweeps — run
 * while this replica holds the leader lease (src/store/coordination.ts), stopped when it loses it, started again
 * when it gains it. Starting resumes from the store: whatever was recorded but not yet shown is queued again.
 *
 * Transitions run one at a time and always towards what the lease says when their turn comes, so a lease lost and
 * won again quickly never leaves two starts (or a stop after the last start) in the wrong order. Stopping waits for
 * the Slack write in flight, and nothing more is written after it.
 *
 * It is also the fence of the leader-only writes (`LeaderFence`): the work runs in a term, the lease's epoch when it
 * started, and every leader-only Slack write carries the term that asked for it (src/slack/watch/poster.ts
 * `fenced`). Right before it goes out, the write is sent only if its term is still current: the work still runs in
 * it, `isLeader()` (the lease confirmed less than a lease ago: a stalled process sees false the moment it wakes) and
 * the same epoch (a lease lost and won again is a new term). So a leader that stalled with writes queued, paced or
 * backing off, and woke after another replica took over, sends none of them. Both checks are local (no database
 * round trip per write); the epoch is drawn from the database only when the lease is taken.
 */
import type { Logger } from './log.js';
import type { LeaderFence, Leadership } from './store/coordination.js';

export interface LeaderOnly {
  start(): Promise<void>;
  stop(): Promise<void>;
}

export class LeaderWork implements LeaderFence {
  private running = false;
  /** The epoch of the lease the work was started in (while it runs). */
  private runningTerm: number | undefined;
  private following = false;
  private unsubscribe: (() => void) | undefined;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly leadership: Leadership,
    private readonly work: LeaderOnly,
    private readonly logger: Logger,
    /** Told after each transition (metrics, /healthz). */
    private readonly onRole?: (leader: boolean) => void,
  ) {}

  /** Whether the leader-only work runs in this process now. */
  get active(): boolean {
    return this.running;
  }

  term(): number | undefined {
    return this.running ? this.runningTerm : undefined;
  }

  holds(term: number): boolean {
    return this.running && this.runningTerm === term && this.leadership.isLeader() && this.leadership.epoch() === term;
  }

  /** Follows the lease from now on: starts the work at once if this replica leads. */
  async start(): Promise<void> {
    if (this.following) return;
    this.following = true;
    this.unsubscribe = this.leadership.onChange(() => void this.settle());
    await this.settle();
  }

  /** Stops following and stops the work (the lease itself is given up by its owner, after this). */
  async stop(): Promise<void> {
    this.following = false;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    await this.settle();
  }

  /** Brings the work in line with the lease (queued behind the transition under way). */
  private settle(): Promise<void> {
    const next = this.chain.then(async () => {
      const lead = this.following && this.leadership.isLeader();
      if (lead === this.running) return;
      if (lead) {
        this.runningTerm = this.leadership.epoch();
        this.logger.info({ epoch: this.runningTerm }, 'this replica leads: polling and delivering to Slack');
        this.running = true;
        await this.work.start();
      } else {
        this.logger.info(
          this.following ? 'this replica no longer leads: polling and delivery stop' : 'leader-only work stops',
        );
        this.running = false;
        this.runningTerm = undefined;
        await this.work.stop();
      }
      this.onRole?.(this.running);
    });
    this.chain = next.catch((err: unknown) => {
      this.logger.error({ err: String(err) }, 'starting or stopping the leader-only work failed');
    });
    return this.chain;
  }
}
