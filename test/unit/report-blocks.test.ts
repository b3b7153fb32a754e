/**
 * The report's message, its chart words and its text alternative (src/render/report.ts) from figures computed by
 * src/reports/figures.ts: Slack's limits in both languages with a hostile campaign name, the numbers in the text
 * alternative, the schedules list, and the figures themselves (funnel, outcomes, hours in the campaign's zone,
 * periods).
 */
import { translator } from '../../src/i18n/translator.js';
import type { CampaignCallItem, CampaignContact, CampaignDetail } from '../../src/outreach/schemas.js';
import { decodeScheduleConfirmValue } from '../../src/render/ids.js';
import {
  reportAltText,
  reportChartInput,
  reportConfirmExternalMessage,
  reportGatheringMessage,
  reportMessage,
  reportOverBudgetMessage,
  reportSkippedMessage,
  schedulesListMessage,
  type ScheduleView,
} from '../../src/render/report.js';
import { reportFigures } from '../../src/reports/figures.js';
import { validateBlocks } from '../../src/emulator/block-kit-limits.js';

const NOW = Date.parse('2026-03-10T18:00:00Z');
const HOUR = 3_600_000;
const HOSTILE = `<!channel> *bold* ${'Ñandú '.repeat(60)}`;

function campaign(over: Partial<CampaignDetail> = {}): CampaignDetail {
  return {
    id: 12,
    name: HOSTILE,
    status: 'active',
    integration: { id: 'i', type: 'phone_call' },
    agent: { id: 'a', name: 'Sofía' },
    created_at: '2026-03-01T00:00:00Z',
    timezone: 'America/Mexico_City',
    analytics: { averageDuration: 95 },
    ...over,
  } as CampaignDetail;
}

const contact = (id: number, status: string, calls = 1, lastCallAt?: number): CampaignContact =>
  ({
    id,
    contact: `+52551234${String(id).padStart(4, '0')}`,
    status,
    call_count: calls,
    last_call_at: lastCallAt ? new Date(lastCallAt).toISOString().replace('T', ' ').slice(0, 19) : null,
  }) as CampaignContact;

const call = (contactId: number, at: number, status: string, answeredBy = 'unknown'): CampaignCallItem =>
  ({
    id: `c${contactId}-${at}`,
    status,
    answered_by: answeredBy,
    created_at: new Date(at).toISOString(),
    contact: { id: contactId },
  }) as CampaignCallItem;

// Now (2026-03-10 12:00 in Mexico City): two calls in the last 7 days, one in the 7 before.
const contacts = [
  contact(1, 'converted', 1, NOW - 2 * HOUR),
  contact(2, 'voicemail', 1, NOW - 3 * HOUR),
  contact(3, 'converted', 1, NOW - 8 * 24 * HOUR),
  contact(4, 'queue', 0),
  contact(5, 'failed', 2, NOW - 9 * 24 * HOUR),
];
const calls = [
  call(1, NOW - 2 * HOUR, 'ended', 'human'),
  call(2, NOW - 3 * HOUR, 'ended', 'machine'),
  call(3, NOW - 8 * 24 * HOUR, 'ended', 'human'),
  call(5, NOW - 9 * 24 * HOUR, 'busy'),
  call(5, NOW - 9 * 24 * HOUR + HOUR, 'ringing'),
];
const gathered = { ms: 1234, requests: 3, contacts: 5, calls: 5 };
const phone = reportFigures({ campaign: campaign(), contacts, calls, now: NOW, periodDays: 7, gathered });

describe('report figures', () => {
  it('counts the funnel, outcomes, hours in the campaign’s zone and both periods', () => {
    expect(phone.funnel).toEqual([
      { step: 'total', count: 5 },
      { step: 'called', count: 4 },
      { step: 'answered', count: 2 },
      { step: 'converted', count: 2 },
    ]);
    expect(phone.conversionRate).toBe(50);
    expect(phone.calls!.byOutcome).toEqual({ human: 2, voicemail: 1, busy: 1, noAnswer: 0, failed: 0, inProgress: 1 });
    // 16:00Z and 15:00Z are 10:00 and 09:00 in Mexico City.
    expect(phone.calls!.byHour[10]).toBe(1);
    expect(phone.calls!.byHour[9]).toBe(1);
    expect(phone.calls!.byHour.reduce((a, b) => a + b, 0)).toBe(5);
    expect(phone.comparison!.current).toEqual({
      calls: 2,
      answered: 1,
      converted: 1,
      contactsCalled: 2,
      conversionRate: 50,
    });
    expect(phone.comparison!.previous).toEqual({
      calls: 3,
      answered: 1,
      converted: 1,
      contactsCalled: 2,
      conversionRate: 50,
    });
  });

  it('WhatsApp: the message funnel, each step counting those who got further, no comparison', () => {
    const wa = reportFigures({
      campaign: campaign({ integration: { id: 'w', type: 'whatsapp' } }),
      contacts: ['sent', 'delivered', 'read', 'converted', 'rejected', 'failed', 'queue'].map((s, i) =>
        contact(i + 1, s, 0),
      ),
      calls: [],
      now: NOW,
      periodDays: 7,
      gathered,
    });
    expect(wa.funnel.map((s) => s.count)).toEqual([7, 5, 4, 3, 1]);
    expect(wa.conversionRate).toBe(20);
    expect(wa.comparison).toBeUndefined();
    expect(wa.calls).toBeUndefined();
  });
});

describe.each(['en', 'es'] as const)('report blocks (%s)', (lang) => {
  const t = translator(lang);

  it('fit Slack’s limits with a hostile name; outside text escaped', () => {
    for (const lastOne of [false, true]) {
      const m = reportMessage(phone, t, { lastOne });
      expect(validateBlocks(m.blocks)).toEqual([]);
      // mrkdwn (the fallback and every block but the plain-text header) holds the name escaped.
      expect(JSON.stringify([m.text, ...m.blocks.slice(1)])).not.toContain('<!channel>');
      expect(m.text).toContain('&lt;!channel&gt;');
    }
  });

  it('the text alternative holds the chart’s numbers and fits alt_txt’s 1000 characters', () => {
    const alt = reportAltText(phone, t);
    expect(alt.length).toBeLessThanOrEqual(1000);
    const chart = reportChartInput(phone, t);
    for (const bar of [...chart.funnel, ...chart.outcomes!]) expect(alt).toContain(`${bar.label} ${bar.count}`);
    expect(alt).toContain('50%');
    expect(chart.byHour).toEqual(phone.calls!.byHour);
  });

  it('the schedules list fits with many schedules, soonest first', () => {
    const views: ScheduleView[] = Array.from({ length: 80 }, (_, i) => ({
      campaignId: i + 1,
      channelId: `C0${i}`,
      frequency: i % 2 ? 'daily' : 'weekly',
      weekday: i % 7,
      time: '09:00',
      timeZone: 'America/Bogota',
      nextRun: NOW + (80 - i) * HOUR,
    }));
    const m = schedulesListMessage(views, t);
    expect(validateBlocks(m.blocks)).toEqual([]);
    expect(JSON.stringify(m.blocks[1])).toContain('#80');
    expect(validateBlocks(schedulesListMessage([], t).blocks)).toEqual([]);
  });

  it('who may post where: the gathering notes, the Slack Connect confirmations and the DM of a skipped run fit', () => {
    const named = { id: 12, name: HOSTILE };
    const typed = { campaignId: 12, channelId: 'C0PARTNER', frequency: 'weekly' as const, weekday: 3, time: '09:00' };
    const view: ScheduleView = { ...typed, timeZone: 'America/Bogota', nextRun: NOW };
    const messages = [
      ...[
        { joined: false, ahead: 0, where: 'here' as const },
        { joined: true, ahead: 0, where: 'dm' as const, why: 'readOnly' as const },
        { joined: false, ahead: 3, where: 'dm' as const, why: 'elsewhere' as const },
        { joined: false, ahead: 0, where: 'dm' as const, why: 'home' as const },
      ].map((v) => reportGatheringMessage({ campaignId: 12, maxAtOnce: 2, ...v }, t)),
      reportOverBudgetMessage({ campaignId: 12, requests: 40, waitMs: 95_000, requestsPerAction: 20 }, t),
      reportConfirmExternalMessage(named, 'C0PARTNER', true, t),
      reportConfirmExternalMessage(named, 'C0PARTNER', undefined, t, typed),
      reportSkippedMessage(view, undefined, t),
      reportSkippedMessage(view, 'I’m not in it.', t),
    ];
    for (const m of messages) {
      expect(validateBlocks(m.blocks)).toEqual([]);
      expect(JSON.stringify(m)).not.toContain('<!channel>');
      expect(m.text.length).toBeGreaterThan(20);
    }
    // Each confirmation carries its own button, whose value decodes back to what was asked.
    expect(JSON.stringify(messages[5])).toContain('"action_id":"report_confirm_external"');
    const scheduleButton = JSON.stringify(messages[6]).match(
      /"action_id":"report_schedule_confirm","value":"((?:[^"\\]|\\.)*)"/,
    );
    expect(decodeScheduleConfirmValue(JSON.parse(`"${scheduleButton![1]!}"`) as string)).toEqual(typed);
    expect(JSON.stringify(messages[7])).toContain('report_schedule_confirm');
  });
});
