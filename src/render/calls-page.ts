/** A page of a campaign's calls (`/campaign calls <id> [status]`), in the words of the person who asked. */
import type { Translator } from '../i18n/translator.js';
import type { CallListFilterStatus, CampaignCallItem, PagePagination } from '../outreach/schemas.js';
import { ACTION_IDS, encodeCallsPage } from './ids.js';
import {
  answeredByLabel,
  callStatusLabel,
  endedByLabel,
  formatDateTime,
  formatDuration,
  formatPhone,
  NONE,
} from './format.js';
import { cleanLabel, mrkdwnSection } from './mrkdwn.js';
import { listPageMessage, type ListKind } from './paging.js';
import { tmd } from './text.js';
import type { SlackMessage } from './types.js';

/** Page size to request: a page of this many calls fits in one message (1 block each). */
export const CALLS_PER_MESSAGE = 20;

export interface CallsPageInput {
  campaignId: number;
  calls: CampaignCallItem[];
  /** 0-based page number of this page. */
  page: number;
  pagination: PagePagination;
  totalCount?: number | null;
  status?: CallListFilterStatus;
  /** Zone to show times in (the reader's, else the campaign's); default: the service's default zone. */
  timezone?: string | null;
}

/**
 * "*Ana* · +52 55 1234 5678
 *  ☑️ Ended · answered by 🙋 Person · 1m 05s · ended by the agent (goal reached)
 *  Started 2026-03-05 08:07 CST · call `abc`"
 */
function callText(call: CampaignCallItem, tz: string | null | undefined, t: Translator): string {
  const name = cleanLabel(call.contact?.name ?? '', 200);
  const who =
    name ||
    (call.contact ? t.t('callsPage.contact', { id: String(call.contact.id) }) : t.t('callsPage.unknownContact'));
  const ended = endedByLabel(call.ended_by, call.ended_reason, t);
  return tmd(t, 'callsPage.item', {
    who,
    hasPhone: call.contact?.phone_number ? 'yes' : 'no',
    phone: formatPhone(call.contact?.phone_number),
    status: callStatusLabel(call.status, t),
    answered: call.answered_by ? 'yes' : 'no',
    answeredBy: answeredByLabel(call.answered_by, t),
    duration: formatDuration(call.duration, t),
    ended: ended !== NONE ? 'yes' : 'no',
    endedBy: ended,
    started: formatDateTime(call.started_at ?? call.created_at, tz, t),
    callId: call.id,
  });
}

const CALLS: ListKind<CallListFilterStatus> = {
  base: ACTION_IDS.callsPage,
  encode: encodeCallsPage,
  keys: {
    header: 'callsPage.header',
    empty: 'callsPage.empty',
    emptyPage: 'callsPage.emptyPage',
    summary: 'callsPage.summary',
    more: 'callsPage.more',
    fallback: 'callsPage.fallback',
  },
};

export function callsPageMessage(input: CallsPageInput, t: Translator): SlackMessage {
  const { campaignId, status } = input;
  const which = {
    id: String(campaignId),
    filtered: status ? 'yes' : 'no',
    status: status ? callStatusLabel(status, t) : '',
  };
  const groups = input.calls.map((c) => [mrkdwnSection(callText(c, input.timezone, t))]);
  return listPageMessage(CALLS, input, { groups, which }, t);
}
