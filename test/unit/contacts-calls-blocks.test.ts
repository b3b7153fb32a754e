/**
 * Snapshots of the contacts page, a contact in full and the calls page in both languages, each checked against Block
 * Kit's limits; times in the reader's zone, naming it.
 */
import { LOCALES } from '../../src/i18n/locale.js';
import { translator } from '../../src/i18n/translator.js';
import { callsPageMessage } from '../../src/render/calls-page.js';
import { contactDetailMessage, contactsPageMessage } from '../../src/render/contacts-page.js';
import type { SlackMessage } from '../../src/render/types.js';
import { allTexts, assertWithinMessageLimits } from '../support/message-checks.js';
import { call, contact } from '../support/blocks-fixtures.js';

function checked(m: SlackMessage): SlackMessage {
  assertWithinMessageLimits(m);
  return m;
}

describe.each(LOCALES)('contacts (%s)', (locale) => {
  const t = translator(locale);
  it('a middle page with previous and next', () => {
    const m = contactsPageMessage(
      {
        campaignId: 12,
        campaignName: 'Spring renewals',
        contacts: [0, 1, 2].map((i) => contact(i)),
        page: 2,
        pagination: { has_next: true, has_previous: true, next_page: 3, previous_page: 1 },
        totalCount: 1234,
        status: undefined,
        timezone: 'America/Mexico_City',
      },
      t,
    );
    expect(checked(m)).toMatchSnapshot();
  });
  it('an empty first page, and an empty filtered page', () => {
    const pagination = { has_next: false, has_previous: false };
    expect(checked(contactsPageMessage({ campaignId: 12, contacts: [], page: 0, pagination }, t))).toMatchSnapshot();
    expect(
      checked(contactsPageMessage({ campaignId: 12, contacts: [], page: 0, pagination, status: 'failed' }, t)),
    ).toMatchSnapshot();
  });
  it('one contact in full', () => {
    expect(checked(contactDetailMessage(12, contact(0), { timezone: 'UTC' }, t))).toMatchSnapshot();
  });
  it('a contact with no name, no calls, no extracted data', () => {
    const m = contactDetailMessage(
      12,
      contact(1, {
        name: null,
        f_id: null,
        context: null,
        call_count: null,
        last_call_at: null,
        billed_duration: null,
        extracted_data: null,
        tags: null,
      }),
      {},
      t,
    );
    expect(checked(m)).toMatchSnapshot();
  });
});

describe.each(LOCALES)('callsPageMessage (%s)', (locale) => {
  const t = translator(locale);
  it('a first page with a next page', () => {
    const m = callsPageMessage(
      {
        campaignId: 12,
        calls: [
          call(0),
          call(1, { status: 'no-answer', answered_by: null, ended_by: '', ended_reason: '', duration: 0 }),
          call(2, { contact: null, started_at: null, status: 'in-progress', ended_by: null, duration: null }),
        ],
        page: 0,
        pagination: { page_index: 0, page_size: 3, has_next: true, has_previous: false, next_page: 1 },
        totalCount: 40,
        status: undefined,
        timezone: 'UTC',
      },
      t,
    );
    expect(checked(m)).toMatchSnapshot();
  });
  it('empty, filtered', () => {
    const m = callsPageMessage(
      { campaignId: 12, calls: [], page: 0, pagination: { has_next: false, has_previous: false }, status: 'busy' },
      t,
    );
    expect(checked(m)).toMatchSnapshot();
  });
});

describe('times are in the zone given (the reader’s), naming it', () => {
  it.each([
    ['en', 'America/Mexico_City', 'Started 2026-03-05 08:07 CST'],
    ['en', 'Europe/Madrid', 'Started 2026-03-05 15:07 GMT+1'],
    ['es', 'America/Mexico_City', 'Inició 5 mar 2026, 08:07 GMT-6'],
  ] as const)('%s in %s', (locale, zone, expected) => {
    const m = callsPageMessage(
      {
        campaignId: 12,
        calls: [call(0, { started_at: '2026-03-05T14:07:00Z' })],
        page: 0,
        pagination: { has_next: false, has_previous: false },
        timezone: zone,
      },
      translator(locale),
    );
    expect(allTexts(m).join('\n')).toContain(expected);
  });
});
