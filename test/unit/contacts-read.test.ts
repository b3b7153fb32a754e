import { createReadStream, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { FileFormatError, readTable, type Row, type Table } from '../../src/contacts/index.js';
import { detectDelimiter } from '../../src/contacts/delimiter.js';
import { headerNames } from '../../src/contacts/table.js';

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

/** The bytes of a fixture as an async iterable of `size`-byte chunks (to cross every boundary). */
async function* inChunks(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function expectFileError(name: string, code: string, message: RegExp): Promise<void> {
  const err = await readTable(createReadStream(fixture(name)), { fileName: name }).then(
    async (t) => {
      await readAll(t);
      return undefined;
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FileFormatError);
  expect((err as FileFormatError).code).toBe(code);
  expect((err as FileFormatError).message).toMatch(message);
}

describe('readTable: delimited text', () => {
  it('reads UTF-8 with BOM, comma, CRLF, quoted commas and doubled quotes', async () => {
    const { table, rows } = await readFixture('utf8-bom-comma.csv');
    expect(table.format).toBe('csv');
    expect(table.delimiter).toBe(',');
    expect(table.encoding).toBe('utf-8');
    expect(table.headers).toEqual(['Nombre', 'Teléfono', 'Notas', 'Folio']);
    expect(table.headerRowNumber).toBe(1);
    expect(rows).toEqual([
      {
        rowNumber: 2,
        cells: { Nombre: 'Ana López', Teléfono: '55 1234 5678', Notas: 'Cliente nuevo', Folio: 'F-001' },
      },
      { rowNumber: 3, cells: { Nombre: 'José Núñez', Teléfono: '(33) 1234-5678', Notas: '', Folio: 'F-002' } },
      {
        rowNumber: 4,
        cells: { Nombre: 'Pérez, Juan', Teléfono: '+52 81 1234 5678', Notas: 'Prefiere "WhatsApp"', Folio: 'F-003' },
      },
    ]);
  });

  it('detects semicolons even when values hold commas', async () => {
    const { table, rows } = await readFixture('semicolon.csv');
    expect(table.delimiter).toBe(';');
    expect(rows).toEqual([
      {
        rowNumber: 2,
        cells: {
          Nombre: 'Pérez, Juan',
          Teléfono: '5512345678',
          Notas: 'Llamar después de las 5, no antes',
          Monto: '1,5',
        },
      },
      { rowNumber: 3, cells: { Nombre: 'García, María', Teléfono: '5523456789', Notas: 'Sin notas', Monto: '2,75' } },
    ]);
  });

  it('detects tabs and pipes', async () => {
    const tab = await readFixture('tab.tsv');
    expect(tab.table.delimiter).toBe('\t');
    expect(tab.table.encoding).toBe('ascii');
    expect(tab.rows).toEqual([
      { rowNumber: 2, cells: { Name: 'Ana', Phone: '55 1234 5678', Notes: 'first, call', ID: 'A-1' } },
      { rowNumber: 3, cells: { Name: 'Luis', Phone: '33-1234-5678', Notes: '', ID: 'A-2' } },
    ]);
    const pipe = await readFixture('pipe.txt');
    expect(pipe.table.delimiter).toBe('|');
    // Row 2 ends with an empty extra value (a trailing "|"): not reported, nothing is lost.
    expect(pipe.rows).toEqual([
      { rowNumber: 2, cells: { nombre: 'Ana', celular: '5512345678', contexto: 'Renovación' } },
      { rowNumber: 3, cells: { nombre: 'Luis', celular: '3312345678', contexto: 'Alta nueva' } },
    ]);
  });

  it('trims headers and collapses their spaces, keeping accents and case', async () => {
    const { table, rows } = await readFixture('spanish-headers.csv');
    expect(table.headers).toEqual([
      'Nombre completo',
      'TELÉFONO',
      'Notas',
      'Correo electrónico',
      'Ciudad',
      'Teléfono 2',
    ]);
    expect(rows[1]).toEqual({
      rowNumber: 3,
      cells: {
        'Nombre completo': 'Luis Peña',
        TELÉFONO: '5587654321',
        Notas: '',
        'Correo electrónico': '',
        Ciudad: 'Guadalajara',
        'Teléfono 2': '',
      },
    });
  });

  it('decodes Windows-1252 when the bytes are not UTF-8', async () => {
    const { table, rows } = await readFixture('windows-1252.csv');
    expect(table.encoding).toBe('windows-1252');
    expect(table.headers).toEqual(['Nombre', 'Teléfono', 'Notas']);
    expect(rows).toEqual([
      { rowNumber: 2, cells: { Nombre: 'Muñoz Peña', Teléfono: '55 1234 5678', Notas: '“Cliente preferente”' } },
      { rowNumber: 3, cells: { Nombre: 'Ramón', Teléfono: '5587654321', Notas: 'Café' } },
    ]);
  });

  it('decodes UTF-16LE with BOM (Excel "Unicode Text")', async () => {
    const { table, rows } = await readFixture('utf16le.txt');
    expect(table.encoding).toBe('utf-16le');
    expect(table.delimiter).toBe('\t');
    expect(rows).toEqual([{ rowNumber: 2, cells: { Nombre: 'Ángel', Teléfono: '55 1234 5678' } }]);
  });

  it('keeps newlines inside quoted values and counts each record as one spreadsheet row', async () => {
    const { rows } = await readFixture('multiline-quoted.csv');
    expect(rows).toEqual([
      { rowNumber: 2, cells: { Nombre: 'Ana\r\nLópez', Teléfono: '5512345678', Notas: 'Línea 1\nLínea 2, con coma' } },
      { rowNumber: 3, cells: { Nombre: 'Luis', Teléfono: '5587654321', Notas: 'Dijo "sí"' } },
      { rowNumber: 4, cells: { Nombre: 'María', Teléfono: '3312345678', Notas: 'Tres\n\nlíneas' } },
      { rowNumber: 5, cells: { Nombre: 'Pedro', Teléfono: '8112345678', Notas: 'fin' } },
    ]);
  });

  it('skips blank, whitespace-only and delimiter-only lines but counts them in row numbers', async () => {
    const { table, rows } = await readFixture('blank-lines.csv');
    expect(table.headerRowNumber).toBe(3);
    expect(rows).toEqual([
      { rowNumber: 4, cells: { Nombre: 'Ana', Teléfono: '5512345678' } },
      { rowNumber: 8, cells: { Nombre: 'Luis', Teléfono: '5587654321' } },
      { rowNumber: 10, cells: { Nombre: 'María', Teléfono: '3312345678' } },
    ]);
  });

  it('reports values beyond the header instead of failing, and fills short rows with empty values', async () => {
    const { rows } = await readFixture('misaligned.csv');
    expect(rows).toEqual([
      { rowNumber: 2, cells: { Nombre: 'Pérez', Teléfono: 'Juan', Notas: '5512345678' }, extra: ['ok'] },
      { rowNumber: 3, cells: { Nombre: 'Ana', Teléfono: '5587654321', Notas: '' } },
      { rowNumber: 4, cells: { Nombre: 'Luis', Teléfono: '3312345678', Notas: 'fine' } },
    ]);
  });

  it('reads a one-column file (no delimiter to find)', async () => {
    const { table, rows } = await readFixture('single-column.csv');
    expect(table.headers).toEqual(['Celular']);
    expect(rows.map((r) => r.cells)).toEqual([{ Celular: '5512345678' }, { Celular: '33 1234 5678' }]);
  });

  it('reads the same rows whatever the chunk sizes (BOM, multi-byte letters and CRLF split)', async () => {
    for (const name of ['utf8-bom-comma.csv', 'windows-1252.csv', 'multiline-quoted.csv', 'utf16le.txt']) {
      const expected = (await readFixture(name)).rows;
      const bytes = readFileSync(fixture(name));
      for (const size of [1, 2, 3, 7]) {
        const table = await readTable(inChunks(bytes, size), { fileName: name });
        expect({ name, size, rows: await readAll(table) }).toEqual({ name, size, rows: expected });
      }
    }
  });

  it('decides Windows-1252 at the first non-ASCII byte, even far into the file', async () => {
    const ascii = Array.from({ length: 3000 }, (_, i) => `Cliente ${i},55${String(10000000 + i)}`).join('\r\n');
    const bytes = Buffer.concat([
      Buffer.from(`Nombre,Teléfono\r\n${ascii}\r\n`.replace('é', 'e'), 'latin1'),
      Buffer.from('Mu\xf1oz,5599999999\r\n', 'latin1'),
    ]);
    expect(bytes.length).toBeGreaterThan(64 * 1024);
    const table = await readTable(inChunks(bytes, 4096));
    const rows = await readAll(table);
    expect(table.encoding).toBe('windows-1252');
    expect(rows).toHaveLength(3001);
    expect(rows[3000]).toEqual({ rowNumber: 3002, cells: { Nombre: 'Muñoz', Telefono: '5599999999' } });
  });

  it('keeps UTF-8 when a letter is split across chunks right at the decision point', async () => {
    const bytes = Buffer.from('Nombre,Teléfono\nÑoño,5512345678\n', 'utf8');
    const table = await readTable(inChunks(bytes, 1));
    expect(await readAll(table)).toEqual([{ rowNumber: 2, cells: { Nombre: 'Ñoño', Teléfono: '5512345678' } }]);
    expect(table.encoding).toBe('utf-8');
  });

  it('ignores the name and MIME type when the content says CSV', async () => {
    const table = await readTable(Readable.from([Buffer.from('Teléfono\n5512345678\n')]), {
      fileName: 'contactos.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    expect(table.format).toBe('csv');
    expect(await readAll(table)).toEqual([{ rowNumber: 2, cells: { Teléfono: '5512345678' } }]);
  });

  it('uses tab for a one-column .tsv', async () => {
    const table = await readTable(Readable.from([Buffer.from('Celular\n5512345678\n')]), { fileName: 'x.tsv' });
    expect(table.delimiter).toBe('\t');
  });
});

describe('readTable: files it refuses, with a message that says what to do', () => {
  it.each([
    ['empty.csv', 'EMPTY_FILE', /^"empty\.csv" is empty \(0 bytes\)\. Upload a file with a header row and contacts\.$/],
    ['blank-only.csv', 'EMPTY_FILE', /^"blank-only\.csv" has no rows: it is empty or holds only blank lines/],
    [
      'header-only.csv',
      'NO_CONTACT_ROWS',
      /^"header-only\.csv" has a header row but no contacts: there are no rows under "Nombre", "Teléfono", "Notas"\./,
    ],
    ['binary-garbage.csv', 'BINARY_FILE', /^"binary-garbage\.csv" is not a CSV or Excel file: it contains binary data/],
    ['old-excel.xls', 'UNSUPPORTED_FORMAT', /Excel 97-2003 workbook \(\.xls\).*save it as \.xlsx or "CSV UTF-8"/],
    ['html-table.xls', 'UNSUPPORTED_FORMAT', /is a web page \(an HTML table\), not a CSV or Excel file/],
    ['not-a-workbook.xlsx', 'UNREADABLE_XLSX', /is a ZIP archive without any Excel worksheet/],
    [
      'unclosed-quote.csv',
      'MALFORMED_CSV',
      /^"unclosed-quote\.csv" is not valid CSV: row 3 opens a quoted value with " that is never closed/,
    ],
  ])('%s → %s', async (name, code, message) => {
    await expectFileError(name, code, message);
  });

  it('refuses text after a closing quote, naming the row', async () => {
    const err = await readTable(Readable.from([Buffer.from('Nombre,Teléfono\nAna,5512345678\n"Luis" Pérez,55\n')]))
      .then(readAll)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileFormatError);
    expect((err as FileFormatError).code).toBe('MALFORMED_CSV');
    expect((err as FileFormatError).message).toMatch(
      /^The file is not valid CSV: row 3 has text right after the closing "/,
    );
  });

  it('refuses a NUL byte met after the start of the file', async () => {
    // After the first 64 KiB, which readTable reads to find the delimiter: the NUL is met while rows are read.
    const bytes = Buffer.concat([Buffer.from(`Teléfono\n${'5512345678\n'.repeat(10_000)}`), Buffer.from([0, 1, 2])]);
    const table = await readTable(inChunks(bytes, 1024), { fileName: 'x.csv' });
    const err = await readAll(table).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileFormatError);
    expect((err as FileFormatError).code).toBe('BINARY_FILE');
  });

  it('refuses an OpenDocument spreadsheet by its mimetype entry', async () => {
    const head = Buffer.alloc(120);
    head.write('PK\x03\x04', 0, 'latin1');
    head.write('mimetype', 30, 'latin1');
    head.write('application/vnd.oasis.opendocument.spreadsheet', 38, 'latin1');
    const err = await readTable(Readable.from([head]), { fileName: 'c.ods' }).catch((e: unknown) => e);
    expect((err as FileFormatError).code).toBe('UNSUPPORTED_FORMAT');
    expect((err as FileFormatError).message).toMatch(/^"c\.ods" is an OpenDocument file/);
  });
});

describe('readTable: releasing the input', () => {
  it('destroys the stream when rows are abandoned halfway', async () => {
    const bytes = Buffer.from(`Teléfono\n${'5512345678\n'.repeat(50_000)}`);
    const stream = Readable.from(inChunks(bytes, 16 * 1024));
    const table = await readTable(stream);
    for await (const row of table.rows) if (row.rowNumber === 10) break;
    expect(stream.destroyed).toBe(true);
  });

  it('destroys the stream on close() when rows are never read', async () => {
    const stream = Readable.from(inChunks(Buffer.from(`Teléfono\n${'5512345678\n'.repeat(50_000)}`), 16 * 1024));
    const table = await readTable(stream);
    await table.close();
    expect(stream.destroyed).toBe(true);
  });

  it('destroys the stream when the file is refused', async () => {
    async function* endless(): AsyncGenerator<Buffer> {
      yield Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]);
      for (;;) yield Buffer.alloc(1024, 0);
    }
    const stream = Readable.from(endless());
    await expect(readTable(stream)).rejects.toMatchObject({ code: 'BINARY_FILE' });
    expect(stream.destroyed).toBe(true);
  });
});

describe('detectDelimiter', () => {
  it.each([
    ['a,b,c\n1,2,3\n', ','],
    ['a;b;c\n"x;y";2;3\n', ';'],
    ['a\tb\n1\t2\n', '\t'],
    ['a|b\n1|2\n', '|'],
    // Commas inside quotes, including a quoted newline, do not count.
    ['Nombre;Notas\n"Pérez, Juan\nhijo";"a, b, c"\n', ';'],
    // The header decides which candidates are possible; agreement with the rows picks among them.
    ['Nombre;Notas,extra\n"a";b\n"c";d\n', ';'],
    // An inch mark inside a value is not an opening quote.
    ['a,b\n5" pantalla,2\n', ','],
  ])('%j → %j', (sample, expected) => {
    expect(detectDelimiter(sample, true)).toBe(expected);
  });

  it('falls back to the hint, then comma, when the header has no candidate', () => {
    expect(detectDelimiter('Celular\n5512345678\n', true, '\t')).toBe('\t');
    expect(detectDelimiter('Celular\n5512345678\n', true)).toBe(',');
  });

  it('does not count a last line that may be cut short', () => {
    expect(detectDelimiter('a;b\n1;2\n3;4\n5,6,7,8', false)).toBe(';');
  });
});

describe('headerNames', () => {
  it('names blank headers by column letter and numbers repeated ones', () => {
    expect(headerNames(['Teléfono', '', 'Teléfono', ' ', 'Notas\n(internas)', '__proto__', 'Teléfono'])).toEqual([
      'Teléfono',
      'Column B',
      'Teléfono (2)',
      'Column D',
      'Notas (internas)',
      '__proto__ (column F)',
      'Teléfono (3)',
    ]);
    const many = headerNames(Array.from({ length: 28 }, () => ''));
    expect(many.slice(25)).toEqual(['Column Z', 'Column AA', 'Column AB']);
  });
});
