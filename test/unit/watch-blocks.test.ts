/**
 * The watch's messages in both languages: call messages, burst digests, WhatsApp digests and contacts, conversation
 * lines and intros, watch/unwatch/watching answers, owner notices, `/campaign try` and the relay's sentences.
 * Snapshots pin the words; each builder is checked against Block Kit's limits with large, hostile input in English
 * and in Spanish (which runs about 20 % longer).
 */
import { describe, expect, it } from '@jest/globals';
import { LOCALES } from '../../src/i18n/locale.js';
import { translator } from '../../src/i18n/translator.js';
import type { Message } from '../../src/outreach/schemas.js';
import {
  callDigestMessage,
  callMessage,
  conversationIntro,
  conversationReply,
  DIGEST_CAPACITY,
  digestLine,
  whatsappContactMessage,
  whatsappDigestMessage,
} from '../../src/render/call-message.js';
import type { SlackMessage } from '../../src/render/types.js';
import {
  alreadyWatchingMessage,
  campaignGoneNotice,
  channelResumedNotice,
  channelSuspendedNotice,
  confirmExternalMessage,
  notWatchingMessage,
  relayFailedSentence,
  tryableAgentsMessage,
  tryHintText,
  tryIntroMessage,
  tryStartedMessage,
  unwatchedMessage,
  watchingMessage,
  watchIntroMessage,
  watchStartedMessage,
  type WatchingLine,
} from '../../src/render/watch.js';
import { call, contact, HOSTILE } from '../support/blocksFixtures.js';
import { allTexts, messageLimitProblems } from '../support/messageChecks.js';

const ZONE = 'America/Mexico_City';
const campaign = { id: 12, name: 'Renovaciones' };

/**
 * Block Kit's limits and the escaping rule; our own channel links (`<#C…>`) and the recording link on the service's
 * origin are the only `<…>` besides mentions.
 */
function expectWithinLimits(m: SlackMessage): void {
  const ours = /unescaped <…> sequence "(<#C[A-Z0-9]+>|<https:\/\/outreach\.example\/[^|]+\|[^>]+>)"/;
  const problems = messageLimitProblems(m).filter((p) => !ours.test(p));
  expect(problems).toEqual([]);
  for (const t of allTexts(m)) {
    expect(t).not.toContain('<!channel>');
    expect(t).not.toContain('<@U1>');
    expect(t).not.toContain('<#C1>');
    expect(t).not.toContain('<https://evil');
  }
}

const msg = (sent_by: 'AI' | 'EU' | 'SYS', content: string, over: Partial<Message> = {}): Message => ({
  thread_id: 't',
  type: 'text',
  sent_by,
  sent_at: '2026-03-06T15:30:00Z',
  content,
  ...over,
});

const watchingLines: WatchingLine[] = [
  {
    campaignId: 12,
    campaignName: 'Renovaciones',
    channelId: 'C0WATCH',
    kind: 'phone_call',
    createdAt: '2026-03-06T15:30:00Z',
    createdBy: 'U0ANA',
    campaignGone: false,
  },
  {
    campaignId: 13,
    channelId: 'C0WATCH',
    kind: 'whatsapp',
    createdAt: '2026-03-06T15:30:00Z',
    createdBy: 'U0ANA',
    suspended: { error: 'not_in_channel' },
    campaignGone: false,
  },
  {
    campaignId: 14,
    channelId: 'C0OTHER',
    kind: 'unknown',
    createdAt: '2026-03-06T15:30:00Z',
    createdBy: 'U0BEN',
    suspended: { error: 'campaign_not_found' },
    campaignGone: true,
  },
];

describe.each(LOCALES)('watch messages (%s)', (locale) => {
  const t = translator(locale);

  it('a call message: status, outcome, times in the campaign zone naming it, buttons', () => {
    const m = callMessage(
      {
        campaignId: 12,
        campaignName: 'Renovaciones',
        call: call(1, { policy_evaluation: { score: 87, policies_met_count: 3, policies_evaluated_count: 4 } }),
        serviceOrigin: 'https://outreach.example',
        timezone: ZONE,
      },
      t,
    );
    expect(m).toMatchSnapshot();
    expectWithinLimits(m);
    const started = m.blocks.map((b) => JSON.stringify(b)).join('');
    expect(started).toContain(locale === 'en' ? '2026-03-06 09:30 CST' : '6 mar 2026, 09:30 GMT-6');
  });

  it('a call in progress without a contact, and one with an unknown status', () => {
    const running = callMessage(
      { campaignId: 12, call: call(2, { status: 'in-progress', duration: null, contact: null }) },
      t,
    );
    // A status this app does not know yet (the service added one): shown as sent.
    const odd = callMessage(
      { campaignId: 12, call: { ...call(3, { contact: { id: 7 } }), status: 'on-hold' as never } },
      t,
    );
    expect([running.text, odd.text]).toMatchSnapshot();
  });

  it('a digest lists every call, named in the channel’s words', () => {
    const lines = [
      digestLine(call(1), 12),
      digestLine(call(2, { status: 'no-answer', contact: { id: 55 } }), 12),
      digestLine(call(3, { status: 'busy', contact: null }), 12),
    ];
    const d = callDigestMessage(lines, { part: 2 }, t);
    expect(d).toMatchSnapshot();
  });

  it('a full digest stays within Block Kit limits with hostile, long names', () => {
    const lines = Array.from({ length: DIGEST_CAPACITY + 5 }, (_, i) => ({
      callId: `call-${i}`.padEnd(60, 'x'),
      campaignId: 7,
      name: `${HOSTILE} ${'N'.repeat(200)}`,
      phone: '+525512345678',
      status: i % 2 ? 'ended' : 'in-progress',
      duration: 3725,
    }));
    const d = callDigestMessage(lines, { part: 3 }, t);
    expectWithinLimits(d);
    for (const l of lines.slice(0, DIGEST_CAPACITY)) expect(JSON.stringify(d.blocks)).toContain(l.callId);
  });

  it('WhatsApp: the status digest in the campaign zone and a contact message', () => {
    const digest = whatsappDigestMessage(
      {
        campaignId: 12,
        campaignName: 'Renovaciones',
        counts: { sent: 1, delivered: 1234, converted: 2, failed: 0 },
        updatedAt: new Date('2026-03-06T15:30:00Z'),
        timezone: ZONE,
      },
      t,
    );
    const empty = whatsappDigestMessage({ campaignId: 12, counts: {}, updatedAt: new Date(0) }, t);
    const one = whatsappContactMessage({ campaignId: 12, contact: contact(1, { name: '', status: 'converted' }) }, t);
    expect([digest, empty.blocks[1], one]).toMatchSnapshot();
    for (const m of [digest, empty, one]) expectWithinLimits(m);
  });

  it('conversation lines, labels and the thread intro', () => {
    const lines = [
      conversationReply(msg('AI', 'Hola'), {}, t),
      conversationReply(msg('EU', 'Sí'), { endUserName: 'Ana' }, t),
      conversationReply(msg('EU', 'Sí'), {}, t),
      conversationReply(msg('EU', 'Sí'), { self: true }, t),
      conversationReply(msg('SYS', '', { type: 'image', media: 'https://cdn.example/a.png' }), {}, t),
      conversationReply(msg('AI', '', { type: 'audio' }), {}, t),
      conversationReply(msg('EU', `${HOSTILE} ${'x'.repeat(10_000)}`), { endUserName: '<@U1>' }, t),
    ].map((m) => m.text.slice(0, 160));
    expect([...lines, conversationIntro(t).text]).toMatchSnapshot();
  });

  it('watch, unwatch and watching answers', () => {
    const messages = [
      watchIntroMessage({ userId: 'U0ANA', campaign, kind: 'phone_call' }, t),
      watchIntroMessage({ userId: 'U0ANA', campaign, kind: 'whatsapp' }, t),
      watchStartedMessage({ channelId: 'C0WATCH', campaign, resumed: true, publicChannel: true, external: true }, t),
      confirmExternalMessage(campaign, 'C0WATCH', undefined, t),
      confirmExternalMessage(campaign, 'C0WATCH', true, t),
      alreadyWatchingMessage('C0WATCH', campaign, t),
      notWatchingMessage('C0WATCH', 12, t),
      unwatchedMessage('C0WATCH', 12, 'Renovaciones', t),
      watchingMessage(watchingLines, { timeZone: ZONE }, t),
      watchingMessage([], {}, t),
    ];
    expect(messages).toMatchSnapshot();
    for (const m of messages) expectWithinLimits(m);
  });

  it('watching stays within 50 blocks for many channels', () => {
    const many = Array.from({ length: 300 }, (_, i) => ({
      ...watchingLines[1]!,
      campaignName: HOSTILE.repeat(20),
      channelId: `C${String(i).padStart(8, '0')}`,
    }));
    const m = watchingMessage(many, {}, t);
    expect(m.blocks.length).toBeLessThanOrEqual(50);
    expectWithinLimits(m);
  });

  it('notices to the owners of watches', () => {
    const subs = [{ campaignId: 12, campaignName: 'Renovaciones' }, { campaignId: 13 }];
    expect([
      channelSuspendedNotice(subs.slice(0, 1), 'C0WATCH', 'is_archived', t),
      channelSuspendedNotice(subs, 'C0WATCH', 'restricted_action_read_only_channel', t),
      channelSuspendedNotice(subs, 'C0WATCH', 'weird_<code>', t),
      campaignGoneNotice(subs[0]!, ['C0WATCH', 'C0OTHER', 'C0WATCH'], t),
      channelResumedNotice(subs, 'C0WATCH', 'invited', t),
      channelResumedNotice(subs.slice(1), 'C0WATCH', 'reachable', t),
    ]).toMatchSnapshot();
  });

  it('/campaign try and the relay’s sentences', () => {
    const agents = new Map(Array.from({ length: 25 }, (_, i) => [`agent-${i}`, `${HOSTILE} Agent ${i}`]));
    const messages = [
      tryableAgentsMessage(agents, t),
      tryableAgentsMessage(new Map(), t),
      tryIntroMessage({ agentId: 'agent-1', agentName: 'Renewals', endUserId: 'eu-1' }, t),
      tryIntroMessage({ agentId: 'agent-1', endUserId: 'eu-1' }, t),
      tryStartedMessage('agent-1', 'Renewals', t),
    ];
    expect(messages.slice(1)).toMatchSnapshot();
    for (const m of messages) expectWithinLimits(m);
    expect([tryHintText(t), relayFailedSentence('The service said <no>.', t)]).toMatchSnapshot();
  });
});

describe('English stays as it read before the catalogs', () => {
  const en = translator('en');
  it('call message and digest wording', () => {
    const m = callMessage({ campaignId: 12, call: call(1) }, en);
    expect(JSON.stringify(m.blocks)).toContain('*Answered by*\\n🙋 Person');
    expect(JSON.stringify(m.blocks)).toContain('*Ended by*\\nthe agent (goal reached)');
    expect(JSON.stringify(m.blocks)).toContain('*Duration*\\n1m 05s');
    const d = callDigestMessage([digestLine(call(1), 12)], {}, en);
    expect(d.text).toBe('1 call of campaign #12');
  });
});
