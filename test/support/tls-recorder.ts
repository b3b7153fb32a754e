// A foreign https server for tests about where the bot token may go: a real TLS listener on 127.0.0.1 with a
// self-signed certificate made for the test (openssl), recording every connection and every request it receives.
// `trust()` makes undici (the app's download client) accept that certificate, as a real attacker's host with a valid
// certificate would be accepted: without it a leak would be hidden by a failed TLS handshake.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, getGlobalDispatcher, setGlobalDispatcher, type Dispatcher } from 'undici';

interface RecordedRequest {
  method: string;
  url: string;
  authorization: string | undefined;
  headers: Record<string, string | string[] | undefined>;
}

export interface TlsRecorder {
  /** https://127.0.0.1:PORT */
  origin: string;
  /** TCP connections accepted (a refused URL must not even connect). */
  connections(): number;
  requests(): RecordedRequest[];
  /** Every header value received, joined: search it for the token. */
  everything(): string;
  reset(): void;
  /** Makes undici trust this server's certificate until `untrust()`. */
  trust(): void;
  untrust(): void;
  close(): Promise<void>;
}

function selfSignedCert(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tls-recorder-'));
  try {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startTlsRecorder(): Promise<TlsRecorder> {
  const { key, cert } = selfSignedCert();
  let connections = 0;
  const requests: RecordedRequest[] = [];
  const server: Server = createServer({ key, cert }, (req, res) => {
    requests.push({
      method: req.method ?? '',
      url: req.url ?? '',
      authorization: req.headers.authorization,
      headers: { ...req.headers },
    });
    // What a hostile host would answer: a plausible CSV, so a leak is not cut short by an error.
    res.writeHead(200, { 'content-type': 'text/csv' }).end('phone\n5599998888\n');
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let previous: Dispatcher | undefined;
  let agent: Agent | undefined;
  const untrust = () => {
    if (previous) setGlobalDispatcher(previous);
    previous = undefined;
    void agent?.close();
    agent = undefined;
  };
  return {
    origin: `https://127.0.0.1:${port}`,
    connections: () => connections,
    requests: () => requests.map((r) => ({ ...r })),
    everything: () => requests.map((r) => JSON.stringify(r)).join('\n'),
    reset() {
      connections = 0;
      requests.length = 0;
    },
    trust() {
      previous ??= getGlobalDispatcher();
      agent = new Agent({ connect: { ca: cert } });
      setGlobalDispatcher(agent);
    },
    untrust,
    async close() {
      untrust();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
