/**
 * Uploads and the Home tab in each person's language, end to end through the fake Slack: an es-MX person gets the
 * upload modal, the progress and summary (in their DM) and the failed-rows CSV in Spanish, and a Spanish Home tab
 * with times in their timezone naming it; an en-US person gets all of it in English.
 */
import { startTestApp, type TestApp } from '../support/test-app.js';
import { blocksText, job, seedCampaign, submitUpload, until, type Json } from '../support/upload.js';

/** May change campaigns; Slack in Spanish (Mexico). */
const ANA = 'U0ANA';
/** May change campaigns; Slack in English (US). */
const BOB = 'U0BOB';
/** Ana's DM with the app, where she types the command. */
const ANA_DM = 'D0ANADM';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({
    env: { ADMIN_USER_IDS: `${ANA},${BOB}`, DEFAULT_PHONE_REGION: 'MX' },
    start: { upload: { progressIntervalMs: 200, retryBaseMs: 20, retryMaxMs: 100 } },
  });
  t.fake.addUser({ id: ANA, locale: 'es-MX', tz: 'America/Mexico_City' });
  t.fake.addUser({ id: BOB, locale: 'en-US', tz: 'America/New_York' });
});
afterAll(async () => t.close());

/** A header, two good rows and one without a valid number (row 3). */
const FILE = 'Nombre,Teléfono\nAna,55 1234 5678\nBeto,12345\nCarla,55 1234 5679\n';

async function openModal(userId: string, campaignId: number, channelId: string): Promise<Json> {
  const before = new Set(t.fake.openViews(userId).map((v) => v.id));
  const dm = channelId.startsWith('D');
  const ack = await t.driver.command(`upload ${campaignId}`, {
    userId,
    channelId,
    ...(dm ? { channelName: 'directmessage' } : {}),
  });
  expect(ack.status).toBe(200);
  return t.fake.waitFor(
    () => t.fake.openViews(userId).find((v) => v.callback_id === 'campaign_upload' && !before.has(v.id)),
    5000,
  );
}

/** Uploads FILE as `userId` and resolves with the summary message and the failed-rows CSV. */
async function upload(userId: string, channelId: string, fileName: string) {
  const campaignId = seedCampaign(t, `Cobranza ${userId}`);
  const modal = await openModal(userId, campaignId, channelId);
  const file = t.fake.addFile({ name: fileName, content: FILE });
  const ack = await submitUpload(t, String(modal.id), file, { userId });
  expect(ack.status).toBe(200);
  const j = await until(async () => {
    const found = await job(t, campaignId, file.id);
    return found?.status !== 'running' && found;
  }, 10_000);
  const summary = await t.fake.waitFor(() => {
    const m = t.fake.message(j.channelId, j.messageTs ?? '');
    return m && /(Subida|Upload) (terminada|finished)/.test(m.text) ? m : undefined;
  }, 10_000);
  const report = await t.fake.waitFor(() => t.fake.uploadedFiles().find((f) => f.id === j.reportFileId), 5000);
  return { modal, summary, report, j };
}

describe('an es-MX person uploads in Spanish', () => {
  let r: Awaited<ReturnType<typeof upload>>;
  beforeAll(async () => {
    r = await upload(ANA, ANA_DM, 'contactos.csv');
  });

  it('gets the modal in Spanish, countries named in Spanish', () => {
    const s = JSON.stringify(r.modal);
    expect(s).toContain('"Subir contactos"');
    expect(s).toContain('Archivo de contactos');
    expect(s).toContain('Números que ya están en la campaña');
    expect(s).toContain('🇲🇽 México (+52)');
    expect(s).toContain('"Cancelar"');
    expect(s).not.toMatch(/Contacts file|Skip them|Upload contacts/);
  });

  it('gets the summary in Spanish in the DM, and the CSV in that thread', () => {
    const s = blocksText(r.summary);
    expect(s).toContain('✅ Subida terminada: *contactos.csv* a *Cobranza U0ANA*');
    expect(s).toContain('2 agregados');
    expect(s).toContain('*No agregados:* 1 número no válido');
    expect(s).toContain('📎 Cada fila que no se agregó aparece en el CSV de este hilo.');
    expect(s).toContain('Duplicados: los números que ya están en la campaña se omiten.');
    expect(s).not.toMatch(/Upload finished|Rows read|Duplicates:/);
    expect(r.j.channelId).not.toBe('C0OPS');
    expect(r.report.threadTs).toBe(r.j.messageTs);
  });

  it('gets the failed-rows CSV with Spanish headers, a Spanish name and comment', () => {
    expect(r.report.name).toBe('filas-no-agregadas-contactos.csv');
    expect(r.report.initialComment).toContain('1 fila de *contactos.csv* para *Cobranza U0ANA*');
    const lines = r.report.bytes
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('fila,valor,motivo');
    expect(lines[1]).toBe('3,12345,demasiado corto: 5 dígitos; un número de México tiene 10');
  });
});

describe('an en-US person uploads in English', () => {
  it('gets the modal, the summary in the channel and the CSV in English', async () => {
    const r = await upload(BOB, 'C0OPS', 'contacts.csv');
    expect(JSON.stringify(r.modal)).toContain('"Upload contacts"');
    expect(JSON.stringify(r.modal)).toContain('🇲🇽 Mexico (+52)');
    const s = blocksText(r.summary);
    expect(s).toContain('✅ Upload finished: *contacts.csv* into *Cobranza U0BOB*');
    expect(s).toContain('*Not added:* 1 number not valid');
    expect(s).not.toMatch(/Subida|agregad/);
    expect(r.report.name).toBe('failed-rows-contacts.csv');
    const lines = r.report.bytes
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .split('\r\n');
    expect(lines[0]).toBe('row,value,reason');
    expect(lines[1]).toBe('3,12345,too short: 5 digits; a number in Mexico has 10');
  });
});

describe('the Home tab in each person’s language and timezone', () => {
  const isLoading = (v: Json) => /Reading the campaigns|Leyendo las campañas/.test(JSON.stringify(v));
  async function openHome(userId: string): Promise<string> {
    const since = t.fake.seq();
    const ack = await t.driver.appHomeOpened({ userId });
    expect(ack.status).toBe(200);
    await t.fake.waitFor(
      () => t.fake.calls('views.publish').find((c) => c.seq > since && c.ok && c.args.user_id === userId),
      8000,
    );
    await t.fake.waitFor(() => {
      const v = t.fake.publishedHome(userId);
      return v && !isLoading(v) ? v : undefined;
    }, 8000);
    return JSON.stringify(t.fake.publishedHome(userId));
  }

  it('es-MX: Spanish, read time in Mexico City naming the zone', async () => {
    const s = await openHome(ANA);
    expect(s).toContain('📣 Campañas');
    expect(s).toContain('Todos los estados');
    expect(s).toContain('🔄 Actualizar');
    expect(s).toMatch(/Leída: \d{1,2} [a-z]+\.? \d{4}, \d{2}:\d{2} GMT-6/);
    expect(s).not.toMatch(/Showing|Refresh|Read \d/);
  });

  it('en-US: English, read time in New York naming the zone', async () => {
    const s = await openHome(BOB);
    expect(s).toContain('📣 Campaigns');
    expect(s).toContain('🔄 Refresh');
    expect(s).toMatch(/Read \d{4}-\d{2}-\d{2} \d{2}:\d{2} E[SD]T/);
    expect(s).not.toMatch(/Campañas|Leída/);
  });
});
