// Block Kit limits as Slack enforces them (see docs/slack-platform-notes.md §1), used by the fake
// Slack Web API to reject oversize payloads the way real Slack does. Pure functions: they can also check the
// output of block builders offline. Each problem is reported like Slack's own messages:
// "<what is wrong> [json-pointer:/blocks/3/text/text]".

export const LIMITS = {
  messageBlocks: 50,
  viewBlocks: 100,
  blockId: 255,
  actionId: 255,
  text: 3000,
  sectionFields: 10,
  sectionField: 2000,
  header: 150,
  contextElements: 10,
  actionsElements: 25,
  inputLabel: 2000,
  inputHint: 2000,
  imageAltText: 2000,
  imageTitle: 2000,
  url: 3000,
  placeholder: 150,
  buttonText: 75,
  buttonValue: 2000,
  accessibilityLabel: 75,
  selectOptions: 100,
  optionGroups: 100,
  optionGroupLabel: 75,
  checkboxOptions: 10,
  radioOptions: 10,
  overflowOptionsMin: 1,
  overflowOptionsMax: 5,
  optionText: 75,
  optionValue: 150,
  optionDescription: 75,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  modalTitle: 24,
  modalButton: 24,
  privateMetadata: 3000,
  callbackId: 255,
  externalId: 255,
  /** Whole view JSON, in bytes (Slack says 250 kB; the stricter decimal reading is used). */
  viewBytes: 250_000,
  /** Cumulative over all markdown blocks of one message. */
  markdownText: 12_000,
  plainTextInputLength: 3000,
  fileInputMaxFiles: 10,
  tableRows: 100,
  tableCells: 20,
  /** chat.update rejects longer text with msg_too_long. */
  chatUpdateText: 4000,
  /** chat.postMessage truncates longer text. */
  messageText: 40_000,
  attachments: 100,
} as const;

export type Surface = 'message' | 'modal' | 'home';

type Obj = Record<string, unknown>;
type ElementPlace = 'accessory' | 'actions' | 'input' | 'context';

const SELECTS = new Set([
  'static_select',
  'external_select',
  'users_select',
  'conversations_select',
  'channels_select',
  'multi_static_select',
  'multi_external_select',
  'multi_users_select',
  'multi_conversations_select',
  'multi_channels_select',
]);
const INPUT_ONLY = new Set([
  'plain_text_input',
  'email_text_input',
  'url_text_input',
  'number_input',
  'file_input',
  'rich_text_input',
]);
const ALLOWED: Record<ElementPlace, Set<string>> = {
  accessory: new Set([
    'button',
    'checkboxes',
    'datepicker',
    'image',
    'overflow',
    'radio_buttons',
    'timepicker',
    'workflow_button',
    ...SELECTS,
  ]),
  actions: new Set([
    'button',
    'checkboxes',
    'datepicker',
    'datetimepicker',
    'overflow',
    'radio_buttons',
    'timepicker',
    'workflow_button',
    'rich_text_input',
    ...SELECTS,
  ]),
  input: new Set([
    'checkboxes',
    'datepicker',
    'datetimepicker',
    'radio_buttons',
    'timepicker',
    ...SELECTS,
    ...INPUT_ONLY,
  ]),
  context: new Set(['image', 'plain_text', 'mrkdwn']),
};

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Length in characters as a person counts them (code points), which is how the limits are documented. */
function charLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

class Checker {
  readonly errors: string[] = [];
  markdownTotal = 0;

  err(message: string, pointer: string): void {
    this.errors.push(`${message} [json-pointer:${pointer}]`);
  }

  /** A string field with a maximum length; `min` defaults to 0. */
  str(v: unknown, ptr: string, max: number, opts: { required?: boolean; min?: number } = {}): void {
    if (v === undefined || v === null) {
      if (opts.required) this.err('missing required field', ptr);
      return;
    }
    if (typeof v !== 'string') return this.err('must be a string', ptr);
    const len = charLength(v);
    const min = opts.min ?? 0;
    if (len < min) this.err(`must be more than ${min - 1} characters`, ptr);
    if (len > max) this.err(`must be less than ${max + 1} characters`, ptr);
  }

  /** A text composition object (plain_text / mrkdwn). */
  text(v: unknown, ptr: string, max: number, opts: { required?: boolean; plainOnly?: boolean } = {}): void {
    if (v === undefined || v === null) {
      if (opts.required) this.err('missing required field', ptr);
      return;
    }
    if (!isObj(v)) return this.err('must be a text object', ptr);
    if (v.type !== 'plain_text' && v.type !== 'mrkdwn') {
      return this.err('must be a text object of type plain_text or mrkdwn', `${ptr}/type`);
    }
    if (opts.plainOnly && v.type !== 'plain_text') this.err('must be plain_text', `${ptr}/type`);
    this.str(v.text, `${ptr}/text`, max, { required: true, min: 1 });
  }

  int(v: unknown, ptr: string, min: number, max: number): void {
    if (v === undefined) return;
    if (typeof v !== 'number' || !Number.isInteger(v)) return this.err('must be an integer', ptr);
    if (v < min || v > max) this.err(`must be between ${min} and ${max}`, ptr);
  }

  confirm(v: unknown, ptr: string): void {
    if (v === undefined) return;
    if (!isObj(v)) return this.err('must be a confirmation object', ptr);
    this.text(v.title, `${ptr}/title`, LIMITS.confirmTitle, { required: true, plainOnly: true });
    this.text(v.text, `${ptr}/text`, LIMITS.confirmText, { required: true });
    this.text(v.confirm, `${ptr}/confirm`, LIMITS.confirmButton, { required: true, plainOnly: true });
    this.text(v.deny, `${ptr}/deny`, LIMITS.confirmButton, { required: true, plainOnly: true });
    if (v.style !== undefined && v.style !== 'primary' && v.style !== 'danger') {
      this.err('must be primary or danger', `${ptr}/style`);
    }
  }

  option(v: unknown, ptr: string, opts: { mrkdwn?: boolean; url?: boolean } = {}): void {
    if (!isObj(v)) return this.err('must be an option object', ptr);
    this.text(v.text, `${ptr}/text`, LIMITS.optionText, { required: true, plainOnly: !opts.mrkdwn });
    this.str(v.value, `${ptr}/value`, LIMITS.optionValue, { required: true, min: 1 });
    this.text(v.description, `${ptr}/description`, LIMITS.optionDescription, { plainOnly: !opts.mrkdwn });
    if (v.url !== undefined) {
      if (!opts.url) this.err('url is only allowed in overflow options', `${ptr}/url`);
      this.str(v.url, `${ptr}/url`, LIMITS.url);
    }
  }

  options(v: unknown, ptr: string, min: number, max: number, opts: { mrkdwn?: boolean; url?: boolean } = {}): Obj[] {
    if (!Array.isArray(v)) {
      this.err('must be an array of options', ptr);
      return [];
    }
    this.count(v, ptr, min, max);
    v.forEach((o, i) => this.option(o, `${ptr}/${i}`, opts));
    return v.filter(isObj);
  }

  /** Slack's bounds on an array's length: at least `min` items, at most `max`. */
  count(v: unknown[], ptr: string, min: number, max: number): void {
    if (v.length < min) this.err(`must provide at least ${min} items`, ptr);
    if (v.length > max) this.err(`no more than ${max} items allowed`, ptr);
  }

  /** initial_option(s) must be one of the element's options, as Slack requires for static menus. */
  initialOptions(el: Obj, all: Obj[], ptr: string): void {
    const key = (o: unknown) => (isObj(o) && isObj(o.text) ? `${String(o.value)}\u0000${String(o.text.text)}` : '');
    const known = new Set(all.map(key));
    const check = (o: unknown, p: string) => {
      if (!known.has(key(o))) this.err('must match one of the options', p);
    };
    if (el.initial_option !== undefined) check(el.initial_option, `${ptr}/initial_option`);
    if (Array.isArray(el.initial_options)) {
      el.initial_options.forEach((o, i) => check(o, `${ptr}/initial_options/${i}`));
    }
  }

  element(el: unknown, ptr: string, place: ElementPlace): void {
    if (!isObj(el)) return this.err('must be an element object', ptr);
    const type = el.type;
    if (typeof type !== 'string') return this.err('missing required field', `${ptr}/type`);
    if (place === 'context') {
      if (type === 'image') return this.image(el, ptr);
      if (type === 'plain_text' || type === 'mrkdwn') return this.text(el, ptr, LIMITS.text);
      return this.err(`unsupported type ${type} for context elements`, `${ptr}/type`);
    }
    if (!ALLOWED[place].has(type)) {
      return this.err(
        `unsupported element type ${type} in ${place === 'accessory' ? 'a section accessory' : `an ${place} block`}`,
        `${ptr}/type`,
      );
    }
    if (el.action_id !== undefined) this.str(el.action_id, `${ptr}/action_id`, LIMITS.actionId, { min: 1 });
    this.confirm(el.confirm, `${ptr}/confirm`);
    if (el.placeholder !== undefined) {
      this.text(el.placeholder, `${ptr}/placeholder`, LIMITS.placeholder, { plainOnly: true });
    }
    this.elementOfType(type, el, ptr);
  }

  /** What an element of `type` must hold besides what every element may (action_id, confirm, placeholder). */
  private elementOfType(type: string, el: Obj, ptr: string): void {
    switch (type) {
      case 'button':
      case 'workflow_button':
        this.text(el.text, `${ptr}/text`, LIMITS.buttonText, { required: true, plainOnly: true });
        this.str(el.value, `${ptr}/value`, LIMITS.buttonValue);
        this.str(el.url, `${ptr}/url`, LIMITS.url);
        this.str(el.accessibility_label, `${ptr}/accessibility_label`, LIMITS.accessibilityLabel);
        if (el.style !== undefined && el.style !== 'primary' && el.style !== 'danger') {
          this.err('must be primary or danger', `${ptr}/style`);
        }
        break;
      case 'overflow':
        this.options(el.options, `${ptr}/options`, LIMITS.overflowOptionsMin, LIMITS.overflowOptionsMax, { url: true });
        break;
      case 'static_select':
      case 'multi_static_select':
        this.initialOptions(el, this.staticOptions(el, ptr), ptr);
        if (type === 'multi_static_select') this.int(el.max_selected_items, `${ptr}/max_selected_items`, 1, 1e9);
        break;
      case 'checkboxes':
      case 'radio_buttons': {
        const max = type === 'checkboxes' ? LIMITS.checkboxOptions : LIMITS.radioOptions;
        const all = this.options(el.options, `${ptr}/options`, 1, max, { mrkdwn: true });
        this.initialOptions(el, all, ptr);
        break;
      }
      case 'plain_text_input':
        this.textInput(el, ptr);
        break;
      case 'number_input':
        if (typeof el.is_decimal_allowed !== 'boolean') this.err('missing required field', `${ptr}/is_decimal_allowed`);
        break;
      case 'file_input':
        this.int(el.max_files, `${ptr}/max_files`, 1, LIMITS.fileInputMaxFiles);
        if (
          el.filetypes !== undefined &&
          !(Array.isArray(el.filetypes) && el.filetypes.every((t) => typeof t === 'string'))
        ) {
          this.err('must be an array of strings', `${ptr}/filetypes`);
        }
        break;
      case 'image':
        this.image(el, ptr);
        break;
      case 'multi_external_select':
      case 'multi_users_select':
      case 'multi_conversations_select':
      case 'multi_channels_select':
        this.int(el.max_selected_items, `${ptr}/max_selected_items`, 1, 1e9);
        break;
      default:
        break;
    }
  }

  /** A static menu's options, given flat or in groups (one of the two); all of them, for initial_option(s). */
  private staticOptions(el: Obj, ptr: string): Obj[] {
    if (el.options !== undefined && el.option_groups !== undefined) {
      this.err('only one of options or option_groups is allowed', ptr);
      return [];
    }
    if (el.options !== undefined) return this.options(el.options, `${ptr}/options`, 1, LIMITS.selectOptions);
    if (!Array.isArray(el.option_groups)) {
      this.err('must provide options or option_groups', ptr);
      return [];
    }
    this.count(el.option_groups, `${ptr}/option_groups`, 0, LIMITS.optionGroups);
    const all: Obj[] = [];
    el.option_groups.forEach((g, i) => {
      const gp = `${ptr}/option_groups/${i}`;
      if (!isObj(g)) return this.err('must be an option group', gp);
      this.text(g.label, `${gp}/label`, LIMITS.optionGroupLabel, { required: true, plainOnly: true });
      all.push(...this.options(g.options, `${gp}/options`, 1, LIMITS.selectOptions));
    });
    return all;
  }

  /** A plain_text_input's length bounds, and an initial value within them. */
  private textInput(el: Obj, ptr: string): void {
    this.int(el.min_length, `${ptr}/min_length`, 0, LIMITS.plainTextInputLength);
    this.int(el.max_length, `${ptr}/max_length`, 1, LIMITS.plainTextInputLength);
    if (typeof el.min_length === 'number' && typeof el.max_length === 'number' && el.min_length > el.max_length) {
      this.err('min_length must not be greater than max_length', `${ptr}/min_length`);
    }
    if (typeof el.initial_value === 'string' && typeof el.max_length === 'number') {
      this.str(el.initial_value, `${ptr}/initial_value`, el.max_length);
    }
  }

  image(el: Obj, ptr: string): void {
    this.str(el.alt_text, `${ptr}/alt_text`, LIMITS.imageAltText, { required: true, min: 1 });
    if (el.image_url === undefined && el.slack_file === undefined)
      this.err('must provide image_url or slack_file', ptr);
    this.str(el.image_url, `${ptr}/image_url`, LIMITS.url);
  }

  block(b: unknown, ptr: string, surface: Surface, seenBlockIds: Set<string>): void {
    if (!isObj(b)) return this.err('must be a block object', ptr);
    if (b.block_id !== undefined) {
      this.str(b.block_id, `${ptr}/block_id`, LIMITS.blockId, { min: 1 });
      if (typeof b.block_id === 'string') {
        if (seenBlockIds.has(b.block_id)) this.err(`duplicate block_id ${b.block_id}`, `${ptr}/block_id`);
        seenBlockIds.add(b.block_id);
      }
    }
    switch (b.type) {
      case 'section':
        this.section(b, ptr);
        break;
      case 'header':
        this.text(b.text, `${ptr}/text`, LIMITS.header, { required: true, plainOnly: true });
        break;
      case 'divider':
        break;
      case 'context':
        this.elements(b.elements, `${ptr}/elements`, LIMITS.contextElements, 'context');
        break;
      case 'actions':
        this.elements(b.elements, `${ptr}/elements`, LIMITS.actionsElements, 'actions');
        break;
      case 'input':
        this.text(b.label, `${ptr}/label`, LIMITS.inputLabel, { required: true, plainOnly: true });
        this.text(b.hint, `${ptr}/hint`, LIMITS.inputHint, { plainOnly: true });
        if (b.element === undefined) this.err('missing required field', `${ptr}/element`);
        else this.element(b.element, `${ptr}/element`, 'input');
        if (b.optional !== undefined && typeof b.optional !== 'boolean')
          this.err('must be a boolean', `${ptr}/optional`);
        break;
      case 'image':
        this.image(b, ptr);
        this.text(b.title, `${ptr}/title`, LIMITS.imageTitle, { plainOnly: true });
        break;
      case 'markdown':
        this.markdown(b, ptr, surface);
        break;
      case 'rich_text':
        if (!Array.isArray(b.elements)) this.err('must be an array', `${ptr}/elements`);
        break;
      case 'table':
        if (!Array.isArray(b.rows)) {
          this.err('must be an array', `${ptr}/rows`);
          break;
        }
        this.count(b.rows, `${ptr}/rows`, 0, LIMITS.tableRows);
        b.rows.forEach((r, i) => {
          if (Array.isArray(r)) this.count(r, `${ptr}/rows/${i}`, 0, LIMITS.tableCells);
        });
        break;
      case 'file':
      case 'video':
        break;
      default:
        this.err(`unsupported block type ${String(b.type)}`, `${ptr}/type`);
    }
  }

  /** A section: text or fields (at most LIMITS.sectionFields), and an accessory. */
  private section(b: Obj, ptr: string): void {
    if (b.text === undefined && b.fields === undefined) this.err('must provide either text or fields', ptr);
    this.text(b.text, `${ptr}/text`, LIMITS.text);
    if (b.fields !== undefined) {
      if (!Array.isArray(b.fields)) {
        this.err('must be an array', `${ptr}/fields`);
      } else {
        this.count(b.fields, `${ptr}/fields`, 1, LIMITS.sectionFields);
        b.fields.forEach((f, i) => this.text(f, `${ptr}/fields/${i}`, LIMITS.sectionField, { required: true }));
      }
    }
    if (b.accessory !== undefined) this.element(b.accessory, `${ptr}/accessory`, 'accessory');
  }

  /** A markdown block: in messages only, its text counted with the message's other markdown blocks. */
  private markdown(b: Obj, ptr: string, surface: Surface): void {
    this.str(b.text, `${ptr}/text`, LIMITS.markdownText, { required: true, min: 1 });
    if (typeof b.text === 'string') {
      this.markdownTotal += charLength(b.text);
      if (this.markdownTotal > LIMITS.markdownText) {
        this.err(`markdown blocks together must be less than ${LIMITS.markdownText + 1} characters`, `${ptr}/text`);
      }
    }
    if (surface !== 'message') this.err('markdown blocks are only allowed in messages', `${ptr}/type`);
  }

  elements(v: unknown, ptr: string, max: number, place: ElementPlace): void {
    if (!Array.isArray(v)) return this.err('must be an array', ptr);
    this.count(v, ptr, 1, max);
    const actionIds = new Set<string>();
    v.forEach((el, i) => {
      this.element(el, `${ptr}/${i}`, place);
      if (isObj(el) && typeof el.action_id === 'string') {
        if (actionIds.has(el.action_id)) this.err(`duplicate action_id ${el.action_id}`, `${ptr}/${i}/action_id`);
        actionIds.add(el.action_id);
      }
    });
  }

  blocks(v: unknown, ptr: string, surface: Surface): void {
    if (!Array.isArray(v)) return this.err('must be an array of blocks', ptr);
    const max = surface === 'message' ? LIMITS.messageBlocks : LIMITS.viewBlocks;
    if (v.length > max) this.err(`no more than ${max} items allowed`, ptr);
    const seen = new Set<string>();
    v.forEach((b, i) => this.block(b, `${ptr}/${i}`, surface, seen));
  }
}

/** Problems with a `blocks` array on the given surface (empty list = valid). */
export function validateBlocks(blocks: unknown, surface: Surface = 'message', pointer = '/blocks'): string[] {
  const c = new Checker();
  c.blocks(blocks, pointer, surface);
  return c.errors;
}

/** Size of a view as Slack measures it: its JSON, in UTF-8 bytes. */
export function viewByteLength(view: unknown): number {
  return Buffer.byteLength(JSON.stringify(view) ?? '', 'utf8');
}

/**
 * Problems with a modal or Home tab view (empty list = valid). `expectType` restricts the view type
 * (views.publish needs 'home'; views.open/push need 'modal'). Size is checked separately (view_too_large).
 */
export function validateView(view: unknown, expectType?: 'modal' | 'home', pointer = '/view'): string[] {
  const c = new Checker();
  if (!isObj(view)) {
    c.err('must be a view object', pointer);
    return c.errors;
  }
  if (view.type !== 'modal' && view.type !== 'home') {
    c.err('must be modal or home', `${pointer}/type`);
  } else if (expectType && view.type !== expectType) {
    c.err(`must be ${expectType}`, `${pointer}/type`);
  }
  if (view.type === 'modal') {
    c.text(view.title, `${pointer}/title`, LIMITS.modalTitle, { required: true, plainOnly: true });
    c.text(view.submit, `${pointer}/submit`, LIMITS.modalButton, { plainOnly: true });
    c.text(view.close, `${pointer}/close`, LIMITS.modalButton, { plainOnly: true });
    const hasInput = Array.isArray(view.blocks) && view.blocks.some((b) => isObj(b) && b.type === 'input');
    if (hasInput && view.submit === undefined) {
      c.err('submit is required when a view contains input blocks', `${pointer}/submit`);
    }
  }
  c.str(view.private_metadata, `${pointer}/private_metadata`, LIMITS.privateMetadata);
  c.str(view.callback_id, `${pointer}/callback_id`, LIMITS.callbackId);
  c.str(view.external_id, `${pointer}/external_id`, LIMITS.externalId);
  for (const flag of ['clear_on_close', 'notify_on_close', 'submit_disabled'] as const) {
    if (view[flag] !== undefined && typeof view[flag] !== 'boolean') c.err('must be a boolean', `${pointer}/${flag}`);
  }
  if (view.blocks === undefined) c.err('missing required field', `${pointer}/blocks`);
  else c.blocks(view.blocks, `${pointer}/blocks`, view.type === 'home' ? 'home' : 'modal');
  return c.errors;
}
