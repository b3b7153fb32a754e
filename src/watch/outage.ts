/**
 * How the poller behaves when the service fails: what a failure says (the service is down, or something is wrong
 * with one campaign), a circuit breaker for outages and an exponential backoff per campaign.
 *
 * - Outage: after `threshold` consecutive failures that say the service is unavailable (no connection, timeout,
 *   5xx), the breaker opens: one warning, then each cycle polls a single campaign as a probe (the campaigns take
 *   turns) and nothing else. The first answer from the service closes it: one warning saying how long it lasted,
 *   and every campaign is polled again at once.
 * - One campaign failing while the service answers for others (a 5xx or 4xx for it alone, an answer that does not
 *   parse): that campaign waits 1, 2, 4, 8, … poll cycles before its next try (up to a maximum), so one bad campaign
 *   is not retried, logged and written every cycle.
 */
import type { Logger } from '../log.js';
import { isOutreachError } from '../outreach/errors.js';

export type FailureKind = 'unavailable' | 'throttled' | 'not_found' | 'campaign';

/** What a failed poll says. */
export function failureKind(err: unknown): FailureKind {
  if (!isOutreachError(err)) return 'campaign';
  if (err.kind === 'network' || err.kind === 'timeout') return 'unavailable';
  if (err.kind === 'service' && err.status !== undefined) {
    if (err.status >= 500) return 'unavailable';
    if (err.status === 429) return 'throttled';
    // The poller confirms a 404 with GET /campaigns/{id} before believing the campaign is gone.
    if (err.status === 404) return 'not_found';
  }
  return 'campaign';
}

export function errorText(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 300);
}

export class OutageBreaker {
  private consecutive = 0;
  private openedAt: number | undefined;
  private probes = 0;

  constructor(
    private readonly threshold: number,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  get open(): boolean {
    return this.openedAt !== undefined;
  }

  /** The service answered. Returns true when this ends an outage. */
  answered(): boolean {
    this.consecutive = 0;
    if (this.openedAt === undefined) return false;
    const lastedMs = this.now() - this.openedAt;
    this.logger.warn(
      { lastedSeconds: Math.round(lastedMs / 1000), failedProbes: this.probes },
      'outreach service answers again: outage ended, polling every watched campaign',
    );
    this.openedAt = undefined;
    this.probes = 0;
    return true;
  }

  /** The service did not answer (connection, timeout, 5xx). */
  unavailable(err: unknown): void {
    this.consecutive++;
    if (this.openedAt !== undefined) {
      this.probes++;
      this.logger.debug({ err: errorText(err), probes: this.probes }, 'outreach service still unavailable');
      return;
    }
    if (this.consecutive < this.threshold) return;
    this.openedAt = this.now();
    this.logger.warn(
      { err: errorText(err), consecutiveFailures: this.consecutive },
      'outreach service unavailable: outage started, polling one campaign per cycle until it answers',
    );
  }
}

/**
 * Backoff counted in poll cycles (one cycle is one poll interval, unless cycles run late): after the k-th failure in
 * a row a campaign sits out 2^(k-1) - 1 cycles (0, 1, 3, 7, …), at most `maxCycles`.
 */
export class CampaignBackoff {
  private readonly entries = new Map<number, { failures: number; nextCycle: number }>();

  constructor(private readonly maxCycles: number) {}

  due(campaignId: number, cycle: number): boolean {
    const e = this.entries.get(campaignId);
    return !e || cycle >= e.nextCycle;
  }

  /** Counts a failure and schedules the next try; returns how many in a row. */
  failed(campaignId: number, cycle: number): number {
    const failures = (this.entries.get(campaignId)?.failures ?? 0) + 1;
    const wait = Math.min(this.maxCycles, 2 ** (failures - 1));
    this.entries.set(campaignId, { failures, nextCycle: cycle + wait });
    return failures;
  }

  succeeded(campaignId: number): void {
    this.entries.delete(campaignId);
  }

  /** Forgets the campaigns not in `ids` (no longer watched). */
  keepOnly(ids: ReadonlySet<number>): void {
    for (const id of this.entries.keys()) if (!ids.has(id)) this.entries.delete(id);
  }

  /** Campaigns backing off. */
  get size(): number {
    return this.entries.size;
  }

  /** Everything is due again (an outage ended: those failures were not the campaigns' own). */
  clear(): void {
    this.entries.clear();
  }
}
