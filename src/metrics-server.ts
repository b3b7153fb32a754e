/**
 * The operators' endpoints: GET /metrics (Prometheus text) and GET /healthz/details (every check of /healthz with
 * what is wrong, and whether this replica leads). They are never public by default:
 *
 * - Their own listener, METRICS_HOST:METRICS_PORT (127.0.0.1:9464 unless set), serves both without a token; a
 *   non-loopback METRICS_HOST is logged as a warning at start (src/main.ts).
 * - On PORT, the port Slack reaches, they are served only when METRICS_TOKEN is set, and only to a request carrying
 *   `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time); without the token they are not routes there.
 *
 * The public GET /healthz on PORT (src/slack/app.ts) says only ok or unavailable.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { isIP, type AddressInfo } from 'node:net';
import type { HealthReport } from './health.js';
import type { AppMetrics } from './metrics.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** What the endpoints read: the app's metrics and its health report. */
export interface OperatorSources {
  metrics: AppMetrics;
  health: { report(): Promise<HealthReport> };
}

const METRICS_PATH = '/metrics';
const HEALTH_DETAILS_PATH = '/healthz/details';

function metricsHandler(metrics: AppMetrics): Handler {
  return (_req, res) => {
    metrics.text().then(
      (text) => {
        res.writeHead(200, { 'Content-Type': metrics.contentType, 'Cache-Control': 'no-store' });
        res.end(text);
      },
      () => {
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end('collecting the metrics failed; see the logs\n');
      },
    );
  };
}

/** The full report: 200 when every check passes, else 503, each check with its detail. */
function healthDetailsHandler(health: OperatorSources['health']): Handler {
  return (_req, res) => {
    void health
      .report()
      .catch((): HealthReport => ({ ok: false, checks: { health: { ok: false, detail: 'the checks failed to run' } } }))
      .then((r) => {
        res.writeHead(r.ok ? 200 : 503, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
        res.end(JSON.stringify(r));
      });
  };
}

/** Path → handler of every operator endpoint. */
function operatorHandlers(sources: OperatorSources): Record<string, Handler> {
  return {
    [METRICS_PATH]: metricsHandler(sources.metrics),
    [HEALTH_DETAILS_PATH]: healthDetailsHandler(sources.health),
  };
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * Whether the request carries `Authorization: Bearer <token>`. Both sides are hashed first, so the comparison takes
 * the same time whatever the length or the first differing character of what was sent.
 */
function hasBearer(req: IncomingMessage, token: string): boolean {
  const sent = /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(sent), digest(token));
}

function requireBearer(token: string, handler: Handler): Handler {
  return (req, res) => {
    if (hasBearer(req, token)) return handler(req, res);
    res.writeHead(401, {
      'Content-Type': 'text/plain',
      'WWW-Authenticate': 'Bearer realm="outreach-slack operators"',
      'Cache-Control': 'no-store',
    });
    res.end('unauthorized: send Authorization: Bearer <METRICS_TOKEN>\n');
  };
}

/** A route of Bolt's receivers (`customRoutes`), the shape both the HTTP and the Socket Mode receiver take. */
export interface OperatorRoute {
  path: string;
  method: string[];
  handler: Handler;
}

/** The operator endpoints served on PORT: behind the bearer token when one is set, none otherwise. */
export function publicPortRoutes(token: string | undefined, sources: OperatorSources): OperatorRoute[] {
  if (!token) return [];
  return Object.entries(operatorHandlers(sources)).map(([path, handler]) => ({
    path,
    method: ['GET'],
    handler: requireBearer(token, handler),
  }));
}

/** 127.0.0.0/8, ::1 (and IPv4-mapped loopback) and `localhost`: reachable from this host only. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h === '::1') return true;
  const v4 = h.startsWith('::ffff:') ? h.slice('::ffff:'.length) : h;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

export interface MetricsServer {
  /** The address and port it listens on (the port chosen when asked for 0). */
  host: string;
  port: number;
  close(): Promise<void>;
}

function explainListenError(host: string, port: number, err: unknown): Error {
  const code = (err as { code?: string }).code ?? 'unknown';
  const why =
    code === 'EADDRINUSE'
      ? 'the port is in use (another process, or another replica on this host)'
      : code === 'EADDRNOTAVAIL'
        ? 'this host has no such address'
        : code === 'EACCES'
          ? 'not allowed to listen there (a port below 1024 needs privileges)'
          : 'the system refused';
  return new Error(
    `cannot listen for the operators' endpoints on ${host}:${port}: ${why} (${code}). ` +
      'Set METRICS_PORT (and METRICS_HOST) to a free port and an address of this host.',
    { cause: err },
  );
}

/** Serves GET /metrics and GET /healthz/details (and nothing else) on `host:port` (port 0: any free port). */
export async function startMetricsServer(
  where: { host: string; port: number },
  sources: OperatorSources,
): Promise<MetricsServer> {
  const handlers = operatorHandlers(sources);
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?', 1)[0] ?? '';
    const handler = handlers[path];
    if (handler && (req.method === 'GET' || req.method === 'HEAD')) return handler(req, res);
    res.writeHead(handler ? 405 : 404, { 'Content-Type': 'text/plain' });
    res.end(handler ? 'use GET\n' : `not found: this port serves GET ${Object.keys(handlers).join(' and GET ')}\n`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => reject(explainListenError(where.host, where.port, err)));
    server.listen(where.port, where.host, () => {
      server.removeAllListeners('error');
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  return {
    host: addr.address,
    port: addr.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
