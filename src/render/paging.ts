/** Page-numbered lists (a campaign's contacts, its calls): a page's message, with its Previous / Next buttons. */
import type { PagePagination } from '../outreach/schemas.js';
import type { MessageKey, Translator } from '../i18n/translator.js';
import { ENGLISH } from './format.js';
import { ACTION_IDS, actionId } from './ids.js';
import { actions, button, context, fallback, fitGroups, header, LIMITS, mrkdwnSection, raw } from './mrkdwn.js';
import { tmd } from './text.js';
import type { Button, KnownBlock, SlackMessage } from './types.js';

type PageActionId = typeof ACTION_IDS.contactsPage | typeof ACTION_IDS.callsPage;

/**
 * "◀ Previous" (`<base>:prev`) and "Next ▶" (`<base>:next`) as the pagination allows; `encode(page)` makes the value.
 * The service's previous_page/next_page win; without them the neighbours of `page` are used.
 */
export function pageButtons(
  base: PageActionId,
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

export interface ListPage {
  /** The list's Previous / Next action ids, and a page's button value. */
  base: PageActionId;
  encode: (page: number) => string;
  page: number;
  pagination: PagePagination;
  totalCount?: number | null | undefined;
  title: string;
  /** What an empty page says (mrkdwn), and what its section adds below that (not in the notification). */
  empty: string;
  emptyHint?: string;
  /** The placeholders of the list's sentences: which campaign, filtered how. */
  which: Record<string, string>;
  /** The list's summary ("page 2, 20 of 45 …"), its "and N more" and its notification, worded with `which`. */
  keys: { summary: MessageKey; more: MessageKey; fallback: MessageKey };
  /** The page's rows, a few blocks each (as many as fit). */
  groups: KnownBlock[][];
}

/** A page of a list: its title, a summary, its rows (as many as fit a message) and its Previous / Next buttons. */
export function listPageMessage(p: ListPage, t: Translator): SlackMessage {
  const nav = pageButtons(p.base, p.page, p.pagination, p.encode, t);
  const tail: KnownBlock[] = nav.length ? [actions(nav)] : [];
  if (p.groups.length === 0) {
    return {
      text: fallback(p.empty),
      blocks: [header(p.title), mrkdwnSection(p.empty + (p.emptyHint ?? '')), ...tail],
    };
  }
  const total = p.totalCount;
  const counted = total !== null && total !== undefined;
  const summary = tmd(t, p.keys.summary, {
    ...p.which,
    page: p.page + 1,
    counted: counted ? 'yes' : 'no',
    shown: p.groups.length,
    total: total ?? 0,
  });
  const blocks = fitGroups({
    head: [header(p.title), context(summary)],
    groups: p.groups,
    tail,
    max: LIMITS.messageBlocks,
    moreText: (n) => t.t(p.keys.more, { count: n, max: LIMITS.messageBlocks }),
  });
  return { text: fallback(tmd(t, p.keys.fallback, { summary: raw(summary) })), blocks };
}
