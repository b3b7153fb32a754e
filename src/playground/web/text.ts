/** Block Kit's text objects, options and the context every drawing of blocks is given. */
import type { ElementValue, Json, PageAction, PageChannel, PageFile, PageUser } from '../api.js';
import type { Child } from './dom.js';
import { withEmoji } from './emoji.js';
import { mrkdwn, type Names } from './mrkdwn.js';

/** The inputs of a view being filled in, for blocks drawn in a modal or the Home tab. */
export interface Form {
  /** The value an input holds now (kept across the app's views.update when its block and action ids stay). */
  get(blockId: string, actionId: string): ElementValue | undefined;
  set(blockId: string, actionId: string, value: ElementValue): void;
  /** The error the app put under an input block. */
  error(blockId: string): string | undefined;
  suggest(blockId: string, actionId: string, query: string): Promise<Json[]>;
  upload(file: File): Promise<PageFile>;
}

export interface BlockContext {
  names: Names;
  users: PageUser[];
  channels: PageChannel[];
  /** A button, menu or picker acted on; the view's values go with it when there is a form. */
  act(action: PageAction): Promise<void>;
  form?: Form;
}

export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function obj(value: unknown): Json | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

export function list(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter((item): item is Json => obj(item) !== undefined) : [];
}

/** A text object (plain_text or mrkdwn) as Slack draws it. */
export function textObject(value: unknown, names: Names): Child[] {
  const text = obj(value);
  if (!text) return [];
  if (text.type === 'mrkdwn') return mrkdwn(str(text.text), names, text.verbatim === true);
  return [text.emoji === false ? str(text.text) : withEmoji(str(text.text))];
}

/** A text object's words alone, for native controls (an <option>, a placeholder, an aria label). */
export function plainText(value: unknown): string {
  const text = obj(value);
  if (!text) return '';
  return text.type === 'mrkdwn' ? str(text.text) : withEmoji(str(text.text));
}

/** The options of a select, flattened from its option groups. */
export function options(element: Json): Json[] {
  const groups = list(element.option_groups);
  return groups.length ? groups.flatMap((group) => list(group.options)) : list(element.options);
}
