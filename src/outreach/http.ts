/**
 * One HTTP attempt against the service over a keep-alive undici Pool: builds the request, applies the connect and
 * response timeouts, reads the whole body, and turns transport failures into `OutreachError`s of kind 'network' or
 * 'timeout'. Retries, rate limiting and validation live in client.ts.
 */
import { Pool } from 'undici';
import { OutreachError, OutreachInputError, type ErrorSubject } from './errors.js';
import { API_VERSION_PATH } from './unspecified.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface HttpTransportOptions {
  /** Must end with `/api/v1.0` (a trailing slash is accepted). */
  baseUrl: string;
  connectTimeoutMs: number;
  /** Whole response (headers and body) after the request is sent. */
  responseTimeoutMs: number;
  /** Sent on every request (Authorization lives here). */
  headers: Record<string, string>;
  /** Largest response body accepted, bytes. */
  maxResponseBytes?: number;
}

export interface HttpRequest {
  method: HttpMethod;
  /** Path below the base URL, starting with '/', segments already encoded. */
  path: string;
  query?: URLSearchParams;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** For errors. */
  endpoint: string;
  subject?: ErrorSubject;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Codes of failures that happen before the request is written: the service certainly did not receive it. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
]);
const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

/** Parses and checks the base URL; returns the origin and the path prefix (without trailing slash). */
function parseBaseUrl(baseUrl: string): { origin: string; prefix: string } {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new OutreachInputError(
      `The outreach base URL "${baseUrl}" is not a valid URL; set it like https://host.example${API_VERSION_PATH}.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutreachInputError(`The outreach base URL must start with https:// (or http:// for a local simulator).`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new OutreachInputError(
      `The outreach base URL must not carry credentials, a query or a fragment; give only https://host${API_VERSION_PATH}.`,
    );
  }
  const prefix = url.pathname.replace(/\/+$/, '');
  if (!prefix.endsWith(API_VERSION_PATH)) {
    throw new OutreachInputError(
      `The outreach base URL must end with ${API_VERSION_PATH} (for example https://${url.host}${API_VERSION_PATH}).`,
    );
  }
  return { origin: url.origin, prefix };
}

/**
 * `Retry-After` in milliseconds: delay-seconds (decimals tolerated) or an HTTP date. Undefined when absent or
 * unreadable.
 */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const v = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!v) return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function errorCode(e: unknown): string | undefined {
  for (let cur: unknown = e, depth = 0; cur && depth < 4; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

export class HttpTransport {
  private readonly pool: Pool;
  private readonly prefix: string;
  private readonly opts: HttpTransportOptions;

  constructor(opts: HttpTransportOptions) {
    this.opts = opts;
    const { origin, prefix } = parseBaseUrl(opts.baseUrl);
    this.prefix = prefix;
    this.pool = new Pool(origin, {
      connectTimeout: opts.connectTimeoutMs,
      headersTimeout: opts.responseTimeoutMs,
      bodyTimeout: opts.responseTimeoutMs,
      keepAliveTimeout: 10_000,
      maxResponseSize: opts.maxResponseBytes ?? 32 * 1024 * 1024,
    });
  }

  async send(req: HttpRequest): Promise<HttpResponse> {
    const mutating = req.method !== 'GET';
    const headers: Record<string, string> = { accept: 'application/json', ...this.opts.headers, ...req.headers };
    let body: string | undefined;
    if (req.body !== undefined) {
      body = JSON.stringify(req.body);
      headers['content-type'] = 'application/json';
    }
    const qs = req.query?.toString();
    const path = `${this.prefix}${req.path}${qs ? `?${qs}` : ''}`;

    // headersTimeout/bodyTimeout bound each wait; this deadline bounds the whole exchange (a body trickled byte by
    // byte would otherwise never time out).
    const deadline = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      deadline.abort();
    }, this.opts.connectTimeoutMs + this.opts.responseTimeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, deadline.signal]) : deadline.signal;

    try {
      const res = await this.pool.request({ method: req.method, path, headers, body, signal });
      const text = await res.body.text();
      return { status: res.statusCode, headers: res.headers, text };
    } catch (e) {
      if (req.signal?.aborted) throw req.signal.reason ?? e;
      const code = timedOut ? 'DEADLINE' : errorCode(e);
      const notSent = code !== undefined && NOT_SENT_CODES.has(code);
      const isTimeout = timedOut || (code !== undefined && TIMEOUT_CODES.has(code));
      throw new OutreachError({
        kind: isTimeout ? 'timeout' : 'network',
        endpoint: req.endpoint,
        code,
        detail: timedOut
          ? `no complete answer within ${this.opts.connectTimeoutMs + this.opts.responseTimeoutMs} ms`
          : undefined,
        subject: req.subject,
        mayHaveBeenApplied: mutating && !notSent,
        cause: e,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}
