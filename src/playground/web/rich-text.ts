/** The rich_text block: sections, lists, quotes and preformatted text, with their styled elements. */
import type { Json } from '../api.js';
import { h, link, type Child } from './dom.js';
import { emoji } from './emoji.js';
import type { Names } from './mrkdwn.js';
import { list, obj, str } from './text.js';

export function richText(block: Json, names: Names): HTMLElement {
  return h(
    'div',
    { class: 'rich-text' },
    list(block.elements).map((part) => richPart(part, names)),
  );
}

function richPart(part: Json, names: Names): Child {
  const inner = () => list(part.elements).map((item) => richElement(item, names));
  switch (str(part.type)) {
    case 'rich_text_section':
      return h('div', { class: 'rt-section' }, inner());
    case 'rich_text_preformatted':
      return h('pre', { class: 'code-block' }, inner());
    case 'rich_text_quote':
      return h('blockquote', {}, inner());
    case 'rich_text_list': {
      const items = list(part.elements).map((item) => h('li', {}, richPart(item, names)));
      const indent = typeof part.indent === 'number' ? Math.min(part.indent, 8) : 0;
      return h(part.style === 'ordered' ? 'ol' : 'ul', { class: `rt-list indent-${indent}` }, items);
    }
    default:
      return null;
  }
}

function richElement(item: Json, names: Names): Child {
  const content = (): Child => {
    switch (str(item.type)) {
      case 'text':
        return str(item.text);
      case 'link':
        return link(str(item.url), str(item.text) || str(item.url));
      case 'user':
        return h('span', { class: 'mention' }, '@', names.user(str(item.user_id)));
      case 'channel':
        return h('span', { class: 'mention' }, '#', names.channel(str(item.channel_id)));
      case 'usergroup':
        return h('span', { class: 'mention' }, '@', str(item.usergroup_id));
      case 'broadcast':
        return h('span', { class: 'mention' }, '@', str(item.range));
      case 'emoji':
        return emoji(str(item.name)) ?? `:${str(item.name)}:`;
      case 'date':
        return str(item.fallback) || new Date(Number(item.timestamp) * 1000).toLocaleString();
      case 'color':
        return str(item.value);
      default:
        return null;
    }
  };
  return styled(content(), obj(item.style));
}

function styled(child: Child, style: Json | undefined): Child {
  if (!style) return child;
  let node = child;
  if (style.code) node = h('code', {}, node);
  if (style.bold) node = h('b', {}, node);
  if (style.italic) node = h('i', {}, node);
  if (style.strike) node = h('s', {}, node);
  return node;
}
