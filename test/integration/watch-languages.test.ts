/**
 * Watched campaigns in the channel's language, end to end (simulator ↔ real app ↔ fake Slack): with
 * DEFAULT_LOCALE=es a watched channel gets Spanish call messages (status words, durations, the conversation's labels,
 * times in the campaign's zone naming it); a channel that chose `/campaign lang en` gets English although the default
 * is Spanish; an es-MX person's `/campaign seguir` and `siguiendo` answers are in Spanish, in their timezone.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { callMessages, runCommand, startWatchHarness, type WatchHarness } from '../support/watch-harness.js';

/** Spanish by DEFAULT_LOCALE. */
const ES = 'C0VENTAS';
/** Chose English with `/campaign lang en`. */
const EN = 'C0SALES';
/** Slack in Spanish (Mexico). */
const MARIA = 'U0MARIA';
/** Slack in English (US). */
const BOB = 'U0BOB';

const textOf = (body: Record<string, unknown> | undefined) => JSON.stringify(body ?? {});

describe('watched campaigns speak the channel’s language', () => {
  let h: WatchHarness;
  beforeEach(async () => {
    h = await startWatchHarness({ defaultLocale: 'es' });
    h.fake.addUser({ id: MARIA, locale: 'es-MX', tz: 'America/Mexico_City' });
    h.fake.addUser({ id: BOB, locale: 'en-US', tz: 'America/New_York' });
  });
  afterEach(async () => {
    await h.close();
  });

  it('DEFAULT_LOCALE=es: Spanish call messages and threads, times in the campaign’s zone; a channel set to en gets English', async () => {
    const { id } = h.phoneCampaign(2, 'Cobranza', { timezone: 'America/Bogota' });
    // The English channel's choice is made by a permitted person (no admins: everyone may change campaigns).
    await runCommand(h, 'lang en', { channelId: EN, userId: BOB });
    await runCommand(h, `watch ${id}`, { channelId: ES, userId: BOB });
    await runCommand(h, `watch ${id}`, { channelId: EN, userId: BOB });

    // The intro posted in each channel is in the channel's language, whoever asked.
    const intro = (ch: string) => h.topLevel(ch).find((m) => m.text?.includes('👀'))!.text!;
    expect(intro(ES)).toContain('configuró este canal para seguir *Cobranza*');
    expect(intro(ES)).toContain('📞 Llamada telefónica');
    expect(intro(EN)).toContain('set this channel to watch *Cobranza*');

    const call = h.sim.control.createCall(id, { status: 'in-progress' });
    const callId = call.id as string;
    const threadId = call.thread_id as string;
    h.sim.control.addMessage(threadId, { sent_by: 'AI', content: 'Hola, ¿hablo con Contact 1?' });
    await h.cycle();
    await h.cycle();
    expect(callMessages(h.fake, ES, callId)[0]!.text).toContain('🎙 En curso');
    expect(callMessages(h.fake, EN, callId)[0]!.text).toContain('🎙 In progress');

    h.sim.control.updateCall(callId, {
      status: 'ended',
      answered_by: 'human',
      duration: 65,
      ended_by: 'user',
      ended_reason: 'customer-ended-call',
      started_at: '2026-03-06T15:30:00Z',
    });
    await h.cycle();

    const es = callMessages(h.fake, ES, callId)[0]!;
    expect(es.text).toContain('☑️ Terminada');
    const esBlocks = JSON.stringify(es.blocks);
    for (const s of [
      '*Contestó*\\n🙋 Persona',
      '*Duración*\\n1 min 05 s',
      '*Terminada por*\\nel contacto (customer-ended-call)',
      // 15:30 UTC in Bogotá, naming the zone (not the service default, Mexico City).
      '*Inicio*\\n6 mar 2026, 10:30 GMT-5',
      'Campaña Cobranza (#',
      '"text":"Detalles"',
    ]) {
      expect(esBlocks).toContain(s);
    }
    const en = callMessages(h.fake, EN, callId)[0]!;
    expect(en.text).toContain('☑️ Ended');
    const enBlocks = JSON.stringify(en.blocks);
    for (const s of [
      '*Answered by*\\n🙋 Person',
      '*Duration*\\n1m 05s',
      '*Started*\\n2026-03-06 10:30 GMT-5',
      '"text":"Details"',
    ]) {
      expect(enBlocks).toContain(s);
    }

    // The conversation: the thread's intro and its labels in each channel's language.
    const esReplies = h.fake.threadReplies(ES, es.ts).map((r) => r.text);
    expect(esReplies[0]).toContain('La conversación sigue en este hilo');
    expect(esReplies[1]).toMatch(/^\*🤖 Agente:\* Hola/);
    const enReplies = h.fake.threadReplies(EN, en.ts).map((r) => r.text);
    expect(enReplies[0]).toContain('The conversation follows in this thread');
    expect(enReplies[1]).toMatch(/^\*🤖 Agent:\* Hola/);
  });

  it('an es-MX person’s /campaign seguir and siguiendo are answered in Spanish, in their timezone', async () => {
    const { id } = h.phoneCampaign(1, 'Cobranza');
    const started = await runCommand(h, `seguir ${id}`, { channelId: ES, userId: MARIA });
    expect(textOf(started)).toContain(`<#${ES}> ahora sigue *Cobranza* (#${id})`);
    expect(textOf(started)).toContain('Las llamadas de ahora en adelante aparecen ahí');

    const again = await runCommand(h, `seguir ${id}`, { channelId: ES, userId: MARIA });
    expect(textOf(again)).toContain(`<#${ES}> ya sigue *Cobranza* (#${id})`);

    const list = await runCommand(h, 'siguiendo', { channelId: ES, userId: MARIA });
    expect(textOf(list)).toContain('*👀 Siguiendo* · 1 suscripción en 1 canal');
    // Mexico City is GMT-6 all year round (no daylight saving time since 2022).
    expect(textOf(list)).toMatch(/desde el \d+ \w+ \d{4}, \d\d:\d\d GMT-6, por <@U0MARIA>/);

    const bob = await runCommand(h, `unwatch ${id}`, { channelId: ES, userId: BOB });
    expect(textOf(bob)).toContain(`<#${ES}> no longer watches campaign #${id} (Cobranza)`);
    const gone = await runCommand(h, `dejar ${id}`, { channelId: ES, userId: MARIA });
    expect(textOf(gone)).toContain(`<#${ES}> no sigue la campaña #${id}. Consulta \`/campaign siguiendo\``);
  });
});
