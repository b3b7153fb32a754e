/**
 * GET /metrics: the handler (served on PORT beside /healthz by the Slack app's routes), and its own listener for
 * when METRICS_PORT is set (keeps the metrics off the port Slack reaches).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppMetrics } from './metrics.js';

export function metricsHandler(metrics: AppMetrics) {
  return (_req: IncomingMessage, res: ServerResponse): void => {
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

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/** Serves GET /metrics (and nothing else) on `port` (0: any free port). */
export async function startMetricsServer(port: number, metrics: AppMetrics): Promise<MetricsServer> {
  const handle = metricsHandler(metrics);
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?', 1)[0];
    if (path === '/metrics' && (req.method === 'GET' || req.method === 'HEAD')) return handle(req, res);
    res.writeHead(path === '/metrics' ? 405 : 404, { 'Content-Type': 'text/plain' });
    res.end(path === '/metrics' ? 'use GET\n' : 'not found: this port serves GET /metrics\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
