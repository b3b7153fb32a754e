/**
 * Where a record lives under STATE_DIR: one file per collection and key head (the text before a key's first `/`, e.g.
 * a campaign or channel id), `<dir>/collections/<collection>/<head>.json`; keys without `/` in
 * `<dir>/collections/<collection>/@keys.json` (under `collections/` so that whatever else lives in STATE_DIR, e.g. the
 * old STATE_FILE or lost+found, is no concern of the store). Names are made safe by encoding every byte outside
 * [A-Za-z0-9_-] as %XX (very long ones are shortened with a hash), so no key can reach outside the directory.
 */
import { createHash } from 'node:crypto';

/** The directory of STATE_DIR that holds the collections' directories. */
export const COLLECTIONS_DIR = 'collections';
const NO_HEAD = '@keys';

/** A file-name-safe form of any text: bytes outside [A-Za-z0-9_-] as %XX; '%' alone for the empty text. */
export function safeName(text: string): string {
  if (text === '') return '%';
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9_-]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  // File names are limited to 255 bytes: a long one keeps its start and gets a hash ('~' is never produced above).
  if (out.length > 180) out = `${out.slice(0, 140)}~${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
  return out;
}

/** The name (without .json) of the file a key lives in. */
export function fileStem(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? NO_HEAD : safeName(key.slice(0, slash));
}
