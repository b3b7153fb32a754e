// The fake Slack's Socket Mode endpoint, spoken to by a plain WebSocket client (`ws`) and the real WebClient:
// which token opens a connection, one-use URLs, hello, envelopes and acks, disconnect and dropped connections.
import { ErrorCode, WebClient, type WebAPIPlatformError } from '@slack/web-api';
import { WebSocket } from 'ws';
import { startFakeSlack, type FakeSlack, type Json } from '../../src/emulator/fake-slack.js';

let fake: FakeSlack;
const sockets: WebSocket[] = [];

beforeEach(async () => {
  fake = await startFakeSlack();
});
afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  await fake.close();
});

const client = (token: string) => new WebClient(token, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });

async function platformError(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    const err = e as WebAPIPlatformError;
    if (err.code !== ErrorCode.PlatformError) throw e;
    return err.data.error;
  }
  throw new Error('expected the call to fail');
}

/**
 * A WebSocket on `url` that records what it receives (and acks envelopes when `autoAck`, from the first message on);
 * resolves once open, rejects if the upgrade is refused.
 */
async function connect(url: string, autoAck = false): Promise<{ ws: WebSocket; received: Json[] }> {
  const ws = new WebSocket(url);
  sockets.push(ws);
  const received: Json[] = [];
  ws.on('message', (data) => {
    const msg = JSON.parse(String(data)) as Json;
    received.push(msg);
    if (autoAck && msg.envelope_id) ws.send(JSON.stringify({ envelope_id: msg.envelope_id }));
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, received };
}

async function openUrl(): Promise<string> {
  const res = await client(fake.appToken).apps.connections.open({});
  return res.url as string;
}

const until = <T>(f: () => T | undefined) => fake.waitFor(f, 2000);

describe('apps.connections.open', () => {
  it('answers the app-level token with a ws:// URL on 127.0.0.1, and refuses a bot token', async () => {
    expect(await openUrl()).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/link\/\?ticket=[0-9a-f]+&app_id=A0TEST$/);
    expect(await platformError(client(fake.botToken).apps.connections.open({}))).toBe('not_allowed_token_type');
    expect(await platformError(client('xapp-1-A0TEST-1-other').apps.connections.open({}))).toBe('invalid_auth');
  });

  it('the app-level token is good for nothing else', async () => {
    const post = client(fake.appToken).chat.postMessage({ channel: 'C0OPS', text: 'hi' });
    expect(await platformError(post)).toBe('not_allowed_token_type');
  });
});

describe('the WebSocket', () => {
  it("says hello with the app's id; a URL opens one connection only, and a made-up one none", async () => {
    const url = await openUrl();
    const { received } = await connect(url);
    const hello = await until(() => received[0]);
    expect(hello).toMatchObject({ type: 'hello', num_connections: 1, connection_info: { app_id: 'A0TEST' } });
    await expect(connect(url)).rejects.toThrow(/401/);
    await expect(connect(url.replace(/ticket=[0-9a-f]+/, 'ticket=0000'))).rejects.toThrow(/401/);
    expect(fake.socket.connections()).toHaveLength(1);
  });

  it('sends envelopes and resolves each with its ack, on the newest connection', async () => {
    await connect(await openUrl());
    const { ws, received } = await connect(await openUrl());
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as Json;
      if (msg.envelope_id) ws.send(JSON.stringify({ envelope_id: msg.envelope_id, payload: { text: 'got it' } }));
    });
    const ack = await fake.socket.send(
      'slash_commands',
      { command: '/campaign', text: 'help' },
      {
        acceptsResponsePayload: true,
      },
    );
    const envelope = received.find((m) => m.envelope_id)!;
    expect(envelope).toMatchObject({
      type: 'slash_commands',
      payload: { command: '/campaign', text: 'help' },
      accepts_response_payload: true,
    });
    expect(ack).toMatchObject({ envelopeId: envelope.envelope_id, payload: { text: 'got it' }, connectionId: 2 });
    expect(ack.ackedAt).toBeGreaterThanOrEqual(ack.sentAt);
    await fake.socket.send('events_api', { type: 'event_callback' }, { retryAttempt: 1, retryReason: 'timeout' });
    expect(received.filter((m) => m.envelope_id).at(-1)).toMatchObject({
      type: 'events_api',
      accepts_response_payload: false,
      retry_attempt: 1,
      retry_reason: 'timeout',
    });
  });

  it('an envelope nobody acks fails after its timeout; a stray ack is recorded, not taken', async () => {
    const { ws } = await connect(await openUrl());
    await expect(fake.socket.send('interactive', { type: 'block_actions' }, { timeoutMs: 100 })).rejects.toThrow(
      /not acknowledged within 100 ms/,
    );
    ws.send(JSON.stringify({ envelope_id: 'nope', payload: {} }));
    await until(() => fake.socket.strayMessages().length > 0);
    expect(fake.socket.strayMessages()).toEqual([{ envelope_id: 'nope', payload: {} }]);
    expect(fake.socket.acks()).toEqual([]);
  });

  it('with no connection open, an envelope waits for one', async () => {
    const sent = fake.socket.send('events_api', { type: 'event_callback' }, { timeoutMs: 2000 });
    // The envelope may come right behind the hello: the ack handler is in place before the socket opens.
    await connect(await openUrl(), true);
    expect((await sent).payload).toBeUndefined();
  });

  it("disconnect() sends Slack's disconnect message; drop() cuts the connection and fails what it carried", async () => {
    const { ws, received } = await connect(await openUrl());
    expect(fake.socket.disconnect('warning')).toBe(1);
    expect(await until(() => received.find((m) => m.type === 'disconnect'))).toMatchObject({ reason: 'warning' });
    expect(fake.socket.connections()[0]).toMatchObject({ open: true, disconnectReason: 'warning' });

    const pending = fake.socket.send('interactive', { type: 'view_submission' });
    await until(() => received.find((m) => m.envelope_id));
    const closed = new Promise((resolve) => ws.once('close', resolve));
    fake.socket.drop();
    await expect(pending).rejects.toThrow(/closed before envelope/);
    await closed;
    expect(fake.socket.connections()[0]).toMatchObject({ open: false });
  });
});
