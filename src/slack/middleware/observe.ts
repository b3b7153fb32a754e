/**
 * Watching the app's traffic with Slack from two single places, for metrics and /healthz:
 *
 * - `timeAcks`: every request Bolt's receiver (HTTP or Socket Mode) hands the app goes through `App.processEvent`
 *   with its `ack`; wrapping that one method times each request from its arrival in the app to its ack, whatever
 *   listener acks it (or Bolt itself, for events).
 * - `observedFetch`: every Web API call of every WebClient Bolt creates (the app's, the per-request ones, the Socket
 *   Mode client's) goes through the `fetch` of the clientOptions; wrapping it counts calls and errors by method and
 *   reports authentication failures (invalid_auth, token_revoked, ...) of the bot and app tokens as they are seen.
 */
import type { App, ReceiverEvent } from '@slack/bolt';
import type { FetchFunction } from '@slack/web-api';
import type { AckSurface, SlackApiExchange } from '../../metrics.js';
import { AUTH_FAILURE_CODES, type TokenKind } from '../platform.js';

/** Which Slack surface a request body comes from (HTTP and Socket Mode bodies have the same shape). */
function surfaceOf(body: Record<string, unknown> | undefined): AckSurface {
  if (!body) return 'other';
  if (typeof body.command === 'string') return 'command';
  switch (body.type) {
    case 'block_actions':
    case 'interactive_message':
      return 'action';
    case 'view_submission':
      return 'view_submission';
    case 'view_closed':
      return 'view_closed';
    case 'block_suggestion':
    case 'dialog_suggestion':
      return 'options';
    case 'shortcut':
    case 'message_action':
      return 'shortcut';
    case 'event_callback':
      return 'event';
    default:
      return 'other';
  }
}

/** Calls `observe` once per request with the seconds from its arrival in the app to its first ack. */
export function timeAcks(app: App, observe: (surface: AckSurface, seconds: number) => void): void {
  const processEvent = app.processEvent.bind(app);
  app.processEvent = (event: ReceiverEvent) => {
    const started = performance.now();
    const surface = surfaceOf(event.body);
    const ack = event.ack;
    let acked = false;
    return processEvent({
      ...event,
      ack: (response?: unknown) => {
        if (!acked) {
          acked = true;
          observe(surface, (performance.now() - started) / 1000);
        }
        return ack(response);
      },
    });
  };
}

type FetchResponse = Awaited<ReturnType<FetchFunction>>;

export interface ObservedFetchOptions {
  /** The Web API base URL (ends with `/`): the method is the rest of the URL. */
  slackApiUrl: string;
  botToken: string;
  appToken?: string;
  onCall?: (x: SlackApiExchange) => void;
  /**
   * Slack's API answered a call made with the bot or app token: `error` is an auth failure code (invalid_auth...),
   * or undefined when the answer shows the token works (ok, or another error such as channel_not_found).
   */
  onTokenResult?: (token: TokenKind, method: string, error: string | undefined) => void;
  /** Default: the global fetch. */
  fetch?: FetchFunction;
}

function methodOf(url: string, base: string): string {
  if (!url.startsWith(base)) return 'other';
  return url.slice(base.length).split(/[?#]/, 1)[0] ?? 'other';
}

/** What an answer says: `error` as labelled in metrics; `answered` when Slack's API itself answered (ok or not). */
async function outcomeOf(
  res: FetchResponse & { clone?: () => FetchResponse },
): Promise<{ error?: string; answered: boolean }> {
  if (res.status === 429) return { error: 'ratelimited', answered: false };
  if (res.status !== 200) return { error: `http_${res.status}`, answered: false };
  if (!res.headers.get('content-type')?.includes('json') || !res.clone) return { answered: false };
  try {
    // A copy: WebClient reads the body itself.
    const body = (await res.clone().json()) as { ok?: unknown; error?: unknown };
    if (body?.ok === false) return { error: typeof body.error === 'string' ? body.error : 'unknown', answered: true };
    return { answered: true };
  } catch {
    // Not JSON after all: WebClient reports that itself.
    return { answered: false };
  }
}

/** A `fetch` for the WebClients' options that reports every Web API request (see the top of the file). */
export function observedFetch(opts: ObservedFetchOptions): FetchFunction {
  const base = opts.fetch ?? (globalThis.fetch as unknown as FetchFunction);
  const bearer = (t: string | undefined) => (t ? `Bearer ${t}` : undefined);
  const botAuth = bearer(opts.botToken);
  const appAuth = bearer(opts.appToken);
  return async (url, init) => {
    const href = String(url);
    const method = methodOf(href, opts.slackApiUrl);
    const auth = init?.headers?.Authorization ?? init?.headers?.authorization;
    const token: TokenKind | undefined = auth === botAuth ? 'bot' : appAuth && auth === appAuth ? 'app' : undefined;
    const started = performance.now();
    let res: FetchResponse;
    try {
      res = await base(url, init);
    } catch (err) {
      opts.onCall?.({ method, seconds: (performance.now() - started) / 1000, error: 'request_failed' });
      throw err;
    }
    // An upload to a files host answers with text; only a Web API method's answer is read.
    const { error, answered } = method === 'other' && res.status === 200 ? { answered: false } : await outcomeOf(res);
    opts.onCall?.({ method, seconds: (performance.now() - started) / 1000, ...(error ? { error } : {}) });
    // Any answer of the API but an auth failure (ok, or e.g. channel_not_found) shows that the token works.
    if (token && answered) {
      opts.onTokenResult?.(token, method, error && AUTH_FAILURE_CODES.has(error) ? error : undefined);
    }
    return res;
  };
}
