/**
 * Who gets which language: Slack locales to ours, the translator's formats, a person's and a channel's language
 * (users.info through the fake Slack, choices in a real in-memory store), and the grammar read in both languages.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LogLevel, WebClient } from '@slack/web-api';
import { localeFromSlack } from '../../src/i18n/locale.js';
import { translator } from '../../src/i18n/translator.js';
import { createLogger } from '../../src/log.js';
import { parseCommandText, problemText, SPANISH_ALIASES, SUBCOMMANDS } from '../../src/slack/grammar.js';
import { Languages } from '../../src/slack/locale.js';
import { createMemoryStore } from '../../src/store/memory-store.js';
import { startFakeSlack, type FakeSlack } from '../../src/emulator/fake-slack.js';

describe('localeFromSlack', () => {
  it.each([
    ['es-MX', 'es'],
    ['es-ES', 'es'],
    ['es-419', 'es'],
    ['ES_mx', 'es'],
    ['es', 'es'],
    ['en-US', 'en'],
    ['en-GB', 'en'],
    ['pt-BR', 'en'],
    ['et-EE', 'en'],
    ['', 'en'],
    [undefined, 'en'],
    [null, 'en'],
  ])('%s → %s', (slack, ours) => {
    expect(localeFromSlack(slack)).toBe(ours);
  });
});

describe('translator', () => {
  const en = translator('en');
  const es = translator('es');
  const at = new Date('2026-03-05T14:07:00Z');
  it('is built once per locale', () => {
    expect(translator('es')).toBe(es);
  });
  it('formats dates in the given zone, naming it', () => {
    expect(en.date(at, { timeZone: 'America/Mexico_City' })).toBe('2026-03-05 08:07 CST');
    expect(es.date(at, { timeZone: 'America/Mexico_City' })).toBe('5 mar 2026, 08:07 GMT-6');
    expect(es.date(at, { timeZone: 'Europe/Madrid' })).toBe('5 mar 2026, 15:07 GMT+1');
    // A zone the runtime does not know reads as UTC, and says so.
    expect(en.date(at, { timeZone: 'Mars/Olympus' })).toBe('2026-03-05 14:07 UTC');
  });
  it('formats durations, lists, numbers and plurals by locale', () => {
    expect([en.duration(3_725_000), en.duration(65_000), en.duration(5_400)]).toEqual(['1h 02m 05s', '1m 05s', '5s']);
    expect([es.duration(3_725_000), es.duration(65_000), es.duration(5_400)]).toEqual([
      '1 h 02 min 05 s',
      '1 min 05 s',
      '5 s',
    ]);
    expect(en.list(['a', 'b', 'c'])).toBe('a, b, and c');
    expect(es.list(['a', 'b', 'c'])).toBe('a, b y c');
    expect(es.list(['a', 'b'], 'or')).toBe('a o b');
    expect(en.number(1234.567)).toBe('1,234.57');
    expect(es.number(1234.5)).toBe('1,234.5');
    expect(es.t('campaignList.showing', { count: 1, filtered: 'no', filter: '' })).toBe('Se muestra 1 campaña');
    expect(es.t('campaignList.showing', { count: 1234, filtered: 'no', filter: '' })).toBe(
      'Se muestran 1,234 campañas',
    );
    expect(en.t('campaignList.showing', { count: 0, filtered: 'no', filter: '' })).toBe('Showing 0 campaigns');
  });
});

describe('Languages (a person’s and a channel’s)', () => {
  let fake: FakeSlack;
  let client: WebClient;
  beforeAll(async () => {
    fake = await startFakeSlack();
    fake.addUser({ id: 'UMX', locale: 'es-MX', tz: 'America/Mexico_City' });
    fake.addUser({ id: 'UUS', locale: 'en-US', tz: 'America/New_York' });
    client = new WebClient('xoxb-test', { slackApiUrl: fake.apiUrl, logLevel: LogLevel.ERROR });
  });
  afterAll(async () => {
    await fake.close();
  });
  const logger = createLogger('silent');

  it('reads the Slack locale and timezone once, then follows a choice and `auto`', async () => {
    let now = 0;
    const languages = new Languages({
      store: createMemoryStore(),
      defaultLocale: 'en',
      logger,
      ttlMs: 1000,
      now: () => now,
    });
    const before = fake.calls('users.info').length;
    expect(await languages.person('UMX', client)).toEqual({
      locale: 'es',
      source: 'slack',
      timeZone: 'America/Mexico_City',
    });
    expect(await languages.person('UUS', client)).toMatchObject({ locale: 'en', source: 'slack' });
    await languages.person('UMX', client);
    expect(fake.calls('users.info').length - before).toBe(2);

    await languages.setPerson('UMX', 'en');
    expect(await languages.person('UMX', client)).toMatchObject({ locale: 'en', source: 'choice' });
    await languages.setPerson('UMX', 'auto');
    expect(await languages.person('UMX', client)).toMatchObject({ locale: 'es', source: 'slack' });

    // After the TTL Slack is asked again, and a changed locale is followed.
    fake.addUser({ id: 'UMX', locale: 'en-GB', tz: 'Europe/London' });
    now += 1001;
    expect(await languages.person('UMX', client)).toEqual({ locale: 'en', source: 'slack', timeZone: 'Europe/London' });
  });

  it('a failed users.info reads as English, and the choice survives in the store', async () => {
    const store = createMemoryStore();
    const languages = new Languages({ store, defaultLocale: 'es', logger });
    await languages.setPerson('UNKNOWN1', 'es');
    const strict = await startFakeSlack({ strict: true });
    try {
      const c = new WebClient('xoxb-test', {
        slackApiUrl: strict.apiUrl,
        logLevel: LogLevel.ERROR,
        retryConfig: { retries: 0 },
      });
      expect(await languages.person('UNKNOWN2', c)).toEqual({ locale: 'en', source: 'slack' });
      const again = new Languages({ store, defaultLocale: 'es', logger });
      expect(await again.person('UNKNOWN1', c)).toMatchObject({ locale: 'es', source: 'choice' });
    } finally {
      await strict.close();
    }
  });

  it('a channel uses its choice, else DEFAULT_LOCALE', async () => {
    const languages = new Languages({ store: createMemoryStore(), defaultLocale: 'es', logger });
    expect(await languages.channel('C1')).toEqual({ locale: 'es', source: 'default' });
    await languages.setChannel('C1', 'en', 'UUS');
    expect(await languages.channel('C1')).toEqual({ locale: 'en', source: 'channel' });
    expect(await languages.channel('C2')).toEqual({ locale: 'es', source: 'default' });
    await languages.setChannel('C1', 'auto', 'UUS');
    expect(await languages.channel('C1')).toEqual({ locale: 'es', source: 'default' });
  });
});

describe('the grammar in both languages', () => {
  const english: Record<string, string> = {
    help: '',
    list: '',
    show: ' 12',
    create: '',
    edit: ' 12',
    activate: ' 12',
    pause: ' 12',
    resume: ' 12',
    archive: ' 12',
    contacts: ' 12',
    calls: ' 12',
    upload: ' 12',
    report: ' 12',
    watch: ' 12',
    unwatch: ' 12',
    watching: '',
    try: ' agent-1',
    lang: ' es',
  };
  it('has a Spanish alias for every subcommand', () => {
    expect(new Set(Object.values(SPANISH_ALIASES))).toEqual(new Set(SUBCOMMANDS));
  });
  it.each(Object.entries(SPANISH_ALIASES))('`%s` runs the same command as `%s`', (alias, sub) => {
    const args = english[sub] ?? '';
    expect(parseCommandText(`${alias}${args}`)).toEqual(parseCommandText(`${sub}${args}`));
    expect(parseCommandText(`${alias}${args}`).ok).toBe(true);
  });
  it('reads statuses, channels and `archived` in either language, accents and case aside', () => {
    expect(parseCommandText('lista activa teléfono archivadas')).toEqual({
      ok: true,
      command: { kind: 'list', status: 'active', channel: 'phone_call', archived: true },
    });
    expect(parseCommandText('LISTA Pausada WhatsApp')).toEqual(parseCommandText('list inactive whatsapp'));
    expect(parseCommandText('list finalizadas')).toEqual(parseCommandText('list finished'));
    expect(parseCommandText('contactos 12 convertido')).toEqual(parseCommandText('contacts 12 converted'));
    expect(parseCommandText('llamadas 12 ocupado')).toEqual(parseCommandText('calls 12 busy'));
    expect(parseCommandText('idioma Español')).toEqual({ ok: true, command: { kind: 'lang', setting: 'es' } });
    expect(parseCommandText('idioma')).toEqual({ ok: true, command: { kind: 'lang' } });
    expect(parseCommandText('lang auto')).toEqual({ ok: true, command: { kind: 'lang', setting: 'auto' } });
  });
  it('reads report schedules in either language: frequency, day, time, channel, off', () => {
    expect(parseCommandText('reporte 12 diario 9:30 <#C0OPS|ops>')).toEqual({
      ok: true,
      command: {
        kind: 'reportSchedule',
        id: 12,
        frequency: 'daily',
        time: '09:30',
        channel: { id: 'C0OPS', name: 'ops' },
      },
    });
    expect(parseCommandText('reporte 12 semanal miércoles 17:05')).toEqual(
      parseCommandText('report 12 weekly wednesday 17:05'),
    );
    expect(parseCommandText('report 12 weekly Sábado 08:00')).toEqual({
      ok: true,
      command: { kind: 'reportSchedule', id: 12, frequency: 'weekly', weekday: 6, time: '08:00' },
    });
    expect(parseCommandText('report 12 weekly sunday 08:00')).toMatchObject({ command: { weekday: 0 } });
    expect(parseCommandText('reporte 12 no')).toEqual({ ok: true, command: { kind: 'reportOff', id: 12 } });
    expect(parseCommandText('report 12 off C0OPS123')).toEqual({
      ok: true,
      command: { kind: 'reportOff', id: 12, channel: { id: 'C0OPS123', typed: true } },
    });
    expect(parseCommandText('reportes')).toEqual({ ok: true, command: { kind: 'reports' } });
  });
  it('a report schedule that cannot be read names what is wrong, in the person’s language', () => {
    const problem = (text: string, lang: 'en' | 'es') => {
      const r = parseCommandText(text);
      if (r.ok) throw new Error(`expected a problem for ${text}`);
      return problemText(translator(lang), r.problem);
    };
    expect(problem('report 12 daily 25:00', 'en')).toBe(
      '“25:00” is not a time: write it as HH:MM on a 24-hour clock, e.g. 09:00 or 17:30.',
    );
    expect(problem('reporte 12 semanal juernes 09:00', 'es')).toBe(
      '“juernes” no es un día de la semana: escribe lunes, martes, … domingo (o monday … sunday).',
    );
    expect(problem('report 12 hourly', 'en')).toContain('`report &lt;id&gt; daily HH:MM [#channel]`');
    expect(problem('report 12 daily', 'en')).toContain('weekly &lt;day&gt; HH:MM');
    expect(problem('reportes 3', 'es')).toContain('`reportes`');
  });
  it('words a problem in the person’s language, quoting their own word and listing words they can use', () => {
    const r = parseCommandText('ver');
    if (r.ok) throw new Error('expected a problem');
    expect(problemText(translator('es'), r.problem)).toBe(
      '`ver` necesita el número de una campaña; por ejemplo, `/campaign ver 12`.',
    );
    expect(problemText(translator('en'), r.problem)).toBe('`ver` needs a campaign id, for example `/campaign ver 12`.');
    const f = parseCommandText('lista <!channel>');
    if (f.ok) throw new Error('expected a problem');
    const es = problemText(translator('es'), f.problem);
    expect(es).toContain('`&lt;!channel&gt;` no es un filtro de la lista');
    expect(es).toContain('(pendiente, lista, activa, inactiva, reposo, finalizada)');
    expect(problemText(translator('en'), f.problem)).toContain(
      '(pending, ready, active, inactive, cooldown, finished)',
    );
    const l = parseCommandText('idioma fr');
    if (l.ok) throw new Error('expected a problem');
    expect(problemText(translator('es'), l.problem)).toBe('`fr` no es una opción de idioma. Usa `es`, `en` o `auto`.');
  });
});
