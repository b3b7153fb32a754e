import { createRequire } from 'node:module';
import type * as Max from 'libphonenumber-js/max';
import { isValidNationalNumber, normalizePhone, type CountryCode } from '../../src/contacts/index.js';
import { normalizePhoneWithoutShortcut } from '../../src/contacts/phone.js';
import { seededRandom } from '../support/seeded-random.js';

// CommonJS builds, as src/contacts/phone.ts loads them (Jest's ESM mode warns about the ESM build's JSON imports).
const require = createRequire(import.meta.url);
const { getCountries, getCountryCallingCode, parsePhoneNumberFromString } =
  require('libphonenumber-js/max') as typeof Max;
const examples = require('libphonenumber-js/mobile/examples') as Record<string, string | undefined>;

const ok = (e164: string) => ({ ok: true, e164 });
// (`why`, the reason as data, is checked against `reason` in test/unit/row-reason-text.test.ts.)
const no = (reason: string) => ({ ok: false, reason, why: expect.objectContaining({ code: expect.any(String) }) });

describe('normalizePhone: Mexican numbers as people write them', () => {
  it.each([
    ['55 1234 5678', ok('+525512345678')],
    ['(55) 1234-5678', ok('+525512345678')],
    ['55.1234.5678', ok('+525512345678')],
    ['  5512345678  ', ok('+525512345678')],
    ['33 1234 5678', ok('+523312345678')],
    ['222 123 4567', ok('+522221234567')],
    // Old prefixes, no longer in the library's metadata.
    ['044 55 1234 5678', ok('+525512345678')],
    ['045 33 1234 5678', ok('+523312345678')],
    ['01 81 1234 5678', ok('+528112345678')],
    ['01 800 123 4567', ok('+528001234567')],
    ['+52 1 55 1234 5678', ok('+525512345678')],
    ['+521 55 1234 5678', ok('+525512345678')],
    ['5215512345678', ok('+525512345678')],
    ['00 52 1 55 1234 5678', ok('+525512345678')],
    // Country code written, with or without +.
    ['+52 55 1234 5678', ok('+525512345678')],
    ['+52 (55) 1234-5678', ok('+525512345678')],
    ['52 55 1234 5678', ok('+525512345678')],
    ['0052 55 1234 5678', ok('+525512345678')],
    // Labels and URIs.
    ['tel:+52-55-1234-5678', ok('+525512345678')],
    ['Tel. 55 1234 5678', ok('+525512345678')],
    ['Cel: 55 1234 5678', ok('+525512345678')],
    // Whole numbers exported as decimals; full-width and Arabic-Indic digits.
    ['5512345678.0', ok('+525512345678')],
    ['＋52 55 1234 5678', ok('+525512345678')],
    ['٥٥١٢٣٤٥٦٧٨', ok('+525512345678')],
    // Other countries, written with their code.
    ['+1 415 555 2671', ok('+14155552671')],
    ['+44 20 7946 0958', ok('+442079460958')],
  ])('%j → %j', (raw, expected) => {
    expect(normalizePhone(raw, 'MX')).toEqual(expected);
  });

  it.each([
    ['', 'empty number'],
    ['   ', 'empty number'],
    ['N/A', 'no digits: not a phone number'],
    ['-', 'no digits: not a phone number'],
    ['123', 'too short: 3 digits; a number in Mexico has 10'],
    ['55 1234 567', 'too short: 9 digits; a number in Mexico has 10'],
    ['+52 55 1234 56789', 'too long: 11 digits; a number in Mexico has 10'],
    ['5512345678901234', 'too long: 16 digits; a number in Mexico has 10'],
    ['044 55 1234 567', 'too short: 9 digits (without the old 044 prefix); a number in Mexico has 10'],
    // A bare 1 + 10 digits may be a US number missing its +: not guessed.
    ['1 55 1234 5678', 'too long: 11 digits; a number in Mexico has 10'],
    ['+52 000 000 0000', 'not a valid number for Mexico'],
    ['+1 555 123 4567', 'not a valid number for United States (+1)'],
    ['+44 20 7946 095', 'not a valid number for United Kingdom (+44)'],
    ['+999 1234 5678', 'unknown country code'],
    ['1-800-FLOWERS', 'contains letters: write the number with digits only'],
    ['55-CALL-NOW', 'contains letters: write the number with digits only'],
    [
      '55 1234 5678 ext. 123',
      'has an extension (123): calls cannot dial extensions; remove it to call the main number',
    ],
    ['55 1234 5678 x12', 'has an extension (12): calls cannot dial extensions; remove it to call the main number'],
    [
      'tel:+52-55-1234-5678;ext=7',
      'has an extension (7): calls cannot dial extensions; remove it to call the main number',
    ],
    ['5512345678 / 5587654321', 'holds more than one number: put one number per row'],
    ['5512345678;5587654321', 'holds more than one number: put one number per row'],
    ['55 1234 5678\n55 8765 4321', 'holds more than one number: put one number per row'],
    [
      '5.51235E+09',
      'written in scientific notation, so its last digits were lost: format the column as Text (or as a number ' +
        'without decimals) in the spreadsheet and export the file again',
    ],
  ])('%j → %j', (raw, reason) => {
    expect(normalizePhone(raw, 'MX')).toEqual(no(reason));
  });
});

describe('normalizePhone: other default countries', () => {
  it.each([
    ['415 555 2671', 'US', ok('+14155552671')],
    ['(416) 555-0123', 'CA', normalizePhoneWithoutShortcut('(416) 555-0123', 'CA')],
    ['612 34 56 78', 'ES', ok('+34612345678')],
    ['300 123 4567', 'CO', ok('+573001234567')],
    ['020 7946 0958', 'GB', ok('+442079460958')],
    ['123 456 7890', 'US', no('not a valid number for United States')],
  ])('%j in %s', (raw, country, expected) => {
    expect(normalizePhone(raw, country as CountryCode)).toEqual(expected);
  });
});

describe('agreement with libphonenumber-js', () => {
  it("isValidNationalNumber answers like PhoneNumber.isValid() (max metadata), for every country's numbers", () => {
    const rand = seededRandom(1);
    const mismatches: string[] = [];
    let valid = 0;
    let checked = 0;
    for (const country of getCountries()) {
      const example = examples[country];
      if (!example) continue;
      for (let i = 0; i < 40; i++) {
        // The example with its tail randomized (mostly valid), or random digits of a nearby length (mostly not).
        const keep = i % 2 === 0 ? Math.max(1, example.length - 1 - Math.floor(rand() * 6)) : 0;
        const length = example.length + (i % 2 === 0 ? 0 : Math.floor(rand() * 5) - 2);
        let digits = example.slice(0, keep);
        while (digits.length < length) digits += Math.floor(rand() * 10);
        const parsed = parsePhoneNumberFromString(`+${getCountryCallingCode(country)}${digits}`);
        if (!parsed) continue;
        const expected = parsed.isValid();
        const plan = parsed.country ?? parsed.countryCallingCode;
        if (isValidNationalNumber(plan, parsed.nationalNumber) !== expected) mismatches.push(parsed.number);
        checked++;
        if (expected) valid++;
      }
    }
    expect(mismatches).toEqual([]);
    expect(checked).toBeGreaterThan(5000);
    expect(valid).toBeGreaterThan(2000);
  });

  it('the shortcut for plainly written numbers gives exactly what the library path gives', () => {
    const rand = seededRandom(2);
    const areas = ['55', '33', '81', '222', '442', '999', '664', '800', '900', '10', '20', '00', '1', '0'];
    const prefixes = ['', '+52 ', '+52 1 ', '+521', '52', '521', '044 ', '045', '01 ', '1 ', '+52 044 ', '00 52 ', '+'];
    const separators = [' ', '-', '.', '(', ')', ''];
    const mismatches: string[] = [];
    let accepted = 0;
    for (let i = 0; i < 8_000; i++) {
      let digits = areas[Math.floor(rand() * areas.length)]!;
      const length = 8 + Math.floor(rand() * 5);
      while (digits.length < length) digits += Math.floor(rand() * 10);
      let text = prefixes[Math.floor(rand() * prefixes.length)]!;
      for (const d of digits) text += rand() < 0.2 ? d + separators[Math.floor(rand() * separators.length)] : d;
      if (rand() < 0.05) text += '.0';
      for (const country of ['MX', 'ES', 'CO', 'DE'] as const) {
        const fast = JSON.stringify(normalizePhone(text, country));
        const slow = JSON.stringify(normalizePhoneWithoutShortcut(text, country));
        if (fast !== slow) mismatches.push(`${country} ${JSON.stringify(text)}: ${fast} vs ${slow}`);
        if (fast.startsWith('{"ok":true')) accepted++;
      }
    }
    expect(mismatches).toEqual([]);
    expect(accepted).toBeGreaterThan(4_000);
  });
});
