/**
 * Downloading an uploaded file from Slack: which URLs may get the bot token, the size limit enforced while the bytes
 * stream (whatever the headers say), and redirects / sign-in pages refused. Real HTTP on 127.0.0.1.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  checkDownloadUrl,
  downloadSlackFile,
  SlackFileError,
  type SlackFileInfo,
} from '../../src/slack/upload/download.js';

describe('checkDownloadUrl', () => {
  const realSlack = 'https://slack.com/api/';
  const standIn = 'http://127.0.0.1:4321/api/';

  it('takes https URLs from Slack', () => {
    expect(checkDownloadUrl('https://files.slack.com/files-pri/T1-F1/download/a.csv', realSlack).host).toBe(
      'files.slack.com',
    );
  });

  it('takes plain http only from the origin of an http stand-in of Slack', () => {
    expect(checkDownloadUrl('http://127.0.0.1:4321/files-pri/T1-F1/download/a.csv', standIn).port).toBe('4321');
    for (const url of ['http://127.0.0.1:4322/files-pri/x', 'http://localhost:4321/files-pri/x']) {
      expect(() => checkDownloadUrl(url, standIn)).toThrow(SlackFileError);
    }
    expect(() => checkDownloadUrl('http://files.slack.com/files-pri/x', realSlack)).toThrow(/not https/);
  });

  it('refuses credentials in the URL, other schemes and garbage', () => {
    expect(() => checkDownloadUrl('https://user:pw@files.slack.com/x', realSlack)).toThrow(/credentials/);
    expect(() => checkDownloadUrl('ftp://files.slack.com/x', realSlack)).toThrow(SlackFileError);
    expect(() => checkDownloadUrl('file:///etc/passwd', realSlack)).toThrow(SlackFileError);
    expect(() => checkDownloadUrl(undefined, realSlack)).toThrow(/none was given/);
    expect(() => checkDownloadUrl('not a url', realSlack)).toThrow(/not a URL/);
  });
});

describe('downloadSlackFile', () => {
  let server: Server;
  let base: string;
  let handler: (req: IncomingMessage, res: ServerResponse) => void;
  const seen: { url?: string; authorization?: string }[] = [];
  let closedEarly = 0;
  /** Told when the server's side of a response closes (the download's connection went away or the body ended). */
  let onClose: () => void = () => undefined;

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ url: req.url, authorization: req.headers.authorization });
      res.on('close', () => {
        if (!res.writableFinished) closedEarly++;
        onClose();
      });
      handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    seen.length = 0;
    closedEarly = 0;
  });

  const info = (path: string, size?: number): SlackFileInfo => ({
    id: 'F0TEST',
    name: 'contacts.csv',
    size,
    mimetype: 'text/csv',
    url: new URL(path, base),
  });
  const read = async (body: AsyncIterable<Buffer>) => {
    const parts: Buffer[] = [];
    for await (const b of body) parts.push(b);
    return Buffer.concat(parts);
  };

  it('streams the body with the bearer token and counts its bytes', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write('phone\n');
      res.end('5511112222\n');
    };
    const d = await downloadSlackFile(info('/ok'), { botToken: 'xoxb-secret', maxBytes: 1000 });
    expect((await read(d.body)).toString()).toBe('phone\n5511112222\n');
    expect(d.bytesRead()).toBe(17);
    expect(seen).toEqual([{ url: '/ok', authorization: 'Bearer xoxb-secret' }]);
  });

  it('refuses before downloading when files.info gives a size over the limit', async () => {
    handler = (_req, res) => res.writeHead(200).end('x');
    await expect(downloadSlackFile(info('/big', 5000), { botToken: 'xoxb-t', maxBytes: 1000 })).rejects.toMatchObject({
      code: 'TOO_LARGE',
    });
    expect(seen).toHaveLength(0);
  });

  it('cuts a download that grows past the limit without any length given, and closes it', async () => {
    handler = (_req, res) => {
      // Chunked, no Content-Length: only counting the bytes can tell.
      res.writeHead(200, { 'content-type': 'text/csv' });
      const chunk = Buffer.alloc(64 * 1024, 0x41);
      let sent = 0;
      const pump = () => {
        while (sent < 50 && res.write(chunk)) sent++;
        if (sent < 50) res.once('drain', pump);
        else res.end();
      };
      pump();
    };
    const closed = new Promise<void>((resolve) => (onClose = resolve));
    const d = await downloadSlackFile(info('/growing'), { botToken: 'xoxb-t', maxBytes: 200_000 });
    await expect(read(d.body)).rejects.toMatchObject({ code: 'TOO_LARGE' });
    expect(d.bytesRead()).toBeLessThan(200_000 + 64 * 1024 + 1);
    await closed;
    expect(closedEarly).toBe(1);
  });

  it('refuses a Content-Length over the limit at once', async () => {
    handler = (_req, res) =>
      res.writeHead(200, { 'content-length': '5000', 'content-type': 'text/csv' }).end('x'.repeat(5000));
    await expect(downloadSlackFile(info('/long'), { botToken: 'xoxb-t', maxBytes: 1000 })).rejects.toMatchObject({
      code: 'TOO_LARGE',
    });
  });

  it('does not follow a redirect (Slack sends tokens it refuses to its sign-in page)', async () => {
    handler = (req, res) => {
      if (req.url === '/redirect') res.writeHead(302, { location: `${base}/elsewhere` }).end();
      else res.writeHead(200).end('should not be asked for');
    };
    const err = await downloadSlackFile(info('/redirect'), { botToken: 'xoxb-t', maxBytes: 1000 }).catch((e) => e);
    expect(err).toBeInstanceOf(SlackFileError);
    expect(err.code).toBe('NOT_AUTHORIZED');
    expect(seen.map((s) => s.url)).toEqual(['/redirect']);
  });

  it('refuses an HTML page, and calls a 503 worth another try', async () => {
    handler = (_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<html></html>');
    await expect(downloadSlackFile(info('/html'), { botToken: 'xoxb-t', maxBytes: 1000 })).rejects.toMatchObject({
      code: 'NOT_AUTHORIZED',
      transient: false,
    });
    handler = (_req, res) => res.writeHead(503).end('busy');
    await expect(downloadSlackFile(info('/busy'), { botToken: 'xoxb-t', maxBytes: 1000 })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      transient: true,
    });
  });

  it('never puts the token in its errors', async () => {
    handler = (req) => req.socket.destroy();
    const err: unknown = await downloadSlackFile(info('/drop'), { botToken: 'xoxb-very-secret', maxBytes: 1000 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SlackFileError);
    const e = err as SlackFileError;
    expect(e.transient).toBe(true);
    expect(`${e.message} ${String(e.cause)} ${JSON.stringify(e)}`).not.toContain('xoxb-very-secret');
  });
});
