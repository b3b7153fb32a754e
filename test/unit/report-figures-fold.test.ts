/**
 * The report's figures are summed page by page (src/reports/figures.ts `FigureTally`), so a gathering holds one page
 * at a time whatever the campaign's size: folding the lists in pages of any size gives the same figures as the whole
 * lists at once, and nothing of a page is read again once it was added (a page wrecked right after it was counted
 * changes nothing).
 */
import type { CampaignCallItem, CampaignContact, CampaignDetail } from '../../src/outreach/schemas.js';
import { FigureTally, reportFigures } from '../../src/reports/figures.js';
import { seededRandom } from '../support/seeded-random.js';

const NOW = Date.parse('2026-03-10T18:00:00Z');
const DAY = 86_400_000;
const CONTACT_STATUSES = [
  'queue',
  'sent',
  'delivered',
  'read',
  'answered',
  'accepted',
  'rejected',
  'converted',
  'failed',
];
const CALL_STATUSES = ['ended', 'ended', 'busy', 'no-answer', 'failed', 'ringing'];
const gathered = { ms: 1, requests: 1, contacts: 0, calls: 0 };

function campaign(type: 'phone_call' | 'whatsapp'): CampaignDetail {
  return {
    id: 7,
    name: 'Cobranza',
    status: 'active',
    integration: { id: 'i', type },
    timezone: 'America/Bogota',
    analytics: { averageDuration: 80 },
  } as unknown as CampaignDetail;
}

/** `n` contacts and about 2n calls over the last 20 days, the same for a seed on every run. */
function data(n: number, seed: number): { contacts: CampaignContact[]; calls: CampaignCallItem[] } {
  const random = seededRandom(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const contacts: CampaignContact[] = [];
  const calls: CampaignCallItem[] = [];
  for (let id = 1; id <= n; id++) {
    const count = Math.floor(random() * 4);
    const last = NOW - Math.floor(random() * 20 * DAY);
    contacts.push({
      id,
      contact: `+57300${String(id).padStart(7, '0')}`,
      status: pick(CONTACT_STATUSES),
      call_count: count,
      last_call_at: count ? new Date(last).toISOString().replace('T', ' ').slice(0, 19) : null,
    } as CampaignContact);
    for (let k = 0; k < count; k++) {
      const at = NOW - Math.floor(random() * 20 * DAY);
      calls.push({
        id: `c${id}-${k}`,
        status: pick(CALL_STATUSES),
        answered_by: random() < 0.3 ? 'machine' : 'human',
        created_at: new Date(at).toISOString(),
        contact: { id },
      } as CampaignCallItem);
    }
  }
  return { contacts, calls };
}

function pages<T>(xs: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}

/** Breaks every item of a page and empties it: what a tally must no longer need once the page was added. */
function wreck(page: Record<string, unknown>[]): void {
  for (const item of page) for (const k of Object.keys(item)) item[k] = k === 'status' ? 'garbage' : undefined;
  page.length = 0;
}

describe.each(['phone_call', 'whatsapp'] as const)('the figures of a %s campaign, folded page by page', (type) => {
  const { contacts, calls } = data(1500, type === 'whatsapp' ? 2 : 1);
  const whole = reportFigures({
    campaign: campaign(type),
    contacts,
    calls: type === 'whatsapp' ? [] : calls,
    now: NOW,
    periodDays: 7,
    gathered,
  });

  it.each([1, 7, 100, 1500])('in pages of %i equal the whole lists at once', (size) => {
    const tally = new FigureTally(campaign(type), NOW, 7);
    for (const p of pages(contacts, size)) tally.addContacts(p);
    if (type !== 'whatsapp') for (const p of pages(calls, size)) tally.addCalls(p);
    expect(tally.figures(gathered)).toEqual(whole);
  });

  it('keep nothing of a page once it is added: wrecking each page after it changes nothing', () => {
    const copy = structuredClone({ contacts, calls });
    const tally = new FigureTally(campaign(type), NOW, 7);
    for (const p of pages(copy.contacts, 100)) {
      tally.addContacts(p);
      wreck(p as unknown as Record<string, unknown>[]);
    }
    if (type !== 'whatsapp') {
      for (const p of pages(copy.calls, 100)) {
        tally.addCalls(p);
        wreck(p as unknown as Record<string, unknown>[]);
      }
    }
    expect(tally.figures(gathered)).toEqual(whole);
  });
});

it('the phone figures are not trivial (every outcome and both periods have something to count)', () => {
  const { contacts, calls } = data(1500, 1);
  const f = reportFigures({ campaign: campaign('phone_call'), contacts, calls, now: NOW, periodDays: 7, gathered });
  expect(Object.values(f.calls!.byOutcome).every((n) => n > 0)).toBe(true);
  expect(f.comparison!.current.contactsCalled).toBeGreaterThan(0);
  expect(f.comparison!.previous.converted).toBeGreaterThan(0);
});
