/**
 * The one retry policy of the app's Slack Web API calls, set explicitly in HTTP and in Socket Mode alike.
 *
 * It must be explicit: in Socket Mode Bolt hands the socket client the app's `clientOptions`, and
 * `@slack/socket-mode` writes `retryConfig = { retries: 100, factor: 1.3 }` into that object when it has none, which
 * every listener's client then inherits (a failing call retried for hours). So the listeners' clients get this
 * policy, and the socket client gets its own copy of the options with its own reconnect policy below.
 *
 * What is tried again, at most `retries` times, waiting `minTimeout` doubling up to `maxTimeout` (randomized):
 * - 429: @slack/web-api first waits the `Retry-After` Slack sent (and holds the client's other calls meanwhile); a
 *   429 means Slack did not carry the call out, so sending it again is safe.
 * - The request never reached Slack (connection refused, name not resolved, connect timeout).
 * Not tried again: anything that may have reached Slack (an HTTP 5xx, a timeout or a connection cut after sending).
 * Slack's Web API has no idempotency keys, so repeating such a call could post a message twice; the error goes to
 * the caller, which knows whether sending again is safe (the watch poster looks its post up first; a person sees
 * the failure and can try again). Platform errors (`ok: false`) are answers, never retried.
 */
import type { FetchFunction, RetryOptions } from '@slack/web-api';

export interface SlackRetryTuning {
  /** Retries after the first attempt. */
  retries: number;
  /** First wait between attempts, ms (after a 429: on top of Retry-After). */
  minTimeout: number;
  /** Longest wait between attempts, ms. */
  maxTimeout: number;
  factor: number;
  /** Multiply each wait by a random 1-2 so that many clients do not retry in step. */
  randomize: boolean;
}

/** Few retries, bounded backoff: a call that still fails after ~15 s (plus Retry-After waits) fails for good. */
export const SLACK_RETRY_POLICY: Readonly<SlackRetryTuning> = Object.freeze({
  retries: 3,
  minTimeout: 1_000,
  maxTimeout: 8_000,
  factor: 2,
  randomize: true,
});

/**
 * apps.connections.open, called by the Socket Mode client to (re)connect: it only hands out a WebSocket URL, so
 * repeating it is always safe; it is retried for as long as Slack is unreachable, every 30 s at most, so the app
 * comes back by itself after an outage (a bad app token is an `ok: false` answer and fails at once).
 */
export const SOCKET_RECONNECT_RETRY_POLICY: Readonly<RetryOptions> = Object.freeze({
  forever: true,
  retries: 12,
  minTimeout: 1_000,
  maxTimeout: 30_000,
  factor: 1.5,
  randomize: true,
});

/** Error codes of a request that never left this machine or never reached Slack. */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** A Web API request that never reached Slack (refused, name not resolved, connect timeout): safe to send again. */
export class SlackNotReachedError extends Error {
  override name = 'SlackNotReachedError';
}

function neverSent(err: unknown, depth = 0): boolean {
  if (typeof err !== 'object' || err === null || depth > 5) return false;
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && NOT_SENT.has(e.code)) return true;
  // undici: TypeError('fetch failed', { cause }); dual-stack connects fail with an AggregateError of attempts.
  if (Array.isArray(e.errors) && e.errors.length > 0 && e.errors.every((x) => neverSent(x, depth + 1))) return true;
  return neverSent(e.cause, depth + 1);
}

/**
 * Wraps the `fetch` of the app's Web API clients (default: the global one) so that a request that never reached
 * Slack fails with SlackNotReachedError. The network error is judged here, while it is whole: @slack/web-api wraps
 * it in a `slack_webapi_request_error`, and keeps only its text when it comes from another realm (as under jest).
 */
export function notReachedFetch(inner: FetchFunction = (url, init) => fetch(url, init)): FetchFunction {
  return async (url, init) => {
    try {
      return await inner(url, init);
    } catch (err) {
      if (neverSent(err)) throw new SlackNotReachedError(`Slack was not reached: ${errorText(err)}`, { cause: err });
      throw err;
    }
  };
}

function errorText(err: unknown): string {
  const e = err as { message?: unknown; cause?: { message?: unknown } };
  return String(e?.cause?.message ?? e?.message ?? err);
}

/** What @slack/web-api throws, after waiting Retry-After, to have a 429'd call sent again. */
const RATE_LIMIT_SIGNAL = /^A rate limit was exceeded/;

/**
 * Whether a failed attempt of a Web API call may be sent again. @slack/web-api's attempts fail with
 * `slack_webapi_http_error` (an answer other than 200 or 429) or `slack_webapi_request_error` wrapping what went
 * wrong: no answer (SlackNotReachedError when the request never reached Slack), or its rate-limit signal.
 */
export function slackAttemptMayBeRepeated(err: unknown): boolean {
  const e = err as { code?: unknown; original?: unknown } | null;
  if (e?.code === 'slack_webapi_http_error') return false;
  const cause = e?.code === 'slack_webapi_request_error' ? e.original : err;
  if (cause instanceof SlackNotReachedError) return true;
  const message = (cause as { message?: unknown } | null)?.message;
  return typeof message === 'string' && RATE_LIMIT_SIGNAL.test(message);
}

/**
 * The WebClient options of the policy: `retryConfig`, and the `fetch` (wrapping `inner`) that tells requests that
 * never reached Slack apart.
 */
export function slackRetryClientOptions(
  tuning: Partial<SlackRetryTuning> = {},
  inner?: FetchFunction,
): { retryConfig: RetryOptions; fetch: FetchFunction } {
  return { retryConfig: slackRetryConfig(tuning), fetch: notReachedFetch(inner) };
}

/**
 * The WebClient `retryConfig` of the policy (tests shorten the waits or set retries to 0). @slack/web-api passes it
 * to p-retry, whose `onFailedAttempt` ends the retries by throwing the attempt's error.
 */
function slackRetryConfig(tuning: Partial<SlackRetryTuning> = {}): RetryOptions {
  const config: RetryOptions & { onFailedAttempt(err: Error): void } = {
    ...SLACK_RETRY_POLICY,
    ...tuning,
    onFailedAttempt(err: Error) {
      if (!slackAttemptMayBeRepeated(err)) throw err;
    },
  };
  return config;
}
