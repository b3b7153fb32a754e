/**
 * The `slack_auth` check of /healthz: Slack accepts the app's tokens, from a cached `auth.test` refreshed periodically
 * and from the answers of every real Web API call: an auth failure (invalid_auth, token_revoked, account_inactive...)
 * on a call with the bot token has `auth.test` asked at once (Slack has answered such errors spuriously for single
 * calls), and on the app-level token (Socket Mode's connection) it counts as is; any other answer shows the token
 * works.
 */
import type { CheckResult } from '../health.js';
import type { Logger } from '../log.js';
import { AUTH_FAILURE_CODES, type TokenKind } from './platform.js';

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
