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
  return new ExternalSelect(el, at, ctx, changed).element;
}

/** One external select on the page: what is chosen, the suggestions shown, and the keys that move among them. */
class ExternalSelect {
  readonly element: HTMLElement;
  private readonly multiple: boolean;
  private readonly minLength: number;
  private readonly listId = uid('suggestions');
  private readonly field: HTMLInputElement;
  private readonly box: HTMLElement;
  private readonly chips = h('span', { class: 'chips' });
  private readonly status = h('span', { class: 'suggest-status', attrs: { role: 'status' } });
  private selected: Json[];
  /** The options listed now, in order (across their groups). */
  private shown: Json[] = [];
  /** The option the arrow keys are on (-1: none). */
  private active = -1;
  /** Searches asked so far: only the last one's answer is shown. */
  private asked = 0;

  constructor(
    private readonly el: Json,
    private readonly at: At,
    private readonly ctx: BlockContext,
    private readonly changed: Changed,
  ) {
    this.multiple = str(el.type) === 'multi_external_select';
    this.minLength = typeof el.min_query_length === 'number' ? el.min_query_length : 3;
    const kept = at.input ? ctx.form?.get(at.blockId, str(el.action_id)) : undefined;
    this.selected = kept
      ? list((kept as Json).selected_options ?? [(kept as Json).selected_option].filter(Boolean))
      : this.multiple
        ? list(el.initial_options)
        : [obj(el.initial_option)].filter((option): option is Json => option !== undefined);
    this.field = h('input', {
      attrs: {
        type: 'text',
        role: 'combobox',
        'aria-autocomplete': 'list',
        'aria-expanded': 'false',
        'aria-controls': this.listId,
        'aria-label': at.label ?? (plainText(el.placeholder) || 'Search'),
        placeholder: plainText(el.placeholder) || 'Type to search',
      },
    });
    this.box = h('ul', { class: 'suggestions', attrs: { role: 'listbox', id: this.listId, hidden: true } });
    this.listen();
    if (at.input) ctx.form?.set(at.blockId, str(el.action_id), this.value());
    this.drawSelected();
    this.element = h('span', { class: 'external-select' }, this.chips, this.field, this.box, this.status);
  }

  private value(): ElementValue {
    return this.multiple
      ? { type: 'multi_external_select', selected_options: this.selected }
      : { type: 'external_select', selected_option: this.selected[0] ?? null };
  }

  /** The choice: in the field (one), or as chips each with its remove button (several). */
  private drawSelected(): void {
    if (!this.multiple) this.field.value = this.selected[0] ? plainText(this.selected[0].text) : '';
    fill(
      this.chips,
      this.multiple
        ? this.selected.map((option) =>
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
                  on: { click: () => this.pick(option, true) },
                },
                '×',
              ),
            ),
          )
        : [],
    );
  }

  private close(): void {
    this.box.hidden = true;
    this.field.setAttribute('aria-expanded', 'false');
    this.active = -1;
  }

  private pick(option: Json, remove = false): void {
    const others = this.selected.filter((known) => str(known.value) !== str(option.value));
    this.selected = this.multiple ? (remove ? others : [...others, option]) : [option];
    this.close();
    this.drawSelected();
    if (this.multiple) this.field.value = '';
    const action = this.multiple ? { selected_options: this.selected } : { selected_option: option };
    this.changed(this.el, this.at, this.ctx, this.value(), action);
  }

  private drawOptions(groups: { label?: string; options: Json[] }[]): void {
    this.shown = groups.flatMap((group) => group.options);
    this.active = -1;
    let index = 0;
    fill(
      this.box,
      groups.map((group) => [
        group.label ? h('li', { class: 'suggestion-group', attrs: { role: 'presentation' } }, group.label) : null,
        group.options.map((option) => {
          const id = `${this.listId}-${index++}`;
          return h(
            'li',
            {
              class: 'suggestion',
              attrs: { role: 'option', id, 'aria-selected': 'false' },
              on: { mousedown: (event) => event.preventDefault(), click: () => this.pick(option) },
            },
            plainText(option.text),
            option.description ? h('small', {}, ' ', plainText(option.description)) : null,
          );
        }),
      ]),
    );
    this.box.hidden = this.shown.length === 0;
    this.field.setAttribute('aria-expanded', String(!this.box.hidden));
    this.status.textContent = this.shown.length ? '' : 'No matches';
  }

  /** Asks the app for the options of what is typed (a block_suggestion), once it is long enough. */
  private async search(): Promise<void> {
    const query = this.field.value;
    const form = this.ctx.form;
    if (query.length < this.minLength || !form) {
      this.close();
      this.status.textContent = form ? '' : 'Search is not available here';
      return;
    }
    const ask = ++this.asked;
    this.status.textContent = 'Searching…';
    const answer = await form.suggest(this.at.blockId, str(this.el.action_id), query);
    if (ask !== this.asked) return; // A later search is under way: its answer is the one to show.
    const groups = answer.some((item) => item.options !== undefined)
      ? answer.map((group) => ({ label: plainText(group.label), options: list(group.options) }))
      : [{ options: answer }];
    this.drawOptions(groups);
  }

  private move(by: number): void {
    if (!this.shown.length) return;
    this.active = (this.active + by + this.shown.length) % this.shown.length;
    this.box.querySelectorAll('[role=option]').forEach((node, index) => {
      node.setAttribute('aria-selected', String(index === this.active));
      if (index === this.active) this.field.setAttribute('aria-activedescendant', node.id);
    });
  }

  private listen(): void {
    const field = this.field;
    field.addEventListener('input', () => void this.search());
    field.addEventListener('focus', () => {
      if (this.minLength === 0) void this.search();
    });
    field.addEventListener('blur', () => this.close());
    field.addEventListener('keydown', (event) => {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        this.move(event.key === 'ArrowDown' ? 1 : -1);
      } else if (event.key === 'Enter' && this.shown[this.active]) {
        event.preventDefault();
        this.pick(this.shown[this.active] as Json);
      } else if (event.key === 'Escape') this.close();
    });
  }
}
