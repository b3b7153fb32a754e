/**
 * Catalog messages as mrkdwn: `tmd(t, key, values)` is what `md` is for our own English, for every language. The
 * message is ours (trusted mrkdwn from src/i18n/catalog); each text value is escaped (`escapeMrkdwn`), except a
 * `raw(...)` one (mrkdwn we built: a mention, another `tmd`); numbers and dates go to the message's formatter.
 * Plain text (headers, button labels, dialog titles) takes `t.t(key)` directly: nothing from outside goes there.
 */
import type { MessageKey, MessageValue, Translator } from '../i18n/translator.js';
import { escapeMrkdwn, RawMrkdwn } from './mrkdwn.js';

export type MrkdwnValues = Readonly<Record<string, MessageValue | RawMrkdwn>>;

export function tmd(t: Translator, key: MessageKey, values: MrkdwnValues = {}): string {
  const safe: Record<string, MessageValue> = {};
  for (const [k, v] of Object.entries(values)) {
    safe[k] = v instanceof RawMrkdwn ? v.value : typeof v === 'string' ? escapeMrkdwn(v) : v;
  }
  return t.t(key, safe);
}
