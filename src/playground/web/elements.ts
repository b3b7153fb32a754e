/**
 * Block Kit's interactive elements as native, keyboard-usable controls. In an input block an element's value goes to
 * the view's form (Slack's `view.state.values`); elsewhere, or with `dispatch_action`, acting on it is a block action.
 */
import type { ElementValue, Json, PageAction } from '../api.js';
import { confirmDialog } from './confirm.js';
import { h, uid } from './dom.js';
import { externalSelect } from './select.js';
import { list, obj, options, plainText, str, textObject, type BlockContext } from './text.js';

export interface Placement {
  blockId: string;
  /** In an input block: its value is part of the view's values. */
  input: boolean;
  /** An input block with `dispatch_action`: a change is also a block action. */
  dispatch: boolean;
  /** The input block's label, for the control's accessible name. */
  label?: string;
}

export function element(el: Json, at: Placement, ctx: BlockContext): HTMLElement {
  const draw = DRAW[str(el.type)];
  return draw ? draw(el, at, ctx) : h('span', { class: 'unsupported' }, `[${str(el.type)}]`);
}

type Draw = (el: Json, at: Placement, ctx: BlockContext) => HTMLElement;

const actionId = (el: Json) => str(el.action_id);

/** What happens when a person changes an element: kept in the form, and sent as an action when it should be. */
function changed(el: Json, at: Placement, ctx: BlockContext, value: ElementValue, action: Partial<PageAction>): void {
  if (at.input) ctx.form?.set(at.blockId, actionId(el), value);
  if (at.input && !at.dispatch) return;
  const fire = () => ctx.act({ action_id: actionId(el), block_id: at.blockId, type: str(el.type), ...action });
  const confirm = obj(el.confirm);
  if (!confirm) return void fire();
  void confirmDialog(confirm, ctx.names).then((yes) => (yes ? fire() : undefined));
}

/** An input's value as the form holds it, else as the element starts. */
function current(el: Json, at: Placement, ctx: BlockContext, initial: ElementValue): Json {
  const kept = at.input ? ctx.form?.get(at.blockId, actionId(el)) : undefined;
  const value = kept ?? initial;
  // Kept in this drawing's values too, so a later drawing (another views.update) still has it.
  if (at.input) ctx.form?.set(at.blockId, actionId(el), value);
  return value as unknown as Json;
}

function button(el: Json, at: Placement, ctx: BlockContext): HTMLElement {
  const style = str(el.style);
  const classes = ['btn', style === 'primary' && 'btn-primary', style === 'danger' && 'btn-danger'];
  const press = () => {
    const fire = () => {
      const url = str(el.url);
      if (url) window.open(url, '_blank', 'noopener,noreferrer');
      void ctx.act({
        action_id: actionId(el),
        block_id: at.blockId,
        type: 'button',
        value: str(el.value) || undefined,
      });
    };
    const confirm = obj(el.confirm);
    if (!confirm) return fire();
    void confirmDialog(confirm, ctx.names).then((yes) => (yes ? fire() : undefined));
  };
  const label = str(el.accessibility_label);
  return h('button', { class: classes, attrs: { 'aria-label': label || undefined }, on: { click: press } }, [
    textObject(el.text, ctx.names),
  ]);
}

function overflow(el: Json, at: Placement, ctx: BlockContext): HTMLElement {
  const menuId = uid('overflow');
  const menu = h('div', { class: 'menu', attrs: { role: 'menu', id: menuId, hidden: true } });
  const toggle = h(
    'button',
    {
      class: 'btn btn-overflow',
      attrs: { 'aria-haspopup': 'menu', 'aria-expanded': 'false', 'aria-controls': menuId, 'aria-label': 'More' },
      on: { click: () => show(menu.hidden) },
    },
    '⋯',
  );
  const show = (open: boolean) => {
    menu.hidden = !open;
    toggle.setAttribute('aria-expanded', String(open));
    if (open) (menu.querySelector('button') as HTMLButtonElement | null)?.focus();
  };
  for (const option of options(el)) {
    const pick = () => {
      show(false);
      const url = str(option.url);
      if (url) window.open(url, '_blank', 'noopener,noreferrer');
      changed(el, at, ctx, { type: 'static_select', selected_option: option }, { selected_option: option });
    };
    // A click keeps the focus where it is (mousedown), so the menu is still open when the click lands.
    const on = { mousedown: (event: MouseEvent) => event.preventDefault(), click: pick };
    menu.appendChild(h('button', { attrs: { role: 'menuitem' }, on }, plainText(option.text)));
  }
  menu.addEventListener('keydown', (event) => {
    const items = Array.from(menu.querySelectorAll('button'));
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === 'Escape') {
      show(false);
      toggle.focus();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      items[(at + (event.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus();
    }
  });
  const wrapper = h('span', { class: 'overflow' }, toggle, menu);
  wrapper.addEventListener('focusout', (event) => {
    if (!wrapper.contains(event.relatedTarget as Node | null)) show(false);
  });
  return wrapper;
}

function staticSelect(el: Json, at: Placement, ctx: BlockContext): HTMLElement {
  const all = options(el);
  const value = current(el, at, ctx, {
    type: 'static_select',
    selected_option: obj(el.initial_option) ?? null,
  });
  const select = h('select', { attrs: { 'aria-label': at.label ?? (plainText(el.placeholder) || 'Choose') } });
  select.appendChild(h('option', { attrs: { value: '' } }, plainText(el.placeholder) || 'Choose an option'));
  const optionNode = (option: Json) =>
    h(
      'option',
      { attrs: { value: str(option.value), selected: str(option.value) === str(obj(value.selected_option)?.value) } },
      [plainText(option.text)],
    );
  const groups = list(el.option_groups);
  if (groups.length) {
    for (const group of groups) {
      select.appendChild(
        h('optgroup', { attrs: { label: plainText(group.label) } }, list(group.options).map(optionNode)),
      );
    }
  } else all.forEach((option) => select.appendChild(optionNode(option)));
  select.addEventListener('change', () => {
    const option = all.find((candidate) => str(candidate.value) === select.value) ?? null;
    changed(el, at, ctx, { type: 'static_select', selected_option: option }, { selected_option: option ?? undefined });
  });
  return select;
}

function multiStaticSelect(el: Json, at: Placement, ctx: BlockContext): HTMLElement {
  const all = options(el);
  const value = current(el, at, ctx, {
    type: 'multi_static_select',
    selected_options: list(el.initial_options),
  });
  const chosen = new Set(list(value.selected_options).map((option) => str(option.value)));
  const select = h(
    'select',
    { attrs: { multiple: true, 'aria-label': at.label ?? (plainText(el.placeholder) || 'Choose') } },
    all.map((option) =>
      h(
        'option',
        { attrs: { value: str(option.value), selected: chosen.has(str(option.value)) } },
        plainText(option.text),
      ),
    ),
  );
  select.addEventListener('change', () => {
    const picked = new Set(Array.from(select.selectedOptions, (option) => option.value));
    const selected = all.filter((option) => picked.has(str(option.value)));
    changed(el, at, ctx, { type: 'multi_static_select', selected_options: selected }, { selected_options: selected });
  });
  return select;
}

/** users_select, conversations_select, channels_select: the workspace's people and channels as options. */
function entitySelect(el: Json, at: Placement, ctx: BlockContext): HTMLElement {
  const isUser = str(el.type) === 'users_select';
  const entries = isUser
    ? ctx.users.map((user) => ({ id: user.id, name: user.name }))
    : ctx.channels.filter((c) => c.kind !== 'im').map((c) => ({ id: c.id, name: `#${c.name}` }));
  const initial = str(isUser ? el.initial_user : (el.initial_conversation ?? el.initial_channel)) || null;
  const make = (id: string | null): ElementValue =>
    isUser ? { type: 'users_select', selected_user: id } : { type: 'conversations_select', selected_conversation: id };
  const value = current(el, at, ctx, make(initial));
  const selectedId = str(value.selected_user ?? value.selected_conversation);
  const select = h(
    'select',
    { attrs: { 'aria-label': at.label ?? (plainText(el.placeholder) || 'Choose') } },
    h('option', { attrs: { value: '' } }, plainText(el.placeholder) || 'Choose'),
    entries.map((entry) => h('option', { attrs: { value: entry.id, selected: entry.id === selectedId } }, entry.name)),
  );
  select.addEventListener('change', () => {
    const id = select.value || null;
    const extra = isUser ? { selected_user: id } : { selected_conversation: id, selected_channel: id };
    changed(el, at, ctx, make(id), extra as Partial<PageAction>);
  });
  return select;
}

function textInput(el: Json, at: Placement, ctx: BlockContext): HTMLElement {
  const type = str(el.type) as 'plain_text_input' | 'number_input' | 'email_text_input' | 'url_text_input';
  const initial = el.initial_value === undefined ? null : String(el.initial_value);
  const value = current(el, at, ctx, { type, value: initial });
  const inputType = { number_input: 'number', email_text_input: 'email', url_text_input: 'url' }[type as string];
  const attrs = {
    'aria-label': at.label ?? plainText(el.placeholder),
    placeholder: plainText(el.placeholder) || undefined,
    maxlength: typeof el.max_length === 'number' ? el.max_length : undefined,
    type: inputType ?? (el.multiline === true ? undefined : 'text'),
    step: type === 'number_input' && el.is_decimal_allowed === true ? 'any' : undefined,
    min: el.min_value === undefined ? undefined : str(el.min_value),
    max: el.max_value === undefined ? undefined : str(el.max_value),
  };
  const field = el.multiline === true ? h('textarea', { attrs: { ...attrs, rows: 3 } }) : h('input', { attrs });
  field.value = typeof value.value === 'string' ? value.value : '';
  const record = () =>
    ctx.form?.set(at.blockId, actionId(el), { type, value: field.value === '' ? null : field.value });
  field.addEventListener('input', record);
  if (at.dispatch) {
    const config = obj(el.dispatch_action_config)?.trigger_actions_on;
    const triggers = Array.isArray(config) ? config : ['on_enter_pressed'];
    const fire = () => changed(el, at, ctx, { type, value: field.value || null }, { value: field.value });
    field.addEventListener('keydown', (event) => {
      if (!triggers.includes('on_enter_pressed')) return;
      if ((event as KeyboardEvent).key === 'Enter' && !(event as KeyboardEvent).shiftKey) {
        event.preventDefault();
        fire();
      }
    });
    if (triggers.includes('on_character_entered')) field.addEventListener('input', fire);
  }
  return field;
}

function picker(el: Json, at: Placement, ctx: BlockContext): HTMLElement {
  const isDate = str(el.type) === 'datepicker';
  const initial = str(isDate ? el.initial_date : el.initial_time) || null;
  const make = (picked: string | null): ElementValue =>
    isDate ? { type: 'datepicker', selected_date: picked } : { type: 'timepicker', selected_time: picked };
  const value = current(el, at, ctx, make(initial));
  const field = h('input', {
    attrs: { type: isDate ? 'date' : 'time', 'aria-label': at.label ?? plainText(el.placeholder) },
  });
  field.value = str(isDate ? value.selected_date : value.selected_time);
  field.addEventListener('change', () => {
    const picked = field.value || null;
    const extra = isDate ? { selected_date: picked ?? undefined } : { selected_time: picked ?? undefined };
    changed(el, at, ctx, make(picked), extra);
  });
  return field;
}

function choices(el: Json, at: Placement, ctx: BlockContext): HTMLElement {
  const multiple = str(el.type) === 'checkboxes';
  const all = options(el);
  const initial: ElementValue = multiple
    ? { type: 'checkboxes', selected_options: list(el.initial_options) }
    : { type: 'radio_buttons', selected_option: obj(el.initial_option) ?? null };
  const value = current(el, at, ctx, initial);
  const chosen = new Set(
    (multiple ? list(value.selected_options) : [obj(value.selected_option)]).map((option) => str(option?.value)),
  );
  const name = uid('choice');
  const boxes = all.map((option) =>
    h('input', {
      attrs: {
        type: multiple ? 'checkbox' : 'radio',
        name,
        value: str(option.value),
        checked: chosen.has(str(option.value)),
      },
    }),
  );
  const group = h(
    'fieldset',
    { class: 'choices', attrs: { 'aria-label': at.label } },
    all.map((option, index) =>
      h(
        'label',
        { class: 'choice' },
        boxes[index],
        h('span', {}, textObject(option.text, ctx.names)),
        option.description
          ? h('small', { class: 'choice-description' }, textObject(option.description, ctx.names))
          : null,
      ),
    ),
  );
  group.addEventListener('change', () => {
    const selected = all.filter((_option, index) => boxes[index]?.checked);
    if (multiple)
      changed(el, at, ctx, { type: 'checkboxes', selected_options: selected }, { selected_options: selected });
    else {
      const option = selected[0] ?? null;
      changed(
        el,
        at,
        ctx,
        { type: 'radio_buttons', selected_option: option },
        { selected_option: option ?? undefined },
      );
    }
  });
  return group;
}

/** A file_input: the file chosen from disk is hosted as a Slack file, and the file is the input's value. */
function fileInput(el: Json, at: Placement, ctx: BlockContext): HTMLElement {
  const types = Array.isArray(el.filetypes) ? el.filetypes.map((type) => `.${String(type)}`).join(',') : undefined;
  const field = h('input', { attrs: { type: 'file', accept: types, 'aria-label': at.label ?? 'File' } });
  const status = h('span', { class: 'file-status', attrs: { role: 'status' } });
  current(el, at, ctx, { type: 'file_input', files: [] });
  field.addEventListener('change', () => {
    const file = field.files?.[0];
    if (!file || !ctx.form) return;
    status.textContent = `Uploading ${file.name}…`;
    ctx.form.upload(file).then(
      (hosted) => {
        ctx.form?.set(at.blockId, actionId(el), { type: 'file_input', files: [hosted] });
        status.textContent = `Attached ${hosted.name}`;
      },
      (error: unknown) => {
        status.textContent = `Could not upload ${file.name}: ${error instanceof Error ? error.message : String(error)}`;
      },
    );
  });
  return h('span', { class: 'file-input' }, field, status);
}

function image(el: Json): HTMLElement {
  const url = str(el.image_url) || str(obj(el.slack_file)?.url);
  return h('img', { class: 'element-image', src: url, attrs: { alt: str(el.alt_text), loading: 'lazy' } });
}

const DRAW: Record<string, Draw> = {
  button,
  workflow_button: button,
  overflow,
  static_select: staticSelect,
  multi_static_select: multiStaticSelect,
  external_select: (el, at, ctx) => externalSelect(el, at, ctx, changed),
  multi_external_select: (el, at, ctx) => externalSelect(el, at, ctx, changed),
  users_select: entitySelect,
  conversations_select: entitySelect,
  channels_select: entitySelect,
  plain_text_input: textInput,
  number_input: textInput,
  email_text_input: textInput,
  url_text_input: textInput,
  datepicker: picker,
  timepicker: picker,
  checkboxes: choices,
  radio_buttons: choices,
  file_input: fileInput,
  image,
};
