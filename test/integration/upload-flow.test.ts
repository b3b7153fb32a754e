/**
 * Uploading a contacts file end to end: `/campaign upload`, the modal, the file downloaded from the fake Slack with
 * the bot token, batches to the simulator, the progress message, its summary and the failed-rows CSV in its thread.
 */
import { readFileSync } from 'node:fs';
import { batchIdempotencyKey } from '../../src/contacts/index.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import {
  ADMIN,
  blocksText,
  CHANNEL,
  contactPosts,
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
    env: { ADMIN_USER_IDS: ADMIN, DEFAULT_PHONE_REGION: 'MX', AUDIT_CHANNEL_ID: 'C0AUDIT' },
    start: { upload: { progressIntervalMs: 200, retryBaseMs: 20, retryMaxMs: 100 } },
  });
});
afterAll(async () => t.close());

const MESSY = [
  'Nombre;Teléfono;Notas;Ciudad;folio',
  'Ana;55 1234 5678;VIP;CDMX;A-1',
  'Beto;(55) 1234-5679;;Monterrey;A-2',
  '"Carla <@U0ADMIN>";+52 1 55 1234 5680;"llamar\ntarde";;A-3',
  'Dario;12345;;;A-4',
  'Eva;;;;A-5',
  'Ana bis;5512345678;;;A-6',
  'Fer;=HYPERLINK("x");;;A-7',
  'Gabi;55 1234 5699;;;A-8',
  '',
].join('\r\n');

describe('a small file end to end', () => {
  let campaignId: number;
  let message: Json;
  let fileId: string;

  beforeAll(async () => {
    campaignId = seedCampaign(t, 'Cobranza <b>');
    // The service refuses this one number per item (SERVER_ERROR), as it may do with any row.
    t.sim.control.failContactItems(/5699$/);
    const viewId = await openUploadModal(t, campaignId);
    const view = t.fake.view(viewId)!;
    expect(JSON.stringify(view.blocks)).toContain('"block_id":"file"');
    expect(JSON.parse(String(view.private_metadata))).toEqual({ campaignId, postTo: CHANNEL });
    const file = t.fake.addFile({ name: 'contactos.csv', content: MESSY });
    fileId = file.id;
    expect((await submitAndSettle(t, campaignId, viewId, file)).started).toBe(true);
    message = (await waitForSummary(t, campaignId, fileId)) as unknown as Json;
  });
  afterAll(() => t.sim.control.failContactItems(null));

  it('adds the valid contacts in E.164 with their fields and extra columns', () => {
    const contacts = simContacts(t, campaignId);
    expect(contacts.map((c) => c.contact).sort()).toEqual(['+525512345678', '+525512345679', '+525512345680']);
    const ana = contacts.find((c) => c.contact === '+525512345678')!;
    expect(ana).toMatchObject({ name: 'Ana', context: 'VIP', f_id: 'A-1', extracted_data: { Ciudad: 'CDMX' } });
    const carla = contacts.find((c) => c.contact === '+525512345680')!;
    expect(carla.context).toBe('llamar\ntarde');
  });

  it('downloads with the bot token from the URL files.info gave, once', () => {
    const info = t.fake.calls('files.info');
    expect(info.map((c) => c.args.file)).toEqual([fileId]);
    const downloads = t.fake.calls('download');
    expect(downloads).toHaveLength(1);
    expect(downloads[0]!.token).toBe(t.fake.botToken);
    expect(downloads[0]!.args.file).toBe(fileId);
  });

  it('sends one batch at bulk priority with the deterministic Idempotency-Key', () => {
    const posts = contactPosts(t, campaignId);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.headers['idempotency-key']).toBe(batchIdempotencyKey(fileId, campaignId, 0));
    expect(posts[0]!.body).toMatchObject({ if_duplicate: 'skip' });
    expect((posts[0]!.body as { contacts: unknown[] }).contacts).toHaveLength(4);
  });

  it('audits the start and, once known, the result of the upload', async () => {
    const posts = await t.fake.waitFor(() => {
      const m = t.fake.messages('C0AUDIT').map((x) => x.text);
      return m.some((x) => x.includes('upload finished')) ? m : undefined;
    }, 5000);
    expect(posts.some((x) => x.includes(`upload campaign #${campaignId}`))).toBe(true);
    const done = posts.find((x) => x.includes('upload finished'))!;
    expect(done).toContain(`campaign #${campaignId} — ok`);
    expect(done).toContain('contactos.csv: 3 created, 0 updated, 0 skipped, 5 not added');
  });

  it('ends with a summary in place of the progress, in the channel, escaped', async () => {
    expect(t.fake.messages(CHANNEL).filter((m) => /upload/i.test(m.text))).toHaveLength(1);
    const text = blocksText(message);
    expect(text).toContain('Upload finished');
    expect(text).toContain('contactos.csv');
    expect(text).toContain('Cobranza &lt;b&gt;');
    expect(text).not.toContain('<b>');
    expect(text).toMatch(/\*Rows read\*\\n8/);
    expect(text).toMatch(/\*Sent\*\\n4/);
    expect(text).toMatch(/\*Created\*\\n3/);
    expect(text).toMatch(/\*Failed\*\\n5/);
    expect(text).toContain('repeated in the file');
    expect(text).toContain('refused by the outreach service');
    const j = (await job(t, campaignId, fileId))!;
    expect(j).toMatchObject({ status: 'done', nextBatch: 1, counts: { sent: 4, created: 3, failed: 1 } });
  });

  it('sends a CSV of every failed row to the uploader by DM (phone numbers), safe for spreadsheets', async () => {
    const j = (await job(t, campaignId, fileId))!;
    // Nothing of it in the channel, where everyone would see the numbers.
    expect(t.fake.uploadedFiles().filter((f) => f.channel === CHANNEL)).toHaveLength(0);
    const reports = t.fake.uploadedFiles().filter((f) => f.name === 'failed-rows-contactos.csv');
    expect(reports).toHaveLength(1);
    const report = reports[0]!;
    expect(report.channel).toBe(t.fake.dmChannel(ADMIN));
    expect(report.threadTs).toBeUndefined();
    expect(report.initialComment).toContain('5 rows of *contactos.csv* into *Cobranza &lt;b&gt;*');
    expect(j.reportFileId).toBe(report.id);
    expect(blocksText(message)).toContain(`were sent to <@${ADMIN}> in a direct message`);
    const csv = report.bytes.toString('utf8').replace(/^\uFEFF/, '');
    // Row numbers are records as a spreadsheet numbers them (Carla's quoted line break does not count).
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('row,value,reason');
    expect(lines.map((l) => l.split(',')[0])).toEqual(['row', '5', '6', '7', '8', '9']);
    expect(csv).toContain('5,12345,too short');
    expect(csv).toMatch(/\r\n6,,empty number/);
    expect(csv).toContain('duplicate of row 2');
    // The formula is neutralised with a leading quote; the service's refusal carries the number as written.
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`);
    expect(csv).toMatch(/\r\n9,55 1234 5699,the outreach service failed/);
  });

  it('updates the message in place, never faster than the configured interval', async () => {
    const j = (await job(t, campaignId, fileId))!;
    const updates = t.fake.calls('chat.update').filter((c) => c.args.ts === j.messageTs);
    expect(updates.length).toBeGreaterThanOrEqual(1);
    for (let i = 1; i < updates.length; i++) expect(updates[i]!.at - updates[i - 1]!.at).toBeGreaterThanOrEqual(190);
  });
});

describe('the failed-rows CSV when Slack will not share it', () => {
  it('is not left in Slack (it holds phone numbers) and the summary says it was not sent', async () => {
    const campaignId = seedCampaign(t, 'Unshared');
    const file = t.fake.addFile({ name: 'sin-dm.csv', content: 'phone,name\n5530000101,Uno\n12,Corto\n' });
    t.fake.failNext('files.completeUploadExternal', 'internal_error');
    await submitUpload(t, await openUploadModal(t, campaignId), file);
    const summary = blocksText(await waitForSummary(t, campaignId, file.id));
    expect(summary).toContain(`The list of rows not added could not be sent to <@${ADMIN}>`);
    // The bytes went to the upload URL with no token, and the file that could not be shared was deleted.
    const upload = t.fake.calls('upload').at(-1)!;
    expect(upload.ok).toBe(true);
    expect(upload.token).toBeUndefined();
    expect(t.fake.uploadedFiles().filter((f) => f.name === 'failed-rows-sin-dm.csv')).toHaveLength(0);
    const j = (await job(t, campaignId, file.id))!;
    expect(j.reportFileId).toBeUndefined();
    expect(j.reportSharing).toBeUndefined();
  });
});

describe('the same file twice', () => {
  it('creates nothing the second time and says the numbers were already there', async () => {
    const campaignId = seedCampaign(t, 'Twice');
    const content = ['phone,name', '+52 55 2000 0001,Uno', '+52 55 2000 0002,Dos', '+52 55 2000 0003,Tres'].join('\n');
    const first = t.fake.addFile({ name: 'twice.csv', content });
    await submitUpload(t, await openUploadModal(t, campaignId), first);
    await waitForSummary(t, campaignId, first.id);
    expect(simContacts(t, campaignId)).toHaveLength(3);

    // The person uploads the same file again: Slack gives it a new file id.
    const second = t.fake.addFile({ name: 'twice.csv', content });
    await submitUpload(t, await openUploadModal(t, campaignId), second);
    const summary = blocksText(await waitForSummary(t, campaignId, second.id));
    expect(simContacts(t, campaignId)).toHaveLength(3);
    expect(summary).toContain('0 added');
    expect(summary).toMatch(/\*Skipped \(already in the campaign\)\*\\n3/);
    expect((await job(t, campaignId, second.id))!.counts).toMatchObject({ created: 0, skipped: 3 });

    // Submitting the very same Slack file again (a double submit) is refused without reading it.
    const downloads = t.fake.calls('download').length;
    const ack = await submitUpload(t, await openUploadModal(t, campaignId), second);
    expect(JSON.stringify(ack.json)).toContain('already uploaded into this campaign');
    expect(t.fake.calls('download')).toHaveLength(downloads);
  });

  it('updates existing contacts when asked to', async () => {
    const campaignId = seedCampaign(t, 'Update');
    const a = t.fake.addFile({ name: 'a.csv', content: 'phone,name\n5530000001,Old\n' });
    await submitUpload(t, await openUploadModal(t, campaignId), a);
    await waitForSummary(t, campaignId, a.id);
    const b = t.fake.addFile({ name: 'b.csv', content: 'phone,name\n5530000001,New\n' });
    await submitUpload(t, await openUploadModal(t, campaignId), b, { ifDuplicate: 'update' });
    await waitForSummary(t, campaignId, b.id);
    expect(simContacts(t, campaignId)).toEqual([expect.objectContaining({ contact: '+525530000001', name: 'New' })]);
    expect((await job(t, campaignId, b.id))!.counts).toMatchObject({ updated: 1, created: 0 });
  });

  it('uses the default country chosen in the modal', async () => {
    const campaignId = seedCampaign(t, 'Country');
    const f = t.fake.addFile({ name: 'us.csv', content: 'phone\n(415) 555-0100\n' });
    await submitUpload(t, await openUploadModal(t, campaignId), f, { country: 'US' });
    await waitForSummary(t, campaignId, f.id);
    expect(simContacts(t, campaignId).map((c) => c.contact)).toEqual(['+14155550100']);
  });
});

describe('when checking takes longer than Slack waits for the answer', () => {
  const slowly = async (run: () => Promise<void>) => {
    const svc = t.app.services.uploads;
    const budget = svc.tuning.ackBudgetMs;
    svc.tuning.ackBudgetMs = 50;
    t.sim.control.setLatencyMs(300, /^GET .*\/campaigns\/\d+$/);
    try {
      await run();
    } finally {
      t.sim.control.setLatencyMs(0, /^GET .*\/campaigns\/\d+$/);
      svc.tuning.ackBudgetMs = budget;
    }
  };

  it('answers at once with a "checking" view, then says where the progress is', async () => {
    const campaignId = seedCampaign(t, 'Slow');
    const viewId = await openUploadModal(t, campaignId);
    const file = t.fake.addFile({ name: 'slow.csv', content: 'phone\n5540000001\n5540000002\n' });
    await slowly(async () => {
      const ack = await submitUpload(t, viewId, file);
      expect(ack.viewResult).toMatchObject({ ok: true, action: 'update' });
      expect(JSON.stringify(ack.json)).toContain('Checking');
      await waitForSummary(t, campaignId, file.id);
    });
    const shown = await t.fake.waitFor(() => {
      const v = t.fake.view(viewId);
      return v && JSON.stringify(v.blocks).includes('Follow its progress') ? v : undefined;
    }, 5000);
    expect(JSON.stringify(shown.blocks)).toContain(`<#${CHANNEL}>`);
    expect(simContacts(t, campaignId)).toHaveLength(2);
  });

  it('replaces the "checking" view with the refusal', async () => {
    const campaignId = seedCampaign(t, 'Slow refusal');
    const viewId = await openUploadModal(t, campaignId);
    const file = t.fake.addFile({ name: 'nophone.csv', content: 'Nombre\nAna\n' });
    await slowly(async () => {
      await submitUpload(t, viewId, file);
      await t.fake.waitFor(() => JSON.stringify(t.fake.view(viewId)?.blocks ?? '').includes('No phone column'), 5000);
    });
    expect(await job(t, campaignId, file.id)).toBeUndefined();
  });
});

describe('an Excel workbook', () => {
  it('reads its first sheet and adds its contacts', async () => {
    const campaignId = seedCampaign(t, 'Excel');
    const content = readFileSync(new URL('../fixtures/contacts/strings-first.xlsx', import.meta.url));
    const file = t.fake.addFile({ name: 'contactos.xlsx', content });
    await submitUpload(t, await openUploadModal(t, campaignId), file);
    const text = blocksText(await waitForSummary(t, campaignId, file.id));
    expect(text).toContain('Upload finished');
    expect(simContacts(t, campaignId).map((c) => [c.contact, c.name])).toEqual([
      ['+525512345678', 'Ana'],
      ['+523312345678', 'Luis'],
    ]);
  });
});
