/**
 * The Home tab builder on its own, in both languages: limits at the extremes, escaping, what read-only people see,
 * times in the person's zone, ordering.
 */
import { LOCALES } from '../../src/i18n/locale.js';
import { translator } from '../../src/i18n/translator.js';
import {
  decodeFilterChoice,
  decodeMenuChoice,
  HOME_CAMPAIGNS_PER_PAGE,
  homeLoadingView,
  homeNoticeModal,
  homeView,
  homeWatchModal,
  type HomeCampaign,
  type HomeModel,
} from '../../src/render/home.js';
import { orderCampaigns } from '../../src/slack/home/service.js';
import { validateView, viewByteLength } from '../../src/emulator/block-kit-limits.js';
import { campaignDetail, HOSTILE, listItem } from '../support/blocks-fixtures.js';

type Json = Record<string, unknown>;
const en = translator('en');
const es = translator('es');

function model(over: Partial<HomeModel> = {}): HomeModel {
  return {
    filters: {},
    counts: { pending: 1, ready: 2, active: 3, inactive: 4, cooldown: 5, finished: 6 },
    archivedCount: 7,
    agents: [{ id: 'a1', name: 'Ana' }],
    page: 0,
    pageCount: 1,
    matching: 0,
    firstIndex: 0,
    campaigns: [],
    readAt: new Date('2026-03-05T14:07:00Z'),
    canChange: true,
    ...over,
  };
}

function campaign(i: number, over: Partial<HomeCampaign> = {}): HomeCampaign {
  return { item: listItem(i), detail: campaignDetail({ id: 100 + i }), watching: [], ...over };
}

const text = (x: unknown) => JSON.stringify(x);
const valid = (v: unknown) => {
  expect(validateView(v, 'home')).toEqual([]);
  expect(viewByteLength(v)).toBeLessThan(250_000);
};

describe.each(LOCALES)('limits (%s)', (locale) => {
  const t = translator(locale);
  it('a full page of the longest campaigns stays a valid Home tab under 100 blocks', () => {
    const long = 'Ñ'.repeat(400) + HOSTILE;
    const analytics = Object.fromEntries([...Array(40).keys()].map((k) => [`metric${k}Rate`, k * 1.5]));
    const campaigns = [...Array(HOME_CAMPAIGNS_PER_PAGE).keys()].map((i) =>
      campaign(i, {
        item: listItem(i, { name: long, timezone: 'America/Argentina/ComodRivadavia', cycle_enabled: true }),
        detail: campaignDetail({ id: 100 + i, analytics, agent: { id: 'x', name: long } }),
        watching: [...Array(30).keys()].map((k) => `C0${k}ABC`),
      }),
    );
    const agents = [...Array(150).keys()].map((k) => ({ id: `agent-${k}`, name: `${long}${k}` }));
    const v = homeView(
      model({
        campaigns,
        agents,
        filters: { status: 'active', channel: 'phone_call', agentId: 'agent-149' },
        matching: 1000,
        page: 3,
        pageCount: 50,
        firstIndex: 60,
        problem: long,
        listCap: 1000,
        canChange: false,
        whoCan: 'Only <@U1> can change campaigns.',
        timeZone: 'America/Mexico_City',
      }),
      t,
    );
    valid(v);
    expect(v.blocks.length).toBeLessThanOrEqual(100);
    const agentSelect = (v.blocks as unknown as Json[])
      .flatMap((b) => (b.elements as Json[]) ?? [])
      .find((e) => e.action_id === 'home_filter:agent')!;
    const options = agentSelect.options as Json[];
    expect(options.length).toBeLessThanOrEqual(100);
    // The chosen agent stays selectable although it is past the options shown.
    expect((agentSelect.initial_option as Json).value).toBe('agent-149');
    expect(text(v)).toContain(locale === 'en' ? 'and 22 more' : 'y 22 más');
  });

  it('the watch modal, a notice and the loading view are valid', () => {
    const v = homeWatchModal({ id: 12, name: HOSTILE }, t);
    expect(validateView(v, 'modal')).toEqual([]);
    expect(text(v)).not.toContain('<!channel>');
    expect(validateView(homeNoticeModal(t.t('home.watch.title'), t.t('home.watch.stale'), t), 'modal')).toEqual([]);
    valid(homeLoadingView(t));
  });

  it('a page of campaigns with filters, read-only, reads as it did (snapshot)', () => {
    const v = homeView(
      model({
        campaigns: [
          campaign(1, { watching: ['C0WATCH'] }),
          campaign(2, { detail: undefined, detailProblem: 'x' }),
          campaign(3, { item: listItem(3, { cycle_enabled: true, cycle_max_iterations: 3 }) }),
        ],
        filters: { status: 'active', channel: 'phone_call', agentId: 'a1' },
        matching: 23,
        page: 1,
        pageCount: 2,
        firstIndex: 20,
        canChange: false,
        whoCan: 'Only <@U1> can change campaigns.',
        listCap: 1000,
        timeZone: 'America/Mexico_City',
      }),
      t,
    );
    valid(v);
    expect(v).toMatchSnapshot();
  });
});

describe('times are in the person’s zone, naming it', () => {
  it.each([
    ['en', 'America/Mexico_City', 'Read 2026-03-05 08:07 CST'],
    ['en', 'Asia/Tokyo', 'Read 2026-03-05 23:07 GMT+9'],
    ['es', 'America/Mexico_City', 'Leída: 5 mar 2026, 08:07 GMT-6'],
    ['es', 'America/Bogota', 'Leída: 5 mar 2026, 09:07 GMT-5'],
  ] as const)('%s in %s', (locale, timeZone, expected) => {
    expect(text(homeView(model({ timeZone }), translator(locale)))).toContain(expected);
  });
  it('without a zone, the service’s default zone', () => {
    expect(text(homeView(model(), en))).toContain('Read 2026-03-05 08:07 CST');
  });
});

describe('content', () => {
  it('outside text is escaped; our own mentions are not', () => {
    const v = homeView(
      model({
        campaigns: [campaign(1, { item: listItem(1, { name: HOSTILE }), watching: ['C0WATCH', 'not-a-channel'] })],
        matching: 1,
      }),
      en,
    );
    const s = text(v);
    expect(s).not.toContain('<!channel>');
    expect(s).toContain('&lt;!channel&gt; &amp; &lt;@U1&gt;');
    expect(s).toContain('<#C0WATCH>');
    expect(s).not.toContain('not-a-channel');
  });

  it('read-only: no lifecycle buttons, no New campaign, menu only with calls (none for WhatsApp) and Report', () => {
    const wa = campaign(2, { detail: campaignDetail({ id: 102, integration: { id: 'w', type: 'whatsapp' } }) });
    const v = homeView(
      model({ campaigns: [campaign(1), wa], matching: 2, canChange: false, whoCan: 'Only <@U1> can change.' }),
      en,
    );
    const rows = (v.blocks as unknown as Json[]).filter((b) => String(b.block_id ?? '').startsWith('home_campaign:'));
    expect(rows.map((r) => (r.elements as Json[]).map((e) => e.action_id))).toEqual([
      ['campaign_show', 'home_campaign_menu'],
      ['campaign_show', 'home_campaign_menu'],
    ]);
    const menus = (v.blocks as unknown as Json[]).flatMap((b) =>
      ((b.elements as Json[] | undefined) ?? []).filter((e) => e.action_id === 'home_campaign_menu'),
    );
    expect(menus.map((m) => (m.options as Json[]).map((o) => String(o.value).split(':')[0]))).toEqual([
      ['calls', 'report'],
      ['report'],
    ]);
    expect(text(v)).not.toContain('campaign_create_open');
    expect(text(v)).toContain('Only <@U1> can change.');
  });

  it('no list at all: the notice, filters and Refresh, and no "no campaigns" text', () => {
    const v = homeView(model({ noList: true, problem: 'The service is down.' }), en);
    valid(v);
    const s = text(v);
    expect(s).toContain("I couldn't read the campaigns");
    expect(s).toContain('home_refresh');
    expect(s).not.toMatch(/No campaigns/);
    const inSpanish = text(homeView(model({ noList: true, problem: 'El servicio no responde.' }), es));
    expect(inSpanish).toContain('No pude leer las campañas');
    expect(inSpanish).toContain('🔄 Actualizar');
  });

  it('no analytics snapshot: no analytics line; a failed detail read says so', () => {
    const none = campaign(1, { detail: campaignDetail({ id: 101, analytics: null }) });
    const failed = campaign(2, { detail: undefined, detailProblem: 'Campaign 102 was not found.' });
    const s = text(homeView(model({ campaigns: [none, failed], matching: 2 }), en));
    expect(s).not.toContain('📊 *');
    expect(s).toContain('Analytics unavailable right now: Campaign 102 was not found.');
  });

  it('Spanish: statuses, filters, menu and buttons in Spanish; counts agree', () => {
    const v = homeView(
      model({ campaigns: [campaign(1)], matching: 1, filters: { status: 'active' }, timeZone: 'America/Mexico_City' }),
      es,
    );
    const s = text(v);
    for (const words of ['📣 Campañas', '🟢 Activa', 'Todos los estados', '✏️ Editar', '📤 Subir contactos', 'Ver']) {
      expect(s).toContain(words);
    }
    expect(s).toContain('Se muestra 1–1 de 1 campaña que coincide con _activas_');
    expect(s).not.toMatch(/Showing|Refresh|Watch in/);
  });
});

describe('values', () => {
  it('menu and filter values decode; anything else is refused', () => {
    expect(decodeMenuChoice('watch:12')).toEqual({ choice: 'watch', campaignId: 12 });
    expect(decodeMenuChoice('delete:12')).toBeNull();
    expect(decodeFilterChoice('status', 'archived')).toEqual({ key: 'status', value: 'archived' });
    expect(decodeFilterChoice('status', 'all')).toEqual({ key: 'status', value: undefined });
    expect(decodeFilterChoice('status', 'bogus')).toBeNull();
    expect(decodeFilterChoice('channel', 'sms')).toBeNull();
    expect(decodeFilterChoice('agent', '../x')).toBeNull();
  });
});

describe('order', () => {
  it('active first, then newest, then higher id', () => {
    const items = [
      listItem(1, { id: 1, status: 'pending', created_at: '2026-01-03T00:00:00Z' }),
      listItem(2, { id: 2, status: 'active', created_at: '2026-01-01T00:00:00Z' }),
      listItem(3, { id: 3, status: 'finished', created_at: '2026-01-05T00:00:00Z' }),
      listItem(4, { id: 4, status: 'active', created_at: '2026-01-02T00:00:00Z' }),
      listItem(5, { id: 5, status: 'ready', created_at: null }),
      listItem(6, { id: 6, status: 'ready', created_at: '2026-01-03T00:00:00Z' }),
    ];
    expect(orderCampaigns(items).map((c) => c.id)).toEqual([4, 2, 3, 6, 1, 5]);
  });
});
