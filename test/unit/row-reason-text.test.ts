/**
 * Why a row was not added, in both languages (src/slack/upload/row-reason-text.ts): every reason code the contacts
 * pipeline gives has an English and a Spanish sentence, and the English one equals the pipeline's own `reason`.
 */
import { normalizeRows, type HeaderMapping, type RejectedRow, type Row } from '../../src/contacts/index.js';
import { rejectionKind, type RowReasonCode } from '../../src/contacts/rejections.js';
import { translator } from '../../src/i18n/translator.js';
import { localizedReportRow, rowReasonText } from '../../src/slack/upload/row-reason-text.js';

const en = translator('en');
const es = translator('es');

const ALL_CODES: Record<RowReasonCode, true> = {
  emptyNumber: true,
  noDigits: true,
  severalNumbers: true,
  scientific: true,
  letters: true,
  unknownCountryCode: true,
  shortUnparsed: true,
  longUnparsed: true,
  notPhone: true,
  extension: true,
  tooShort: true,
  tooLong: true,
  invalidForCountry: true,
  cellTooLong: true,
  rowTooLong: true,
  beyondHeader: true,
  phoneTooLong: true,
  duplicate: true,
};

const mapping: HeaderMapping = { ok: true, phone: 'Teléfono', extra: ['Notas'] };
const PHONES = [
  '',
  'n/a',
  '5512345678, 5587654321',
  '5.51234E+09',
  '55 1234 abcd',
  '+999 1234567',
  '+52 5',
  '+52 55 1234 5678 9999 9999 9999',
  '#',
  '*55 1234 5678',
  '55 1234 5678 ext. 12',
  '551234',
  '55123456789',
  '+52 1 55 123',
  '+52 1 55 1234 56789',
  '+1 415 555 267',
  '+1 999 555 2671',
  '0000000000',
  '5512345678',
  '55 1234 5678',
  '9'.repeat(120),
];

async function rejected(): Promise<RejectedRow[]> {
  const rows: Row[] = PHONES.map((p, i) => ({ rowNumber: i + 2, cells: { Teléfono: p, Notas: '' } }));
  rows.push({
    rowNumber: 100,
    cells: { Teléfono: '5511112222', Notas: 'x' },
    tooLong: { column: 'Notas', chars: 12000, max: 5000 },
  });
  rows.push({ rowNumber: 101, cells: { Teléfono: '5511113333', Notas: 'x' }, tooLong: { chars: 25000, max: 20000 } });
  rows.push({ rowNumber: 102, cells: { Teléfono: '5511114444', Notas: 'x' }, extra: ['a', 'b'] });
  const out: RejectedRow[] = [];
  for await (const r of normalizeRows(rows, mapping, { defaultCountry: 'MX' })) if (r.kind === 'rejected') out.push(r);
  return out;
}

describe('failed-row reasons', () => {
  it('English equals the reason the pipeline wrote, for every code; Spanish differs', async () => {
    const rows = await rejected();
    const seen = new Set<RowReasonCode>();
    for (const r of rows) {
      seen.add(r.why.code);
      expect(rowReasonText(r.why, en)).toBe(r.reason);
      expect(rowReasonText(r.why, es)).not.toBe(r.reason);
      expect(rowReasonText(r.why, es)).not.toMatch(/undefined/);
    }
    expect([...seen].sort()).toEqual(Object.keys(ALL_CODES).sort());
  });

  it('a Spanish CSV row reason names the country in Spanish', async () => {
    const rows = await rejected();
    const short = rows.find((r) => r.original === '551234')!;
    expect(localizedReportRow(short, es)).toEqual({
      ...short,
      reason: 'demasiado corto: 6 dígitos; un número de México tiene 10',
    });
    const dup = rows.find((r) => r.why.code === 'duplicate')!;
    expect(rowReasonText(dup.why, es)).toBe('repetido de la fila 20 (mismo número +525512345678)');
    const cell = rows.find((r) => r.why.code === 'cellTooLong')!;
    expect(rowReasonText(cell.why, es)).toBe(
      'el valor de la columna "Notas" tiene 12,000 caracteres; una celda puede tener como máximo 5,000: acórtalo',
    );
  });

  it('rows are counted by kind from their code, as from their English text', async () => {
    for (const r of await rejected()) {
      const { why: _why, ...textOnly } = r;
      expect(rejectionKind(r)).toBe(rejectionKind(textOnly));
    }
  });

  it('a row spooled before reasons had codes keeps its English reason', () => {
    const old = { rowNumber: 3, original: 'x', reason: 'not a phone number' };
    expect(localizedReportRow(old, es)).toBe(old);
  });
});
