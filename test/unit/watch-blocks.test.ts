/**
 * The watch's messages in both languages: call messages, burst digests, WhatsApp digests and contacts, conversation
 * lines and intros, watch/unwatch/watching answers, owner notices, `/campaign try` and the relay's sentences.
 * Snapshots pin the words; each builder is checked against Block Kit's limits with large, hostile input in English
 * and in Spanish (which runs about 20 % longer).
 */
import { describe, expect, it } from '@jest/globals';
import { LOCALES } from '../../src/i18n/locale.js';
import { translator } from '../../src/i18n/translator.js';
import { Call, type EndUser, type Message } from '../../src/outreach/schemas.js';
import {
  callDetailsMessage,
  callDigestMessage,
  callMessage,
  endUserModal,
  endUserNotice,
  endUserSummary,
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
import { context } from '../../src/render/mrkdwn.js';
import { call, contact, HOSTILE } from '../support/blocks-fixtures.js';
import { validateView } from '../../src/emulator/block-kit-limits.js';
import { allTexts, messageLimitProblems } from '../support/message-checks.js';

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

/** A full call (GET /call/{id}) with its end user, agent and policies; `policies` of them, hostile when asked. */
function fullCall(policies: number, hostile = false): Call {
  const x = (s: string) => (hostile ? `${HOSTILE} ${s} ${'x'.repeat(5000)}` : s);
  return Call.parse({
    ...call(9),
    thread: {
      id: 'thread-9',
      agent: { id: 'agent-1', name: x('Renewals') },
      end_user: { id: 'eu-9', display_name: x('Ana'), integration_type: 'phone_call', info: x('Likes mornings') },
    },
    policy_evaluation: {
      score: 87,
      policies_evaluated_count: policies,
      policies_met_count: Math.min(3, policies),
      policies_not_applicable_count: 1,
      completed: true,
      policies: Array.from({ length: policies }, (_, i) => ({
        policy_id: `p${i}`,
        policy_name: x(`Policy ${i}`),
        result: i % 2 ? 'not_met' : 'met',
        explanation: x('Said hello'),
      })),
    },
  });
}

const endUser: EndUser = { id: 'eu-9', display_name: 'Ana', integration_type: 'whatsapp', info: 'Likes mornings' };

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

  it('call Details: fields, times in the reader’s zone, policies; within limits with 200 hostile policies', () => {
    const m = callDetailsMessage(fullCall(2), { timezone: ZONE }, t);
    expect(m).toMatchSnapshot();
    expectWithinLimits(m);
    const noEvaluation = callDetailsMessage(Call.parse({ ...call(9), thread: null }), {}, t);
    expect(noEvaluation).toMatchSnapshot();
    const big = callDetailsMessage(fullCall(200, true), { timezone: ZONE }, t);
    expectWithinLimits(big);
    expect(big.blocks).toHaveLength(50);
    expect(JSON.stringify(big.blocks.at(-1))).toContain(locale === 'en' ? 'more policies not shown' : 'políticas más');
  });

  it('the end user: summary, modal (keeping the language), notices; within limits with hostile fields', () => {
    const summary = endUserSummary(endUser, { note: t.t('endUser.loading') }, t);
    const modal = endUserModal(endUser, { endUserId: 'eu-9', channelId: 'C0WATCH' }, t);
    const notice = endUserNotice([context(t.t('endUser.loading'))], t);
    expect({ summary, modal, notice }).toMatchSnapshot();
    expect(JSON.parse(modal.private_metadata!)).toEqual({ endUserId: 'eu-9', channelId: 'C0WATCH', lang: locale });
    const hostile = {
      id: `eu-${'9'.repeat(500)}`,
      display_name: `${HOSTILE} ${'x'.repeat(5000)}`,
      info: HOSTILE.repeat(500),
    };
    expectWithinLimits(endUserSummary(hostile, {}, t));
    expect(validateView(endUserModal(hostile, { endUserId: hostile.id }, t), 'modal')).toEqual([]);
    expect(validateView(notice, 'modal')).toEqual([]);
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

  it('call Details and the end user', () => {
    const m = callDetailsMessage(fullCall(2), { timezone: ZONE }, en);
    expect(m.text).toBe('Call call-9: ☑️ Ended');
    const all = JSON.stringify(m.blocks);
    expect(all).toContain('"text":"Call details"');
    expect(all).toContain('*Created*\\n2026-03-06 09:29 CST');
    expect(all).toContain('*Billed*\\n2m 00s');
    expect(all).toContain('*Policies* · 2 met of 2 evaluated, 1 not applicable');
    expect(endUserSummary(endUser, {}, en).blocks).toEqual([
      { type: 'section', text: { type: 'mrkdwn', text: '*👤 Ana*\nLikes mornings' } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: 'End user `eu-9` · whatsapp' }] },
    ]);
  });
});
