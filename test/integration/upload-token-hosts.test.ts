/**
 * The bot token goes only to Slack: https to slack.com, slack-gov.com and their subdomains, plus the origin of
 * SLACK_API_URL. A remote/external file (its url_private is whatever URL its creator gave), a download address on
 * another host, plain http elsewhere and a redirect away from Slack are all refused, with a message saying to upload
 * the file itself, and nothing is imported. A real TLS server on 127.0.0.1, whose certificate the download client is
 * made to trust (as an attacker's valid certificate would be), records what reaches it: nothing may.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  checkDownloadUrl,
  downloadSlackFile,
  isSlackHost,
  SlackFileError,
  type SlackFileInfo,
} from '../../src/slack/upload/download.js';
import type { FakeFileObject } from '../../src/emulator/fake-slack.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { startTlsRecorder, type TlsRecorder } from '../support/tls-recorder.js';
import {
  ADMIN,
  job,
  openUploadModal,
  seedCampaign,
  simContacts,
  submitAndSettle,
  submitUpload,
} from '../support/upload.js';

const UPLOAD_ITSELF = /upload the file itself/i;

let tls: TlsRecorder;
beforeAll(async () => {
  tls = await startTlsRecorder();
  tls.trust();
});
afterAll(async () => tls.close());
beforeEach(() => tls.reset());

/** A plain-http listener on another port than Slack's stand-in, recording the requests it gets. */
async function httpRecorder(): Promise<{ origin: string; seen: IncomingMessage['headers'][]; close(): Promise<void> }> {
  const seen: IncomingMessage['headers'][] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'content-type': 'text/csv' }).end('phone\n5599998888\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('which hosts may get the token', () => {
  const realSlack = 'https://slack.com/api/';

  it('Slack and GovSlack over https, with their subdomains', () => {
    for (const url of [
      'https://files.slack.com/files-pri/T1-F1/download/a.csv',
      'https://slack.com/files-pri/T1-F1/download/a.csv',
      'https://FILES.Slack.COM/files-pri/T1-F1/download/a.csv',
      'https://files.slack-gov.com/files-pri/T1-F1/download/a.csv',
      'https://files.slack.com:443/files-pri/T1-F1/download/a.csv',
    ]) {
      expect(checkDownloadUrl(url, realSlack)).toBeInstanceOf(URL);
    }
    expect(isSlackHost('files.slack.com')).toBe(true);
    expect(isSlackHost('slack-gov.com')).toBe(true);
  });

  it('the origin of SLACK_API_URL, whatever its scheme and port (a stand-in of Slack)', () => {
    const standIn = 'https://slack-proxy.corp.example:8443/api/';
    expect(checkDownloadUrl('https://slack-proxy.corp.example:8443/files-pri/x', standIn).host).toBe(
      'slack-proxy.corp.example:8443',
    );
    expect(checkDownloadUrl('http://127.0.0.1:4321/files-pri/x', 'http://127.0.0.1:4321/api/').port).toBe('4321');
  });

  it('no other host, however much it looks like Slack', () => {
    for (const url of [
      'https://evil.example/files-pri/T1-F1/download/a.csv',
      'https://slack.com.evil.example/files-pri/x',
      'https://evilslack.com/files-pri/x',
      'https://files.slack.co/files-pri/x',
      'https://files.slack.com.:443/files-pri/x',
      'https://files.slack.com:8443/files-pri/x',
      'https://127.0.0.1:4321/files-pri/x',
      'https://docs.google.com/spreadsheets/d/abc/export?format=csv',
    ]) {
      const err = (() => {
        try {
          checkDownloadUrl(url, realSlack);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(err).toBeInstanceOf(SlackFileError);
      expect((err as SlackFileError).message).toMatch(UPLOAD_ITSELF);
    }
  });

  it('no plain http, except to the origin of an http SLACK_API_URL', () => {
    expect(() => checkDownloadUrl('http://files.slack.com/files-pri/x', realSlack)).toThrow(/not https/);
    expect(() => checkDownloadUrl('http://127.0.0.1:4322/files-pri/x', 'http://127.0.0.1:4321/api/')).toThrow(
      SlackFileError,
    );
  });

  it("no Web API method of Slack's own (a file is never under /api/)", () => {
    expect(() => checkDownloadUrl('https://slack.com/api/auth.test', realSlack)).toThrow(SlackFileError);
  });
});

describe('a redirect away from Slack', () => {
  it('is not followed, and the other host gets nothing', async () => {
    const standIn = createServer((_req, res) => res.writeHead(302, { location: `${tls.origin}/steal` }).end());
    await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
    const info: SlackFileInfo = {
      id: 'F0REDIRECT',
      name: 'contacts.csv',
      size: undefined,
      mimetype: 'text/csv',
      url: checkDownloadUrl(`${origin}/files-pri/T1-F0REDIRECT/download/contacts.csv`, `${origin}/api/`),
    };
    try {
      const err = await downloadSlackFile(info, { botToken: 'xoxb-redirected', maxBytes: 1000 }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(SlackFileError);
      expect((err as SlackFileError).message).toMatch(UPLOAD_ITSELF);
      expect(tls.connections()).toBe(0);
      expect(tls.everything()).not.toContain('xoxb-redirected');
    } finally {
      await new Promise<void>((resolve) => standIn.close(() => resolve()));
    }
  });
});

describe('through the upload modal of the running app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { ADMIN_USER_IDS: ADMIN } });
  });
  afterAll(async () => t.close());

  /** Submits the file and returns the refusal shown under the file input; nothing was imported. */
  async function refused(file: FakeFileObject): Promise<string> {
    const id = seedCampaign(t, 'Token hosts');
    const viewId = await openUploadModal(t, id);
    // Under the file input, or in the modal when checking took longer than the ack allows (upload.ts).
    const s = await submitAndSettle(t, id, viewId, file);
    expect(s.started).toBe(false);
    if (!s.slow) {
      expect(s.ack.viewResult).toMatchObject({ ok: true, action: 'errors' });
      expect(Object.keys((s.ack.json as { errors: Record<string, string> }).errors)).toEqual(['file']);
    }
    expect(await job(t, id, file.id)).toBeUndefined();
    expect(simContacts(t, id)).toHaveLength(0);
    expect(t.fake.calls('download').filter((c) => c.args.file === file.id)).toHaveLength(0);
    return s.refusal!;
  }

  it('an external (remote) file is refused before any request to its URL', async () => {
    const file = t.fake.addFile({
      name: 'Contactos (Drive).csv',
      content: 'phone\n5512121212\n',
      externalUrl: `${tls.origin}/spreadsheets/contactos.csv`,
    });
    expect(file).toMatchObject({ is_external: true, mode: 'external' });
    const message = await refused(file);
    expect(message).toMatch(UPLOAD_ITSELF);
    expect(message).toContain('outside Slack');
    expect(tls.connections()).toBe(0);
    expect(tls.everything()).not.toContain(t.fake.botToken);
  });

  it('a hosted file whose download address is on another https host', async () => {
    const file = t.fake.addFile({
      name: 'contacts.csv',
      content: 'phone\n5512121213\n',
      downloadUrl: `${tls.origin}/files-pri/T0TEST-F1/download/contacts.csv`,
    });
    expect(await refused(file)).toMatch(UPLOAD_ITSELF);
    expect(tls.connections()).toBe(0);
    expect(tls.requests()).toEqual([]);
  });

  it('a download address over plain http on another origin than SLACK_API_URL', async () => {
    const other = await httpRecorder();
    try {
      const file = t.fake.addFile({
        name: 'contacts.csv',
        content: 'phone\n5512121214\n',
        downloadUrl: `${other.origin}/files-pri/T0TEST-F1/download/contacts.csv`,
      });
      expect(await refused(file)).toMatch(/not https/);
      expect(other.seen).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('a hosted file at the origin of SLACK_API_URL is still read (the stand-in used by every test)', async () => {
    const id = seedCampaign(t, 'Still works');
    const viewId = await openUploadModal(t, id);
    const file = t.fake.addFile({ name: 'ok.csv', content: 'phone\n5512121215\n' });
    await submitUpload(t, viewId, file);
    await t.fake.waitFor(() => simContacts(t, id).length === 1, 10_000);
    const download = t.fake.calls('download').find((c) => c.args.file === file.id);
    expect(download?.token).toBe(t.fake.botToken);
  });
});
