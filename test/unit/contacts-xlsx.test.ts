import { pbkdf2 } from 'node:crypto';
import { createReadStream, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { readTable, type Row, type Table } from '../../src/contacts/index.js';
import { cellText } from '../../src/contacts/xlsx-records.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'contacts');
const fixture = (name: string): string => join(fixtures, name);

async function readAll(table: Table): Promise<Row[]> {
  const rows: Row[] = [];
  for await (const r of table.rows) rows.push(r);
  return rows;
}

async function readFixture(name: string): Promise<{ table: Table; rows: Row[] }> {
  const table = await readTable(createReadStream(fixture(name)), { fileName: name });
  return { table, rows: await readAll(table) };
}

/** exceljs's temp files of this process (it spools worksheets stored before the shared strings). */
const tempFiles = (): string[] => readdirSync(tmpdir()).filter((f) => f.startsWith(`tmp-${process.pid}-`));

/** exceljs deletes its temp files asynchronously: wait (briefly) until those created since `before` are gone. */
async function newTempFilesAfterCleanup(before: Set<string>): Promise<string[]> {
  let left: string[] = [];
  for (let i = 0; i < 100; i++) {
    left = tempFiles().filter((f) => !before.has(f));
    if (left.length === 0) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  return left;
}

describe('readTable: XLSX', () => {
  it('reads the first sheet only, with numbers, dates, rich text, formulas and other cells as text', async () => {
    const { table, rows } = await readFixture('numbers-two-sheets.xlsx');
    expect(table.format).toBe('xlsx');
    expect(table.sheetName).toBe('Contactos');
    expect(table.headers).toEqual([
      'Teléfono',
      'Nombre',
      'Fecha de alta',
      'Folio',
      'Activo',
      'Cita',
      'Teléfono 2',
      'Correo',
      'Saldo',
    ]);
    const empty = Object.fromEntries(table.headers.map((h) => [h, '']));
    expect(rows).toEqual([
      {
        rowNumber: 2,
        cells: {
          Teléfono: '5512345678', // a number cell: not 5.51e9, not 5512345678.0
          Nombre: 'Ana López', // rich text runs joined
          'Fecha de alta': '2024-03-05',
          Folio: 'F-2', // formula → cached result
          Activo: 'TRUE',
          Cita: '2024-03-05T14:30:00',
          'Teléfono 2': '5512345679', // numeric formula result
          Correo: 'ana@example.com', // hyperlink text
          Saldo: '1234.5',
        },
      },
      {
        rowNumber: 3,
        cells: {
          ...empty,
          Teléfono: '525587654321',
          Nombre: 'Luis',
          Folio: 'F-3',
          Activo: 'FALSE',
          'Teléfono 2': '#N/A',
          Saldo: '0.1',
        },
      },
      // Row 4 is blank: skipped, but row numbers stay those of the sheet.
      { rowNumber: 5, cells: { ...empty, Teléfono: '33 1234 5678', Nombre: 'María', Saldo: '0.0000001' } },
      { rowNumber: 6, cells: { ...empty, Teléfono: '8112345678', Nombre: 'Pedro' }, extra: ['nota sin encabezado'] },
    ]);
    // Nothing of the second sheet ("Notas internas") was read.
    expect(JSON.stringify(rows)).not.toContain('5599999999');
  });

  it('reads the first visible sheet when the first tab is hidden', async () => {
    const { table, rows } = await readFixture('hidden-first-sheet.xlsx');
    expect(table.sheetName).toBe('Contactos');
    expect(rows).toEqual([{ rowNumber: 2, cells: { Celular: '5512345678', Nombre: 'Visible' } }]);
  });

  it('reads a workbook whose shared strings come before the sheets (parsed while streaming)', async () => {
    const { table, rows } = await readFixture('strings-first.xlsx');
    expect(table.sheetName).toBe('Primera');
    expect(rows).toEqual([
      { rowNumber: 2, cells: { Teléfono: '5512345678', Nombre: 'Ana' } },
      { rowNumber: 3, cells: { Teléfono: '33 1234 5678', Nombre: 'Luis' } },
    ]);
  });

  it('keeps multi-byte letters that fall across chunk boundaries (exceljs alone turns some into U+FFFD)', async () => {
    const { rows } = await readFixture('utf8-split.xlsx');
    expect(rows).toHaveLength(3000);
    rows.forEach((row, i) => {
      expect(row).toEqual({
        rowNumber: i + 2,
        cells: { Teléfono: String(5510000000 + i), Nombre: `${'ñé'.repeat(20)} ${i}` },
      });
    });
  });

  it('does not lose the workbook part when unzipper outruns exceljs (busy thread pool, uncompressed ZIP)', async () => {
    // With libuv's threads busy, exceljs's temp-file writes wait while unzipper (plain JS on a STORED zip) parses
    // the rest of the file and ends early; plain exceljs then fails every time with "reading 'sheets'".
    const bytes = readFileSync(fixture('stored-excel-order.xlsx'));
    for (let i = 0; i < 5; i++) {
      const busy = Array.from({ length: 4 }, () => new Promise((r) => pbkdf2('x', 'y', 20_000, 32, 'sha256', r)));
      const table = await readTable(Readable.from([bytes]));
      expect({ sheet: table.sheetName, rows: await readAll(table) }).toEqual({
        sheet: 'Contactos',
        rows: [{ rowNumber: 2, cells: { Teléfono: '5512345678', Nombre: 'Ana' } }],
      });
      await Promise.all(busy);
    }
  });

  it('detects XLSX by content whatever the name, and reads from an async iterable of small chunks', async () => {
    const bytes = readFileSync(fixture('hidden-first-sheet.xlsx'));
    async function* chunks(): AsyncGenerator<Buffer> {
      for (let i = 0; i < bytes.length; i += 100) yield bytes.subarray(i, i + 100);
    }
    const table = await readTable(chunks(), { fileName: 'contactos.csv', mimeType: 'text/csv' });
    expect(table.format).toBe('xlsx');
    expect(await readAll(table)).toEqual([{ rowNumber: 2, cells: { Celular: '5512345678', Nombre: 'Visible' } }]);
  });

  it('leaves no temp file behind, also when rows are abandoned', async () => {
    const before = new Set(tempFiles());
    await readFixture('numbers-two-sheets.xlsx');
    const stream = createReadStream(fixture('utf8-split.xlsx'));
    const table = await readTable(stream);
    for await (const row of table.rows) if (row.rowNumber === 5) break;
    expect(await newTempFilesAfterCleanup(before)).toEqual([]);
  });

  it('refuses a truncated workbook with a message saying how to fix it', async () => {
    // Cut inside the first ZIP entry: the ZIP's directory, at its end, is missing.
    const bytes = readFileSync(fixture('numbers-two-sheets.xlsx'));
    const err = await readTable(Readable.from([bytes.subarray(0, 400)]), { fileName: 'roto.xlsx' })
      .then(readAll)
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'FileFormatError', code: 'UNREADABLE_XLSX' });
    expect((err as Error).message).toBe(
      '"roto.xlsx" looks like an Excel workbook but could not be read (it is cut short or damaged: the end of its ' +
        'ZIP archive is missing). Open it in Excel and save it again as .xlsx, or export the sheet as "CSV UTF-8".',
    );
  });
});

describe('cellText', () => {
  it.each([
    [null, ''],
    [5512345678, '5512345678'],
    [525512345678, '525512345678'],
    [1e21, '1e+21'],
    [12.5, '12.5'],
    [1e-7, '0.0000001'],
    [Number.NaN, ''],
    [true, 'TRUE'],
    [new Date(Date.UTC(2024, 0, 31)), '2024-01-31'],
    [new Date(Date.UTC(2024, 0, 31, 8, 5, 9)), '2024-01-31T08:05:09'],
    [new Date(Date.UTC(1899, 11, 30, 10, 30)), '10:30:00'],
    [{ richText: [{ text: 'a' }, { text: 'b' }] }, 'ab'],
    [{ formula: 'A1', result: 5512345678 }, '5512345678'],
    [{ sharedFormula: 'A1', result: 'x' }, 'x'],
    [{ formula: 'A1' }, ''],
    [{ error: '#DIV/0!' }, '#DIV/0!'],
    [{ text: 'link', hyperlink: 'https://example.com' }, 'link'],
  ])('%p → %p', (value, text) => {
    expect(cellText(value)).toBe(text);
  });
});
