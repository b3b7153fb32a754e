/**
 * Watches that fit the team, as people see them, in both languages: the compact line (one per call, with Details),
 * the full card in a modal, the Watch settings modal filled in, the settings in words and the answers that carry the
 * "Watch settings" button. Snapshots pin the words; each is checked against Block Kit's limits with long, hostile
 * input (Spanish runs about 20 % longer).
 */
import { describe, expect, it } from '@jest/globals';
import { LOCALES } from '../../src/i18n/locale.js';
import { translator } from '../../src/i18n/translator.js';
import { callCardModal, compactCallMessage } from '../../src/render/call-message.js';
import { WATCH_ACTION_IDS, WATCH_SETTINGS_VIEW_ID } from '../../src/render/ids.js';
import type { SlackMessage } from '../../src/render/types.js';
import { watchingMessage, watchStartedMessage } from '../../src/render/watch.js';
import { filterWords, settingsSavedMessage, watchSettingsModal } from '../../src/render/watch-settings.js';
import { call, HOSTILE } from '../support/blocks-fixtures.js';
import { validateView } from '../../src/emulator/block-kit-limits.js';
import { allTexts, messageLimitProblems } from '../support/message-checks.js';

const ours = /unescaped <…> sequence "(<#C[A-Z0-9]+>|<https:\/\/outreach\.example\/[^|]+\|[^>]+>)"/;

function expectWithinLimits(m: SlackMessage): void {
  expect(messageLimitProblems(m).filter((p) => !ours.test(p))).toEqual([]);
  for (const text of allTexts(m)) {
    expect(text).not.toContain('<!channel>');
    expect(text).not.toContain('<@U1>');
  }
}

const LONG = `${HOSTILE} ${'N'.repeat(400)}`;
const hostileCall = call(4, {
  contact: { id: 4, name: LONG, phone_number: '+525512345678' },
  extracted_data: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`${HOSTILE} key ${i}`, LONG])),
  tags: Array.from({ length: 30 }, () => LONG),
  duration: 3725,
  id: 'c'.repeat(200),
});
const everyCriterion = {
  outcomes: ['ended', 'no-answer', 'busy', 'failed', 'in-progress'],
  answeredBy: ['human', 'machine', 'unknown'],
  policyScoreBelow: 60,
  withData: true,
  dataKey: LONG.slice(0, 100),
  tags: Array.from({ length: 20 }, () => LONG.slice(0, 100)),
  conversationsOnly: true,
};

describe.each(LOCALES)('watch settings and formats (%s)', (locale) => {
  const t = translator(locale);

  it('a compact line: status, contact, number, answered by, duration, and Details', () => {
    const m = compactCallMessage({ campaignId: 12, call: call(1, { duration: 154 }) }, t);
    expect(m).toMatchSnapshot();
    expectWithinLimits(m);
    expect(m.blocks).toHaveLength(1);
    expect(JSON.stringify(m.blocks)).toContain(WATCH_ACTION_IDS.callCard);
    const running = compactCallMessage(
      { campaignId: 12, call: call(2, { status: 'ringing', duration: null, answered_by: null, contact: null }) },
      t,
    );
    expect(running.blocks[0]).toMatchSnapshot();
  });

  it('a compact line stays within Block Kit limits with hostile, long input', () => {
    expectWithinLimits(compactCallMessage({ campaignId: 12, call: hostileCall }, t));
  });

  it('the full card in a modal: the card without its buttons, within a modal’s limits', () => {
    const v = callCardModal({ campaignId: 12, campaignName: 'Renovaciones', call: call(1) }, t);
    expect(validateView(v, 'modal')).toEqual([]);
    expect(JSON.stringify(v.blocks)).not.toContain('"actions"');
    expect(v).toMatchSnapshot();
    const hostile = callCardModal({ campaignId: 12, campaignName: LONG, call: hostileCall }, t);
    expect(validateView(hostile, 'modal')).toEqual([]);
  });

  it('the Watch settings modal, filled in with every criterion, within a modal’s limits', () => {
    const v = watchSettingsModal(
      {
        campaignId: 12,
        campaignName: 'Renovaciones',
        channelId: 'C0SALES',
        watching: true,
        settings: { format: 'compact', filter: { outcomes: ['ended'], answeredBy: ['human'], withData: true } },
      },
      t,
    );
    expect(v).toMatchSnapshot();
    expect(validateView(v, 'modal')).toEqual([]);
    const full = watchSettingsModal(
      {
        campaignId: 12,
        campaignName: LONG,
        channelId: 'C0SALES',
        watching: false,
        settings: { filter: everyCriterion, reminderMinutes: 1440 },
      },
      t,
    );
    expect(validateView(full, 'modal')).toEqual([]);
    expect(full.callback_id).toBe(WATCH_SETTINGS_VIEW_ID);
    expect(JSON.parse(full.private_metadata!)).toEqual({ campaignId: 12, channelId: 'C0SALES', lang: locale });
  });

  it('a filter in words', () => {
    expect([
      filterWords(undefined, t),
      filterWords({ outcomes: ['failed', 'no-answer'] }, t),
      filterWords({ answeredBy: ['human'], withData: true, policyScoreBelow: 60.5 }, t),
      filterWords({ dataKey: 'email', tags: ['vip', 'renewal'], conversationsOnly: true }, t),
    ]).toMatchSnapshot();
  });

  it('/campaign watching lists each watch with its format and filter, and a settings button', () => {
    const m = watchingMessage(
      [
        {
          campaignId: 12,
          campaignName: 'Renovaciones',
          channelId: 'C0SALES',
          kind: 'phone_call',
          createdAt: '2026-03-06T15:30:00Z',
          createdBy: 'U0ANA',
          campaignGone: false,
          format: 'compact',
          filter: { outcomes: ['ended'], answeredBy: ['human'], withData: true },
        },
        {
          campaignId: 12,
          campaignName: 'Renovaciones',
          channelId: 'C0OPS',
          kind: 'phone_call',
          createdAt: '2026-03-06T15:30:00Z',
          createdBy: 'U0ANA',
          campaignGone: false,
          filter: { outcomes: ['failed'] },
        },
      ],
      {},
      t,
    );
    expect(m).toMatchSnapshot();
    expectWithinLimits(m);
    const many = watchingMessage(
      Array.from({ length: 120 }, (_, i) => ({
        campaignId: i + 1,
        campaignName: LONG,
        channelId: `C0CH${i % 7}`,
        kind: 'phone_call' as const,
        createdAt: '2026-03-06T15:30:00Z',
        createdBy: 'U0ANA',
        campaignGone: false,
        filter: everyCriterion,
      })),
      {},
      t,
    );
    expectWithinLimits(many);
  });

  it('the watch answers carry the settings (typed ones in words) and the button', () => {
    const started = watchStartedMessage(
      {
        channelId: 'C0OPS',
        campaign: { id: 12, name: 'Renovaciones' },
        resumed: false,
        publicChannel: false,
        external: false,
        settings: { format: 'compact', filter: { outcomes: ['failed', 'busy'] } },
      },
      t,
    );
    expect(started).toMatchSnapshot();
    expectWithinLimits(started);
    const saved = settingsSavedMessage(
      { campaignId: 12, campaignName: LONG, channelId: 'C0OPS', settings: { filter: everyCriterion } },
      t,
    );
    expectWithinLimits(saved);
  });
});
