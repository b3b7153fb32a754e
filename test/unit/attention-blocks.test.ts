/**
 * Watches that call people in (src/render/attention.ts, src/watch/attention.ts `inSchedule`): the mention and the
 * reminder in a call thread, the owner's DMs, the Home tab's waiting list, in both languages, within Block Kit's
 * limits and with outside text escaped; and when a campaign's weekly schedule runs, in its timezone.
 */
import { describe, expect, it } from '@jest/globals';
import { LOCALES } from '../../src/i18n/locale.js';
import { translator } from '../../src/i18n/translator.js';
import {
  campaignEventNotice,
  HOME_WAITING_SHOWN,
  homeWaitingBlocks,
  waitingReminder,
  withAssigneeMention,
  type WaitingItem,
} from '../../src/render/attention.js';
import { conversationReply } from '../../src/render/call-message.js';
import { HOME_CAMPAIGNS_PER_PAGE, homeView } from '../../src/render/home.js';
import { inSchedule } from '../../src/watch/attention.js';
import { HOSTILE } from '../support/blocks-fixtures.js';
import { campaignDetail, listItem } from '../support/blocks-fixtures.js';
import { validateBlocks, validateView } from '../../src/emulator/block-kit-limits.js';
import { allTexts, messageLimitProblems } from '../support/message-checks.js';

/** Our own mentions and channel links, and the thread links we build, are the only `<…>` allowed. */
function outsideProblems(texts: string[]): string[] {
  const ours = /^(<@U0MARIA>|<#C0OPS>|<https:\/\/acme\.slack\.com\/archives\/[^|>]+\|[^>]*>)$/;
  return texts.flatMap((t) => [...t.matchAll(/<[^<>]*>/g)].map((m) => m[0]).filter((seq) => !ours.test(seq)));
}

describe.each(LOCALES)('in %s', (locale) => {
  const t = translator(locale);

  it('the assignee mention goes under the end user’s message; only a Slack user id is ever mentioned', () => {
    const reply = conversationReply(
      { thread_id: 't', type: 'text', sent_by: 'EU', sent_at: '2026-11-25T16:00:00Z', content: HOSTILE },
      { endUserName: HOSTILE, self: false },
      t,
    );
    const m = withAssigneeMention(reply, 'U0MARIA', t);
    expect(m.text).toContain('<@U0MARIA>');
    expect(m.blocks).toHaveLength((reply.blocks ?? []).length + 1);
    expect(messageLimitProblems(m).filter((p) => !p.includes('<@U0MARIA>'))).toEqual([]);
    expect(outsideProblems(allTexts(m))).toEqual([]);
    // Anything but a user id is not mentioned at all.
    expect(withAssigneeMention(reply, '<!channel>', t)).toEqual(reply);
  });

  it('the reminder names the waiting customer (escaped) and the minutes', () => {
    const m = waitingReminder({ assignee: 'U0MARIA', minutes: 15, endUserName: `${HOSTILE}${'x'.repeat(500)}` }, t);
    expect(m.text).toContain('<@U0MARIA>');
    expect(m.text).toContain('15');
    expect(outsideProblems(allTexts(m))).toEqual([]);
    expect(validateBlocks(m.blocks)).toEqual([]);
    const nameless = waitingReminder({ assignee: 'U0MARIA', minutes: 1 }, t);
    expect(nameless.text).toMatch(locale === 'es' ? /el cliente.*1 minuto\b/ : /the customer.*1 minute\b/);
  });

  it.each(['finished', 'paused', 'billing'] as const)('the owner’s DM when the campaign is %s', (event) => {
    const text = campaignEventNotice({ event, campaignId: 12, campaignName: HOSTILE, channelIds: ['C0OPS'] }, t);
    expect(text).toContain('#12');
    expect(text).toContain('<#C0OPS>');
    expect(outsideProblems([text])).toEqual([]);
    expect(text.length).toBeLessThan(1500);
  });

  it('the Home tab lists the waiting conversations oldest first, at most a few, each linked', () => {
    const items: WaitingItem[] = Array.from({ length: HOME_WAITING_SHOWN + 3 }, (_, i) => ({
      channelId: 'C0OPS',
      endUserName: i === 0 ? `${HOSTILE}|x` : `Cliente ${i}`,
      since: new Date(Date.UTC(2026, 10, 25, 16, 59 - i)),
      link: `https://acme.slack.com/archives/C0OPS/p17000000000${String(i).padStart(2, '0')}`,
      reminded: i % 2 === 0,
    }));
    items.push({ channelId: 'C0OPS', since: new Date(0), link: 'javascript:alert(1)', reminded: false });
    const blocks = homeWaitingBlocks(items, t, 'America/Mexico_City');
    expect(validateBlocks(blocks, 'home')).toEqual([]);
    const texts = allTexts({ blocks });
    expect(outsideProblems(texts)).toEqual([]);
    const list = texts.find((x) => x.includes('p1700000000012'))!;
    // The oldest first: the one without a (usable) link, then the others from the oldest.
    expect(list.indexOf('p1700000000012')).toBeLessThan(list.indexOf('p1700000000011'));
    expect(list).not.toContain('javascript:');
    expect(list).not.toContain('p1700000000000');
    expect(JSON.stringify(blocks)).toContain(locale === 'es' ? 'conversaciones más' : 'more conversations');
    expect(homeWaitingBlocks([], t)).toEqual([]);

    // In a full Home tab: at the top, and the tab stays within 100 blocks.
    const campaigns = [...Array(HOME_CAMPAIGNS_PER_PAGE).keys()].map((i) => ({
      item: listItem(i),
      detail: campaignDetail({ id: 100 + i }),
      watching: ['C0OPS'],
    }));
    const view = homeView(
      {
        filters: {},
        counts: { pending: 0, ready: 0, active: 20, inactive: 0, cooldown: 0, finished: 0 },
        archivedCount: 0,
        agents: [],
        page: 0,
        pageCount: 2,
        matching: 40,
        firstIndex: 0,
        campaigns,
        readAt: new Date('2026-11-25T16:00:00Z'),
        canChange: true,
        waiting: items,
      },
      t,
    );
    expect(validateView(view, 'home')).toEqual([]);
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    expect(JSON.stringify(view.blocks.slice(0, 8))).toContain(t.t('attention.home.header'));
  });
});

describe('inSchedule: the campaign’s weekly schedule in its timezone', () => {
  const weekdays = {
    mon: { startTime: '09:00', stopTime: '18:00', active: true },
    wed: { startTime: '09:00:00', stopTime: '18:00:00', active: true },
    sat: { startTime: '09:00', stopTime: '18:00', active: false },
  };
  const zone = 'America/Mexico_City';

  it('runs on an active day between its start and stop time, in the campaign’s zone', () => {
    // Wednesday 10:00 in Mexico City is 16:00 UTC.
    expect(inSchedule(weekdays, zone, Date.parse('2026-11-25T16:00:00Z'))).toBe(true);
    // Wednesday 08:59 and 18:00 there.
    expect(inSchedule(weekdays, zone, Date.parse('2026-11-25T14:59:00Z'))).toBe(false);
    expect(inSchedule(weekdays, zone, Date.parse('2026-11-26T00:00:00Z'))).toBe(false);
    // The same instant in UTC would be inside the hours; in Tokyo it is Thursday 01:00.
    expect(inSchedule(weekdays, 'Asia/Tokyo', Date.parse('2026-11-25T16:00:00Z'))).toBe(false);
  });

  it('does not run on a day marked inactive or not in the schedule; runs any time without a schedule', () => {
    expect(inSchedule(weekdays, zone, Date.parse('2026-11-28T16:00:00Z'))).toBe(false); // Saturday
    expect(inSchedule(weekdays, zone, Date.parse('2026-11-24T16:00:00Z'))).toBe(false); // Tuesday
    expect(inSchedule(undefined, zone, Date.parse('2026-11-28T16:00:00Z'))).toBe(true);
    expect(inSchedule({}, zone, Date.parse('2026-11-28T16:00:00Z'))).toBe(true);
  });
});
