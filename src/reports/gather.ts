/**
 * Reads what a report needs from the service: the campaign (its analytics), every contact and every call, page by
 * page at the largest page size, all at the limiter's `bulk` priority (behind people's commands and the watch
 * poller, inside the one 12 requests/s budget). Counts the requests and the time it took, which the report says.
 */
import type { OutreachApi, Priority } from '../outreach/api.js';
import type { CampaignCallItem, CampaignContact, CampaignDetail } from '../outreach/schemas.js';
import type { Clock } from '../clock.js';
import { reportFigures, type ReportFigures } from './figures.js';

/** The service's largest page. */
const PAGE_SIZE = 100;
/** The service's last page number (src/outreach/client.ts checks it too). */
const LAST_PAGE = 25_000;
/** Reports read in the background: behind people and the watch poller. */
const PRIORITY: Priority = 'bulk';

export interface GatherOptions {
  clock: Clock;
  /** Length of the compared periods, in days. */
  periodDays: number;
  /** The campaign, when the caller already read it. */
  campaign?: CampaignDetail;
}

async function allPages<L extends { pagination: { has_next: boolean; next_page?: number | null } }, I>(
  fetch: (page: number) => Promise<L>,
  items: (list: L) => I[],
  counted: { requests: number },
): Promise<I[]> {
  const out: I[] = [];
  let page = 0;
  for (;;) {
    const list = await fetch(page);
    counted.requests += 1;
    out.push(...items(list));
    if (!list.pagination.has_next) return out;
    const next = list.pagination.next_page ?? page + 1;
    if (next <= page || next > LAST_PAGE) return out;
    page = next;
  }
}

export async function gatherReport(api: OutreachApi, campaignId: number, opts: GatherOptions): Promise<ReportFigures> {
  const started = performance.now();
  const counted = { requests: 0 };
  const options = { priority: PRIORITY };
  let campaign = opts.campaign;
  if (!campaign) {
    campaign = await api.getCampaign(campaignId, options);
    counted.requests += 1;
  }
  const contacts = await allPages<Awaited<ReturnType<OutreachApi['listContacts']>>, CampaignContact>(
    (page) => api.listContacts(campaignId, { page, pageSize: PAGE_SIZE }, options),
    (l) => l.contacts,
    counted,
  );
  const calls: CampaignCallItem[] =
    campaign.integration?.type === 'whatsapp'
      ? []
      : await allPages(
          (page) => api.listCampaignCalls(campaignId, { page, pageSize: PAGE_SIZE }, options),
          (l) => l.calls,
          counted,
        );
  return reportFigures({
    campaign,
    contacts,
    calls,
    now: opts.clock.now(),
    periodDays: opts.periodDays,
    gathered: {
      ms: Math.round(performance.now() - started),
      requests: counted.requests,
      contacts: contacts.length,
      calls: calls.length,
    },
  });
}
