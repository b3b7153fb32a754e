/**
 * `/campaign report <id>` end to end: signed requests to the real Bolt receiver, the service played by the
 * simulator, the report posted through the fake Slack's files.getUploadURLExternal → upload → completeUploadExternal.
 * The numbers of the message, of the chart's text alternative and of the PNG's source are checked against the
 * simulator's own contacts, calls and analytics.
 */
import { pngSize, seedPhoneCampaign, seedWhatsAppCampaign } from '../support/reportData.js';
import { startTestApp, type TestApp } from '../support/testApp.js';

const ADMIN = 'U0ADMIN';
/** Reads only. */
const READER = 'U0READER';
const CHANNEL = 'C0REPORT';
const SPANISH_CHANNEL = 'C0REPORTES';

let t: TestApp;
let phone: number;
let whatsapp: number;

beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_USER_IDS: ADMIN } });
  t.fake.addUser({ id: ADMIN, locale: 'en-US', tz: 'America/Mexico_City' });
  t.fake.addUser({ id: READER, locale: 'en-US', tz: 'America/New_York' });
  t.fake.addChannel({ id: CHANNEL, name: 'ops' });
  t.fake.addChannel({ id: SPANISH_CHANNEL, name: 'operaciones' });
  await t.app.deps.languages.setChannel(SPANISH_CHANNEL, 'es', ADMIN);
  // 70 calls over the last 10 days (so some fall in the 7 days before the last 7), 15 contacts never called.
  phone = seedPhoneCampaign(t.sim.control, { called: 70, queued: 15, spreadHours: 240 });
  whatsapp = seedWhatsAppCampaign(t.sim.control, 45);
});
afterAll(async () => t.close());

type Json = Record<string, unknown>;

async function reportIn(channelId: string, text: string, userId = READER) {
  const before = t.fake.uploadedFiles().length;
  const ack = await t.driver.command(text, { userId, channelId });
  expect(ack.status).toBe(200);
  const file = await t.fake.waitFor(
    () =>
      t.fake
        .uploadedFiles()
        .slice(before)
        .find((f) => f.channel === channelId && f.messageTs),
    20_000,
  );
  const message = t.fake.message(channelId, file.messageTs!)!;
  return { file, message, blocks: JSON.stringify(message.blocks) };
}

/** What the simulator holds, counted here independently of the app. */
function simulatorFigures(id: number) {
  const state = t.sim.control.getCampaignState(id)!;
  const contacts = state.contacts as { status: string; call_count: number }[];
  const calls = state.calls as { status: string; answered_by: string }[];
  const count = (s: string[]) => contacts.filter((c) => s.includes(c.status)).length;
  return {
    analytics: (state.detail.analytics ?? {}) as Record<string, number>,
    total: contacts.length,
    called: contacts.filter((c) => c.call_count > 0).length,
    answered: count(['answered', 'converted']),
    converted: count(['converted']),
    failed: count(['failed']),
    calls: calls.length,
    human: calls.filter((c) => c.status === 'ended' && c.answered_by === 'human').length,
    voicemail: calls.filter((c) => c.status === 'ended' && c.answered_by === 'machine').length,
    busy: calls.filter((c) => c.status === 'busy').length,
    noAnswer: calls.filter((c) => c.status === 'no-answer').length,
    callsFailed: calls.filter((c) => c.status === 'failed').length,
  };
}

describe('/campaign report <id>', () => {
  it('posts the report with its PNG chart in the channel where it is typed; its numbers are the simulator’s', async () => {
    const { file, blocks } = await reportIn(CHANNEL, `report ${phone}`);
    const sim = simulatorFigures(phone);
    // The simulator's analytics agree with its listings (so both sources of the report say the same).
    expect(sim.analytics.contacts).toBe(sim.total);
    expect(sim.analytics.contactsCalled).toBe(sim.called);
    expect(sim.analytics.contactsAnswered).toBe(sim.answered);
    expect(sim.analytics.contactsConverted).toBe(sim.converted);
    expect(sim.analytics.calls).toBe(sim.calls);

    expect(blocks).toContain(
      `Total *${sim.total}* → Called *${sim.called}* → Answered *${sim.answered}* → Converted *${sim.converted}*`,
    );
    const rate = Math.round((sim.converted / sim.called) * 10000) / 100;
    expect(blocks).toContain(`Conversion rate: ${rate}% of the contacts called`);
    expect(blocks).toContain(
      `Answered *${sim.human}* · Voicemail *${sim.voicemail}* · Busy *${sim.busy}* · No answer *${sim.noAnswer}* · Failed *${sim.callsFailed}* · In progress *0*`,
    );
    expect(blocks).toContain(`Calls by outcome (${sim.calls})`);
    expect(blocks).toContain('Last 7 days against the 7 days before');
    expect(blocks).toMatch(/hours in America\/Mexico_City/);
    // 85 contacts (1 page), 70 calls (1 page), the campaign: 3 requests, said with the time they took.
    expect(blocks).toMatch(/Gathered in [\d.]+ s with 3 requests to the service \(85 contacts, 70 calls\)/);

    // The picture: a real PNG, at least 400 px wide, with the same numbers in its text alternative.
    const { width, height } = pngSize(file.bytes);
    expect(width).toBeGreaterThanOrEqual(400);
    expect(height).toBeGreaterThan(200);
    expect(file.name).toBe(`campaign-${phone}-report.png`);
    expect(file.altText).toContain(
      `Contacts: Total ${sim.total}, Called ${sim.called}, Answered ${sim.answered}, Converted ${sim.converted}.`,
    );
    expect(file.altText).toContain(`Answered ${sim.human}, Voicemail ${sim.voicemail}, Busy ${sim.busy}`);
    expect(file.altText).toContain(`${rate}%`);
    // The bot token went to the API methods only, never with the bytes to the upload URL.
    const upload = t.fake.calls('upload').at(-1)!;
    expect(upload.ok).toBe(true);
    expect(upload.token).toBeUndefined();
    expect(t.fake.calls('files.completeUploadExternal').at(-1)!.token).toBe(t.fake.botToken);
  }, 30_000);

  it('reads the service at background priority: contacts and calls listed at the largest page size', async () => {
    t.sim.control.clearRequests();
    await reportIn(CHANNEL, `report ${phone}`);
    const reads = t.sim.control.requests().filter((r) => r.path.includes(`/campaigns/${phone}`));
    expect(reads.map((r) => r.route).sort()).toEqual(['getCampaign', 'listCampaignCalls', 'listContacts']);
    for (const r of reads.filter((x) => x.route !== 'getCampaign')) expect(JSON.stringify(r.query)).toContain('100');
  }, 30_000);

  it('a WhatsApp campaign gets the message funnel, in the channel’s language (Spanish)', async () => {
    const { file, blocks } = await reportIn(SPANISH_CHANNEL, `reporte ${whatsapp}`);
    const contacts = t.sim.control.getCampaignState(whatsapp)!.contacts as { status: string }[];
    const count = (s: string[]) => contacts.filter((c) => s.includes(c.status)).length;
    const sent = count(['sent', 'delivered', 'read', 'accepted', 'rejected', 'converted']);
    const delivered = count(['delivered', 'read', 'accepted', 'rejected', 'converted']);
    const read = count(['read', 'accepted', 'rejected', 'converted']);
    const converted = count(['converted']);
    const analytics = t.sim.control.getCampaignState(whatsapp)!.detail.analytics as Record<string, number>;
    expect([analytics.sent, analytics.delivered, analytics.read, analytics.converted]).toEqual([
      sent,
      delivered,
      read,
      converted,
    ]);
    expect(blocks).toContain('Embudo de mensajes');
    expect(blocks).toContain(
      `Total *${contacts.length}* → Enviados *${sent}* → Entregados *${delivered}* → Leídos *${read}* → Convertidos *${converted}*`,
    );
    expect(blocks).toContain(`Rechazados ${count(['rejected'])} · Fallidos ${count(['failed'])}`);
    expect(blocks).toContain('no tienen fecha');
    expect(blocks).not.toContain('Llamadas por resultado');
    expect(pngSize(file.bytes).width).toBeGreaterThanOrEqual(400);
    expect(file.altText).toContain(`Enviados ${sent}`);
  }, 30_000);

  it('the Report button of a campaign’s detail posts the report where it was clicked', async () => {
    const before = t.fake.uploadedFiles().length;
    await t.driver.blockAction({
      channelId: CHANNEL,
      actionId: 'campaign_report',
      value: String(phone),
      userId: READER,
    });
    const file = await t.fake.waitFor(
      () =>
        t.fake
          .uploadedFiles()
          .slice(before)
          .find((f) => f.channel === CHANNEL),
      20_000,
    );
    expect(pngSize(file.bytes).width).toBeGreaterThanOrEqual(400);
  }, 30_000);

  it('Report in the Home tab’s menu posts the report in the person’s DM with the app', async () => {
    await t.driver.appHomeOpened({ userId: READER });
    // The tab is published twice: "Reading…", then the campaigns.
    const view = await t.fake.waitFor(() => {
      const v = t.fake.publishedHome(READER);
      return v && JSON.stringify(v).includes(`report:${phone}`) ? v : undefined;
    }, 10_000);
    const before = t.fake.uploadedFiles().length;
    await t.driver.blockAction({
      userId: READER,
      view: view.id as string,
      actionId: 'home_campaign_menu',
      blockId: `home_campaign:${phone}`,
      selectedOption: { value: `report:${phone}` },
    });
    const dm = await t.fake.waitFor(() => t.fake.dmChannel(READER), 10_000);
    const file = await t.fake.waitFor(
      () =>
        t.fake
          .uploadedFiles()
          .slice(before)
          .find((f) => f.channel === dm && f.messageTs),
      20_000,
    );
    expect(pngSize(file.bytes).width).toBeGreaterThanOrEqual(400);
  }, 30_000);

  it('the detail shows the Report button', async () => {
    const since = t.fake.responseUrlUses().length;
    await t.driver.command(`show ${phone}`, { userId: READER, channelId: CHANNEL });
    const body = await t.fake.waitFor(() => t.fake.responseUrlUses()[since]?.body as Json | undefined, 5000);
    expect(JSON.stringify(body)).toContain('"action_id":"campaign_report"');
  });

  it('an unknown campaign is answered in words, nothing posted', async () => {
    const before = t.fake.uploadedFiles().length;
    const since = t.fake.responseUrlUses().length;
    await t.driver.command('report 99999', { userId: READER, channelId: CHANNEL });
    const answers = await t.fake.waitFor(() => {
      const uses = t.fake.responseUrlUses().slice(since);
      return uses.length >= 2 ? uses : undefined;
    }, 5000);
    expect(JSON.stringify(answers[1]!.body)).toMatch(/99999/);
    expect(t.fake.uploadedFiles().length).toBe(before);
  });
});
