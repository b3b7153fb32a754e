/**
 * The message catalogs (src/i18n/catalog) stay whole and in use:
 *
 * - English and Spanish have exactly the same keys (es.ts is also typed so; this catches a cast or a spread);
 * - every message parses as ICU MessageFormat, formats in its language, and the Spanish one takes the same
 *   placeholders as the English one (a dropped `{filter}` would silently lose what the person filtered by);
 * - no message holds a raw `<` (mrkdwn: write `&lt;`), so a catalog line can never become a mention or a link;
 * - every key is used: THE RULE is that code names a key as one whole string literal (`'campaignList.header'`),
 *   never built from parts (`` `status.campaign.${s}` ``): map values to keys with a `Record<Value, MessageKey>`.
 *   That keeps every use findable, so this test can scan src/ for each key in quotes and fail on a key nothing
 *   uses (delete it from both catalogs).
 */
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { en } from '../../src/i18n/catalog/en.js';
import { es } from '../../src/i18n/catalog/es.js';
import { translator, type MessageKey } from '../../src/i18n/translator.js';

const CATALOGS = { en, es } as Record<string, Record<string, string>>;

/** The names of a message's placeholders, with the kind of each (argument, plural, select, number, date). */
function placeholders(elements: MessageFormatElement[], out = new Map<string, string>()): Map<string, string> {
  for (const el of elements) {
    if (el.type === TYPE.literal || el.type === TYPE.pound || el.type === TYPE.tag) continue;
    out.set(el.value, TYPE[el.type]);
    if (el.type === TYPE.plural || el.type === TYPE.select) {
      for (const option of Object.values(el.options)) placeholders(option.value, out);
    }
  }
  return out;
}

/** A value of the right kind for every placeholder, to format each message once. */
function sampleValues(kinds: Map<string, string>): Record<string, string | number> {
  const values: Record<string, string | number> = {};
  for (const [name, kind] of kinds) values[name] = kind === 'plural' || kind === 'number' ? 2 : 'x';
  return values;
}

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sourceFiles(path)));
    else if (entry.name.endsWith('.ts')) out.push(path);
  }
  return out;
}

describe('message catalogs', () => {
  it('English and Spanish have the same keys', () => {
    const missingInEs = Object.keys(en).filter((k) => !(k in es));
    const extraInEs = Object.keys(es).filter((k) => !(k in en));
    expect({ missingInEs, extraInEs }).toEqual({ missingInEs: [], extraInEs: [] });
  });

  it.each(Object.keys(CATALOGS))('every %s message parses, formats and holds no raw <', (locale) => {
    const t = translator(locale as 'en' | 'es');
    for (const [key, message] of Object.entries(CATALOGS[locale]!)) {
      const kinds = placeholders(parse(message, { ignoreTag: true }));
      expect(() => t.t(key as MessageKey, sampleValues(kinds))).not.toThrow();
      if (message.includes('<')) throw new Error(`${locale} ${key} holds a raw "<": write &lt;`);
    }
  });

  it('each Spanish message takes the same placeholders as the English one', () => {
    const differ: string[] = [];
    for (const key of Object.keys(en) as MessageKey[]) {
      // Names only: a language may need a plural where the other formats a number.
      const a = [...placeholders(parse(en[key], { ignoreTag: true })).keys()].sort().join();
      const b = [...placeholders(parse(es[key], { ignoreTag: true })).keys()].sort().join();
      if (a !== b) differ.push(`${key}: en {${a}} es {${b}}`);
    }
    expect(differ).toEqual([]);
  });

  it('every key is used in src/ (written whole, in quotes)', async () => {
    const root = join(process.cwd(), 'src');
    const files = (await sourceFiles(root)).filter((f) => !f.includes(join('src', 'i18n', 'catalog')));
    const source = (await Promise.all(files.map((f) => readFile(f, 'utf8')))).join('\n');
    const unused = Object.keys(en).filter((k) => !source.includes(`'${k}'`) && !source.includes(`"${k}"`));
    expect(unused).toEqual([]);
  });

  it('the scan would notice a key nothing uses', async () => {
    // Guards the test above against a scan that finds everything (e.g. one that read the catalogs themselves).
    const root = join(process.cwd(), 'src');
    const files = (await sourceFiles(root)).filter((f) => !f.includes(join('src', 'i18n', 'catalog')));
    const source = (await Promise.all(files.map((f) => readFile(f, 'utf8')))).join('\n');
    expect(source.includes(`'campaignList.header'`)).toBe(true);
    expect(source.includes(`'no.such.key'`)).toBe(false);
  });
});
