// The Socket Mode side of the fake Slack: `apps.connections.open` (answered by fake-slack.ts with the app-level
// token) hands out a one-use `ws://127.0.0.1:PORT/link/?ticket=…` URL; a WebSocket on it gets Slack's `hello`, then
// envelopes `{envelope_id, type, payload, accepts_response_payload}` that the app acknowledges with
// `{envelope_id, payload?}`. `disconnect()` sends Slack's `{type: "disconnect"}` (the client closes and reconnects
// through apps.connections.open). Pings from the client are answered with pongs (the `ws` server does it).
// Shapes: Slack's Socket Mode docs and node-slack-sdk's socket-mode tests (docs/slack-platform-notes.md §6).

import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { harnessNow, nextHarnessSeq, type Json } from './harness.js';

export type EnvelopeType = 'slash_commands' | 'interactive' | 'events_api';

export interface SendEnvelopeOptions {
  /** Whether Slack takes a response payload in the ack (view submissions, slash commands). */
  acceptsResponsePayload?: boolean;
  /** events_api only: Slack's redelivery count and reason. */
  retryAttempt?: number;
  retryReason?: string;
  /** How long to wait for an open connection and then for the ack. Default 10 s. */
  timeoutMs?: number;
}

/** The app's acknowledgement of one envelope. */
export interface SocketAck {
  envelopeId: string;
  type: EnvelopeType;
  /** The ack's `payload` (Bolt sends `{}` for an empty ack). */
  payload?: unknown;
  /** harnessNow() when the envelope was sent / when the ack arrived. */
  sentAt: number;
  ackedAt: number;
  /** Harness sequence number taken when the ack arrived (comparable with fake.calls()' seq). */
  seq: number;
  connectionId: number;
}

export interface SocketConnectionInfo {
  id: number;
  openedAt: number;
  closedAt?: number;
  open: boolean;
  /** Why the server asked this connection to go (disconnect()). */
  disconnectReason?: string;
}

interface Connection extends SocketConnectionInfo {
  ws: WebSocket;
}

interface Pending {
  type: EnvelopeType;
  sentAt: number;
  connectionId: number;
  resolve: (ack: SocketAck) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

const HOST = 'applink-fake-0';

export class FakeSocketMode {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly tickets = new Map<string, { used: boolean }>();
  private readonly conns: Connection[] = [];
  private readonly pending = new Map<string, Pending>();
  private readonly ackLog: SocketAck[] = [];
  private readonly strays: unknown[] = [];
  private nextId = 0;

  constructor(
    private readonly o: {
      /** ws://127.0.0.1:PORT */
      wsBaseUrl: string;
      appId: string;
      /** Tells the fake something changed (its waitFor re-checks). */
      changed: () => void;
    },
  ) {}

  /** A one-use WebSocket URL, as apps.connections.open returns it. */
  issueUrl(): string {
    const ticket = randomBytes(16).toString('hex');
    this.tickets.set(ticket, { used: false });
    return `${this.o.wsBaseUrl}/link/?ticket=${ticket}&app_id=${this.o.appId}`;
  }

  /** The HTTP server's `upgrade` event: accepts `/link/?ticket=…` with an unused ticket, refuses anything else. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const ticket = this.tickets.get(url.searchParams.get('ticket') ?? '');
    if (url.pathname.replace(/\/$/, '') !== '/link' || !ticket || ticket.used) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    ticket.used = true;
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws));
  }

  private accept(ws: WebSocket): void {
    const conn: Connection = { id: ++this.nextId, openedAt: harnessNow(), open: true, ws };
    this.conns.push(conn);
    ws.on('message', (data: RawData, isBinary: boolean) => this.onMessage(conn, data, isBinary));
    ws.on('close', () => this.onClose(conn));
    ws.on('error', () => undefined);
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: this.openConnections().length,
        debug_info: { host: HOST, build_number: 1, approximate_connection_time: 18060 },
        connection_info: { app_id: this.o.appId },
      }),
    );
    this.o.changed();
  }

  private onMessage(conn: Connection, data: RawData, isBinary: boolean): void {
    const at = harnessNow();
    const seq = nextHarnessSeq();
    let msg: unknown;
    try {
      msg = isBinary ? undefined : JSON.parse(rawText(data));
    } catch {
      msg = undefined;
    }
    const id = isObj(msg) && typeof msg.envelope_id === 'string' ? msg.envelope_id : undefined;
    const p = id === undefined ? undefined : this.pending.get(id);
    if (!p || id === undefined || !isObj(msg)) {
      // Slack ignores what is not the ack of an envelope it is waiting for; tests can check there was none.
      this.strays.push(msg ?? rawText(data));
      this.o.changed();
      return;
    }
    this.pending.delete(id);
    clearTimeout(p.timer);
    const ack: SocketAck = {
      envelopeId: id,
      type: p.type,
      ...('payload' in msg ? { payload: msg.payload } : {}),
      sentAt: p.sentAt,
      ackedAt: at,
      seq,
      connectionId: conn.id,
    };
    this.ackLog.push(ack);
    p.resolve(ack);
    this.o.changed();
  }

  private onClose(conn: Connection): void {
    conn.open = false;
    conn.closedAt = harnessNow();
    for (const [id, p] of this.pending) {
      if (p.connectionId !== conn.id) continue;
      this.pending.delete(id);
      clearTimeout(p.timer);
      p.reject(new Error(`fake slack socket: connection ${conn.id} closed before envelope ${id} was acknowledged`));
    }
    this.o.changed();
  }

  /** Open connections, newest last. */
  private openConnections(): Connection[] {
    return this.conns.filter((c) => c.open && c.ws.readyState === c.ws.OPEN);
  }

  private waitForOpen(timeoutMs: number): Promise<Connection> {
    const now = this.openConnections().at(-1);
    if (now) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const check = () => {
        const c = this.openConnections().at(-1);
        if (c) return resolve(c);
        if (Date.now() - started > timeoutMs) {
          return reject(new Error(`fake slack socket: no open Socket Mode connection within ${timeoutMs} ms`));
        }
        setTimeout(check, 10);
      };
      check();
    });
  }

  /**
   * Delivers an envelope on the newest open connection (waiting for one, as Slack holds a delivery while the app
   * reconnects) and resolves with the app's ack. Rejects when nothing acks it in time or its connection closes.
   */
  async send(type: EnvelopeType, payload: Json, opts: SendEnvelopeOptions = {}): Promise<SocketAck> {
    const timeoutMs = opts.timeoutMs ?? 10_000;
    const conn = await this.waitForOpen(timeoutMs);
    const envelopeId = randomUUID();
    const envelope: Json = {
      envelope_id: envelopeId,
      payload,
      type,
      accepts_response_payload: opts.acceptsResponsePayload ?? false,
      ...(type === 'events_api' ? { retry_attempt: opts.retryAttempt ?? 0, retry_reason: opts.retryReason ?? '' } : {}),
    };
    return new Promise<SocketAck>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(envelopeId);
        reject(new Error(`fake slack socket: ${type} envelope ${envelopeId} not acknowledged within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(envelopeId, { type, sentAt: harnessNow(), connectionId: conn.id, resolve, reject, timer });
      conn.ws.send(JSON.stringify(envelope));
    });
  }

  /**
   * Slack's `{type: "disconnect"}` on every open connection ('refresh_requested' when Slack recycles a connection,
   * 'warning' shortly before it does, 'link_disabled' when Socket Mode was turned off). Returns how many got it.
   */
  disconnect(reason = 'refresh_requested'): number {
    const open = this.openConnections();
    for (const c of open) {
      c.disconnectReason = reason;
      c.ws.send(JSON.stringify({ type: 'disconnect', reason, debug_info: { host: HOST } }));
    }
    return open.length;
  }

  /** Cuts every connection without a close frame (a network failure). */
  drop(): void {
    for (const c of this.openConnections()) c.ws.terminate();
  }

  /** Every connection accepted so far, oldest first. */
  connections(): SocketConnectionInfo[] {
    return this.conns.map(({ ws: _ws, ...info }) => ({ ...info }));
  }

  /** Acks received, in order. */
  acks(): SocketAck[] {
    return this.ackLog.map((a) => ({ ...a }));
  }

  /** Messages from the app that acked no envelope in flight (unknown or repeated envelope ids, garbage). */
  strayMessages(): unknown[] {
    return [...this.strays];
  }

  async close(): Promise<void> {
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
    for (const c of this.conns) if (c.open) c.ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}

function isObj(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}
