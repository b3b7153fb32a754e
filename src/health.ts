/**
 * What GET /healthz reports: whether the app can do its job, check by check, not only that it is listening.
 *
 * - `store`: the store can make changes durable (Store.status(); a probe write at most once per interval while it
 *   can, however many checks come; while it cannot, the store's own retry probes, once per interval too).
 * - `slack_auth`: Slack accepts the app's tokens (src/slack/auth-monitor.ts).
 *
 * A failing check makes /healthz answer 503; the report naming it and saying what is wrong (never a secret) is for
 * operators only (GET /healthz/details on the metrics listener, src/metrics-server.ts).
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
 * The store can make changes durable. While it can, a probe write at most every `probeEveryMs` (one at a time: checks
 * that come meanwhile share it) notices a problem before a change runs into it. While it cannot (disk full, database
 * down) the answer names the problem and the check makes no write of its own: the store retries by itself at the
 * same interval (src/main.ts hands both the one setting), so a failing store is probed once per interval however
 * many requests come, and /healthz turns ok by itself once a retry succeeds.
 */
export function storeCheck(
  store: StoreHealthSource,
  opts: { probeEveryMs?: number; now?: () => number } = {},
): HealthCheck {
  const probeEveryMs = opts.probeEveryMs ?? 5000;
  const now = opts.now ?? Date.now;
  let probedAt: number | undefined;
  let probing: Promise<StoreStatus> | undefined;
  const probe = (): Promise<StoreStatus> => {
    probedAt = now();
    probing ??= store.probe().finally(() => (probing = undefined));
    return probing;
  };
  return async () => {
    let status = store.status();
    if (probing) status = await probing;
    else if (status.durable && (probedAt === undefined || now() - probedAt >= probeEveryMs)) status = await probe();
    if (status.durable) return { ok: true };
    return {
      ok: false,
      detail: `${status.problem ?? 'the state cannot be saved'}; changes are refused and delivery to Slack waits until it can`,
    };
  };
}
