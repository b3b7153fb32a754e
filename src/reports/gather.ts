/**
 * Reads what a report needs from the service: the campaign (its analytics), every contact and every call, page by
 * page at the largest page size, all at the limiter's `bulk` priority (behind people's commands and the watch
 * poller, inside the one 12 requests/s budget). Each page is summed into the figures as it comes in and let go
 * (`FigureTally`), so a report holds one page at a time whatever the campaign's size. Counts the requests and the
 * time it took, which the report says. Who starts a gathering, and how many run at once: gatherings.ts.
 */
import type { OutreachApi, Priority } from '../outreach/api.js';
import type { CampaignDetail } from '../outreach/schemas.js';
import type { Clock } from '../clock.js';
import { FigureTally, type ReportFigures } from './figures.js';

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
  /**
   * Called before each request to the service with the number sent so far; what it throws stops the gathering there
   * (a person's budget spent: gatherings.ts).
   */
  beforeRequest?: (sent: number) => Promise<void>;
}

type Paged = { pagination: { has_next: boolean; next_page?: number | null } };

/** Every page of a list, each handed to `take` and let go before the next is read. */
async function eachPage<L extends Paged>(
  fetch: (page: number) => Promise<L>,
  take: (list: L) => void,
  request: <T>(send: () => Promise<T>) => Promise<T>,
): Promise<void> {
  let page = 0;
  for (;;) {
    const list = await request(() => fetch(page));
    take(list);
    if (!list.pagination.has_next) return;
    const next = list.pagination.next_page ?? page + 1;
    if (next <= page || next > LAST_PAGE) return;
    page = next;
  }
}

export async function gatherReport(api: OutreachApi, campaignId: number, opts: GatherOptions): Promise<ReportFigures> {
  const started = performance.now();
  const counted = { requests: 0, contacts: 0, calls: 0 };
  const request = async <T>(send: () => Promise<T>): Promise<T> => {
    await opts.beforeRequest?.(counted.requests);
    counted.requests += 1;
    return send();
  };
  const options = { priority: PRIORITY };
  const campaign = opts.campaign ?? (await request(() => api.getCampaign(campaignId, options)));
  const tally = new FigureTally(campaign, opts.clock.now(), opts.periodDays);
  await eachPage(
    (page) => api.listContacts(campaignId, { page, pageSize: PAGE_SIZE }, options),
    (l) => {
      tally.addContacts(l.contacts);
      counted.contacts += l.contacts.length;
    },
    request,
  );
  if (campaign.integration?.type !== 'whatsapp') {
    await eachPage(
      (page) => api.listCampaignCalls(campaignId, { page, pageSize: PAGE_SIZE }, options),
      (l) => {
        tally.addCalls(l.calls);
        counted.calls += l.calls.length;
      },
      request,
    );
  }
  return tally.figures({ ms: Math.round(performance.now() - started), ...counted });
}
