/** A page of a campaign's calls (`/campaign calls <id> [status]`). */
import type { CallListFilterStatus, CampaignCallItem, PagePagination } from '../outreach/schemas.js';
import { ACTION_IDS, encodeCallsPage } from './ids.js';
import {
  answeredByLabel,
  callStatusLabel,
  endedByLabel,
  formatCount,
  formatDateTime,
  formatDuration,
  formatPhone,
  NONE,
  plural,
} from './format.js';
import { actions, cleanLabel, context, fallback, fitGroups, header, LIMITS, md, mrkdwnSection, raw } from './mrkdwn.js';
import { pageButtons } from './paging.js';
import type { KnownBlock, SlackMessage } from './types.js';

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
  /** Zone to show times in (the campaign's); default: the service's default zone. */
  timezone?: string | null;
}

/**
 * "*Ana* · +52 55 1234 5678
 *  ☑️ Ended · answered by 🙋 Person · 1m 05s · ended by the agent (goal reached)
 *  Started 2026-03-05 08:07 CST · call `abc`"
 */
function callText(call: CampaignCallItem, tz: string | null | undefined): string {
  const name = cleanLabel(call.contact?.name ?? '', 200);
  const who = name || (call.contact ? `Contact #${call.contact.id}` : 'Unknown contact');
  const phone = call.contact?.phone_number ? md` · ${formatPhone(call.contact.phone_number)}` : '';
  let text = md`*${who}*${raw(phone)}\n${callStatusLabel(call.status)}`;
  if (call.answered_by) text += md` · answered by ${answeredByLabel(call.answered_by)}`;
  text += md` · ${formatDuration(call.duration)}`;
  const ended = endedByLabel(call.ended_by, call.ended_reason);
  if (ended !== NONE) text += md` · ended by ${ended}`;
  text += md`\nStarted ${formatDateTime(call.started_at ?? call.created_at, tz)} · call \`${call.id}\``;
  return text;
}

export function callsPageMessage(input: CallsPageInput): SlackMessage {
  const { campaignId, calls, page, pagination, status } = input;
  const filter = status ? md` with status ${callStatusLabel(status)}` : '';
  const nav = pageButtons(ACTION_IDS.callsPage, page, pagination, (p) =>
    encodeCallsPage({ campaignId, page: p, status }),
  );
  const tail: KnownBlock[] = nav.length ? [actions(nav)] : [];
  const title = `Calls · campaign #${campaignId}`;

  if (calls.length === 0) {
    const text = page === 0 ? `No calls in campaign #${campaignId}${filter} yet.` : 'No calls on this page.';
    return { text: fallback(text), blocks: [header(title), mrkdwnSection(text), ...tail] };
  }

  const total = input.totalCount;
  const count =
    total !== null && total !== undefined
      ? `${formatCount(calls.length)} of ${plural(total, 'call')}`
      : plural(calls.length, 'call');
  const summary = `campaign #${campaignId}${filter} · page ${formatCount(page + 1)} · ${count}`;
  const blocks = fitGroups({
    head: [header(title), context(summary)],
    groups: calls.map((c) => [mrkdwnSection(callText(c, input.timezone))]),
    tail,
    max: LIMITS.messageBlocks,
    moreText: (n) =>
      `…and ${plural(n, 'more call')} on this page not shown (Slack shows at most ${LIMITS.messageBlocks} blocks).`,
  });
  return { text: fallback(`Calls of ${summary}`), blocks };
}
