/** Previous / Next buttons of page-numbered lists (contacts, calls). */
import type { PagePagination } from '../outreach/schemas.js';
import type { Translator } from '../i18n/translator.js';
import { ENGLISH } from './format.js';
import { ACTION_IDS, actionId } from './ids.js';
import { button } from './mrkdwn.js';
import type { Button } from './types.js';

/**
 * "◀ Previous" (`<base>:prev`) and "Next ▶" (`<base>:next`) as the pagination allows; `encode(page)` makes the value.
 * The service's previous_page/next_page win; without them the neighbours of `page` are used.
 */
export function pageButtons(
  base: typeof ACTION_IDS.contactsPage | typeof ACTION_IDS.callsPage,
  page: number,
  pagination: PagePagination,
  encode: (page: number) => string,
  t: Translator = ENGLISH,
): Button[] {
  const out: Button[] = [];
  if (pagination.has_previous && page > 0) {
    const prev = pagination.previous_page ?? page - 1;
    out.push(button({ text: t.t('paging.previous'), actionId: actionId(base, 'prev'), value: encode(prev) }));
  }
  if (pagination.has_next) {
    const next = pagination.next_page ?? page + 1;
    out.push(button({ text: t.t('paging.next'), actionId: actionId(base, 'next'), value: encode(next) }));
  }
  return out;
}
