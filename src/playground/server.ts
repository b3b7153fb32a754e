/**
 * The playground's one HTTP server: the page's static files (dist/web/, built by `npm run build`) at `/`, the page
 * protocol of api.ts under /playground/api/ (GET state and events, the POSTs, the files upload) and the files'
 * bytes at /playground/files/<id>. Every answer carries a Content-Security-Policy without inline script and
 * `nosniff`; requests from another origin (or, on loopback, another Host: DNS rebinding) are refused.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import type { z } from 'zod';
import type { FakeSlack } from '../emulator/fake-slack.js';
import type { Json } from '../emulator/harness.js';
import { HANDLERS, PageRequestError, type ActionDeps } from './actions.js';
import { API_PREFIX, FILES_PATH } from './api.js';
import type { EventStreams } from './events.js';
import { asQuery, describeProblems, stateQuery, fileQuery, isRequestPath, REQUESTS } from './requests.js';
import { FILES_URL, pageFile, pageState, type StateSources } from './shapes.js';

export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

const SECURITY_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** Largest JSON body; a file given to a file_input may be as large as Slack's file_input allows (10 MB). */
const MAX_JSON_BYTES = 1024 * 1024;
const MAX_FILE_BYTES = 10 * 1024 * 1024;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** Shown at / when the page was not built (a checkout without `npm run build`): plain HTML, no script. */
const NOT_BUILT =
  '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Playground</title></head><body>' +
  "<p>The playground's page is not built yet: run <code>npm run build</code>, then reload.</p></body></html>";

export interface ServerDeps {
  emulator: FakeSlack;
  streams: EventStreams;
  actions: ActionDeps;
  /** What a person's state is built from (the service's panel and the refusals as they are now). */
  sources(): StateSources;
  /** The folder of the built page (index.html and its assets). */
  webRoot: string;
}

export function createPlaygroundServer(deps: ServerDeps): Server {
  const server = createServer((req, res) => {
    handle(deps, req, res, server).catch((err: unknown) => {
      const status = err instanceof PageRequestError ? err.status : 500;
      const message = err instanceof PageRequestError ? err.message : 'The playground failed to answer this request.';
      if (!res.headersSent) sendJson(res, status, { ok: false, error: message });
      else res.end();
    });
  });
  return server;
}

async function handle(deps: ServerDeps, req: IncomingMessage, res: ServerResponse, server: Server): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://playground.invalid');
  const refusal = foreign(req, server);
  if (refusal) throw new PageRequestError(403, refusal);
  const path = url.pathname;
  if (!isDecodable(path)) throw new PageRequestError(400, `The path ${path} is not valid URL encoding.`);
  if (path === FILES_PATH) return upload(deps, req, res, url);
  if (path.startsWith(API_PREFIX)) return api(deps, req, res, path.slice(API_PREFIX.length), url);
  if (path.startsWith(FILES_URL)) return download(deps, req, res, decodeURIComponent(path.slice(FILES_URL.length)));
  if (req.method !== 'GET' && req.method !== 'HEAD')
    throw new PageRequestError(405, `${req.method} ${path}: only GET.`);
  return staticFile(deps.webRoot, path, res);
}

async function api(deps: ServerDeps, req: IncomingMessage, res: ServerResponse, path: string, url: URL) {
  if (path === 'state' || path === 'events') {
    if (req.method !== 'GET') throw new PageRequestError(405, `${path}: use GET.`);
    const { as } = parse(path === 'state' ? stateQuery : asQuery, Object.fromEntries(url.searchParams), 'query');
    if (path === 'state') return sendJson(res, 200, pageState(as, deps.sources()));
    if (!deps.streams.open(res, as, SECURITY_HEADERS)) throw new PageRequestError(503, 'Too many open pages.');
    return;
  }
  if (!isRequestPath(path)) throw new PageRequestError(404, `${API_PREFIX}${path}: no such request.`);
  if (req.method !== 'POST') throw new PageRequestError(405, `${path}: use POST with a JSON body.`);
  if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) {
    throw new PageRequestError(415, `${path}: the body must be JSON (Content-Type: application/json).`);
  }
  const raw = await readBody(req, MAX_JSON_BYTES);
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new PageRequestError(400, `${path}: the body is not valid JSON.`);
  }
  const handler = HANDLERS[path] as (d: ActionDeps, b: unknown) => Promise<Json & { ok: boolean }>;
  const answer = await handler(deps.actions, parse(REQUESTS[path] as z.ZodType, body, 'body'));
  sendJson(res, 200, answer);
}

/** POST /playground/api/files?as=…&name=…: the bytes become a Slack file (as a person's file_input upload). */
async function upload(deps: ServerDeps, req: IncomingMessage, res: ServerResponse, url: URL) {
  if (req.method !== 'POST') throw new PageRequestError(405, 'files: use POST with the file as the body.');
  const { as, name } = parse(fileQuery, Object.fromEntries(url.searchParams), 'query');
  const bytes = await readBody(req, MAX_FILE_BYTES);
  if (bytes.length === 0) throw new PageRequestError(400, 'files: the body is empty; send the file’s bytes.');
  const file = deps.emulator.addFile({ name, content: bytes, userId: as });
  sendJson(res, 200, { ok: true, file: pageFile(file) });
}

async function download(deps: ServerDeps, req: IncomingMessage, res: ServerResponse, id: string) {
  if (req.method !== 'GET') throw new PageRequestError(405, 'files: use GET.');
  const file = deps.emulator.fileContent(id);
  if (!file) throw new PageRequestError(404, `No file ${id}.`);
  const image = /^image\/(png|jpeg|gif|webp)$/.test(file.mimetype);
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    // A file is shown as data: an image inline, anything else downloaded; never run as a page.
    'content-security-policy': "default-src 'none'; sandbox",
    'content-type': image ? file.mimetype : 'application/octet-stream',
    'content-length': String(file.bytes.length),
    'content-disposition': `${image ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    'cache-control': 'no-store',
  });
  res.end(file.bytes);
}

async function staticFile(root: string, path: string, res: ServerResponse): Promise<void> {
  const relative = normalize(decodeURIComponent(path === '/' ? '/index.html' : path)).replace(/^[/\\]+/, '');
  const file = join(root, relative);
  const inside = file.startsWith(root.endsWith(sep) ? root : root + sep);
  const hidden = relative.split(/[/\\]/).some((part) => part.startsWith('.'));
  const found = inside && !hidden ? await stat(file).catch(() => undefined) : undefined;
  if (!found?.isFile()) {
    if (relative === 'index.html') {
      res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': TYPES['.html'] as string }).end(NOT_BUILT);
      return;
    }
    throw new PageRequestError(404, `No such file: ${path}`);
  }
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': String(found.size),
    'cache-control': 'no-cache',
  });
  createReadStream(file).pipe(res);
}

/**
 * Why a request is not the page's own: an Origin other than this server's, or, bound to loopback, a Host other
 * than a loopback name (a web page elsewhere reaching 127.0.0.1 through a DNS name it controls). Undefined if fine.
 */
function foreign(req: IncomingMessage, server: Server): string | undefined {
  const host = req.headers.host ?? '';
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${host}`) return `Requests from ${origin} are not the page's own.`;
  const addr = server.address();
  const loopback = typeof addr === 'object' && addr !== null && /^(127\.|::1$|::ffff:127\.)/.test(addr.address);
  if (loopback && !/^(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/i.test(host)) {
    return `Host ${host || '(none)'} is not this machine: open the playground at its 127.0.0.1 address.`;
  }
  return undefined;
}

function isDecodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

function parse<T>(schema: z.ZodType<T>, input: unknown, what: string): T {
  const r = schema.safeParse(input);
  if (!r.success) throw new PageRequestError(400, `Bad ${what}: ${describeProblems(r.error)}`);
  return r.data;
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // The rest is read and dropped, so the answer reaches the page.
        chunks.length = 0;
        reject(new PageRequestError(413, `The body is larger than ${limit} bytes.`));
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res
    .writeHead(status, {
      ...SECURITY_HEADERS,
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
    })
    .end(JSON.stringify(body));
}
