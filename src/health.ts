/**
 * What GET /healthz reports: whether the app can do its job, check by check, not only that it is listening.
 *
 * - `store`: the state file's directory takes a write (a small probe file, written and removed at most every few
 *   seconds), and the latest save of the state did not fail (after a failed save, the unsaved changes are written
 *   again before answering).
 * - `slack_auth`: Slack accepts the app's tokens, from a cached `auth.test` refreshed periodically and from the
 *   answers of every real Web API call: an auth failure (invalid_auth, token_revoked, account_inactive...) on a call
 *   with the bot token has `auth.test` asked at once (Slack has answered such errors spuriously for single calls),
 *   and on the app-level token (Socket Mode's connection) it counts as is; any other answer shows the token works.
 *
 * A failing check makes /healthz answer 503 with a body naming it and saying what is wrong, never a secret.
 */
import { rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Logger } from './log.js';
import { AUTH_FAILURE_CODES, type TokenKind } from './slack/observe.js';

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

const TOKEN_NAMES: Record<TokenKind, { what: string; variable: string }> = {
  bot: { what: 'the bot token', variable: 'SLACK_BOT_TOKEN' },
  app: { what: 'the app-level token', variable: 'SLACK_APP_TOKEN' },
};

export interface SlackAuthMonitorOptions {
  /** Calls Slack's auth.test with the bot token (rejects with the Web API's error). */
  authTest: () => Promise<unknown>;
  /** Between two auth.test calls. */
  intervalMs: number;
  logger?: Logger;
}

/** Whether Slack accepts the app's tokens (see the top of the file). */
export class SlackAuthMonitor {
  private readonly failures = new Map<TokenKind, string>();
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;

  constructor(private readonly opts: SlackAuthMonitorOptions) {}

  /** Tests the bot token now, then every `intervalMs`. */
  start(): void {
    if (this.timer) return;
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.opts.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.inFlight;
  }

  /**
   * Slack answered a call made with this token (see observedFetch): an auth failure code, or undefined when the
   * answer shows the token works. A bot-token failure on another method than auth.test is confirmed by auth.test.
   */
  noteCall(token: TokenKind, method: string, error: string | undefined): void {
    if (error !== undefined && token === 'bot' && method !== 'auth.test') void this.refresh();
    else this.noteResult(token, error);
  }

  private noteResult(token: TokenKind, error: string | undefined): void {
    const had = this.failures.get(token);
    if (error !== undefined && AUTH_FAILURE_CODES.has(error)) {
      this.failures.set(token, error);
      if (had !== error) this.opts.logger?.error({ token, error }, `Slack refused ${TOKEN_NAMES[token].what}`);
    } else if (error === undefined && had !== undefined) {
      this.failures.delete(token);
      this.opts.logger?.info({ token }, `Slack accepts ${TOKEN_NAMES[token].what} again`);
    }
  }

  /** Calls auth.test once (joins a call in flight). */
  refresh(): Promise<void> {
    this.inFlight ??= this.opts
      .authTest()
      .then(
        () => this.noteResult('bot', undefined),
        (err: unknown) => {
          const code = (err as { data?: { error?: unknown } })?.data?.error;
          // A network error or an outage says nothing about the token.
          if (typeof code === 'string' && AUTH_FAILURE_CODES.has(code)) this.noteResult('bot', code);
          else this.opts.logger?.warn({ err: String(err) }, 'could not check the Slack token (auth.test)');
        },
      )
      .finally(() => {
        this.inFlight = undefined;
      });
    return this.inFlight;
  }

  check(): CheckResult {
    if (this.failures.size === 0) return { ok: true };
    const detail = [...this.failures]
      .map(
        ([token, code]) =>
          `Slack refuses ${TOKEN_NAMES[token].what} (${code}): reinstall the app or set ${TOKEN_NAMES[token].variable} to a valid token`,
      )
      .join('; ');
    return { ok: false, detail };
  }
}
