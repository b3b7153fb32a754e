/**
 * A read-only person's refusal is keyed by what they tried (`RefusedChange`, src/slack/middleware/change.ts), and
 * the keys are the catalog's: every key is worded in both languages' `readOnly.refused`, and the catalogs word no
 * other (besides ICU's required `other`). A key that is not one of them does not compile.
 */
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { en } from '../../src/i18n/catalog/en.js';
import { es } from '../../src/i18n/catalog/es.js';
import { translator } from '../../src/i18n/translator.js';
import { REFUSED_CHANGES, type RefusedChange } from '../../src/slack/middleware/change.js';

/** The options of the `{what, select, …}` of a message. */
function whatOptions(message: string): string[] {
  const what = parse(message).find((el: MessageFormatElement) => el.type === TYPE.select && el.value === 'what') as
    { options: Record<string, unknown> } | undefined;
  return Object.keys(what?.options ?? {}).sort();
}

describe('refusals of a read-only person', () => {
  it.each([
    ['en', en['readOnly.refused']],
    ['es', es['readOnly.refused']],
  ])('%s words exactly the keys the code may name', (_lang, message) => {
    expect(whatOptions(message)).toEqual([...REFUSED_CHANGES, 'other'].sort());
  });

  it.each(REFUSED_CHANGES)('%s is its own sentence in both languages, never the catch-all', (what) => {
    for (const t of [translator('en'), translator('es')]) {
      const sentence = t.t('readOnly.refused', { what, whoCan: '' });
      const other = t.t('readOnly.refused', { what: 'other', whoCan: '' });
      expect(sentence).not.toBe(other);
    }
  });

  it('a phrase in place of a key does not compile', () => {
    // @ts-expect-error: the refusals are keyed by type; 'upload contacts' was the phrase before.
    const wrong: RefusedChange = 'upload contacts';
    expect(REFUSED_CHANGES).not.toContain(wrong);
  });
});
