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
function pageButtons(
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

/** A page-numbered list of a campaign's: its Previous / Next action ids and values, and its sentences. */
export interface ListKind<S> {
  base: PageActionId;
  encode: (v: { campaignId: number; page: number; status?: S }) => string;
  /** Worded with the list's placeholders (which campaign, filtered how: `which`). */
  keys: {
    header: MessageKey;
    /** The first page empty, a later one empty (the list ended). */
    empty: MessageKey;
    emptyPage: MessageKey;
    /** "page 2, 20 of 45 …", its "and N more", and the notification. */
    summary: MessageKey;
    more: MessageKey;
    fallback: MessageKey;
  };
}

/** Which page of a campaign's list, filtered how, as the service counted it. */
interface PageOf<S> {
  campaignId: number;
  page: number;
  pagination: PagePagination;
  totalCount?: number | null | undefined;
  status?: S | undefined;
}

/** A page's rows (a few blocks each), the placeholders of its sentences, and what an empty first page adds. */
interface PageRows {
  groups: KnownBlock[][];
  which: Record<string, string>;
  emptyHint?: string;
}

/** A page of a list: its title, a summary, its rows (as many as fit a message) and its Previous / Next buttons. */
export function listPageMessage<S>(kind: ListKind<S>, p: PageOf<S>, rows: PageRows, t: Translator): SlackMessage {
  const { campaignId, page, status } = p;
  const { keys } = kind;
  const encode = (n: number) => kind.encode({ campaignId, page: n, ...(status ? { status } : {}) });
  const nav = pageButtons(kind.base, page, p.pagination, encode, t);
  const tail: KnownBlock[] = nav.length ? [actions(nav)] : [];
  const title = t.t(keys.header, { id: String(campaignId) });
  if (rows.groups.length === 0) {
    const empty = page === 0 ? tmd(t, keys.empty, rows.which) : t.t(keys.emptyPage);
    return { text: fallback(empty), blocks: [header(title), mrkdwnSection(empty + (rows.emptyHint ?? '')), ...tail] };
  }
  const counted = p.totalCount !== null && p.totalCount !== undefined;
  const summary = tmd(t, keys.summary, {
    ...rows.which,
    page: page + 1,
    counted: counted ? 'yes' : 'no',
    shown: rows.groups.length,
    total: p.totalCount ?? 0,
  });
  const blocks = fitGroups({
    head: [header(title), context(summary)],
    groups: rows.groups,
    tail,
    max: LIMITS.messageBlocks,
    moreText: (n) => t.t(keys.more, { count: n, max: LIMITS.messageBlocks }),
  });
  return { text: fallback(tmd(t, keys.fallback, { summary: raw(summary) })), blocks };
}
