/**
 * Use cases behind the campaign commands and buttons: call the service (at interactive priority, the default),
 * render the answer. No Slack transport here.
 */
import type { AppDeps } from '../deps.js';
import type { Translator } from '../../i18n/translator.js';
import { statusLabel } from '../../render/format.js';
import type { CallListFilterStatus, ContactStatus, PagePagination } from '../../outreach/schemas.js';
import type { CampaignListRequestFilter } from '../../render/ids.js';
import { CAMPAIGNS_PER_MESSAGE, campaignListMessage } from '../../render/campaign-list.js';
import { campaignDetailMessage } from '../../render/campaign-detail.js';
import { CONTACTS_PER_MESSAGE, contactDetailMessage, contactsPageMessage } from '../../render/contacts-page.js';
import { CALLS_PER_MESSAGE, callsPageMessage } from '../../render/calls-page.js';
import type { SlackMessage } from '../../render/types.js';

/** Words for the filters of a list, e.g. "🟢 Active, WhatsApp, including archived" (empty when none). */
function describeListFilter(f: CampaignListRequestFilter, t: Translator): string {
  const channel =
    f.integrationType === 'phone_call'
      ? t.t('campaignList.filter.phone')
      : f.integrationType === 'whatsapp'
        ? t.t('campaignList.filter.whatsapp')
        : undefined;
  return [
    f.status ? statusLabel(f.status, t) : undefined,
    channel,
    f.agentId ? t.t('campaignList.filter.agent', { agent: f.agentId }) : undefined,
    f.includeArchived ? t.t('campaignList.filter.archived') : undefined,
  ]
    .filter(Boolean)
    .join(', ');
}

/** A page of the campaign list, in the words of `t` (the person who asked or clicked). */
export async function loadCampaignList(
  deps: AppDeps,
  t: Translator,
  filter: CampaignListRequestFilter,
  cursor?: string,
): Promise<SlackMessage> {
  const requestFilter: CampaignListRequestFilter = { ...filter, pageSize: CAMPAIGNS_PER_MESSAGE };
  const page = await deps.outreach.listCampaigns({ ...requestFilter, ...(cursor ? { cursor } : {}) });
  const text = describeListFilter(filter, t);
  return campaignListMessage(
    {
      campaigns: page.campaigns,
      totalCount: page.total_count,
      nextCursor: page.pagination.has_next ? (page.pagination.next_cursor ?? undefined) : undefined,
      ...(text ? { filterText: text } : {}),
      requestFilter,
    },
    t,
  );
}

/** One campaign in full, in the words of `t`, its dates in `timeZone` (the person's; else the campaign's). */
export async function loadCampaignDetail(
  deps: AppDeps,
  t: Translator,
  id: number,
  timeZone?: string,
): Promise<SlackMessage> {
  return campaignDetailMessage(await deps.outreach.getCampaign(id), timeZone ? { timeZone } : {}, t);
}

/**
 * What a page of a campaign's contacts or calls shows besides its rows, as the service answered it: which page of
 * which campaign, filtered how, its pagination, times in `timeZone`.
 */
function pageOf<S>(
  req: { campaignId: number; page: number; status?: S },
  list: { pagination: PagePagination; total_count?: number | null },
  timeZone?: string,
) {
  const { campaignId, page, status } = req;
  return {
    campaignId,
    page,
    pagination: list.pagination,
    totalCount: list.total_count ?? undefined,
    status,
    timezone: timeZone,
  };
}

/** A page of a campaign's contacts, in the words of `t`; times in `timeZone` (the reader's Slack zone). */
export async function loadContactsPage(
  deps: AppDeps,
  t: Translator,
  req: { campaignId: number; page: number; status?: ContactStatus },
  timeZone?: string,
): Promise<SlackMessage> {
  const query = { page: req.page, pageSize: CONTACTS_PER_MESSAGE, status: req.status };
  const list = await deps.outreach.listContacts(req.campaignId, query);
  return contactsPageMessage({ ...pageOf(req, list, timeZone), contacts: list.contacts }, t);
}

export async function loadContactDetail(
  deps: AppDeps,
  t: Translator,
  ref: { campaignId: number; contactId: number },
  timeZone?: string,
): Promise<SlackMessage> {
  const contact = await deps.outreach.getContact(ref.campaignId, ref.contactId);
  return contactDetailMessage(ref.campaignId, contact, { timezone: timeZone }, t);
}

/** A page of a campaign's calls, in the words of `t`; times in `timeZone` (the reader's Slack zone). */
export async function loadCallsPage(
  deps: AppDeps,
  t: Translator,
  req: { campaignId: number; page: number; status?: CallListFilterStatus },
  timeZone?: string,
): Promise<SlackMessage> {
  const query = { page: req.page, pageSize: CALLS_PER_MESSAGE, status: req.status };
  const list = await deps.outreach.listCampaignCalls(req.campaignId, query);
  return callsPageMessage({ ...pageOf(req, list, timeZone), calls: list.calls }, t);
}
