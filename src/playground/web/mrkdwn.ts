/**
 * Slack's mrkdwn drawn as Slack draws it (and the `markdown` block's standard Markdown), through the one renderer:
 * the text is cut into tokens and each piece of text becomes a text node, so nothing in it is ever markup.
 */
import { append, h, link, type Child } from './dom.js';
import { emoji } from './emoji.js';

/** How mentions are named: a person's and a channel's id to what the page shows. */
export interface Names {
  user(id: string): string;
  channel(id: string): string;
}

/** Slack's three escapes, decoded once the text's own `<…>` have been read. */
function decodeEntities(text: string): string {
  return text.replace(/&(lt|gt|amp);/g, (_whole, name: string) => ({ lt: '<', gt: '>', amp: '&' })[name] ?? '');
}

/** A mrkdwn text: code blocks, quotes, then lines of inline formatting. */
export function mrkdwn(text: string, names: Names, verbatim = false): Child[] {
  const out: Child[] = [];
  const parts = text.split(/```/);
  parts.forEach((part, index) => {
    const isCode = index % 2 === 1 && index < parts.length - 1;
    if (isCode) out.push(h('pre', { class: 'code-block' }, decodeEntities(part.replace(/^\n/, ''))));
    else if (index % 2 === 1) out.push(...lines('```' + part, names, verbatim));
    else out.push(...lines(part, names, verbatim));
  });
  return out;
}

function lines(text: string, names: Names, verbatim: boolean): Child[] {
  const out: Child[] = [];
  let quote: HTMLQuoteElement | undefined;
  const rows = text.split('\n');
  rows.forEach((row, index) => {
    const quoted = /^(&gt;|>) ?/.exec(row);
    const content = inline(quoted ? row.slice(quoted[0].length) : row, names, verbatim);
    if (quoted) {
      if (quote) append(quote, [h('br')]);
      else out.push((quote = h('blockquote')));
      append(quote, content);
      return;
    }
    quote = undefined;
    out.push(...content);
    if (index < rows.length - 1 && !/^(&gt;|>)/.test(rows[index + 1] ?? '')) out.push(h('br'));
  });
  return out;
}

const WORD_EDGE_BEFORE = '(?<![\\p{L}\\p{N}])';
const WORD_EDGE_AFTER = '(?![\\p{L}\\p{N}])';
const styled = (mark: string) => {
  const m = mark === '*' ? '\\*' : mark;
  return `${WORD_EDGE_BEFORE}${m}(?=\\S)((?:(?!${m}).)*?\\S|\\S)${m}${WORD_EDGE_AFTER}`;
};
const INLINE = new RegExp(
  [
    '<([^<>\\n]+)>', // 1: a link, mention or special
    '`([^`\\n]+)`', // 2: inline code
    styled('*'), // 3: bold
    styled('_'), // 4: italics
    styled('~'), // 5: strike
    ':([a-z0-9_+-]+(?:::skin-tone-\\d)?):', // 6: emoji
  ].join('|'),
  'gu',
);

/** One line's inline formatting; formatting nests (a bold word inside italics), code and links do not. */
function inline(text: string, names: Names, verbatim = false): Child[] {
  const out: Child[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    const [whole, angle, code, bold, italic, strike, shortcode] = match;
    const index = match.index;
    if (index > last) out.push(decodeEntities(text.slice(last, index)));
    last = index + whole.length;
    if (angle !== undefined) out.push(verbatim ? decodeEntities(whole) : special(angle, names));
    else if (code !== undefined) out.push(h('code', {}, decodeEntities(code)));
    else if (bold !== undefined) out.push(h('b', {}, inline(bold, names, verbatim)));
    else if (italic !== undefined) out.push(h('i', {}, inline(italic, names, verbatim)));
    else if (strike !== undefined) out.push(h('s', {}, inline(strike, names, verbatim)));
    else if (shortcode !== undefined) out.push(emoji(shortcode) ?? whole);
  }
  if (last < text.length) out.push(decodeEntities(text.slice(last)));
  return out;
}

/** `<@U…>`, `<#C…>`, `<!here>`, `<!date^…|fallback>`, `<url|text>`. */
function special(body: string, names: Names): Child {
  const bar = body.indexOf('|');
  const target = bar >= 0 ? body.slice(0, bar) : body;
  const label = bar >= 0 ? decodeEntities(body.slice(bar + 1)) : undefined;
  if (target.startsWith('@')) {
    return h('span', { class: 'mention' }, '@', names.user(target.slice(1)));
  }
  if (target.startsWith('#')) {
    return h('span', { class: 'mention' }, '#', label ?? names.channel(target.slice(1)));
  }
  if (target.startsWith('!')) {
    const [kind] = target.slice(1).split('^');
    if (kind === 'here' || kind === 'channel' || kind === 'everyone') return h('span', { class: 'mention' }, '@', kind);
    return h('span', { class: 'mention' }, label ?? kind ?? '');
  }
  const url = decodeEntities(target);
  // Only `<scheme:…>` is a link in Slack's markup; anything else in angle brackets is shown as it was written.
  if (!/^[a-z][a-z0-9+.-]*:/i.test(url)) return decodeEntities(`<${body}>`);
  return link(url, label ?? url);
}

/** The `markdown` block's standard Markdown: headings, lists, quotes, code, emphasis and links. */
export function markdown(text: string, names: Names): Child[] {
  const out: Child[] = [];
  const blocks = text.split(/```/);
  blocks.forEach((part, index) => {
    if (index % 2 === 1) {
      out.push(h('pre', { class: 'code-block' }, part.replace(/^[^\n]*\n/, '')));
      return;
    }
    let list: HTMLElement | undefined;
    for (const row of part.split('\n')) {
      const heading = /^(#{1,6})\s+(.*)$/.exec(row);
      const item = /^\s*(?:[-*+]|(\d+)\.)\s+(.*)$/.exec(row);
      if (!item) list = undefined;
      if (heading) out.push(h('h4', { class: 'md-heading' }, markdownInline(heading[2] ?? '', names)));
      else if (item) {
        if (!list) out.push((list = h(item[1] ? 'ol' : 'ul')));
        list.appendChild(h('li', {}, markdownInline(item[2] ?? '', names)));
      } else if (/^>\s?/.test(row)) out.push(h('blockquote', {}, markdownInline(row.replace(/^>\s?/, ''), names)));
      else if (row.trim()) out.push(h('p', {}, markdownInline(row, names)));
    }
  });
  return out;
}

const MARKDOWN_INLINE = /\[([^\]\n]+)\]\(([^)\s]+)\)|`([^`\n]+)`|\*\*(.+?)\*\*|__(.+?)__|\*(\S(?:.*?\S)?)\*|~~(.+?)~~/g;

function markdownInline(text: string, names: Names): Child[] {
  const out: Child[] = [];
  let last = 0;
  for (const match of text.matchAll(MARKDOWN_INLINE)) {
    const [whole, label, url, code, bold, bold2, italic, strike] = match;
    if (match.index > last) out.push(text.slice(last, match.index));
    last = match.index + whole.length;
    if (label !== undefined && url !== undefined) out.push(link(url, label));
    else if (code !== undefined) out.push(h('code', {}, code));
    else if (bold !== undefined || bold2 !== undefined)
      out.push(h('b', {}, markdownInline(bold ?? bold2 ?? '', names)));
    else if (italic !== undefined) out.push(h('i', {}, markdownInline(italic, names)));
    else if (strike !== undefined) out.push(h('s', {}, markdownInline(strike, names)));
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
