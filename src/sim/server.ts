/**
 * The simulator of the Campaign Outreach Service: an HTTP server on 127.0.0.1 answering the spec's 17 endpoints
 * under /api/v1.0 (plus the recording path), with authentication, per-organization data, the rate limit, the
 * Idempotency-Key dedup, fault and latency injection, a request log, and the /_sim/ control mirror.
 *
 * Per request: latency -> hold ("before") -> injected fault ("before") -> route -> auth (401) -> rate limit (429) ->
 * idempotent replay -> handler -> idempotency record -> hold ("after") -> injected fault ("after") -> response ->
 * request log.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_VERSION_PATH, RATE_LIMIT_PER_SECOND } from '../outreach/unspecified.js';
import { createControl, type RecordedRequest, type SimControl } from './control.js';
import { handleControlHttp } from './control-http.js';
import { SandboxDriver } from './driver.js';
import { campaignError, genericError, SimError, type SimResponse } from './errors.js';
import { FaultBook, type FaultSpec } from './faults.js';
import { SimState } from './model.js';
import { SlidingWindowLimiter } from './ratelimit.js';
import { matchRoute, type Route } from './routes.js';
import { seedSandbox, type SandboxOptions } from './sandbox.js';
import { InvalidJson } from './validate.js';

const DEFAULT_API_KEY = 'sim-key';
export const DEFAULT_ORG = 'org-sim';
/** Dedup window of Idempotency-Key (not shown by the spec; our choice). */
const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
const MAX_BODY_BYTES = 10 * 1024 * 1024;
const MAX_LOGGED_REQUESTS = 10_000;

export interface SimulatorOptions {
  /** Default 0 (any free port). */
  port?: number;
  host?: '127.0.0.1';
  /** API key -> organization id. Default `{ 'sim-key': 'org-sim' }`. */
  orgs?: Record<string, string>;
  /** Requests per sliding second per API key on RATE_LIMITED_ENDPOINTS (default 12); false: no limit. */
  rateLimitPerSecond?: number | false;
  /** Demo data and live driver; `true` uses the defaults of SandboxOptions. */
  sandbox?: boolean | SandboxOptions;
  /** Time source of every timestamp, the rate limit window and the idempotency window. */
  clock?: () => Date;
  /** Default IDEMPOTENCY_WINDOW_MS (24 h). */
  idempotencyWindowMs?: number;
  /** How long the campaign list's total_count is cached per filter set (the service: 3 min). Default 0: fresh. */
  totalCountCacheMs?: number;
}

export interface Simulator {
  /** e.g. `http://127.0.0.1:4010/api/v1.0` */
  baseUrl: string;
  /** e.g. `http://127.0.0.1:4010` (the control mirror is at `${origin}/_sim/`). */
  origin: string;
  /** The first API key of `orgs`. */
  apiKey: string;
  control: SimControl;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(genericError(413, `Request body larger than ${MAX_BODY_BYTES} bytes.`));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    return new InvalidJson((e as Error).message);
  }
}

function queryObject(q: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of q) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

function redactedHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    const value = Array.isArray(v) ? v.join(', ') : v;
    out[k] = k === 'authorization' ? `${value.split(' ')[0] ?? ''} [redacted]` : value;
  }
  return out;
}

function faultResponse(f: FaultSpec, family: Route['family'] | null): SimResponse {
  const headers: Record<string, string> = {};
  if (f.retryAfter !== undefined || f.status === 429) headers['Retry-After'] = String(f.retryAfter ?? 1);
  if (f.body !== undefined) return { status: f.status, body: f.body, headers };
  /** The route family's envelope: the campaign one with its code, or the generic one with the status. */
  const inFamily = (code: 'INVALID_REQUEST' | 'SERVER_ERROR', message: string): SimResponse => ({
    ...(family === 'campaign' ? campaignError(code, message) : genericError(f.status, message)).response,
    headers,
  });
  switch (f.status) {
    case 400:
      return inFamily('INVALID_REQUEST', 'Invalid request (injected).');
    case 402:
      return {
        ...campaignError('BILLING_LIMIT_REACHED', "The organization's plan limit has been reached (injected).")
          .response,
        headers,
      };
    case 429:
      return {
        ...campaignError('RATE_LIMITED', 'Too many requests: retry after the Retry-After delay.').response,
        headers,
      };
    case 500:
      return inFamily('SERVER_ERROR', 'Internal server error (injected).');
    default: {
      const text = f.status === 502 ? 'Bad Gateway' : 'Service Unavailable';
      return {
        status: f.status,
        headers,
        raw: { contentType: 'text/html', data: `<html><body><h1>${f.status} ${text}</h1></body></html>\n` },
      };
    }
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What serving a request needs: the state and everything around it. */
interface Serving {
  state: SimState;
  faults: FaultBook;
  limiter: SlidingWindowLimiter;
  clock: () => Date;
  idemWindow: number;
  log: RecordedRequest[];
  control: SimControl;
  apiKey: string;
  baseUrl(): string;
}

export async function startSimulator(opts: SimulatorOptions = {}): Promise<Simulator> {
  const orgs = opts.orgs ?? { [DEFAULT_API_KEY]: DEFAULT_ORG };
  const apiKey = Object.keys(orgs)[0];
  if (apiKey === undefined) throw new Error('startSimulator: orgs needs at least one API key.');
  const clock = opts.clock ?? (() => new Date());
  const state = new SimState(orgs, clock);
  state.totalCountCacheMs = opts.totalCountCacheMs ?? 0;
  const faults = new FaultBook();
  const limiter = new SlidingWindowLimiter(
    opts.rateLimitPerSecond === undefined ? RATE_LIMIT_PER_SECOND : opts.rateLimitPerSecond,
    () => clock().getTime(),
  );
  const sandbox: SandboxOptions | null = opts.sandbox ? (opts.sandbox === true ? {} : opts.sandbox) : null;
  const driver = new SandboxDriver(state, { seed: sandbox?.seed, cooldownMs: sandbox?.cooldownMs });
  const log: RecordedRequest[] = [];
  const control: SimControl = createControl({
    state,
    faults,
    limiter,
    log,
    driver,
    afterReset: () => {
      if (sandbox) seedSandbox(state, control, driver);
    },
  });
  if (sandbox) seedSandbox(state, control, driver);

  let origin = '';
  const baseUrl = () => `${origin}${API_VERSION_PATH}`;
  const idemWindow = opts.idempotencyWindowMs ?? IDEMPOTENCY_WINDOW_MS;
  const serving: Serving = { state, faults, limiter, clock, idemWindow, log, control, apiKey, baseUrl };
  const server: Server = createServer((req, res) => void handleRequest(serving, req, res));
  origin = await listen(server, opts);

  const live = sandbox !== null && sandbox.live !== false;
  const timer = live ? setInterval(() => control.tick(), sandbox?.tickMs ?? 1500) : null;
  timer?.unref();

  return {
    baseUrl: baseUrl(),
    origin,
    apiKey,
    control,
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (timer) clearInterval(timer);
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** Listens on `opts.port` (any free one by default) of 127.0.0.1; resolves to the origin. */
async function listen(server: Server, opts: SimulatorOptions): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** One request: the control mirror under /_sim/, or the API (answered, then recorded in the request log). */
async function handleRequest(s: Serving, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname === '/_sim' || url.pathname.startsWith('/_sim/')) {
    let body: unknown;
    try {
      body = parseJson((await readBody(req)).toString('utf8'));
    } catch {
      body = undefined;
    }
    send(res, handleControlHttp(s.control, req.method ?? 'GET', url, body, { baseUrl: s.baseUrl(), apiKey: s.apiKey }));
    return;
  }
  const entry: RecordedRequest = {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: queryObject(url.searchParams),
    headers: redactedHeaders(req),
    body: undefined,
    status: 0,
    at: s.clock().toISOString(),
    route: null,
    org: null,
    replayed: false,
  };
  let response: SimResponse;
  try {
    const raw = await readBody(req);
    const parsed = parseJson(raw.toString('utf8'));
    entry.body = parsed instanceof InvalidJson ? raw.toString('utf8') : parsed;
    response = await serve(s, req, url, raw, entry);
  } catch (e) {
    response =
      e instanceof SimError
        ? e.response
        : genericError(500, `Simulator error: ${e instanceof Error ? e.message : String(e)}`).response;
  }
  entry.status = response.status;
  s.log.push(entry);
  if (s.log.length > MAX_LOGGED_REQUESTS) s.log.splice(0, s.log.length - MAX_LOGGED_REQUESTS);
  if (!res.destroyed) send(res, response);
}

/** An API request, in the order at the top of the file; `entry` gets its route and organization. */
async function serve(
  s: Serving,
  req: IncomingMessage,
  url: URL,
  raw: Buffer,
  entry: RecordedRequest,
): Promise<SimResponse> {
  const method = req.method ?? 'GET';
  const target = `${method} ${url.pathname}`;
  const delay = s.faults.latencyFor(target);
  if (delay > 0) await sleep(delay);
  const base = url.pathname === API_VERSION_PATH || url.pathname.startsWith(`${API_VERSION_PATH}/`);
  const rel = base ? url.pathname.slice(API_VERSION_PATH.length).replace(/\/+$/, '') || '/' : null;
  const match = rel === null ? ({ kind: 'none' } as const) : matchRoute(method, rel);
  const route = match.kind === 'found' ? match.route : null;
  entry.route = route?.name ?? null;

  const header = req.headers['idempotency-key'];
  const idempotencyKey = typeof header === 'string' && header !== '' ? header : undefined;
  if (!(await s.faults.passHold(target, 'before', idempotencyKey))) {
    return genericError(503, 'The request was lost before the service handled it (simulated).').response;
  }
  const early = s.faults.take(target, 'before');
  if (early) return faultResponse(early, route?.family ?? (rel?.startsWith('/campaigns') ? 'campaign' : 'generic'));

  if (match.kind === 'none') return genericError(404, `Not found: ${method} ${url.pathname}`).response;
  if (match.kind === 'method')
    return {
      ...genericError(405, `Method ${method} not allowed on ${url.pathname}; use ${match.allowed.join(', ')}.`)
        .response,
      headers: { Allow: match.allowed.join(', ') },
    };
  const r = match.route;
  const caller = authenticate(s, req);
  if ('refused' in caller) return caller.refused;
  entry.org = caller.org;
  if (r.rateLimited) {
    const wait = s.limiter.take(caller.key);
    if (wait !== null)
      return {
        ...campaignError('RATE_LIMITED', `Rate limit exceeded: at most ${String(s.limiter.limit)} requests per second.`)
          .response,
        headers: { 'Retry-After': String(wait) },
      };
  }
  const replayable = r.idempotent ? idempotencyKey : undefined;
  const res = answerOnce(s, replayable, `${method} ${rel}`, caller.org, entry, () =>
    r.handler({
      state: s.state,
      org: caller.org,
      params: match.params,
      query: url.searchParams,
      body: parseJson(raw.toString('utf8')),
    }),
  );
  await s.faults.passHold(target, 'after', idempotencyKey);
  const late = s.faults.take(target, 'after');
  return late ? faultResponse(late, r.family) : res;
}

/** The organization of the request's API key, or the 401 that refuses it. */
function authenticate(s: Serving, req: IncomingMessage): { key: string; org: string } | { refused: SimResponse } {
  const auth = /^api-key (\S+)$/i.exec(req.headers.authorization ?? '');
  const org = auth ? s.state.orgByKey.get(auth[1] as string) : undefined;
  if (auth && org !== undefined) return { key: auth[1] as string, org };
  return {
    refused: {
      ...genericError(
        401,
        auth
          ? 'Invalid API key: check the key sent in "Authorization: api-key <API_KEY>".'
          : 'Missing or malformed credentials: send the header "Authorization: api-key <API_KEY>".',
      ).response,
      headers: { 'WWW-Authenticate': 'api-key' },
    },
  };
}

/**
 * Runs the route's handler, or replays the answer to an earlier request with the same Idempotency-Key `key` (given
 * on a route that honours it), within the window; a new answer below 500 is kept for the window.
 */
function answerOnce(
  s: Serving,
  key: string | undefined,
  target: string,
  org: string,
  entry: RecordedRequest,
  handle: () => SimResponse,
): SimResponse {
  const idemKey = key === undefined ? null : `${org}\n${target}\n${key}`;
  const now = s.clock().getTime();
  const idempotency = s.state.idempotency;
  if (idemKey) {
    const prior = idempotency.get(idemKey);
    if (prior && now - prior.at < s.idemWindow) {
      entry.replayed = true;
      return { status: prior.status, body: structuredClone(prior.body), headers: { 'Idempotent-Replayed': 'true' } };
    }
  }
  let res: SimResponse;
  try {
    res = handle();
  } catch (e) {
    if (!(e instanceof SimError)) throw e;
    res = e.response;
  }
  if (idemKey && res.status < 500) {
    for (const [k, v] of idempotency) if (now - v.at >= s.idemWindow) idempotency.delete(k);
    idempotency.set(idemKey, { status: res.status, body: structuredClone(res.body), at: now });
  }
  return res;
}

function send(res: ServerResponse, r: SimResponse): void {
  const headers: Record<string, string | number> = { ...(r.headers ?? {}) };
  let payload: Buffer | string = '';
  if (r.raw) {
    headers['Content-Type'] = r.raw.contentType;
    payload = r.raw.data;
  } else if (r.status !== 204 && r.body !== undefined) {
    headers['Content-Type'] = 'application/json; charset=utf-8';
    payload = JSON.stringify(r.body);
  }
  headers['Content-Length'] = Buffer.byteLength(payload);
  res.writeHead(r.status, headers);
  res.end(payload);
}
