/**
 * The contacts pipeline within its limits (src/contacts/limits.ts), without Slack: the header's width, the row cap,
 * characters per cell and per row, the XLSX's unpacked size; the reader in its worker thread (back-pressure, its
 * heap cap); and the failed-rows report written from a spool, merged and capped.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  fileLimits,
  FileFormatError,
  headerNames,
  mapHeaders,
  normalizeRows,
  openContactFile,
  readRejectedSpool,
  readTable,
  RejectedRowSpool,
  writeFailureReport,
  type HeaderMapping,
  type Row,
  type Table,
} from '../../src/contacts/index.js';
import { openIsolatedContactFile } from '../../src/contacts/isolated-reader.js';
import { sharedStringsXml, sheetXml, xlsxWith, zipOf, workbookParts } from '../support/hostile-files.js';

const csv = (s: string) => Readable.from([Buffer.from(s)]);
async function readAll(table: Table): Promise<Row[]> {
  const rows: Row[] = [];
  for await (const r of table.rows) rows.push(r);
  return rows;
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'contacts-limits-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the header', () => {
  it('refuses more than 200 named columns before reading a row', async () => {
    const header = Array.from({ length: 201 }, (_, i) => `c${i}`).join(',');
    const err = await readTable(csv(`${header}\n1\n`), { fileName: 'ancho.csv' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileFormatError);
    expect(err).toMatchObject({ code: 'TOO_MANY_COLUMNS' });
    expect((err as Error).message).toMatch(/^"ancho\.csv" has 201 columns in its header row; at most 200 can be read/);
  });

  it('does not count blank columns at the end of the header (an export of empty columns)', async () => {
    const table = await readTable(csv(`Teléfono,Nombre${','.repeat(5000)}\n5512345678,Ana\n`));
    expect(table.headers).toEqual(['Teléfono', 'Nombre']);
    expect(await readAll(table)).toEqual([{ rowNumber: 2, cells: { Teléfono: '5512345678', Nombre: 'Ana' } }]);
  });

  it('names 100,000 repeated headers in linear time', () => {
    const started = performance.now();
    const names = headerNames(Array.from({ length: 100_000 }, () => 'a'));
    expect(names[99_999]).toBe('a (100000)');
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('lists at most 30 headers when there is no phone column', () => {
    const m = mapHeaders(Array.from({ length: 150 }, (_, i) => `c${i}`));
    expect(m.ok).toBe(false);
    expect((m as { message: string }).message).toContain('"c29", and 120 more');
  });
});

describe('rows and cells', () => {
  it('stops after maxRows rows and says where the rest starts', async () => {
    const lines = ['Teléfono', ...Array.from({ length: 10 }, (_, i) => `55${20000000 + i}`), '', '5599999999'];
    const table = await readTable(csv(lines.join('\n')), { limits: fileLimits({ maxRows: 4 }) });
    const rows = await readAll(table);
    expect(rows.map((r) => r.rowNumber)).toEqual([2, 3, 4, 5]);
    expect(table.truncated).toEqual({ maxRows: 4, lastRow: 5, nextRow: 6 });
  });

  it('reads a file of exactly maxRows rows without truncating it', async () => {
    const table = await readTable(csv('Teléfono\n5520000001\n5520000002\n\n'), { limits: fileLimits({ maxRows: 2 }) });
    expect(await readAll(table)).toHaveLength(2);
    expect(table.truncated).toBeUndefined();
  });

  it('marks a cell over maxCellChars (cut) and a row over the row cap; normalizeRows rejects them by column', async () => {
    const limits = fileLimits({ maxCellChars: 100 });
    const long = 'L'.repeat(150);
    const input = `Teléfono,Notas,A,B,C,D\n5520000001,${long},,,,\n5520000002,${'w'.repeat(99)},${'w'.repeat(99)},${'w'.repeat(99)},${'w'.repeat(99)},${'w'.repeat(99)}\n5520000003,ok,,,,\n`;
    const file = await openContactFile(csv(input), { defaultCountry: 'MX', limits });
    const out = [];
    for await (const r of file.rows) out.push(r);
    expect(out[0]).toMatchObject({
      kind: 'rejected',
      rowNumber: 2,
      original: '5520000001',
      reason: 'the value in column "Notas" has 150 characters; a cell may have at most 100: shorten it',
    });
    expect(out[1]).toMatchObject({
      kind: 'rejected',
      reason: 'the row has 505 characters in all; a row may have at most 400: shorten its longest values',
    });
    expect(out[2]).toMatchObject({ kind: 'contact', contact: { contact: '+525520000003', context: 'ok' } });
  });

  it('keeps three of the values beyond the header, cut, and counts the rest', async () => {
    const table = await readTable(csv(`Teléfono\n5520000001,${'v'.repeat(60)},b,c,d,e\n`));
    const [row] = await readAll(table);
    expect(row!.extra).toEqual(['v'.repeat(41), 'b', 'c']);
    expect(row!.moreExtra).toBe(2);
  });

  it('builds cells only for the columns asked for', async () => {
    const table = await readTable(csv('Teléfono,Nombre,Otra\n5520000001,Ana,x\n'));
    table.useColumns(['Teléfono', 'Nombre']);
    expect((await readAll(table))[0]!.cells).toEqual({ Teléfono: '5520000001', Nombre: 'Ana' });
  });

  it('rejects a phone value longer than any number quickly, keeping 100 characters of it', async () => {
    const mapping = mapHeaders(['Teléfono']) as HeaderMapping;
    const rows = [{ rowNumber: 2, cells: { Teléfono: '5'.repeat(4000) } }];
    const [r] = await (async () => {
      const out = [];
      for await (const x of normalizeRows(rows, mapping, { defaultCountry: 'MX' })) out.push(x);
      return out;
    })();
    expect(r).toMatchObject({ kind: 'rejected', reason: 'too long to be a phone number (4,000 characters)' });
    expect((r as { original: string }).original).toHaveLength(101);
  });
});

describe('XLSX within its unpacked budget', () => {
  it('refuses a workbook whose parts declare more than the budget, before inflating anything', async () => {
    const content = await zipOf([
      ...workbookParts(),
      { name: 'xl/worksheets/sheet1.xml', content: Buffer.from('<worksheet/>'), declaredSize: 200 * 1024 * 1024 },
    ]);
    const err = await readTable(Readable.from([content]), { fileName: 'b.xlsx' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'TOO_LARGE_UNPACKED' });
    expect((err as Error).message).toContain(
      '(its parts declare at least 201 MB; xl/worksheets/sheet1.xml alone 200 MB)',
    );
  });

  it('stops a part that inflates past the budget while it is read', async () => {
    const content = await xlsxWith({ sheet: () => sheetXml(3), strings: () => sharedStringsXml(3, 1024 * 1024) });
    const path = join(dir, 'small-budget.xlsx');
    writeFileSync(path, content);
    const limits = { ...fileLimits(), maxUnpackedBytes: 2 * 1024 * 1024 };
    const err = await readTable({ path }, { fileName: 'c.xlsx', limits }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'TOO_LARGE_UNPACKED' });
  });

  it('reads a workbook from disk: only the first sheet, its shared strings, no temp file', async () => {
    const content = await xlsxWith({ sheet: () => sheetXml(2), strings: () => sharedStringsXml(1, 5) });
    const path = join(dir, 'ok.xlsx');
    writeFileSync(path, content);
    const table = await readTable({ path }, { fileName: 'ok.xlsx' });
    expect(table.sheetName).toBe('Contactos');
    expect(await readAll(table)).toEqual([
      { rowNumber: 2, cells: { Teléfono: '5540000002', Notas: 'aaaaa' } },
      { rowNumber: 3, cells: { Teléfono: '5540000003', Notas: 'aaaaa' } },
    ]);
    expect(table.progress()).toBe(1);
  });
});

describe('the reader in its worker thread', () => {
  const job = (name: string, extra: object = {}) => ({
    path: join(dir, name),
    fileName: name,
    defaultCountry: 'MX' as const,
    batchSize: 100,
    limits: fileLimits(),
    rejectedPath: join(dir, `${name}.rejected`),
    rejectedKept: 3,
    ...extra,
  });

  it('reads no further than its window of batches ahead of the consumer', async () => {
    const lines = ['Teléfono', ...Array.from({ length: 5000 }, (_, i) => `55${20000000 + i}`)];
    writeFileSync(join(dir, 'many.csv'), lines.join('\n'));
    const file = await openIsolatedContactFile(job('many.csv', { window: 1 }));
    const batches = file.batches();
    const first = await batches.next();
    expect(first.value).toMatchObject({ index: 0 });
    await sleep(500);
    // One batch taken, one credit out: at most a couple of batches read.
    expect(file.progress!.rowsRead).toBeLessThanOrEqual(300);
    let n = 1;
    for await (const _b of batches) n++;
    expect(n).toBe(50);
    expect(file.end!.progress.rowsRead).toBe(5000);
  });

  it('skips the batches a resumed upload sent already, and spools the first rejected rows', async () => {
    const lines = ['Teléfono', ...Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? 'x' : `55${20000000 + i}`))];
    writeFileSync(join(dir, 'resume.csv'), lines.join('\n'));
    const file = await openIsolatedContactFile(job('resume.csv'));
    const indexes = [];
    for await (const b of file.batches(1)) {
      indexes.push(b.index);
      expect(b.originals).toHaveLength(b.contacts.length);
    }
    expect(indexes).toEqual([1]);
    expect(file.end!.progress.rejected.invalid).toBe(100);
    const spooled = [];
    for await (const r of readRejectedSpool(join(dir, 'resume.csv.rejected'))) spooled.push(r.rowNumber);
    expect(spooled).toEqual([2, 5, 8]);
  });

  it('ends with TOO_COMPLEX when the file needs more than its heap, and the caller goes on', async () => {
    writeFileSync(
      join(dir, 'heavy.xlsx'),
      await xlsxWith({ sheet: () => sheetXml(2), strings: () => sharedStringsXml(60, 1024 * 1024) }),
    );
    const err = await openIsolatedContactFile(
      job('heavy.xlsx', { resourceLimits: { maxOldGenerationSizeMb: 24, maxYoungGenerationSizeMb: 8 } }),
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'FileFormatError', code: 'TOO_COMPLEX' });
  });
});

describe('the failed-rows report', () => {
  it('merges the spool and the service refusals in row order, up to maxRows', async () => {
    const spoolPath = join(dir, 'merge.spool');
    const spool = new RejectedRowSpool(spoolPath, 10);
    for (const n of [2, 5, 9]) spool.add({ rowNumber: n, original: `v${n}\nx`, reason: 'bad' });
    await spool.close();
    const service = (async function* () {
      yield { rowNumber: 3, original: '+52 55', reason: 'refused' };
      yield { rowNumber: 7, original: '55', reason: 'refused' };
    })();
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const written = await writeFailureReport(out, [readRejectedSpool(spoolPath), service], { maxRows: 4 });
    out.end();
    expect(written).toBe(4);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(
      'row,value,reason\r\n2,"v2\nx",bad\r\n3,\'+52 55,refused\r\n5,"v5\nx",bad\r\n7,55,refused\r\n',
    );
  });

  it('keeps only the first rows in the spool', async () => {
    const spoolPath = join(dir, 'keep.spool');
    const spool = new RejectedRowSpool(spoolPath, 2);
    for (let n = 2; n < 1000; n++) spool.add({ rowNumber: n, original: '', reason: 'empty number' });
    await spool.close();
    expect(readFileSync(spoolPath, 'utf8').trim().split('\n')).toHaveLength(2);
  });
});
