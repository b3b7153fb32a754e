/**
 * Whether Slack still takes the app's token, and the timers that bring stopped watches back.
 *
 * One call answered `invalid_auth`, `token_revoked`, `account_inactive` or `missing_scope` is only a claim: Slack
 * has answered such errors spuriously for a single call. `auth.test` decides. When it agrees (or, for a missing
 * scope, the token's scopes lack the one needed), everything pauses: nothing is posted, the poller skips its cycles
 * (its cursors stay, so nothing is lost), and `auth.test` is asked again every `authRecheckMs` until the token is
 * accepted, when everything recorded meanwhile goes out. When `auth.test` does not agree, the one call is simply
 * tried again later. Nobody can be told by DM while the token is refused: the pause and its end are logged.
 *
 * Every `channelRecheckMs`, channels whose watches Slack refused are looked at again (suspensions.ts), for the
 * events (bot invited back, channel unarchived) the app missed while it was down.
 */
import type { Logger } from '../log.js';
import type { PermanentSlackError } from './poster.js';
import type { TokenCheck } from './ports.js';

export interface SlackHealthDeps {
  /** `auth.test` (given `needed`: and whether the token carries one of those scopes). */
  checkToken(needed?: string): Promise<TokenCheck>;
  logger: Logger;
  authRecheckMs: number;
  channelRecheckMs: number;
  /** The token is accepted again: everything recorded meanwhile goes out. */
  onTokenBack(): void;
  /** Looks at suspended channels again. */
  recheckChannels(): Promise<void>;
}

export class SlackHealth {
  private problem: { code: string; needed?: string; since: number } | undefined;
  private confirming: Promise<boolean> | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  private running = false;

  constructor(private readonly d: SlackHealthDeps) {}

  /** True while Slack refuses the token: nothing is posted and nothing polled. */
  get paused(): boolean {
    return this.problem !== undefined;
  }

  get tokenProblem(): string | undefined {
    return this.problem?.code;
  }

  /**
   * One call was refused as if the token were bad. Resolves true when `auth.test` confirms it (everything is now
   * paused), false when the call should simply be tried again later. Concurrent refusals share one `auth.test`.
   */
  confirmTokenError(err: PermanentSlackError): Promise<boolean> {
    if (this.problem) return Promise.resolve(true);
    this.confirming ??= this.confirm(err).finally(() => {
      this.confirming = undefined;
    });
    return this.confirming;
  }

  private async confirm(err: PermanentSlackError): Promise<boolean> {
    const check = await this.d.checkToken(err.code === 'missing_scope' ? (err.needed ?? '') : undefined);
    if (check.ok === false) {
      this.problem = { code: check.code, since: Date.now(), ...(err.needed ? { needed: err.needed } : {}) };
      this.d.logger.error(
        { error: check.code, channel: err.channel, ...(err.needed ? { needed: err.needed } : {}) },
        check.code === 'missing_scope'
          ? 'the app lacks a Slack scope it needs (auth.test agrees): watching is paused until the app is reinstalled with it'
          : "Slack refuses the app's token (auth.test agrees): watching is paused until the token is accepted again",
      );
      return true;
    }
    this.d.logger.warn(
      { error: err.code, channel: err.channel, ...(check.ok === undefined ? { authTest: check.err } : {}) },
      check.ok
        ? 'Slack refused one call as if the token were bad, but auth.test accepts it: trying that call again later'
        : 'could not ask auth.test about a token refusal: trying that call again later',
    );
    return false;
  }

  /** Asks `auth.test` again while paused; resumes everything once the token is accepted. */
  async recheckToken(): Promise<boolean> {
    const p = this.problem;
    if (!p) return true;
    const check = await this.d.checkToken(p.code === 'missing_scope' ? (p.needed ?? '') : undefined);
    if (check.ok !== true) return false;
    this.problem = undefined;
    this.d.logger.warn(
      { error: p.code, pausedSeconds: Math.round((Date.now() - p.since) / 1000) },
      'Slack accepts the app token again: watching resumes',
    );
    this.d.onTokenBack();
    return true;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.every(this.d.authRecheckMs, () => this.recheckToken());
    this.every(this.d.channelRecheckMs, () => (this.paused ? Promise.resolve() : this.d.recheckChannels()));
  }

  stop(): void {
    this.running = false;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  /** Runs `fn` every `ms` (one at a time; the next wait starts when it ends). */
  private every(ms: number, fn: () => Promise<unknown>): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn()
        .catch((err: unknown) => this.d.logger.warn({ err: String(err) }, 'a Slack health check failed'))
        .finally(() => {
          if (this.running) this.every(ms, fn);
        });
    }, ms);
    t.unref?.();
    this.timers.add(t);
  }
}
