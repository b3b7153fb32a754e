/**
 * What GET /healthz reports: whether the app can do its job, check by check, not only that it is listening.
 *
 * - `store`: the store can make changes durable (Store.status(); a probe write at most every few seconds, and at
 *   every check while it cannot, which also retries the unsaved changes).
 * - `slack_auth`: Slack accepts the app's tokens (src/slack/auth-monitor.ts).
 *
 * A failing check makes /healthz answer 503 with a body naming it and saying what is wrong, never a secret.
 */

export interface CheckResult {
  ok: boolean;
  /** What is wrong and what to do, for an operator. */
  detail?: string;
}

export interface HealthReport {
  ok: boolean;
  checks: Record<string, CheckResult>;
  /**
   * Whether this replica leads (polls the service and delivers to Slack); a replica standing by is healthy too. Not
   * a check: the load balancer sends Slack's requests to every healthy replica.
   */
  leader?: boolean;
}

export type HealthCheck = () => CheckResult | Promise<CheckResult>;

export class Health {
  constructor(
    private readonly checks: Record<string, HealthCheck>,
    /** A check with no answer within this long counts as failing. */
    private readonly timeoutMs = 2000,
    /** Whether this replica leads now (reported beside the checks). */
    private readonly leader?: () => boolean,
  ) {}

  async report(): Promise<HealthReport> {
    const results = await Promise.all(
      Object.entries(this.checks).map(async ([name, check]) => [name, await this.run(check)] as const),
    );
    return {
      ok: results.every(([, r]) => r.ok),
      checks: Object.fromEntries(results),
      ...(this.leader ? { leader: this.leader() } : {}),
    };
  }

  private async run(check: HealthCheck): Promise<CheckResult> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<CheckResult>((resolve) => {
      timer = setTimeout(
        () => resolve({ ok: false, detail: `no answer within ${this.timeoutMs / 1000} s` }),
        this.timeoutMs,
      );
    });
    try {
      return await Promise.race([Promise.resolve().then(check), timeout]);
    } catch {
      return { ok: false, detail: 'the check itself failed; see the logs' };
    } finally {
      clearTimeout(timer);
    }
  }
}

/** A store's durability (the shape of store.ts's StoreStatus; health imports nothing of the app). */
interface StoreStatus {
  durable: boolean;
  problem?: string;
}

/** What the store check needs from the store (every Store has it). */
export interface StoreHealthSource {
  status(): StoreStatus;
  /** Tries a small write and, if it works, the writes still pending: the store becomes durable again. */
  probe(): Promise<StoreStatus>;
}

/**
 * The store can make changes durable. While it cannot (disk full, database down) the answer names the problem; each
 * check then probes, so /healthz turns ok by itself once writes succeed again. While durable, a probe at most every
 * `probeEveryMs` notices a problem before a change runs into it.
 */
export function storeCheck(store: StoreHealthSource, opts: { probeEveryMs?: number } = {}): HealthCheck {
  const probeEveryMs = opts.probeEveryMs ?? 5000;
  let probedAt = 0;
  return async () => {
    let status = store.status();
    if (!status.durable || Date.now() - probedAt >= probeEveryMs) {
      probedAt = Date.now();
      status = await store.probe();
    }
    if (status.durable) return { ok: true };
    return {
      ok: false,
      detail: `${status.problem ?? 'the state cannot be saved'}; changes are refused and delivery to Slack waits until it can`,
    };
  };
}
