/** Block Kit's layout blocks, drawn as Slack draws them; their interactive elements come from elements.ts. */
import type { Json } from '../api.js';
import { h, type Child } from './dom.js';
import { element } from './elements.js';
import { markdown } from './mrkdwn.js';
import { richText } from './rich-text.js';
import { list, obj, plainText, str, textObject, type BlockContext } from './text.js';

export function blocks(items: Json[], ctx: BlockContext): HTMLElement {
  return h(
    'div',
    { class: 'blocks' },
    items.map((block, index) => drawBlock(block, index, ctx)),
  );
}

/** Slack names a block without an id itself; the page does so by its place, the same on every drawing. */
function blockId(block: Json, index: number): string {
  return str(block.block_id) || `block-${index}`;
}

function drawBlock(block: Json, index: number, ctx: BlockContext): Child {
  const id = blockId(block, index);
  const at = { blockId: id, input: false, dispatch: false };
  switch (str(block.type)) {
    case 'header':
      return h('h3', { class: 'block-header' }, textObject(block.text, ctx.names));
    case 'section':
      return section(block, id, ctx);
    case 'context':
      return h(
        'div',
        { class: 'block-context' },
        list(block.elements).map((item) =>
          item.type === 'image'
            ? h('img', { class: 'context-image', src: str(item.image_url), attrs: { alt: str(item.alt_text) } })
            : h('span', {}, textObject(item, ctx.names)),
        ),
      );
    case 'divider':
      return h('hr', { class: 'block-divider' });
    case 'image':
      return h(
        'figure',
        { class: 'block-image' },
        block.title ? h('figcaption', {}, textObject(block.title, ctx.names)) : null,
        h('img', {
          src: str(block.image_url) || str(obj(block.slack_file)?.url),
          attrs: { alt: str(block.alt_text), loading: 'lazy' },
        }),
      );
    case 'actions':
      return h(
        'div',
        { class: 'block-actions' },
        list(block.elements).map((item) => element(item, at, ctx)),
      );
    case 'input':
      return input(block, id, ctx);
    case 'rich_text':
      return richText(block, ctx.names);
    case 'markdown':
      return h('div', { class: 'block-markdown' }, markdown(str(block.text), ctx.names));
    case 'file':
      return h('div', { class: 'block-file' }, `File ${str(block.external_id)}`);
    case 'video':
      return h('div', { class: 'block-video' }, textObject(block.title, ctx.names));
    default:
      return h('div', { class: 'unsupported' }, `[${str(block.type)} block]`);
  }
}

function section(block: Json, id: string, ctx: BlockContext): HTMLElement {
  const accessory = obj(block.accessory);
  const fields = list(block.fields);
  return h(
    'div',
    { class: 'block-section' },
    h(
      'div',
      { class: 'section-body' },
      block.text ? h('div', { class: 'section-text' }, textObject(block.text, ctx.names)) : null,
      fields.length
        ? h(
            'div',
            { class: 'section-fields' },
            fields.map((field) => h('div', {}, textObject(field, ctx.names))),
          )
        : null,
    ),
    accessory
      ? h(
          'div',
          { class: 'section-accessory' },
          element(accessory, { blockId: id, input: false, dispatch: false }, ctx),
        )
      : null,
  );
}

function input(block: Json, id: string, ctx: BlockContext): HTMLElement {
  const el = obj(block.element) ?? {};
  const label = plainText(block.label);
  const error = ctx.form?.error(id);
  const at = { blockId: id, input: true, dispatch: block.dispatch_action === true, label };
  return h(
    'div',
    { class: ['block-input', error && 'has-error'], attrs: { 'data-block-id': id } },
    h(
      'div',
      { class: 'input-label' },
      label,
      block.optional === true ? h('span', { class: 'optional' }, ' (optional)') : null,
    ),
    element(el, at, ctx),
    block.hint ? h('div', { class: 'input-hint' }, textObject(block.hint, ctx.names)) : null,
    error ? h('div', { class: 'input-error', attrs: { role: 'alert' } }, error) : null,
  );
}
