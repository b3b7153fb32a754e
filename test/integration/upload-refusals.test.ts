/**
 * What an upload refuses, and that it refuses before reading anything: no permission, an unknown or finished
 * campaign (at the command and again at submission), a file too large, a sign-in page instead of the file, a file
 * without contacts or without a phone column, and a download URL that did not come from files.info.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../support/test-app.js';
import {
  ADMIN,
  CHANNEL,
  READER,
  job,
  openUploadModal,
  seedCampaign,
  simContacts,
  submitAndSettle,
  submitUpload,
  waitForSummary,
  type Json,
} from '../support/upload.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({
    env: { ADMIN_USER_IDS: ADMIN, UPLOAD_MAX_BYTES: '2000' },
    start: { upload: { progressIntervalMs: 100 } },
  });
});
afterAll(async () => t.close());

async function command(text: string, userId: string): Promise<string> {
  const since = t.fake.responseUrlUses().length;
  await t.driver.command(text, { userId, channelId: CHANNEL });
  const use = await t.fake.waitFor(() => t.fake.responseUrlUses()[since], 5000);
  return JSON.stringify(use.body);
}

const uploadViews = (userId: string) => t.fake.openViews(userId).filter((v) => v.callback_id === 'campaign_upload');

describe('refused at the command, before any modal', () => {
  it('a person who may only read', async () => {
    const id = seedCampaign(t, 'Readers');
    const body = await command(`upload ${id}`, READER);
    expect(body).toContain("You can't upload contacts");
    expect(body).toContain(`<@${ADMIN}>`);
    expect(uploadViews(READER)).toHaveLength(0);
  });

  it('an unknown campaign', async () => {
    const body = await command('upload 987654', ADMIN);
    expect(body).toContain('987654');
    expect(body.toLowerCase()).toContain('not found');
    expect(uploadViews(ADMIN)).toHaveLength(0);
  });

  it('a finished campaign', async () => {
    const id = seedCampaign(t, 'Done', 'finished');
    const body = await command(`upload ${id}`, ADMIN);
    expect(body).toContain('is finished');
    expect(body).toContain("contacts can't be added");
    expect(uploadViews(ADMIN)).toHaveLength(0);
  });
});

describe('refused at submission, before the file is read', () => {
  it('the campaign finished while the modal was open', async () => {
    const id = seedCampaign(t, 'Finishing');
    const viewId = await openUploadModal(t, id);
    t.sim.control.setCampaignStatus(id, 'finished');
    const file = t.fake.addFile({ name: 'late.csv', content: 'phone\n5511112222\n' });
    // Said in the modal, at once or after "checking" (reading the campaign may take longer than the ack allows).
    const s = await submitAndSettle(t, id, viewId, file);
    expect(s.started).toBe(false);
    expect(s.refusal).toContain('is finished');
    expect(t.fake.calls('files.info').filter((c) => c.args.file === file.id)).toHaveLength(0);
    expect(t.fake.calls('download').filter((c) => c.args.file === file.id)).toHaveLength(0);
  });

  it('someone without permission submits the modal', async () => {
    const id = seedCampaign(t, 'Perm');
    const viewId = await openUploadModal(t, id);
    const file = t.fake.addFile({ name: 'perm.csv', content: 'phone\n5511112223\n' });
    const ack = await submitUpload(t, viewId, file, { userId: READER });
    expect(JSON.stringify(ack.json)).toContain("You can't upload contacts");
    expect(t.fake.calls('files.info').filter((c) => c.args.file === file.id)).toHaveLength(0);
    expect(simContacts(t, id)).toHaveLength(0);
  });
});

describe('refused files, shown under the file input (or in the modal, when checking took longer than the ack)', () => {
  async function refusal(file: ReturnType<TestApp['fake']['addFile']>, id = seedCampaign(t, 'Files')) {
    const viewId = await openUploadModal(t, id);
    const s = await submitAndSettle(t, id, viewId, file);
    expect(s.started).toBe(false);
    if (!s.slow) {
      expect(s.ack.viewResult).toMatchObject({ ok: true, action: 'errors' });
      expect(Object.keys((s.ack.json as { errors: Record<string, string> }).errors)).toEqual(['file']);
    }
    expect(await job(t, id, file.id)).toBeUndefined();
    expect(simContacts(t, id)).toHaveLength(0);
    return s.refusal!;
  }

  it('a file over UPLOAD_MAX_BYTES, by its size, without downloading it', async () => {
    const file = t.fake.addFile({ name: 'big.csv', content: `phone\n${'5511112222\n'.repeat(300)}` });
    const message = await refusal(file);
    expect(message).toContain('"big.csv" is 3 KB');
    expect(message).toContain('up to 2 KB');
    expect(t.fake.calls('download').filter((c) => c.args.file === file.id)).toHaveLength(0);
  });

  it("Slack's sign-in page instead of the file", async () => {
    const file = t.fake.addFile({ name: 'page.csv', content: 'phone\n5511112222\n' });
    t.fake.failNext('download', { status: 200, body: '<html><body>Sign in to Slack</body></html>' });
    const message = await refusal(file);
    expect(message).toContain('web page instead of the file');
    expect(message).toContain('files:read');
  });

  it('a header without contacts', async () => {
    const file = t.fake.addFile({ name: 'header.csv', content: 'Nombre,Teléfono\n\n' });
    expect(await refusal(file)).toContain('has a header row but no contacts');
  });

  it('no phone column: the headers found are listed', async () => {
    const file = t.fake.addFile({ name: 'nophone.csv', content: 'Nombre,Ciudad\nAna,CDMX\n' });
    const message = await refusal(file);
    expect(message).toContain('Nombre');
    expect(message).toContain('Ciudad');
  });
});

describe('the bot token goes only where files.info says the file is', () => {
  let evil: Server;
  const hits: Json[] = [];
  beforeAll(async () => {
    evil = createServer((req, res) => {
      hits.push({ url: req.url, authorization: req.headers.authorization });
      res.writeHead(200, { 'content-type': 'text/csv' }).end('phone\n5599998888\n');
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => new Promise<void>((resolve) => evil.close(() => resolve())));

  it('ignores a download URL put into the submission payload', async () => {
    const id = seedCampaign(t, 'Tampered');
    const viewId = await openUploadModal(t, id);
    const file = t.fake.addFile({ name: 'real.csv', content: 'phone\n5512121212\n' });
    const port = (evil.address() as AddressInfo).port;
    const tampered = {
      ...file,
      url_private_download: `http://127.0.0.1:${port}/steal`,
      url_private: `http://127.0.0.1:${port}/steal`,
    };
    await submitUpload(t, viewId, tampered);
    await waitForSummary(t, id, file.id);
    expect(hits).toHaveLength(0);
    expect(simContacts(t, id).map((c) => c.contact)).toEqual(['+525512121212']);
  });
});

describe('the "Upload contacts" button of the new-campaign message', () => {
  it('opens the same modal, posting the progress in the channel of the message', async () => {
    const id = seedCampaign(t, 'From button');
    const before = uploadViews(ADMIN).length;
    await t.driver.blockAction({
      actionId: 'campaign_upload_open',
      value: String(id),
      userId: ADMIN,
      channelId: CHANNEL,
    });
    const view = await t.fake.waitFor(() => uploadViews(ADMIN)[before], 5000);
    expect(JSON.parse(String(view.private_metadata))).toEqual({ campaignId: id, postTo: CHANNEL });
  });

  it('refuses a reader', async () => {
    const id = seedCampaign(t, 'Button reader');
    const since = t.fake.responseUrlUses().length;
    await t.driver.blockAction({
      actionId: 'campaign_upload_open',
      value: String(id),
      userId: READER,
      channelId: CHANNEL,
    });
    const use = await t.fake.waitFor(() => t.fake.responseUrlUses()[since], 5000);
    expect(JSON.stringify(use.body)).toContain("You can't upload contacts");
    expect(uploadViews(READER)).toHaveLength(0);
  });
});
