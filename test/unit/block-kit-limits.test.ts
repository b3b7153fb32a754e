/**
 * Limits and escaping under hostile or large input, and the limit checker itself. Builders that speak the person's
 * language are checked in every language (Spanish runs about 20 % longer).
 */
import { LOCALES } from '../../src/i18n/locale.js';
import { translator } from '../../src/i18n/translator.js';
import { campaignDetailMessage } from '../../src/render/campaign-detail.js';
import { campaignListMessage } from '../../src/render/campaign-list.js';
import { callsPageMessage } from '../../src/render/calls-page.js';
import { contactDetailMessage, contactsPageMessage } from '../../src/render/contacts-page.js';
import { errorMessage, lifecycleResultMessage, successMessage } from '../../src/render/feedback.js';
import { decodeCampaignListNext } from '../../src/render/ids.js';
import type { SlackMessage } from '../../src/render/types.js';
import { allTexts, allValues, assertWithinMessageLimits, messageLimitProblems } from '../support/message-checks.js';
import { call, campaignDetail, contact, HOSTILE, listItem } from '../support/blocks-fixtures.js';
import { usageMessage } from '../../src/slack/grammar.js';

const SIZES = [0, 1, 500];
const en = translator('en');
/** Every size in every language: [size, locale]. */
const SIZES_BY_LOCALE = SIZES.flatMap((n) => LOCALES.map((l) => [n, l] as const));
/** What the note under a cut list starts with, per language. */
const MORE_CAMPAIGNS = {
  en: /^…and 477 more campaigns on this page not shown .*: #123, #124, .*#222, …\. /,
  es: /^…y 477 campañas más de esta página que no se muestran .*: #123, #124, .*#222, …\. /,
};
const noPages = { has_next: false, has_previous: false };

function expectNoLiveMarkup(m: SlackMessage): void {
  for (const t of allTexts(m)) {
    expect(t).not.toContain('<!channel>');
    expect(t).not.toContain('<@U1>');
    expect(t).not.toContain('<#C1>');
    expect(t).not.toContain('<https://');
  }
}

describe('limit checker', () => {
  it('finds what Slack would reject', () => {
    const bad = {
      text: '<!channel>',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'h'.repeat(151) } },
        { type: 'section', text: { type: 'mrkdwn', text: 'x'.repeat(3001) } },
        { type: 'section', text: { type: 'mrkdwn', text: 'ping <!here> & co' } },
        { type: 'section', fields: Array.from({ length: 11 }, () => ({ type: 'mrkdwn', text: 'f' })) },
        {
          type: 'actions',
          elements: [
            { type: 'button', text: { type: 'plain_text', text: 'a' }, action_id: 'x', value: 'v'.repeat(2001) },
            { type: 'button', text: { type: 'plain_text', text: '' }, action_id: 'x' },
            {
              type: 'overflow',
              action_id: 'y',
              options: [{ text: { type: 'plain_text', text: 'o' }, value: 'v'.repeat(151) }],
            },
          ],
        },
        ...Array.from({ length: 50 }, () => ({ type: 'divider' })),
      ],
    };
    const problems = messageLimitProblems(bad).join('\n');
    for (const expected of [
      '55 blocks > 50',
      'text: unescaped <…> sequence "<!channel>"',
      'blocks[0](header).text: text 151 > 150',
      'blocks[1](section).text: text 3001 > 3000',
      'blocks[2](section).text: unescaped <…> sequence "<!here>"',
      'blocks[2](section).text: bare &',
      'blocks[3](section): 11 fields',
      'button value 2001 > 2000',
      'duplicate action_id x in one block',
      'elements[1].text: empty text',
      'options[0]: value too long',
    ]) {
      expect(problems).toContain(expected);
    }
    expect(() => assertWithinMessageLimits(bad)).toThrow(/Block Kit limits/);
  });
});

describe('lists stay within 50 blocks for any size', () => {
  it.each(SIZES_BY_LOCALE)('%i campaigns (%s)', (n, locale) => {
    const campaigns = Array.from({ length: n }, (_, i) =>
      listItem(i, {
        name: `${HOSTILE} ${'n'.repeat(200)}`,
        cycle_enabled: true,
        cycle_max_iterations: 3,
        cycle_cooldown_minutes: 90,
        cycle_current_iteration: 2,
        cycle_filter_statuses: ['converted', 'answered'],
      }),
    );
    const t = translator(locale);
    const m = campaignListMessage({ campaigns, totalCount: n, nextCursor: n ? 'c' : null, filterText: HOSTILE }, t);
    assertWithinMessageLimits(m);
    expectNoLiveMarkup(m);
    if (n === 500) {
      const note = allTexts(m).find((x) => x.startsWith('…')) ?? '';
      // 50 - header, summary, note, buttons = 46 blocks = 23 campaigns of 2 blocks.
      expect(note).toMatch(MORE_CAMPAIGNS[locale]);
      expect(m.blocks[m.blocks.length - 1]?.type).toBe('actions');
    }
  });
  const MORE_CONTACTS = {
    en: '…and 477 more contacts on this page not shown',
    es: '…y 477 contactos más en esta página que no se muestran',
  };
  it.each(SIZES_BY_LOCALE)('%i contacts (%s)', (n, locale) => {
    const contacts = Array.from({ length: n }, (_, i) => contact(i, { name: HOSTILE }));
    const m = contactsPageMessage(
      {
        campaignId: 12,
        campaignName: HOSTILE,
        contacts,
        page: 1,
        pagination: { has_next: true, has_previous: true, next_page: 2, previous_page: 0 },
        totalCount: 50_000,
        status: 'failed',
        timezone: 'America/Mexico_City',
      },
      translator(locale),
    );
    assertWithinMessageLimits(m);
    expectNoLiveMarkup(m);
    if (n === 500) expect(JSON.stringify(m.blocks)).toContain(MORE_CONTACTS[locale]);
  });
  const MORE_CALLS = {
    en: '…and 454 more calls on this page not shown',
    es: '…y 454 llamadas más en esta página que no se muestran',
  };
  it.each(SIZES_BY_LOCALE)('%i calls (%s)', (n, locale) => {
    const calls = Array.from({ length: n }, (_, i) =>
      call(i, { contact: { id: i, name: HOSTILE, phone_number: HOSTILE }, ended_reason: HOSTILE }),
    );
    const m = callsPageMessage(
      { campaignId: 12, calls, page: 0, pagination: { ...noPages, has_next: true }, status: 'no-answer' },
      translator(locale),
    );
    assertWithinMessageLimits(m);
    expectNoLiveMarkup(m);
    if (n === 500) expect(JSON.stringify(m.blocks)).toContain(MORE_CALLS[locale]);
  });
});

describe('long text is cut with a note', () => {
  it('a 10,000-character description and first message', () => {
    const m = campaignDetailMessage(
      campaignDetail({ description: `${HOSTILE} ${'d'.repeat(10_000)}`, first_message: '&'.repeat(10_000) }),
    );
    assertWithinMessageLimits(m);
    expectNoLiveMarkup(m);
    const texts = allTexts(m).filter((t) => t.startsWith('*Description*') || t.startsWith('*First message*'));
    expect(texts).toHaveLength(2);
    for (const t of texts) {
      expect(t.length).toBeLessThanOrEqual(3000);
      expect(t).toMatch(/shortened: the full text is longer than a Slack message holds/);
    }
  });
  it.each([
    ['en', '…and 15 more fields not shown.'],
    ['es', '…y 15 campos más que no se muestran.'],
  ] as const)('a 10,000-character extracted-data value, 25 fields, hostile keys and tags (%s)', (locale, more) => {
    const extracted: Record<string, string> = { [HOSTILE]: 'v'.repeat(10_000) };
    for (let i = 0; i < 24; i++) extracted[`field_${i}`] = HOSTILE;
    const c = contact(0, { extracted_data: extracted, tags: [HOSTILE], context: HOSTILE });
    const m = contactDetailMessage(12, c, {}, translator(locale));
    assertWithinMessageLimits(m);
    expectNoLiveMarkup(m);
    const long = allTexts(m).find((t) => t.includes('vvvv'));
    expect(long?.length).toBeLessThanOrEqual(2000);
    expect(long).toMatch(/shortened to fit Slack/);
    expect(JSON.stringify(m.blocks)).toContain(more);
    expect(allTexts(m).some((t) => t.includes('&lt;!channel&gt;'))).toBe(true);
  });
  it('analytics with many unknown keys and odd values', () => {
    const analytics: Record<string, unknown> = { calls: 5, weird: { nested: HOSTILE }, flag: true, missing: null };
    for (let i = 0; i < 40; i++) analytics[`metric${i}Rate`] = i;
    const m = campaignDetailMessage(campaignDetail({ analytics, name: HOSTILE }));
    assertWithinMessageLimits(m);
    expectNoLiveMarkup(m);
    expect(JSON.stringify(m.blocks)).toContain('…and 14 more metrics not shown.');
    // A rate above 1 in the snapshot: all rates are percents.
    expect(JSON.stringify(m.blocks)).toContain('*Metric1 rate*\\n1%');
  });
  it('a 255-character hostile name everywhere it is shown', () => {
    const name = (HOSTILE + '&').repeat(10).slice(0, 255);
    const msgs: SlackMessage[] = [
      ...LOCALES.flatMap((l) => [
        campaignListMessage({ campaigns: [listItem(0, { name, status: 'cooldown' })], totalCount: 1 }, translator(l)),
        usageMessage(translator(l), { key: 'grammar.unknownSubcommand', values: { raw: name } }),
        usageMessage(translator(l), { key: 'grammar.notAListFilter', values: { raw: name } }),
        contactsPageMessage(
          { campaignId: 1, campaignName: name, contacts: [contact(0, { name })], page: 0, pagination: noPages },
          translator(l),
        ),
      ]),
      campaignDetailMessage(campaignDetail({ name, status: 'pending' })),
      errorMessage({
        sentence: name,
        campaignId: 1,
        campaignName: name,
        currentStatus: 'ready',
        validTargets: ['activate', 'archive'],
      }),
      successMessage(name),
      lifecycleResultMessage({ userId: 'U1', action: 'archive', campaign: { id: 1, name, status: 'active' } }),
    ];
    for (const m of msgs) {
      assertWithinMessageLimits(m);
      for (const t of allTexts(m)) expect(t.replace(/<@U1>/g, '')).not.toMatch(/<(?!@U1>)/);
    }
  });
});

describe('values', () => {
  it('button and option values stay within limits, and the next-page value round-trips the filter', () => {
    const m = campaignListMessage(
      {
        campaigns: [listItem(0)],
        nextCursor: 'c'.repeat(1500),
        requestFilter: { status: 'active', includeArchived: true, createdAfter: new Date('2026-01-01T00:00:00Z') },
      },
      en,
    );
    assertWithinMessageLimits(m);
    const next = allValues(m).find((v) => v.includes('"cursor"'));
    expect(decodeCampaignListNext(next)?.filter).toEqual({
      status: 'active',
      includeArchived: true,
      createdAfter: new Date('2026-01-01T00:00:00Z'),
    });
    for (const v of allValues(m)) expect(v.length).toBeLessThanOrEqual(2000);
  });
  it.each([
    ['en', 'page cursor is too long'],
    ['es', 'cursor de página del servicio es demasiado largo'],
  ] as const)('a cursor too long for a button leaves the button out and says why (%s)', (locale, why) => {
    const m = campaignListMessage({ campaigns: [listItem(0)], nextCursor: 'c'.repeat(2100) }, translator(locale));
    assertWithinMessageLimits(m);
    expect(allValues(m).some((v) => v.includes('"cursor"'))).toBe(false);
    expect(allTexts(m).join('\n')).toContain(why);
  });
  it.each(LOCALES)('the whole usage fits one section, uncut (%s)', (locale) => {
    const m = usageMessage(translator(locale), { key: 'grammar.unknownSubcommand', values: { raw: 'x'.repeat(40) } });
    assertWithinMessageLimits(m);
    expect(allTexts(m).join('\n')).not.toContain('shortened to fit Slack');
  });
  it('a user id that is not one mentions nobody', () => {
    const m = lifecycleResultMessage({
      userId: '<!channel>',
      action: 'pause',
      campaign: { id: 1, name: 'n', status: 'inactive' },
    });
    assertWithinMessageLimits(m);
    expect(m.text.startsWith('&lt;!channel&gt; paused')).toBe(true);
  });
  it.each([
    ['en', /^Remove P0\?/],
    ['es', /^¿Quitar a P0\?/],
  ] as const)(
    'remove buttons only for contacts in queue or failed, with a confirm naming the contact (%s)',
    (l, re) => {
      const m = contactsPageMessage(
        {
          campaignId: 1,
          contacts: ['queue', 'failed', 'answered', 'sending'].map((status, i) =>
            contact(i, { status, name: `P${i}` }),
          ),
          page: 0,
          pagination: noPages,
        },
        translator(l),
      );
      const rows = m.blocks.filter((b) => b.type === 'actions');
      const removable = rows.map((b) =>
        b.type === 'actions' ? b.elements.some((e) => e.action_id === 'contact_remove') : false,
      );
      expect(removable).toEqual([true, true, false, false]);
      const remove =
        rows[0]?.type === 'actions' ? rows[0].elements.find((e) => e.action_id === 'contact_remove') : undefined;
      expect(remove && 'confirm' in remove ? remove.confirm?.text.text : '').toMatch(re);
      expect(remove && 'style' in remove ? remove.style : '').toBe('danger');
    },
  );
});
