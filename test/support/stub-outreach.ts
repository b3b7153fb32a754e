/**
 * A tiny programmable stand-in for the Campaign Outreach Service, for the client, error and limiter tests: a real
 * node:http server on 127.0.0.1:0 that records every request (with its arrival time) and answers what the test's
 * handler says. (The full simulator lives in src/sim/; these tests need exact control over each answer.)
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface StubRequest {
  method: string;
  /** Path below /api/v1.0, without the query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  json: unknown;
  /** performance.now() when the request's headers arrived. */
  at: number;
  /** 0-based arrival index. */
  n: number;
}

export type StubReply =
  | { status: number; json?: unknown; text?: string; headers?: Record<string, string>; delayMs?: number }
  /** Never answer (for timeouts). */
  | 'hang'
  /** Drop the connection without an answer. */
  | 'destroy';

export type StubHandler = (req: StubRequest) => StubReply | Promise<StubReply>;

export interface Stub {
  baseUrl: string;
  port: number;
  requests: StubRequest[];
  setHandler(h: StubHandler): void;
  close(): Promise<void>;
}

const API_PREFIX = '/api/v1.0';

export async function startStub(handler: StubHandler = () => ({ status: 404, json: { error: 404 } })): Promise<Stub> {
  let h = handler;
  const requests: StubRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const at = performance.now();
    const url = new URL(req.url ?? '/', 'http://stub');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      const r: StubRequest = {
        method: req.method ?? '',
        path: url.pathname.startsWith(API_PREFIX) ? url.pathname.slice(API_PREFIX.length) : url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
        json,
        at,
        n: requests.length,
      };
      requests.push(r);
      void Promise.resolve(h(r)).then((reply) => {
        if (reply === 'hang') return;
        if (reply === 'destroy') {
          req.socket.destroy();
          return;
        }
        const send = (): void => {
          const headers: Record<string, string> = { ...reply.headers };
          let payload = '';
          if (reply.json !== undefined) {
            payload = JSON.stringify(reply.json);
            headers['content-type'] ??= 'application/json';
          } else if (reply.text !== undefined) {
            payload = reply.text;
          }
          res.writeHead(reply.status, headers);
          res.end(payload);
        };
        if (reply.delayMs) setTimeout(send, reply.delayMs);
        else send();
      });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}${API_PREFIX}`,
    port,
    requests,
    setHandler(next) {
      h = next;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Largest number of arrival times in any closed window [t, t + windowMs]. */
export function maxInAnyWindow(times: number[], windowMs: number): number {
  const t = [...times].sort((a, b) => a - b);
  let best = 0;
  let j = 0;
  for (let i = 0; i < t.length; i++) {
    while (j < t.length && (t[j] as number) - (t[i] as number) <= windowMs) j++;
    best = Math.max(best, j - i);
  }
  return best;
}

// ---------------------------------------------------------------------------------------------------------------
// Valid resources, per the spec

export function campaignDetail(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 1,
    name: 'Spring',
    status: 'ready',
    integration: { id: 'int-1', type: 'phone_call' },
    agent: { id: '6f1c2d3e-4b5a-4c6d-8e7f-000000000001', name: 'Ana' },
    created_at: '2026-03-01T10:00:00Z',
    scheduling: {},
    cycles: { enabled: false, mode: 'cooldown' },
    ...over,
  };
}

export function campaignItem(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 1,
    name: 'Spring',
    status: 'ready',
    archived: false,
    agent: { id: 'agent-1', name: 'Ana' },
    created_at: '2026-03-01T10:00:00Z',
    ...over,
  };
}

export function contact(over: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: 1, f_id: 'f1', name: 'Ana', contact: '+525512345678', status: 'queue', ...over };
}

export function call(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'call-1',
    thread_id: 'th-1',
    type: 'outbound',
    status: 'ended',
    answered_by: 'human',
    created_at: '2026-03-01T10:00:00Z',
    ended_by: 'user',
    duration: 30,
    ...over,
  };
}

export function endUser(over: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: 'eu-1', display_name: 'Ana', integration_type: 'api', info: '', ...over };
}

export function thread(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'th-1',
    agent: { id: 'agent-1', name: 'Ana' },
    end_user: endUser(),
    integration: { id: 'int-1', type: 'api' },
    active: true,
    blocked: false,
    tags: [],
    assigned_to: [],
    ...over,
  };
}

export function message(over: Record<string, unknown> = {}): Record<string, unknown> {
  return { thread_id: 'th-1', type: 'text', sent_by: 'AI', sent_at: '2026-03-01T10:00:00Z', content: 'hi', ...over };
}
