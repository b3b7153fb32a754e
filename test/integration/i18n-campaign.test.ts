/**
 * The campaign detail, form, lifecycle replies and refusals in each person's language, end to end: signed requests
 * to the real Bolt receiver, people whose Slack locale and timezone the fake Slack's users.info tells, answers read
 * through response_url and views, the service played by the simulator.
 */
import { translator } from '../../src/i18n/translator.js';
import { stateValue } from '../../src/emulator/slack-driver.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

type Json = Record<string, unknown>;
/** May change campaigns; Slack in Spanish (Mexico), in Mexico City. */
const ANA = 'U0ANA';
/** May change campaigns; Slack in English (US), in New York. */
const BOB = 'U0BOB';
/** Reads only; Slack in Spanish (Mexico). */
const CARLOS = 'U0CARLOS';
const CHANNEL = 'C0OPS';
const CREATED_AT = '2026-03-05T14:07:00Z';

let t: TestApp;
let campaignId: number;

beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_USER_IDS: `${ANA},${BOB}` } });
  t.fake.addUser({ id: ANA, locale: 'es-MX', tz: 'America/Mexico_City' });
  t.fake.addUser({ id: BOB, locale: 'en-US', tz: 'America/New_York' });
  t.fake.addUser({ id: CARLOS, locale: 'es-MX', tz: 'America/Mexico_City' });
  const { control } = t.sim;
  const agent = control.addAgent({ name: 'Sofía' });
  const phone = control.addIntegration({ agentId: agent.id, type: 'phone_call' });
  const c = control.seedCampaign({
    name: 'Cobranza',
    agentId: agent.id,
    integrationId: phone.id,
    status: 'active',
    created_at: CREATED_AT,
  });
  campaignId = c.id as number;
});
afterAll(async () => t.close());

/** The answers to one command (through its response_url). */
async function run(text: string, userId: string, channelId = CHANNEL): Promise<string> {
  const dm = channelId.startsWith('D');
  const ack = await t.driver.command(text, { userId, channelId, ...(dm ? { channelName: 'directmessage' } : {}) });
  expect(ack.status).toBe(200);
  // Its own response_url: never an earlier command's answer coming late. Each of these commands answers once.
  const mine = () => t.fake.responseUrlUses().filter((u) => u.url === ack.responseUrl);
  await t.fake.waitFor(() => mine().length > 0, 20_000);
  return JSON.stringify(mine().map((u) => u.body));
}

/** Opens the campaign form with `text` and returns it once it is open. */
async function openForm(text: string, userId: string): Promise<Json> {
  const seq = t.fake.seq();
  expect((await t.driver.command(text, { userId, channelId: CHANNEL })).status).toBe(200);
  const opened = await t.fake.waitFor(() => t.fake.calls('views.open').find((c) => c.seq > seq && c.ok), 5000);
  const id = ((opened.response as Json).view as Json).id as string;
  return t.fake.waitFor(
    () => t.fake.openViews(userId).find((v) => v.id === id && v.callback_id === 'campaign_form') as Json | undefined,
    5000,
  );
}

const plain = (o: unknown) => (o as { text: string }).text;
const labels = (view: Json) => (view.blocks as Json[]).filter((b) => b.type === 'input').map((b) => plain(b.label));

describe('the campaign form', () => {
  it('es-MX: a Spanish form, and a bad value answered in Spanish under its field', async () => {
    const view = await openForm('crear', ANA);
    expect(plain(view.title)).toBe('Nueva campaña');
    expect(plain(view.submit)).toBe('Crear');
    expect(plain(view.close)).toBe('Cancelar');
    expect(labels(view)).toEqual(expect.arrayContaining(['Canal', 'Nombre', 'Zona horaria', 'Reintentos']));
    expect(JSON.stringify(view)).not.toMatch(/"New campaign"|"Channel"|"Timezone"/);

    const before = t.sim.control.requests().length;
    const r = await t.driver.viewSubmission({
      viewId: view.id as string,
      values: {
        integration_type: { integration_type: stateValue.radio('phone_call') },
        name: { name: stateValue.text('Renovaciones') },
        retries: { retries: stateValue.number('9') },
      },
      allowEmptyRequired: true,
    });
    expect(r.status).toBe(200);
    const ack = r.json as { response_action: string; errors: Record<string, string> };
    expect(ack.response_action).toBe('errors');
    expect(ack.errors.retries).toBe('Los reintentos deben estar entre 0 y 5 (escribiste 9).');
    expect(ack.errors.agent_id_typed ?? ack.errors.agent_id).toBe('Elige el agente o escribe su id.');
    expect(
      t.sim.control
        .requests()
        .slice(before)
        .filter((q) => q.method !== 'GET'),
    ).toEqual([]);
  });

  it('en-US: the same form and error in English', async () => {
    const view = await openForm('create', BOB);
    expect(plain(view.title)).toBe('New campaign');
    expect(labels(view)).toEqual(expect.arrayContaining(['Channel', 'Name', 'Timezone', 'Retries']));
    const r = await t.driver.viewSubmission({
      viewId: view.id as string,
      values: { retries: { retries: stateValue.number('9') } },
      allowEmptyRequired: true,
    });
    const ack = r.json as { response_action: string; errors: Record<string, string> };
    expect(ack.errors.retries).toBe('The retries must be from 0 to 5 (you entered 9).');
    expect(ack.errors.integration_type).toBe('Choose the channel: phone call or WhatsApp.');
  });
});

describe('/campaign show', () => {
  it('es-MX: `ver` gives the Spanish detail, its date in the person’s Slack timezone naming the zone', async () => {
    const s = await run(`ver ${campaignId}`, ANA);
    expect(s).toContain(`"Campaña #${campaignId}"`);
    expect(s).toContain('*Agente*');
    expect(s).toContain('🟢 Activa · 📞 Llamada telefónica');
    const date = translator('es').date(CREATED_AT, { timeZone: 'America/Mexico_City' });
    expect(date).toMatch(/08:07/);
    expect(s).toContain(`*Creada*\\n${date}`);
    expect(s).not.toMatch(/Created|Weekly schedule/);
  });

  it('en-US: English, the date in New York time', async () => {
    const s = await run(`show ${campaignId}`, BOB);
    expect(s).toContain(`"Campaign #${campaignId}"`);
    expect(s).toContain('*Created*\\n2026-03-05 09:07 EST');
  });
});

describe('lifecycle replies and refusals', () => {
  it('a read-only es-MX person is refused in Spanish, told who can', async () => {
    const s = await run(`pausar ${campaignId}`, CARLOS);
    expect(s).toContain(
      `⚠️ No puedes pausar campañas. Cambiar campañas es solo para <@${ANA}>, <@${BOB}>. Pídeselo a alguien de ahí`,
    );
    expect(s).not.toContain("You can't");
  });

  it('who did what: in a DM with the app in the person’s language, in a channel in the channel’s (default English)', async () => {
    const dm = await run(`pausar ${campaignId}`, ANA, 'D0ANA');
    expect(dm).toContain(`<@${ANA}> pausó *Cobranza* (#${campaignId}). Ahora está ⏸ Inactiva.`);
    const channel = await run(`reanudar ${campaignId}`, ANA, CHANNEL);
    expect(channel).toContain(`<@${ANA}> resumed *Cobranza* (#${campaignId}). It is now 🟢 Active.`);
  });

  it('a refused move is explained in Spanish with the moves still possible', async () => {
    const s = await run(`activar ${campaignId}`, ANA);
    expect(s).toContain('⚠️ La campaña está activa');
    expect(s).toContain('así que no se puede activar');
  });
});
