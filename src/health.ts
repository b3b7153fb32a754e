/**
 * What GET /healthz reports: whether the app can do its job, check by check, not only that it is listening.
 *
 * - `store`: the state file's directory takes a write (a small probe file, written and removed at most every few
 *   seconds), and the latest save of the state did not fail (after a failed save, the unsaved changes are written
 *   again before answering).
 * - `slack_auth`: Slack accepts the app's tokens (src/slack/auth-monitor.ts).
 *
 * A failing check makes /healthz answer 503 with a body naming it and saying what is wrong, never a secret.
 */
import { rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface CheckResult {
  ok: boolean;
  /** What is wrong and what to do, for an operator. */
  detail?: string;
}

export interface HealthReport {
  ok: boolean;
  checks: Record<string, CheckResult>;
}

export type HealthCheck = () => CheckResult | Promise<CheckResult>;

export class Health {
  constructor(
    private readonly checks: Record<string, HealthCheck>,
    /** A check with no answer within this long counts as failing. */
    private readonly timeoutMs = 2000,
  ) {}

  async report(): Promise<HealthReport> {
    const results = await Promise.all(
      Object.entries(this.checks).map(async ([name, check]) => [name, await this.run(check)] as const),
    );
    return { ok: results.every(([, r]) => r.ok), checks: Object.fromEntries(results) };
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

function errnoCode(err: unknown): string {
  for (let cur: unknown = err, depth = 0; cur && depth < 4; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return 'unknown error';
}

/** What the store check needs from the store (LowdbStore has it). */
export interface StoreHealthSource {
  /** Absolute path of the state file. */
  readonly file: string;
  /** The latest write's error, until a write succeeds. */
  readonly lastWriteError: Error | undefined;
  flush(): Promise<void>;
}

export function storeCheck(store: StoreHealthSource, opts: { probeEveryMs?: number } = {}): HealthCheck {
  const probeEveryMs = opts.probeEveryMs ?? 5000;
  const dir = dirname(store.file);
  const probeFile = join(dir, `.${basename(store.file)}.health`);
  let probed: { at: number; result: CheckResult } | undefined;

  const probe = async (): Promise<CheckResult> => {
    if (probed && Date.now() - probed.at < probeEveryMs) return probed.result;
    let result: CheckResult;
    try {
      await writeFile(probeFile, `${new Date().toISOString()}\n`);
      await rm(probeFile, { force: true });
      result = { ok: true };
    } catch (err) {
      result = {
        ok: false,
        detail: `cannot write in the state file's directory ${dir} (${errnoCode(err)}); check STATE_FILE, the disk and its permissions`,
      };
    }
    probed = { at: Date.now(), result };
    return result;
  };

  return async () => {
    const p = await probe();
    if (!p.ok) return p;
    if (store.lastWriteError) {
      // The directory takes writes again (or the failure was passing): save what is still unsaved.
      await store.flush().catch(() => undefined);
      const err = store.lastWriteError;
      if (err) {
        return {
          ok: false,
          detail: `the latest save of the state file ${store.file} failed (${errnoCode(err)}); changes are kept in memory only`,
        };
      }
    }
    return { ok: true };
  };
}
