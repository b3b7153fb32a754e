/**
 * Escaping, truncation and small block constructors that keep every message inside Block Kit's limits
 * (docs/slack-platform-notes.md §1, §7). Slack rejects a whole message (`invalid_blocks`) for one
 * oversize field, so every builder goes through these helpers instead of writing raw objects.
 *
 * Rule: text from outside (service data, files, people) enters mrkdwn only through `escapeMrkdwn` — most simply via
 * the `md` template tag, which escapes every interpolated value unless it is wrapped in `raw()`. Escaping also removes
 * invisible characters (bidi controls, zero-width characters: `stripInvisible`). A name or label from outside (a
 * contact, an end user, a campaign, a file, a tag, a key) goes through `cleanLabel` first, so it stays one line
 * and cannot make its surroundings bold, italic, struck or code.
 */
import type {
  ActionsBlock,
  Button,
  ConfirmationDialog,
  ContextBlock,
  DividerBlock,
  HeaderBlock,
  InputBlock,
  KnownBlock,
  MrkdwnElement,
  PlainTextElement,
  SectionBlock,
} from './types.js';

/** Block Kit limits we build against. Where sources conflict the safer value is used. */
export const LIMITS = {
  messageBlocks: 50,
  viewBlocks: 100,
  text: 3000,
  sectionText: 3000,
  sectionFields: 10,
  field: 2000,
  header: 150,
  contextElements: 10,
  actionsElements: 25,
  buttonText: 75,
  buttonValue: 2000,
  actionId: 255,
  overflowOptions: 5,
  optionText: 75,
  /** docs say 150, the @slack/types JSDoc says 75: we keep to 75. */
  optionValue: 75,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  /** Top-level `text`: chat.update rejects more than 4,000; we keep well under. */
  fallbackText: 3000,
} as const;

/** The default note appended where text was cut. */
export const CUT_NOTE = '… _(shortened to fit Slack)_';

/**
 * Invisible characters that text from outside may carry to disguise itself: bidi controls (U+202E shows
 * "invoice<U+202E>fdp.exe" as "invoiceexe.pdf"), zero-width and other format characters, Hangul fillers (names that
 * look blank), tag characters and variation selectors (hidden text), and C0/C1 control characters. Tab and newline
 * stay.
 * An emoji flag's tag sequence (🏴 + tags) is kept whole; ZWJ and ZWNJ are kept between two non-ASCII letters, marks
 * or emoji, where scripts and emoji sequences need them.
 */
const INVISIBLE =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class -- matching these characters is the point
  /(\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F})|[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB\u{1D173}-\u{1D17A}\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/gu;
const JOINABLE = /^[\p{L}\p{M}\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F]$/u;

function charBefore(s: string, i: number): string {
  const low = s.charCodeAt(i - 1);
  return low >= 0xdc00 && low <= 0xdfff && i >= 2 ? s.slice(i - 2, i) : s.slice(i - 1, i);
}

function charAfter(s: string, i: number): string {
  const cp = s.codePointAt(i);
  return cp === undefined ? '' : String.fromCodePoint(cp);
}

/** A joiner is kept only between two non-ASCII letters, marks or emoji (Persian, Indic scripts, emoji sequences). */
function joins(s: string, at: number, length: number): boolean {
  const before = charBefore(s, at);
  const after = charAfter(s, at + length);
  return [before, after].every((c) => c !== '' && c.charCodeAt(0) > 0x7f && JOINABLE.test(c));
}

/** Removes invisible characters (see INVISIBLE); line breaks become `\n`. Plain text in, plain text out. */
export function stripInvisible(s: string): string {
  return s
    .replace(/\r\n?|[\u0085\u2028\u2029]/g, '\n')
    .replace(INVISIBLE, (m: string, flag: string | undefined, at: number, all: string) =>
      flag !== undefined || ((m === '\u200C' || m === '\u200D') && joins(all, at, m.length)) ? m : '',
    );
}

/** Look-alikes for mrkdwn's formatting characters: shown the same, formatting nothing. */
const FORMATTING_LOOKALIKE: Record<string, string> = { '*': '∗', _: 'ˍ', '~': '∼', '`': 'ˋ' };
const WORD_CHAR = /^[\p{L}\p{N}]$/u;

/** Text from outside as one line: invisible characters removed, every run of whitespace (newlines too) one space. */
export function oneLine(s: string): string {
  return stripInvisible(s).replace(/\s+/g, ' ').trim();
}

/**
 * A name or label from outside, made safe to put inside our own mrkdwn (still to be escaped: use it through `md`):
 * one line (`oneLine`), and the formatting characters that could open or close bold, italic, strike or code
 * replaced by look-alikes (`*` → `∗`, `_` → `ˍ`, `~` → `∼`, `` ` `` → `ˋ`). One inside a word (`john_doe`, `a*b`)
 * formats nothing in Slack and is kept. A leading `>` (a quote at the start of a line) becomes `›`. Cut to `max`
 * characters when given.
 */
export function cleanLabel(s: string, max?: number): string {
  let t = oneLine(s).replace(/[*_~`]/g, (c: string, at: number, all: string) => {
    const inWord = c !== '`' && WORD_CHAR.test(charBefore(all, at)) && WORD_CHAR.test(charAfter(all, at + 1));
    return inWord ? c : (FORMATTING_LOOKALIKE[c] ?? c);
  });
  if (t.startsWith('>')) t = `›${t.slice(1)}`;
  return max === undefined ? t : truncate(t, max);
}

/**
 * Escapes the three characters Slack treats as control characters in mrkdwn (and nothing else that shows), after
 * removing invisible characters (`stripInvisible`).
 */
export function escapeMrkdwn(s: string): string {
  return stripInvisible(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A string that is already safe mrkdwn (built by us); `md` inserts it as is. */
export class RawMrkdwn {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** Marks mrkdwn we built ourselves (already escaped) so `md` does not escape it again. */
export function raw(s: string): RawMrkdwn {
  return new RawMrkdwn(s);
}

/**
 * Template tag for mrkdwn: literal parts are ours, every interpolated value is escaped unless it is `raw(...)`.
 * `null`/`undefined` render as an empty string. Numbers are not formatted: format them first (format.ts).
 *
 * Caution: Prettier formats a template tagged `md` *without* interpolations as Markdown (rewriting `*x*` to `_x_`
 * and adding line breaks). Use a plain string when there is nothing to interpolate.
 */
export function md(strings: TemplateStringsArray, ...values: unknown[]): string {
  let out = strings[0] ?? '';
  values.forEach((v, i) => {
    out += v instanceof RawMrkdwn ? v.value : v === null || v === undefined ? '' : escapeMrkdwn(String(v));
    out += strings[i + 1] ?? '';
  });
  return out;
}

/** Cut position that does not split a UTF-16 surrogate pair. */
function safeCut(s: string, at: number): number {
  if (at <= 0) return 0;
  const code = s.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
}

/**
 * Cuts plain text to at most `max` characters (UTF-16 units, which over-count Slack's characters, so it is safe),
 * ending with `note` when cut.
 */
export function truncate(s: string, max: number, note = '…'): string {
  if (s.length <= max) return s;
  if (note.length >= max) return note.slice(0, Math.max(0, max));
  return s.slice(0, safeCut(s, max - note.length)) + note;
}

/**
 * Cuts mrkdwn (already escaped) to at most `max` characters without splitting an entity (`&amp;`) or a `<…>`
 * sequence we wrote (a mention), ending with `note` (itself mrkdwn) when cut.
 */
export function truncateMrkdwn(s: string, max: number, note = CUT_NOTE): string {
  if (s.length <= max) return s;
  if (note.length >= max) return truncate(note, max);
  let cut = safeCut(s, max - note.length);
  // An entity is at most 5 characters (`&amp;`); a cut inside one would show a stray `&am`.
  const amp = s.lastIndexOf('&', cut - 1);
  if (amp >= 0 && cut - amp < 5 && !s.slice(amp, cut).includes(';')) cut = amp;
  // A `<…>` sequence cut open would show as literal text.
  const lt = s.lastIndexOf('<', cut - 1);
  if (lt >= 0 && !s.slice(lt, cut).includes('>')) cut = lt;
  return s.slice(0, cut) + note;
}

/** A plain_text object that Slack accepts: never empty or blank, at most `max` characters. For our own labels. */
export function plainText(s: string, max: number = LIMITS.text, fallback = '—'): PlainTextElement {
  const visible = stripInvisible(s);
  const text = visible.trim() === '' ? fallback : visible;
  return { type: 'plain_text', text: truncate(text, max), emoji: true };
}

/**
 * The text of a plain_text object that shows a name from outside (an option, an option group's label): cleaned like
 * every name (`cleanLabel`, so it reads the same as in messages), escaped like mrkdwn (Slack reads the same three
 * entities in plain_text; whether plain_text could ever mention someone is not documented, so `<` never gets there
 * raw), cut to `max` without splitting an entity.
 */
export function plainLabel(s: string, max: number): string {
  return truncateMrkdwn(escapeMrkdwn(cleanLabel(s)), max, '…');
}

/** A mrkdwn text object (text already escaped), never empty, cut to `max` with a note. */
export function mrkdwnText(text: string, max: number = LIMITS.text, note = CUT_NOTE): MrkdwnElement {
  return { type: 'mrkdwn', text: truncateMrkdwn(text.trim() === '' ? '—' : text, max, note) };
}

/** A section with mrkdwn text (already escaped), cut to 3,000 characters with a note. */
export function mrkdwnSection(text: string, note = CUT_NOTE): SectionBlock {
  return { type: 'section', text: mrkdwnText(text, LIMITS.sectionText, note) };
}

/**
 * Sections of two-column fields (mrkdwn, already escaped), 10 fields per section, each cut to 2,000 characters.
 * Returns no block when `fields` is empty.
 */
export function fieldSections(fields: string[]): SectionBlock[] {
  const out: SectionBlock[] = [];
  for (let i = 0; i < fields.length; i += LIMITS.sectionFields) {
    out.push({
      type: 'section',
      fields: fields.slice(i, i + LIMITS.sectionFields).map((f) => mrkdwnText(f, LIMITS.field)),
    });
  }
  return out;
}

/** A header block (plain text, 150 characters). Use for our own words only: outside text belongs in mrkdwn. */
export function header(text: string): HeaderBlock {
  return { type: 'header', text: plainText(text, LIMITS.header) };
}

/** A context block of mrkdwn texts (already escaped); at most 10 elements are kept. */
export function context(...texts: string[]): ContextBlock {
  const elements = texts.filter((t) => t.trim() !== '').slice(0, LIMITS.contextElements);
  return { type: 'context', elements: (elements.length ? elements : ['—']).map((t) => mrkdwnText(t)) };
}

export function divider(): DividerBlock {
  return { type: 'divider' };
}

export interface InputSpec {
  blockId: string;
  /** Our own words (plain text, 2,000 characters), as the hint. */
  label: string;
  hint?: string;
  /** Written out when given (Slack's default is required). */
  optional?: boolean;
  /** The element's choices rebuild the view (block_actions on each change). */
  dispatch?: boolean;
  element: InputBlock['element'];
}

/** An input block of a modal: its label (and hint) above and below `element`. */
export function inputBlock(spec: InputSpec): InputBlock {
  return {
    type: 'input',
    block_id: spec.blockId,
    ...(spec.optional !== undefined ? { optional: spec.optional } : {}),
    label: plainText(spec.label, 2000),
    ...(spec.hint ? { hint: plainText(spec.hint, 2000) } : {}),
    element: spec.element,
    ...(spec.dispatch ? { dispatch_action: true } : {}),
  };
}

export interface ConfirmSpec {
  /** Our words (plain text), cut to 100. */
  title: string;
  /** mrkdwn, already escaped, cut to 300. */
  text: string;
  confirm: string;
  deny?: string;
  danger?: boolean;
}

/** A confirmation dialog within its limits. */
export function confirmDialog(spec: ConfirmSpec): ConfirmationDialog {
  const dialog: ConfirmationDialog = {
    title: plainText(spec.title, LIMITS.confirmTitle),
    text: mrkdwnText(spec.text, LIMITS.confirmText, '…'),
    confirm: plainText(spec.confirm, LIMITS.confirmButton),
    deny: plainText(spec.deny ?? 'Cancel', LIMITS.confirmButton),
  };
  if (spec.danger) dialog.style = 'danger';
  return dialog;
}

export interface ButtonSpec {
  /** Our label, plain text, cut to 75. */
  text: string;
  actionId: string;
  value?: string;
  style?: 'primary' | 'danger';
  confirm?: ConfirmationDialog;
  accessibilityLabel?: string;
}

/**
 * A button. Values longer than 2,000 characters are a programming error (Slack would reject the whole message), so
 * this throws; builders whose values can grow (cursors) check with `fitsButtonValue` first.
 */
export function button(spec: ButtonSpec): Button {
  if (spec.actionId.length > LIMITS.actionId) throw new Error(`action_id too long: ${spec.actionId.slice(0, 40)}…`);
  if (spec.value !== undefined && !fitsButtonValue(spec.value)) {
    throw new Error(`button value of ${spec.actionId} is ${spec.value.length} characters (max ${LIMITS.buttonValue})`);
  }
  const b: Button = { type: 'button', text: plainText(spec.text, LIMITS.buttonText), action_id: spec.actionId };
  if (spec.value !== undefined) b.value = spec.value;
  if (spec.style) b.style = spec.style;
  if (spec.confirm) b.confirm = spec.confirm;
  if (spec.accessibilityLabel) b.accessibility_label = truncate(spec.accessibilityLabel, LIMITS.buttonText);
  return b;
}

export function fitsButtonValue(value: string): boolean {
  return value.length <= LIMITS.buttonValue;
}

/**
 * An actions block of buttons, selects or overflow menus; throws past 25 elements or on a repeated action_id (Slack
 * rejects both).
 */
export function actions(elements: ActionsBlock['elements'], blockId?: string): ActionsBlock {
  if (elements.length > LIMITS.actionsElements) throw new Error(`${elements.length} elements in one actions block`);
  const ids = new Set<string>();
  for (const e of elements) {
    if (e.action_id && ids.has(e.action_id)) throw new Error(`duplicate action_id ${e.action_id} in one block`);
    if (e.action_id) ids.add(e.action_id);
  }
  return { type: 'actions', ...(blockId ? { block_id: blockId } : {}), elements };
}

/**
 * Keeps at most `max` blocks: when there are more, the first `max - 1` are kept and a context block
 * `moreText(n)` (mrkdwn, n = blocks left out) closes the list.
 */
export function fitBlocks(blocks: KnownBlock[], max: number, moreText: (n: number) => string): KnownBlock[] {
  if (blocks.length <= max) return blocks;
  const kept = blocks.slice(0, Math.max(0, max - 1));
  return [...kept, context(moreText(blocks.length - kept.length))];
}

export interface GroupLayout {
  /** Blocks always shown first (header, summary). */
  head: KnownBlock[];
  /** One group of blocks per item (a campaign, a contact); a group is kept or dropped whole. */
  groups: KnownBlock[][];
  /** Blocks always shown last (page buttons). */
  tail: KnownBlock[];
  max: number;
  /** mrkdwn of the note replacing the dropped groups; n = items left out. */
  moreText: (n: number) => string;
}

/** head + as many whole groups as fit + (note when some were left out) + tail, within `max` blocks. */
export function fitGroups({ head, groups, tail, max, moreText }: GroupLayout): KnownBlock[] {
  const all = groups.reduce((n, g) => n + g.length, 0);
  if (head.length + all + tail.length <= max) return [...head, ...groups.flat(), ...tail];
  const room = max - head.length - tail.length - 1;
  const kept: KnownBlock[] = [];
  let count = 0;
  for (const g of groups) {
    if (kept.length + g.length > room) break;
    kept.push(...g);
    count++;
  }
  return [...head, ...kept, context(moreText(groups.length - count)), ...tail];
}

/** Fallback `text` of a message: escaped by the caller, cut to the fallback limit. */
export function fallback(text: string): string {
  return truncateMrkdwn(text, LIMITS.fallbackText, '…');
}
