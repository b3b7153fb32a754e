/** Block Kit text and its escaping (src/render/mrkdwn.ts): mrkdwn, invisible characters, labels, cuts, helpers. */
import {
  actions,
  button,
  cleanLabel,
  CUT_NOTE,
  context,
  escapeMrkdwn,
  fitBlocks,
  fitGroups,
  header,
  md,
  mrkdwnSection,
  mrkdwnText,
  oneLine,
  plainLabel,
  plainText,
  raw,
  stripInvisible,
  truncate,
  truncateMrkdwn,
} from '../../src/render/mrkdwn.js';
import type { KnownBlock } from '../../src/render/types.js';

describe('escapeMrkdwn', () => {
  it('escapes &, < and > and nothing else', () => {
    expect(escapeMrkdwn('<!channel> & <@U1> *b* _i_ "q" \'a\'')).toBe(
      '&lt;!channel&gt; &amp; &lt;@U1&gt; *b* _i_ "q" \'a\'',
    );
  });
  it('escapes an ampersand once, so an entity typed by a person reads as typed', () => {
    expect(escapeMrkdwn('&lt;')).toBe('&amp;lt;');
  });
});

describe('stripInvisible', () => {
  it('removes bidi controls, zero-width characters and other invisible format characters', () => {
    const bidi = 'a\u202Eb\u202Dc\u202Ad\u202Be\u202Cf\u2066g\u2067h\u2068i\u2069j\u200Ek\u200Fl\u061Cm';
    expect(stripInvisible(bidi)).toBe('abcdefghijklm');
    expect(stripInvisible('ad\u200Bmin\u2060\uFEFF\u00AD\u180E')).toBe('admin');
    expect(stripInvisible('ad\u200Dmin ad\u200Cmin')).toBe('admin admin');
    expect(stripInvisible('\u3164\u115F\uFFA0')).toBe('');
    expect(stripInvisible('hid\u{E0041}\u{E0042}den\u{E0100}')).toBe('hidden');
  });
  it('removes control characters, keeps tabs and turns every line break into \\n', () => {
    expect(stripInvisible('a\u0000b\u0007c\u001Bd\u007Fe\u0085f')).toBe('abcde\nf');
    expect(stripInvisible('1\r\n2\r3\u20284\u20295\t6')).toBe('1\n2\n3\n4\n5\t6');
  });
  it('keeps what scripts and emoji need: joiners between non-ASCII letters or emoji, flag tag sequences', () => {
    const family = '👩\u200D👩\u200D👧';
    const persian = 'می\u200Cخواهم';
    const devanagari = 'क्\u200Dष';
    const england = '🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}';
    for (const s of [family, persian, devanagari, england, '👋🏽', 'café ❤️']) expect(stripInvisible(s)).toBe(s);
  });
});

describe('cleanLabel', () => {
  it('makes one line of a name: newlines and runs of whitespace become one space', () => {
    expect(cleanLabel('  Ana\n\n*Status:* paid\t\u00A0 ok \u2028x ')).toBe('Ana ∗Status:∗ paid ok x');
  });
  it('neutralises bold, italic, strike and code at word edges with look-alikes; keeps them inside words', () => {
    expect(cleanLabel('*bold* _it_ ~gone~ `code`')).toBe('∗bold∗ ˍitˍ ∼gone∼ ˋcodeˋ');
    expect(cleanLabel('john_doe@example.com a*b 2~3 :white_check_mark:')).toBe(
      'john_doe@example.com a*b 2~3 :white_check_mark:',
    );
  });
  it('turns a leading quote into a harmless sign and removes invisible characters', () => {
    expect(cleanLabel('> CEO')).toBe('› CEO');
    expect(cleanLabel('Ana\u202E\u200B')).toBe('Ana');
  });
  it('leaves mentions to escaping, and cuts after cleaning', () => {
    expect(md`*${cleanLabel('<!channel> & <@U0HOSTILE>')}*`).toBe('*&lt;!channel&gt; &amp; &lt;@U0HOSTILE&gt;*');
    expect(cleanLabel('a\n'.repeat(100), 10)).toBe('a a a a a…');
  });
});

describe('plainLabel and plainText', () => {
  it('plainLabel: a clean label, escaped, cut without splitting an entity', () => {
    expect(plainLabel('Ana <!here>\n*& co*\u202E', 75)).toBe('Ana &lt;!here&gt; ∗&amp; co∗');
    const cut = plainLabel('x'.repeat(8) + '&&&&', 12);
    expect(cut.length).toBeLessThanOrEqual(12);
    expect(cut.replace(/&(amp|lt|gt);/g, '')).not.toMatch(/&/);
  });
  it('plainText drops invisible characters (a blank-looking label gets the fallback)', () => {
    expect(plainText('Ana\u202E\u200B').text).toBe('Ana');
    expect(plainText('\u3164\u200B').text).toBe('—');
  });
  it('oneLine keeps formatting characters (they show as typed in plain text)', () => {
    expect(oneLine(' *a*\n_b_ ')).toBe('*a* _b_');
  });
});

describe('escapeMrkdwn and md remove invisible characters', () => {
  it('strips bidi and zero-width characters from what they escape', () => {
    expect(escapeMrkdwn('<!chan\u200Bnel>\u202E')).toBe('&lt;!channel&gt;');
    expect(md`*${'Ana\u2066'}*`).toBe('*Ana*');
  });
});

describe('md tag', () => {
  it('escapes interpolations, keeps raw() and literals, renders null as empty', () => {
    const name = '<!here>';
    expect(md`*${name}* ${raw('<@U123>')} ${null}${undefined}#${12}`).toBe('*&lt;!here&gt;* <@U123> #12');
  });
});

describe('truncate', () => {
  it('leaves short text alone and cuts long text to the limit with the note', () => {
    expect(truncate('abc', 3)).toBe('abc');
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('abcdef', 4, '...')).toBe('a...');
    expect(truncate('abcdef', 5).length).toBe(5);
  });
  it('never splits a surrogate pair', () => {
    const s = 'ab😀😀😀';
    const t = truncate(s, 4);
    expect(t.length).toBeLessThanOrEqual(4);
    expect(t).toBe('ab…');
  });
});

describe('truncateMrkdwn', () => {
  it('does not cut inside an entity or a mention', () => {
    const escaped = escapeMrkdwn('x'.repeat(8) + '&&&&');
    for (let max = 5; max < escaped.length; max++) {
      const t = truncateMrkdwn(escaped, max, '…');
      expect(t.length).toBeLessThanOrEqual(max);
      expect(t.replace(/&(amp|lt|gt);/g, '')).not.toMatch(/&/);
    }
    const withMention = 'hello <@U12345> there';
    for (let max = 7; max < withMention.length; max++) {
      const t = truncateMrkdwn(withMention, max, '…');
      expect(t.length).toBeLessThanOrEqual(max);
      expect(t.includes('<') ? t.includes('<@U12345>') : true).toBe(true);
    }
  });
});

describe('text objects', () => {
  it('plainText is never empty and never over its limit', () => {
    expect(plainText('').text).toBe('—');
    expect(plainText('   ').text).toBe('—');
    expect(plainText('x'.repeat(5000)).text.length).toBe(3000);
    expect(plainText('hello', 3).text).toBe('he…');
  });
  it('mrkdwnText is never empty', () => {
    expect(mrkdwnText('').text).toBe('—');
  });
  it('mrkdwnSection cuts to 3,000 with a note', () => {
    const s = mrkdwnSection('y'.repeat(10_000));
    const text = s.text?.text ?? '';
    expect(text.length).toBeLessThanOrEqual(3000);
    expect(text.endsWith(CUT_NOTE)).toBe(true);
  });
  it('header is cut to 150', () => {
    expect(header('h'.repeat(400)).text.text.length).toBe(150);
  });
  it('context keeps at most 10 elements and never none', () => {
    expect(context(...Array.from({ length: 14 }, (_, i) => `e${i}`)).elements).toHaveLength(10);
    expect(context('').elements).toHaveLength(1);
  });
});

describe('button and actions guards', () => {
  it('refuses a value Slack would reject', () => {
    expect(() => button({ text: 'x', actionId: 'a', value: 'v'.repeat(2001) })).toThrow(/2001 characters/);
    expect(button({ text: 'x', actionId: 'a', value: 'v'.repeat(2000) }).value).toHaveLength(2000);
  });
  it('refuses two elements with one action_id in a block', () => {
    const a = button({ text: 'x', actionId: 'same' });
    expect(() => actions([a, a])).toThrow(/duplicate action_id same/);
  });
});

describe('fitting blocks', () => {
  const sec = (i: number): KnownBlock => mrkdwnSection(`item ${i}`);
  it('fitBlocks keeps everything when it fits', () => {
    const blocks = [sec(1), sec(2)];
    expect(fitBlocks(blocks, 2, () => 'more')).toBe(blocks);
  });
  it('fitBlocks ends with an "and N more" note within max', () => {
    const blocks = Array.from({ length: 60 }, (_, i) => sec(i));
    const out = fitBlocks(blocks, 50, (n) => `…and ${n} more`);
    expect(out).toHaveLength(50);
    expect(out[49]).toEqual(context('…and 11 more'));
  });
  it('fitGroups keeps whole groups, head and tail, and counts items left out', () => {
    const groups = Array.from({ length: 30 }, (_, i) => [sec(i), sec(i)]);
    const out = fitGroups({ head: [header('H')], groups, tail: [sec(-1)], max: 50, moreText: (n) => `${n} more` });
    expect(out.length).toBeLessThanOrEqual(50);
    expect(out[0]?.type).toBe('header');
    expect(out[out.length - 1]).toEqual(sec(-1));
    // 50 - head 1 - tail 1 - note 1 = 47 → 23 groups of 2.
    expect(out[out.length - 2]).toEqual(context('7 more'));
    expect(out).toHaveLength(1 + 46 + 1 + 1);
  });
});
