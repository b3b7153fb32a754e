/**
 * external_select and multi_external_select: a combobox whose options are the app's answer to a `block_suggestion`
 * for what is typed (once `min_query_length` characters are there, 3 unless the element says otherwise).
 */
import type { ElementValue, Json, PageAction } from '../api.js';
import { fill, h, uid } from './dom.js';
import { list, obj, plainText, str, type BlockContext } from './text.js';

interface At {
  blockId: string;
  input: boolean;
  dispatch: boolean;
  label?: string;
}
type Changed = (el: Json, at: At, ctx: BlockContext, value: ElementValue, action: Partial<PageAction>) => void;

export function externalSelect(el: Json, at: At, ctx: BlockContext, changed: Changed): HTMLElement {
  const multiple = str(el.type) === 'multi_external_select';
  const minLength = typeof el.min_query_length === 'number' ? el.min_query_length : 3;
  const kept = at.input ? ctx.form?.get(at.blockId, str(el.action_id)) : undefined;
  let selected: Json[] = kept
    ? list((kept as Json).selected_options ?? [(kept as Json).selected_option].filter(Boolean))
    : multiple
      ? list(el.initial_options)
      : [obj(el.initial_option)].filter((option): option is Json => option !== undefined);
  const listId = uid('suggestions');
  const field = h('input', {
    attrs: {
      type: 'text',
      role: 'combobox',
      'aria-autocomplete': 'list',
      'aria-expanded': 'false',
      'aria-controls': listId,
      'aria-label': at.label ?? (plainText(el.placeholder) || 'Search'),
      placeholder: plainText(el.placeholder) || 'Type to search',
    },
  });
  const box = h('ul', { class: 'suggestions', attrs: { role: 'listbox', id: listId, hidden: true } });
  const chips = h('span', { class: 'chips' });
  const status = h('span', { class: 'suggest-status', attrs: { role: 'status' } });
  let shown: Json[] = [];
  let active = -1;
  let asked = 0;

  const value = (): ElementValue =>
    multiple
      ? { type: 'multi_external_select', selected_options: selected }
      : { type: 'external_select', selected_option: selected[0] ?? null };
  const drawSelected = () => {
    if (!multiple) field.value = selected[0] ? plainText(selected[0].text) : '';
    fill(
      chips,
      multiple
        ? selected.map((option) =>
            h(
              'span',
              { class: 'chip' },
              plainText(option.text),
              ' ',
              h(
                'button',
                {
                  class: 'chip-remove',
                  attrs: { 'aria-label': `Remove ${plainText(option.text)}` },
                  on: { click: () => pick(option, true) },
                },
                '×',
              ),
            ),
          )
        : [],
    );
  };
  const close = () => {
    box.hidden = true;
    field.setAttribute('aria-expanded', 'false');
    active = -1;
  };
  const pick = (option: Json, remove = false) => {
    const others = selected.filter((known) => str(known.value) !== str(option.value));
    selected = multiple ? (remove ? others : [...others, option]) : [option];
    close();
    drawSelected();
    if (multiple) field.value = '';
    changed(el, at, ctx, value(), multiple ? { selected_options: selected } : { selected_option: option });
  };
  const drawOptions = (groups: { label?: string; options: Json[] }[]) => {
    shown = groups.flatMap((group) => group.options);
    active = -1;
    let index = 0;
    fill(
      box,
      groups.map((group) => [
        group.label ? h('li', { class: 'suggestion-group', attrs: { role: 'presentation' } }, group.label) : null,
        group.options.map((option) => {
          const id = `${listId}-${index++}`;
          return h(
            'li',
            {
              class: 'suggestion',
              attrs: { role: 'option', id, 'aria-selected': 'false' },
              on: { mousedown: (event) => event.preventDefault(), click: () => pick(option) },
            },
            plainText(option.text),
            option.description ? h('small', {}, ' ', plainText(option.description)) : null,
          );
        }),
      ]),
    );
    box.hidden = shown.length === 0;
    field.setAttribute('aria-expanded', String(!box.hidden));
    status.textContent = shown.length ? '' : 'No matches';
  };
  const search = async () => {
    const query = field.value;
    if (query.length < minLength || !ctx.form) {
      close();
      status.textContent = ctx.form ? '' : 'Search is not available here';
      return;
    }
    const ask = ++asked;
    status.textContent = 'Searching…';
    const answer = await ctx.form.suggest(at.blockId, str(el.action_id), query);
    if (ask !== asked) return; // A later search is under way: its answer is the one to show.
    const groups = answer.some((item) => item.options !== undefined)
      ? answer.map((group) => ({ label: plainText(group.label), options: list(group.options) }))
      : [{ options: answer }];
    drawOptions(groups);
  };
  const move = (by: number) => {
    if (!shown.length) return;
    active = (active + by + shown.length) % shown.length;
    box.querySelectorAll('[role=option]').forEach((node, index) => {
      node.setAttribute('aria-selected', String(index === active));
      if (index === active) field.setAttribute('aria-activedescendant', node.id);
    });
  };
  field.addEventListener('input', () => void search());
  field.addEventListener('focus', () => {
    if (minLength === 0) void search();
  });
  field.addEventListener('blur', close);
  field.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      move(event.key === 'ArrowDown' ? 1 : -1);
    } else if (event.key === 'Enter' && shown[active]) {
      event.preventDefault();
      pick(shown[active] as Json);
    } else if (event.key === 'Escape') close();
  });
  if (at.input) ctx.form?.set(at.blockId, str(el.action_id), value());
  drawSelected();
  return h('span', { class: 'external-select' }, chips, field, box, status);
}
