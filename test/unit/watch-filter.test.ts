/**
 * What a watch shows: `matches(filter, call)` criterion by criterion (src/watch/filter.ts), the stored filter read back
 * with zod, "the end user waits for a person" (src/watch/waiting.ts, the bypass of every filter), the typed options of
 * `/campaign watch` in English and Spanish (src/slack/grammar.ts) and what they make of a watch's settings.
 */
import { describe, expect, it } from '@jest/globals';
import type { Message } from '../../src/outreach/schemas.js';
import { parseCommandText } from '../../src/slack/grammar.js';
import { typedSettings } from '../../src/slack/watch/settings.js';
import { messageKey } from '../../src/watch/conversation.js';
import {
  conversationFacts,
  matches,
  outcomeOf,
  readFilter,
  shownFormat,
  type WatchFilter,
} from '../../src/watch/filter.js';
import type { Subscription } from '../../src/watch/state.js';
import { endUserWaiting } from '../../src/watch/waiting.js';
import { call } from '../support/blocks-fixtures.js';

const ended = (over: Record<string, unknown> = {}) =>
  call(1, { status: 'ended', answered_by: 'human', extracted_data: {}, tags: [], ...over });

describe('matches', () => {
  it('passes everything without a filter (old watches)', () => {
    expect(matches(undefined, call(1, { status: 'failed' }))).toBe(true);
    expect(matches({}, call(1, { status: 'queued' }))).toBe(true);
  });

  it('outcomes: final statuses by name, every status before the end as in-progress', () => {
    expect(outcomeOf('ringing')).toBe('in-progress');
    expect(outcomeOf('queued')).toBe('in-progress');
    expect(outcomeOf('no-answer')).toBe('no-answer');
    const f: WatchFilter = { outcomes: ['failed', 'busy'] };
    expect(matches(f, ended({ status: 'failed' }))).toBe(true);
    expect(matches(f, ended({ status: 'busy' }))).toBe(true);
    expect(matches(f, ended())).toBe(false);
    expect(matches({ outcomes: ['in-progress'] }, ended({ status: 'ringing' }))).toBe(true);
  });

  it('answered by: a call not decided yet counts as unknown', () => {
    const human: WatchFilter = { answeredBy: ['human'] };
    expect(matches(human, ended())).toBe(true);
    expect(matches(human, ended({ answered_by: 'machine' }))).toBe(false);
    expect(matches(human, ended({ answered_by: null }))).toBe(false);
    expect(matches({ answeredBy: ['unknown'] }, ended({ answered_by: null }))).toBe(true);
  });

  it('policy score below a threshold: a call without a score does not match', () => {
    const f: WatchFilter = { policyScoreBelow: 60 };
    expect(matches(f, ended({ policy_evaluation: { score: 59.5 } }))).toBe(true);
    expect(matches(f, ended({ policy_evaluation: { score: 60 } }))).toBe(false);
    expect(matches(f, ended({ policy_evaluation: null }))).toBe(false);
  });

  it('extracted data: any, or a given key whatever its case', () => {
    expect(matches({ withData: true }, ended({ extracted_data: { plan: 'Plus' } }))).toBe(true);
    expect(matches({ withData: true }, ended({ extracted_data: { plan: ' ' } }))).toBe(false);
    expect(matches({ withData: true }, ended({ extracted_data: null }))).toBe(false);
    expect(matches({ dataKey: 'Email' }, ended({ extracted_data: { email: 'a@b.c' } }))).toBe(true);
    expect(matches({ dataKey: 'email' }, ended({ extracted_data: { plan: 'x' } }))).toBe(false);
  });

  it('tags: at least one of them, whatever the case', () => {
    expect(matches({ tags: ['VIP', 'renewal'] }, ended({ tags: ['vip'] }))).toBe(true);
    expect(matches({ tags: ['vip'] }, ended({ tags: ['other'] }))).toBe(false);
    expect(matches({ tags: ['vip'] }, ended({ tags: null }))).toBe(false);
  });

  it('conversations only: once the end user wrote; shown as one line', () => {
    const f: WatchFilter = { conversationsOnly: true };
    expect(matches(f, ended())).toBe(false);
    expect(matches(f, ended(), conversationFacts([{ sent_by: 'AI' }, { sent_by: 'SYS' }]))).toBe(false);
    expect(matches(f, ended(), conversationFacts([{ sent_by: 'AI' }, { sent_by: 'EU' }]))).toBe(true);
    expect(shownFormat({ filter: f })).toBe('compact');
    expect(shownFormat({})).toBe('detailed');
    expect(shownFormat({ format: 'compact' })).toBe('compact');
  });

  it('every criterion must hold (#ventas: human-answered calls with data)', () => {
    const ventas: WatchFilter = { outcomes: ['ended'], answeredBy: ['human'], withData: true };
    expect(matches(ventas, ended({ extracted_data: { plan: 'Plus' } }))).toBe(true);
    expect(matches(ventas, ended({ extracted_data: {} }))).toBe(false);
    expect(matches(ventas, ended({ answered_by: 'machine', extracted_data: { plan: 'Plus' } }))).toBe(false);
    expect(matches(ventas, ended({ status: 'in-progress', extracted_data: { plan: 'Plus' } }))).toBe(false);
  });
});

describe('a stored filter read back', () => {
  it('keeps a valid filter and drops an empty, unknown or malformed one (then everything is shown)', () => {
    expect(readFilter({ outcomes: ['failed'] })).toEqual({ outcomes: ['failed'] });
    expect(readFilter(undefined)).toBeUndefined();
    expect(readFilter({})).toBeUndefined();
    expect(readFilter({ outcomes: ['exploded'] })).toBeUndefined();
    expect(readFilter({ outcomes: ['failed'], surprise: 1 })).toBeUndefined();
    expect(readFilter({ policyScoreBelow: 101 })).toBeUndefined();
    expect(readFilter({ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) })).toBeUndefined();
  });
});

describe('the end user waits for a person', () => {
  const END = Date.parse('2026-03-06T15:00:00Z');
  const m = (sent_by: Message['sent_by'], minute: number, over: Partial<Message> = {}): Message => ({
    thread_id: 't',
    type: 'text',
    sent_by,
    sent_at: new Date(END + minute * 60_000).toISOString(),
    content: `${sent_by} at ${minute}`,
    ...over,
  });

  it('not while the call runs (the live transcript), nor before it ended', () => {
    expect(endUserWaiting([m('EU', 1)], {})).toBe(false);
    expect(endUserWaiting([m('EU', -2), m('AI', -1)], { endedAt: END })).toBe(false);
  });

  it('an end-user message after the end waits; the agent answering does not end the wait', () => {
    expect(endUserWaiting([m('AI', -1), m('EU', 1)], { endedAt: END })).toBe(true);
    expect(endUserWaiting([m('EU', 1), m('AI', 2)], { endedAt: END })).toBe(true);
  });

  it("a person's reply ends it: sent by an in-app user, or relayed from Slack", () => {
    expect(endUserWaiting([m('EU', 1), m('AI', 2, { sent_by_user: 'u-1' })], { endedAt: END })).toBe(false);
    const relayed = m('EU', 2, { content: 'We will call you back' });
    const fromSlack = new Set([messageKey(relayed)]);
    expect(endUserWaiting([m('EU', 1), relayed], { endedAt: END, fromSlack })).toBe(false);
    expect(endUserWaiting([m('EU', 1), relayed, m('EU', 3)], { endedAt: END, fromSlack })).toBe(true);
  });
});

describe('/campaign watch options', () => {
  it('without options: today’s watch', () => {
    expect(parseCommandText('watch 12')).toEqual({ ok: true, command: { kind: 'watch', id: 12 } });
    expect(parseCommandText('watch 12 <#C0SALES|ventas>')).toEqual({
      ok: true,
      command: { kind: 'watch', id: 12, channel: { id: 'C0SALES', name: 'ventas' } },
    });
  });

  it('format, outcomes and human, in any order, in English or Spanish', () => {
    expect(parseCommandText('watch 12 <#C0OPS|ops> compact only:failed,busy human')).toEqual({
      ok: true,
      command: {
        kind: 'watch',
        id: 12,
        channel: { id: 'C0OPS', name: 'ops' },
        options: { format: 'compact', outcomes: ['failed', 'busy'], human: true },
      },
    });
    expect(parseCommandText('seguir 12 humano solo:terminada,no-contesta,ocupado,fallida,en-curso detallado')).toEqual({
      ok: true,
      command: {
        kind: 'watch',
        id: 12,
        options: { human: true, outcomes: ['ended', 'no-answer', 'busy', 'failed', 'in-progress'], format: 'detailed' },
      },
    });
    expect(parseCommandText('watch 12 Compacto')).toMatchObject({ command: { options: { format: 'compact' } } });
  });

  it('`settings` / `ajustes` open the form', () => {
    expect(parseCommandText('watch 12 <#C0OPS|ops> settings')).toMatchObject({
      command: { kind: 'watch', id: 12, openSettings: true },
    });
    expect(parseCommandText('seguir 12 ajustes')).toMatchObject({ command: { openSettings: true } });
  });

  it('names what is wrong', () => {
    expect(parseCommandText('watch 12 loud')).toEqual({
      ok: false,
      problem: { key: 'grammar.watchOption', values: { raw: 'loud' } },
    });
    expect(parseCommandText('watch 12 only:ended,exploded')).toEqual({
      ok: false,
      problem: { key: 'grammar.notAWatchOutcome', values: { raw: 'exploded' } },
    });
    expect(parseCommandText('watch 12 only:')).toMatchObject({
      ok: false,
      problem: { key: 'grammar.notAWatchOutcome' },
    });
    expect(parseCommandText('unwatch 12 <#C0OPS|ops> compact')).toMatchObject({
      ok: false,
      problem: { key: 'grammar.idAndChannel' },
    });
  });

  it('typed options replace what they name and keep the rest of the filter', () => {
    const current = {
      format: 'compact',
      filter: { outcomes: ['ended'], withData: true },
    } as Partial<Subscription> as Subscription;
    expect(typedSettings(current, { outcomes: ['failed'] })).toEqual({
      filter: { outcomes: ['failed'], withData: true },
    });
    expect(typedSettings(current, { human: true, format: 'detailed' })).toEqual({
      format: 'detailed',
      filter: { outcomes: ['ended'], withData: true, answeredBy: ['human'] },
    });
    expect(typedSettings(undefined, { format: 'compact' })).toEqual({ format: 'compact' });
  });
});
