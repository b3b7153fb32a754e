/**
 * The pure parts of watching: the conversation cursor (no message ids from the service), event classification,
 * internal notes, Slack text → plain text, and the escaping/limits of the renderers.
 */
import { describe, expect, it } from '@jest/globals';
import { translator } from '../../src/i18n/translator.js';
import type { Message } from '../../src/outreach/schemas.js';
import {
  callDigestMessage,
  callMessage,
  conversationReply,
  DIGEST_CAPACITY,
  REPLY_MAX,
} from '../../src/render/call-message.js';
import { advance, messageKey, newCursor, nextStep } from '../../src/watch/conversation.js';
import { classifyMessageEvent, isInternalNote, slackToPlain } from '../../src/watch/relay.js';

const en = translator('en');

const msg = (i: number, by: 'AI' | 'EU' | 'SYS' = 'AI', content = `m${i}`): Message => ({
  thread_id: 't',
  type: 'text',
  sent_by: by,
  sent_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
  content,
});

/** Drives the cursor as far as it goes, returning what would be posted (and whether it stopped to wait). */
function drain(all: Message[], cur = newCursor(0)) {
  const posted: string[] = [];
  for (;;) {
    const step = nextStep(all, cur);
    if (step.kind === 'none' || step.kind === 'wait') return { posted, cur, waited: step.kind === 'wait' };
    if (step.kind === 'post') posted.push(step.message.content ?? '');
    cur = advance(cur, step.index, step.message);
  }
}

describe('conversation cursor', () => {
  it('posts new messages once and in order as the conversation grows', () => {
    const all = [msg(1), msg(2, 'EU')];
    const a = drain(all);
    expect(a.posted).toEqual(['m1', 'm2']);
    const b = drain([...all, msg(3), msg(4)], a.cur);
    expect(b.posted).toEqual(['m3', 'm4']);
    expect(drain([...all, msg(3), msg(4)], b.cur).posted).toEqual([]);
  });

  it('finds its place again when older messages disappear or the list shifts', () => {
    const { cur } = drain([msg(1), msg(2), msg(3)]);
    // The service trimmed the first message: the count no longer matches, the last key does.
    expect(drain([msg(2), msg(3), msg(4)], cur).posted).toEqual(['m4']);
    // Our last message is gone too: continue with what was sent after it.
    expect(drain([msg(5), msg(6)], cur).posted).toEqual(['m5', 'm6']);
  });

  it("skips what is already in Slack: the service's record of a person's relayed reply (its key)", () => {
    let cur = drain([msg(1)]).cur;
    const reply = msg(2, 'EU', 'hola');
    cur = { ...cur, accounted: [messageKey(reply)] };
    const r = drain([msg(1), reply, msg(3), msg(4)], cur);
    expect(r.posted).toEqual(['m3', 'm4']);
    expect(r.cur.accounted).toEqual([]);
  });
});

describe('message events', () => {
  const bot = { userId: 'UBOT', botId: 'BBOT' };
  const base = { type: 'message', channel: 'C1', user: 'U1', text: 'hi', ts: '2.0', thread_ts: '1.0' };
  it('keeps thread replies and DMs, ignores the rest', () => {
    expect(classifyMessageEvent(base, bot).kind).toBe('thread');
    expect(classifyMessageEvent({ ...base, thread_ts: undefined, channel: 'D1', channel_type: 'im' }, bot).kind).toBe(
      'dm',
    );
    for (const e of [
      { ...base, user: 'UBOT' },
      { ...base, bot_id: 'BBOT' },
      { ...base, bot_id: 'BOTHER' },
      { ...base, subtype: 'bot_message' },
      { ...base, subtype: 'message_changed' },
      { ...base, subtype: 'message_deleted' },
      { ...base, subtype: 'channel_join' },
      { ...base, thread_ts: undefined },
      { ...base, thread_ts: '2.0' },
    ]) {
      expect(classifyMessageEvent(e, bot).kind).toBe('ignore');
    }
    expect(classifyMessageEvent({ ...base, subtype: 'file_share', files: [{ name: 'a.pdf' }] }, bot)).toMatchObject({
      kind: 'thread',
      text: 'hi\n[file: a.pdf]',
    });
  });

  it('recognizes internal notes and turns Slack markup into plain text', () => {
    expect(isInternalNote('note: x')).toBe(true);
    expect(isInternalNote('  NOTE: x')).toBe(true);
    expect(isInternalNote('// x')).toBe(true);
    expect(isInternalNote('a note: x')).toBe(false);
    expect(slackToPlain('a &lt;b&gt; &amp; <@U1> <#C1|ops> <https://x.io|site> <!here>')).toBe(
      'a <b> & @U1 #ops site (https://x.io) @here',
    );
  });
});

describe('renderers', () => {
  it('escape outside text and keep replies within limits', () => {
    const long = conversationReply(msg(1, 'EU', `<!channel> ${'x'.repeat(10_000)}`), { endUserName: '<@U9>' }, en);
    expect(long.text.length).toBeLessThanOrEqual(REPLY_MAX);
    expect(long.text).not.toContain('<!channel>');
    expect(long.text).not.toContain('<@U9>');
    expect(long.text).toContain('shortened');
    const call = callMessage(
      {
        campaignId: 1,
        call: {
          id: 'c1',
          status: 'ended',
          created_at: '2026-01-01T00:00:00Z',
          contact: { id: 1, name: '<!everyone>', phone_number: '+525512345678' },
          extracted_data: { '<b>': '<@U1>' },
          tags: ['<!here>'],
        },
      },
      en,
    );
    const all = JSON.stringify(call);
    for (const bad of ['<!everyone>', '<@U1>', '<!here>']) expect(all).not.toContain(bad);
    expect(call.text).toContain('&lt;!everyone&gt;');
  });

  it('lists up to DIGEST_CAPACITY calls in a digest within Block Kit limits', () => {
    const lines = Array.from({ length: DIGEST_CAPACITY }, (_, i) => ({
      callId: `call-${i}`.padEnd(60, 'x'),
      campaignId: 7,
      name: 'N'.repeat(200),
      phone: '+525512345678',
      status: 'ended',
      duration: 65,
    }));
    const d = callDigestMessage(lines, {}, en);
    expect(d.blocks.length).toBeLessThanOrEqual(50);
    for (const b of d.blocks) {
      const text = (b as { text?: { text: string } }).text?.text ?? '';
      expect(text.length).toBeLessThanOrEqual(3000);
    }
    for (const l of lines) expect(JSON.stringify(d.blocks)).toContain(l.callId);
  });
});
