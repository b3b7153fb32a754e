import { createReadStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  FileFormatError,
  mapHeaders,
  normalizeRows,
  openContactFile,
  type HeaderMapping,
  type NormalizedRow,
  type Row,
} from '../../src/contacts/index.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'contacts');

async function normalizeFixture(name: string): Promise<NormalizedRow[]> {
  const file = await openContactFile(createReadStream(join(fixtures, name)), { fileName: name, defaultCountry: 'MX' });
  const out: NormalizedRow[] = [];
  for await (const r of file.rows) out.push(r);
  return out;
}

const contact = (rowNumber: number, c: Record<string, unknown>) => ({ kind: 'contact', rowNumber, contact: c });
const rejected = (rowNumber: number, original: string, reason: string) => ({
  kind: 'rejected',
  rowNumber,
  original,
  reason,
  // (`why`, the reason as data, is checked against `reason` in test/unit/row-reason-text.test.ts.)
  why: expect.objectContaining({ code: expect.any(String) }),
});

describe('normalizeRows over the fixtures', () => {
  it('mexican-formats.csv: every local format, with invalid, empty and repeated numbers reported per row', async () => {
    expect(await normalizeFixture('mexican-formats.csv')).toEqual([
      contact(2, {
        contact: '+525512345678',
        name: 'Ana',
        context: 'Renovación',
        f_id: 'F1',
        extracted_data: { Sucursal: 'Centro' },
      }),
      contact(3, { contact: '+525512345679', name: 'Beto', f_id: 'F2', extracted_data: { Sucursal: 'Norte' } }),
      contact(4, { contact: '+525512345680', name: 'Carla', f_id: 'F3' }),
      contact(5, { contact: '+523312345678', name: 'Dario', f_id: 'F4' }),
      contact(6, { contact: '+528112345678', name: 'Elena', f_id: 'F5' }),
      contact(7, { contact: '+525512345681', name: 'Fer', f_id: 'F6' }),
      contact(8, { contact: '+525512345682', name: 'Gabo', f_id: 'F7' }),
      contact(9, { contact: '+525512345683', name: 'Hugo', f_id: 'F8' }),
      contact(10, { contact: '+525512345684', name: 'Iris', f_id: 'F9' }),
      rejected(11, '', 'empty number'),
      rejected(12, '55 1234 567', 'too short: 9 digits; a number in Mexico has 10'),
      rejected(13, '55 1234 5678', 'duplicate of row 2 (same number +525512345678)'),
      rejected(14, '+525512345679', 'duplicate of row 3 (same number +525512345679)'),
      rejected(
        15,
        '55 1234 5678 ext. 12',
        'has an extension (12): calls cannot dial extensions; remove it to call the main number',
      ),
      rejected(16, '55-CALL-NOW', 'contains letters: write the number with digits only'),
      rejected(
        17,
        '5.51235E+09',
        'written in scientific notation, so its last digits were lost: format the column as Text (or as a number ' +
          'without decimals) in the spreadsheet and export the file again',
      ),
      rejected(18, 'N/A', 'no digits: not a phone number'),
      contact(19, { contact: '+14155552671', name: 'Rosa', f_id: 'F18' }),
      rejected(20, '5512345690, 5512345691', 'holds more than one number: put one number per row'),
      contact(21, { contact: '+525512345692', name: 'Toño', f_id: 'F20' }),
      rejected(22, '+52 000 000 0000', 'not a valid number for Mexico'),
    ]);
  });

  it('numbers-two-sheets.xlsx: numbers as phones, other columns as extracted_data, a value without header', async () => {
    expect(await normalizeFixture('numbers-two-sheets.xlsx')).toEqual([
      contact(2, {
        contact: '+525512345678',
        name: 'Ana López',
        f_id: 'F-2',
        extracted_data: {
          'Fecha de alta': '2024-03-05',
          Activo: 'TRUE',
          Cita: '2024-03-05T14:30:00',
          'Teléfono 2': '5512345679',
          Correo: 'ana@example.com',
          Saldo: '1234.5',
        },
      }),
      contact(3, {
        contact: '+525587654321',
        name: 'Luis',
        f_id: 'F-3',
        extracted_data: { Activo: 'FALSE', 'Teléfono 2': '#N/A', Saldo: '0.1' },
      }),
      contact(5, { contact: '+523312345678', name: 'María', extracted_data: { Saldo: '0.0000001' } }),
      rejected(
        6,
        '8112345678',
        'has values beyond the 9 columns of the header ("nota sin encabezado"): a value probably contains the ' +
          'delimiter without quotes, or a column has no header',
      ),
    ]);
  });

  it('misaligned.csv: a row shifted by an unquoted comma is rejected, not sent with wrong data', async () => {
    expect(await normalizeFixture('misaligned.csv')).toEqual([
      rejected(
        2,
        'Juan',
        'has values beyond the 3 columns of the header ("ok"): a value probably contains the delimiter without ' +
          'quotes, or a column has no header',
      ),
      contact(3, { contact: '+525587654321', name: 'Ana' }),
      contact(4, { contact: '+523312345678', name: 'Luis', context: 'fine' }),
    ]);
  });

  it.each([
    [
      'utf8-bom-comma.csv',
      [
        contact(2, { contact: '+525512345678', name: 'Ana López', context: 'Cliente nuevo', f_id: 'F-001' }),
        contact(3, { contact: '+523312345678', name: 'José Núñez', f_id: 'F-002' }),
        contact(4, { contact: '+528112345678', name: 'Pérez, Juan', context: 'Prefiere "WhatsApp"', f_id: 'F-003' }),
      ],
    ],
    [
      'semicolon.csv',
      [
        contact(2, {
          contact: '+525512345678',
          name: 'Pérez, Juan',
          context: 'Llamar después de las 5, no antes',
          extracted_data: { Monto: '1,5' },
        }),
        contact(3, {
          contact: '+525523456789',
          name: 'García, María',
          context: 'Sin notas',
          extracted_data: { Monto: '2,75' },
        }),
      ],
    ],
    [
      'tab.tsv',
      [
        contact(2, { contact: '+525512345678', name: 'Ana', context: 'first, call', f_id: 'A-1' }),
        contact(3, { contact: '+523312345678', name: 'Luis', f_id: 'A-2' }),
      ],
    ],
    [
      'pipe.txt',
      [
        contact(2, { contact: '+525512345678', name: 'Ana', context: 'Renovación' }),
        contact(3, { contact: '+523312345678', name: 'Luis', context: 'Alta nueva' }),
      ],
    ],
    [
      'spanish-headers.csv',
      [
        contact(2, {
          contact: '+525512345678',
          name: 'Ana López',
          context: 'Renovar póliza',
          extracted_data: { 'Correo electrónico': 'ana@example.com', Ciudad: 'CDMX', 'Teléfono 2': '33 1111 2222' },
        }),
        contact(3, { contact: '+525587654321', name: 'Luis Peña', extracted_data: { Ciudad: 'Guadalajara' } }),
      ],
    ],
    [
      'windows-1252.csv',
      [
        contact(2, { contact: '+525512345678', name: 'Muñoz Peña', context: '“Cliente preferente”' }),
        contact(3, { contact: '+525587654321', name: 'Ramón', context: 'Café' }),
      ],
    ],
    ['utf16le.txt', [contact(2, { contact: '+525512345678', name: 'Ángel' })]],
    [
      'multiline-quoted.csv',
      [
        contact(2, { contact: '+525512345678', name: 'Ana\r\nLópez', context: 'Línea 1\nLínea 2, con coma' }),
        contact(3, { contact: '+525587654321', name: 'Luis', context: 'Dijo "sí"' }),
        contact(4, { contact: '+523312345678', name: 'María', context: 'Tres\n\nlíneas' }),
        contact(5, { contact: '+528112345678', name: 'Pedro', context: 'fin' }),
      ],
    ],
    [
      'blank-lines.csv',
      [
        contact(4, { contact: '+525512345678', name: 'Ana' }),
        contact(8, { contact: '+525587654321', name: 'Luis' }),
        contact(10, { contact: '+523312345678', name: 'María' }),
      ],
    ],
    ['single-column.csv', [contact(2, { contact: '+525512345678' }), contact(3, { contact: '+523312345678' })]],
    ['hidden-first-sheet.xlsx', [contact(2, { contact: '+525512345678', name: 'Visible' })]],
    [
      'strings-first.xlsx',
      [contact(2, { contact: '+525512345678', name: 'Ana' }), contact(3, { contact: '+523312345678', name: 'Luis' })],
    ],
  ])('%s', async (name, expected) => {
    expect(await normalizeFixture(name)).toEqual(expected);
  });

  it('no-phone-column.csv is refused, listing the columns found', async () => {
    const err = await normalizeFixture('no-phone-column.csv').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileFormatError);
    expect(err).toMatchObject({
      code: 'NO_PHONE_COLUMN',
      message:
        '"no-phone-column.csv": No phone column found. Columns in the file: "Nombre", "Correo", "Ciudad". Name the ' +
        'column with the phone numbers "Teléfono", "Celular", "WhatsApp" or "Phone" (the first row must be the ' +
        'header row).',
    });
  });
});

describe('normalizeRows', () => {
  const mapping = mapHeaders(['Tel', 'Nombre', 'Notas', 'ID', 'Ciudad', 'Plan']) as HeaderMapping;
  const row = (rowNumber: number, cells: Record<string, string>): Row => ({ rowNumber, cells });

  it('trims values, leaves out empty optional fields and empty extracted values', async () => {
    const rows = [
      row(2, { Tel: ' 5512345678 ', Nombre: '  Ana ', Notas: ' ', ID: '', Ciudad: ' CDMX ', Plan: '' }),
      row(3, { Tel: '3312345678', Nombre: '', Notas: '', ID: '', Ciudad: '', Plan: '' }),
    ];
    const out: NormalizedRow[] = [];
    for await (const r of normalizeRows(rows, mapping, { defaultCountry: 'MX' })) out.push(r);
    expect(out).toEqual([
      contact(2, { contact: '+525512345678', name: 'Ana', extracted_data: { Ciudad: 'CDMX' } }),
      contact(3, { contact: '+523312345678' }),
    ]);
  });

  it('a duplicate names the first row with that number, however each was written', async () => {
    const rows = [
      row(5, { Tel: '+52 1 55 1234 5678' }),
      row(9, { Tel: '044 55 1234 5678' }),
      row(12, { Tel: '(55) 1234-5678' }),
    ];
    const out: NormalizedRow[] = [];
    for await (const r of normalizeRows(rows, mapping, { defaultCountry: 'MX' })) out.push(r);
    expect(out).toEqual([
      contact(5, { contact: '+525512345678' }),
      rejected(9, '044 55 1234 5678', 'duplicate of row 5 (same number +525512345678)'),
      rejected(12, '(55) 1234-5678', 'duplicate of row 5 (same number +525512345678)'),
    ]);
  });

  it('reads numbers without country code in the given default country', async () => {
    const out: NormalizedRow[] = [];
    for await (const r of normalizeRows([row(2, { Tel: '(415) 555-2671' })], mapping, { defaultCountry: 'US' })) {
      out.push(r);
    }
    expect(out).toEqual([contact(2, { contact: '+14155552671' })]);
  });
});
