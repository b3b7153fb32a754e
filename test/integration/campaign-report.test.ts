/**
 * `/campaign report <id>` end to end: signed requests to the real Bolt receiver, the service played by the
 * simulator, the report posted through the fake Slack's files.getUploadURLExternal → upload → completeUploadExternal.
 * The numbers of the message, of the chart's text alternative and of the PNG's source are checked against the
 * simulator's own contacts, calls and analytics. Who may post where: a person who may only read gets the report
 * only in their DM with the app; a Slack Connect channel needs the confirmation a watch needs there.
 */
import type { AuditEntry } from '../../src/slack/audit.js';
import { answersTo, pngSize, seedPhoneCampaign, seedWhatsAppCampaign } from '../support/report-data.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const ADMIN = 'U0ADMIN';
/** Reads only. */
const READER = 'U0READER';
const CHANNEL = 'C0REPORT';
const SPANISH_CHANNEL = 'C0REPORTES';
/** Slack Connect: people of another organization are members. */
const SHARED = 'C0PARTNER';

let t: TestApp;
let phone: number;
let whatsapp: number;
const audits: AuditEntry[] = [];

beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_USER_IDS: ADMIN } });
  t.fake.addUser({ id: ADMIN, locale: 'en-US', tz: 'America/Mexico_City' });
  t.fake.addUser({ id: READER, locale: 'en-US', tz: 'America/New_York' });
  t.fake.addChannel({ id: CHANNEL, name: 'ops' });
  t.fake.addChannel({ id: SPANISH_CHANNEL, name: 'operaciones' });
  t.fake.addChannel({ id: SHARED, name: 'with-partner', isExtShared: true });
  t.app.deps.audit.subscribe((e) => audits.push(e));
  await t.app.deps.languages.setChannel(SPANISH_CHANNEL, 'es', ADMIN);
  // 70 calls over the last 10 days (so some fall in the 7 days before the last 7), 15 contacts never called.
  phone = seedPhoneCampaign(t.sim.control, { called: 70, queued: 15, spreadHours: 240 });
  whatsapp = seedWhatsAppCampaign(t.sim.control, 45);
});
afterAll(async () => t.close());

type Json = Record<string, unknown>;

async function reportIn(channelId: string, text: string, userId = ADMIN) {
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
      userId: ADMIN,
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

const filesIn = (channel: string) => t.fake.uploadedFiles().filter((f) => f.channel === channel && f.messageTs);

describe('who may post a report where', () => {
  it('a read-only person’s report goes only to them, in their DM with the app; the answer says so', async () => {
    const inChannel = filesIn(CHANNEL).length;
    const { responseUrl } = await t.driver.command(`report ${phone}`, { userId: READER, channelId: CHANNEL });
    const [said] = await answersTo(t.fake, responseUrl, 1);
    expect(said).toContain('It will come to you only, in your direct messages with me');
    expect(said).toContain('only people who may change campaigns post reports in channels');
    expect(said).toContain('"response_type":"ephemeral"');
    const dm = await t.fake.waitFor(() => t.fake.dmChannel(READER), 10_000);
    const file = await t.fake.waitFor(() => filesIn(dm).at(-1), 20_000);
    expect(JSON.stringify(t.fake.message(dm, file.messageTs!)!.blocks)).toContain('Report: Cobranza');
    expect(pngSize(file.bytes).width).toBeGreaterThanOrEqual(400);
    // Nothing in the channel, from the command or from the Report button.
    const clicked = await t.driver.blockAction({
      channelId: CHANNEL,
      actionId: 'campaign_report',
      value: String(phone),
      userId: READER,
    });
    expect((await answersTo(t.fake, clicked.responseUrl!, 1))[0]).toContain('in your direct messages with me');
    await t.fake.waitFor(() => filesIn(dm).length >= 2, 20_000);
    expect(filesIn(CHANNEL)).toHaveLength(inChannel);
    expect(t.fake.messages(CHANNEL).filter((m) => JSON.stringify(m.blocks).includes('Report:'))).toHaveLength(
      inChannel,
    );
  }, 40_000);

  it('a Slack Connect channel asks first; only a permitted person’s press posts it there, audited', async () => {
    t.sim.control.clearRequests();
    const { responseUrl } = await t.driver.command(`report ${phone}`, { userId: ADMIN, channelId: SHARED });
    const [ask] = await answersTo(t.fake, responseUrl, 1);
    expect(ask).toContain('is a Slack Connect channel');
    expect(ask).toContain('Nothing has been posted yet');
    const m = /"action_id":"report_confirm_external","value":"((?:[^"\\]|\\.)*)"/.exec(ask!);
    expect(m).not.toBeNull();
    const value = JSON.parse(`"${m![1]!}"`) as string;
    // Nothing gathered (the campaign's name only), nothing posted.
    expect(t.sim.control.requests().map((r) => r.route)).toEqual(['getCampaign']);
    expect(filesIn(SHARED)).toHaveLength(0);

    // A reader pressing it is refused (and audited); their own report would go to their DM anyway.
    const press = async (userId: string) => {
      const r = await t.driver.blockAction({ channelId: SHARED, actionId: 'report_confirm_external', value, userId });
      return (await answersTo(t.fake, r.responseUrl!, 1))[0];
    };
    expect(await press(READER)).toMatch(/You can't post campaign reports in channels\. Only <@U0ADMIN>/);
    expect(audits).toContainEqual(expect.objectContaining({ userId: READER, result: 'refused', campaignId: phone }));
    expect(filesIn(SHARED)).toHaveLength(0);

    expect(await press(ADMIN)).toContain('It will be posted in this conversation');
    await t.fake.waitFor(() => filesIn(SHARED)[0], 20_000);
    await t.fake.waitFor(() => audits.find((a) => a.action === `post a report in ${SHARED}`), 5000);
    expect(audits).toContainEqual({
      userId: ADMIN,
      action: `post a report in ${SHARED}`,
      campaignId: phone,
      result: 'ok',
      detail: expect.stringContaining('confirmed'),
    });
  }, 40_000);
});
