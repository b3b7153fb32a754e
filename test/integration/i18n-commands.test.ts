/**
 * Every person in their own language, end to end: signed requests to the real Bolt receiver, people whose Slack
 * locale the fake Slack's users.info tells, answers read through response_url, the service played by the simulator.
 */
import { startTestApp, type TestApp } from '../support/test-app.js';

type Json = Record<string, unknown>;
/** May change campaigns; Slack in Spanish (Mexico). */
const ANA = 'U0ANA';
/** Reads only; Slack in English (US). */
const BOB = 'U0BOB';
/** Reads only; Slack in Spanish (Spain). */
const EVA = 'U0EVA';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_USER_IDS: ANA } });
  t.fake.addUser({ id: ANA, locale: 'es-MX', tz: 'America/Mexico_City' });
  t.fake.addUser({ id: BOB, locale: 'en-US', tz: 'America/New_York' });
  t.fake.addUser({ id: EVA, locale: 'es-ES', tz: 'Europe/Madrid' });
  const { control } = t.sim;
  const agent = control.addAgent({ name: 'Sofía' });
  const phone = control.addIntegration({ agentId: agent.id, type: 'phone_call' });
  control.seedCampaign({ name: 'Cobranza', agentId: agent.id, integrationId: phone.id, status: 'active' });
  for (let i = 0; i < 24; i++)
    control.seedCampaign({ name: `Relleno ${i}`, agentId: agent.id, integrationId: phone.id, status: 'pending' });
});
afterAll(async () => t.close());

/** The `answers` answers of one command (through its own response_url: never an earlier command's coming late). */
async function run(text: string, userId: string, channelId = 'C0OPS', answers = 1): Promise<Json[]> {
  const dm = channelId.startsWith('D');
  const ack = await t.driver.command(text, { userId, channelId, ...(dm ? { channelName: 'directmessage' } : {}) });
  expect(ack.status).toBe(200);
  const mine = () => t.fake.responseUrlUses().filter((u) => u.url === ack.responseUrl);
  await t.fake.waitFor(() => mine().length >= answers, 20_000);
  return mine().map((u) => u.body as Json);
}
const answer = async (text: string, userId: string, channelId?: string) =>
  JSON.stringify((await run(text, userId, channelId))[0]);

describe('a person gets their Slack language', () => {
  it('help: Spanish with the Spanish names for es-MX, English for en-US', async () => {
    const es = await answer('help', ANA);
    expect(es).toContain('*Uso:*');
    expect(es).toContain('/campaign lista [estado] [teléfono|whatsapp] [archivadas]');
    expect(es).toContain('/campaign idioma [es|en|auto]');
    const en = await answer('help', BOB);
    expect(en).toContain('*Usage:*');
    expect(en).toContain('/campaign list [status] [phone_call|whatsapp] [archived]');
    expect(en).not.toContain('Uso:');
  });

  it('list, and its next page: Spanish for es-MX and es-ES, English for en-US', async () => {
    const es = await run('list', ANA);
    const body = es[0] as Json;
    const s = JSON.stringify(body);
    expect(s).toContain('"Campañas"');
    expect(s).toContain('Se muestran 20 de 25 campañas');
    expect(s).toContain('⏳ Pendiente · Agente: Sofía');
    expect(s).toContain('"Página siguiente ▶"');
    expect(s).toContain('"Ver"');
    expect(s).toContain('"➕ Nueva campaña"');
    expect(s).not.toMatch(/Campaigns|Showing|Next page|Agent:/);

    const next = s.match(/"action_id":"campaign_list_next","value":"((?:[^"\\]|\\.)*)"/);
    expect(next).not.toBeNull();
    const since = t.fake.responseUrlUses().length;
    await t.driver.blockAction({
      channelId: 'C0OPS',
      actionId: 'campaign_list_next',
      value: JSON.parse(`"${next![1]}"`) as string,
      userId: ANA,
    });
    const page2 = JSON.stringify(await t.fake.waitFor(() => t.fake.responseUrlUses()[since]?.body, 5000));
    expect(page2).toContain('Se muestran 5 de 25 campañas');
    expect(page2).toContain('🟢 Activa · Agente: Sofía');

    expect(await answer('list', EVA)).toContain('Se muestran 20 de 25 campañas');
    const en = await answer('list', BOB);
    expect(en).toContain('Showing 20 of 25 campaigns');
    expect(en).toContain('"Next page ▶"');
  });

  it('a usage error in the person’s language, quoting the word they typed', async () => {
    const es = await answer('ver', ANA);
    expect(es).toContain('⚠️ `ver` necesita el número de una campaña; por ejemplo, `/campaign ver 12`.');
    expect(es).toContain('*Uso:*');
    const filter = await answer('lista morada', ANA);
    expect(filter).toContain('`morada` no es un filtro de la lista');
    const en = await answer('show', BOB);
    expect(en).toContain('⚠️ `show` needs a campaign id, for example `/campaign show 12`.');
    expect(en).toContain('*Usage:*');
  });
});

describe('Spanish aliases run the same commands, for everyone', () => {
  it('`lista` = `list`, `lista activa` = `list active`, `ayuda` = `help`', async () => {
    expect(await answer('lista', ANA)).toBe(await answer('list', ANA));
    expect(await answer('lista', BOB)).toBe(await answer('list', BOB));
    const active = await answer('lista activa', BOB);
    expect(active).toContain('Cobranza');
    expect(active).not.toContain('Relleno');
    expect(await answer('ayuda', BOB)).toBe(await answer('help', BOB));
  });
});

describe('/campaign lang', () => {
  it('switches a person’s language, is remembered across a restart, and `auto` goes back to Slack’s', async () => {
    const dm = 'D0BOB';
    expect(await answer('lang', BOB, dm)).toContain('I answer you in English (your Slack language)');
    expect(await answer('lang es', BOB, dm)).toContain('Desde ahora te respondo en español');
    expect(await answer('help', BOB)).toContain('*Uso:*');
    expect(await answer('list', BOB)).toContain('Se muestran 20 de 25 campañas');

    await t.restart();
    expect(await answer('help', BOB)).toContain('*Uso:*');
    expect(await answer('idioma', BOB, dm)).toContain('lo elegiste con `/campaign idioma`');

    expect(await answer('idioma auto', BOB, dm)).toContain('From now on I answer you in your Slack language (English)');
    expect(await answer('help', BOB)).toContain('*Usage:*');
  });

  it('typed in a channel by someone who may change campaigns, sets the channel’s language and says so there', async () => {
    // Two answers: what the channel is told, and what she is.
    const answers = await run('lang es', ANA, 'C0OPS', 2);
    const inChannel = answers.find((a) => a.response_type === 'in_channel');
    const ephemeral = answers.find((a) => a.response_type === 'ephemeral');
    expect(JSON.stringify(inChannel)).toContain(`<@${ANA}> cambió el idioma de este canal a español`);
    expect(JSON.stringify(ephemeral)).toContain('El tuyo sigue en español');
    expect(await answer('lang', BOB, 'C0OPS')).toContain(
      'What I post in this channel is in Spanish (chosen for this channel)',
    );
    // Her own language did not change with it.
    expect(await answer('help', ANA, 'D0ANA')).toContain('*Uso:*');

    // Back to DEFAULT_LOCALE (unset: English), announced in the channel's language from now on.
    const back = await run('idioma auto', ANA, 'C0OPS', 2);
    expect(JSON.stringify(back.find((a) => a.response_type === 'in_channel'))).toContain(
      `<@${ANA}> set this channel’s language back to the app’s default, English.`,
    );
    expect(await answer('lang', BOB, 'C0OPS')).toContain(
      'What I post in this channel is in English (the app’s default)',
    );
  });

  it('typed in a channel by someone who may not, changes only their own language and says why', async () => {
    const answers = await run('lang en', EVA, 'C0OPS');
    expect(answers.some((a) => a.response_type === 'in_channel')).toBe(false);
    const s = JSON.stringify(answers[0]);
    expect(s).toContain('From now on I answer you in English');
    expect(s).toContain('Only people who may change campaigns can set a channel’s language, so I changed only yours.');
    expect(await answer('lang', BOB, 'C0OPS')).toContain('(the app’s default)');
    await run('lang auto', EVA, 'D0EVA');
  });

  it('a choice the app does not know is a usage error in the person’s language', async () => {
    expect(await answer('idioma francés', ANA)).toContain(
      '`francés` no es una opción de idioma. Usa `es`, `en` o `auto`.',
    );
  });
});
