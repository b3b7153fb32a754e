/**
 * Hostile and broken contact files, made in the tests (nothing huge is committed): a header of 200,000 commas, a
 * header of too many named columns, cells of a megabyte, millions of rows with no valid number, and XLSX files
 * written part by part with a small ZIP writer of our own, so a part can inflate to hundreds of megabytes from a
 * few hundred kilobytes, or declare another size than it really has (what a ZIP bomb does).
 */
import { createDeflateRaw, crc32, deflateRawSync } from 'node:zlib';

/** A CSV whose header has `commas` commas after the phone column, then `rows` valid numbers. */
export function wideHeaderCsv(commas: number, rows = 3): Buffer {
  const lines = [`Teléfono${','.repeat(commas)}`];
  for (let i = 0; i < rows; i++) lines.push(`55${String(20_000_000 + i)}`);
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** A CSV with `columns` named columns (the first the phone) and a couple of rows. */
export function namedColumnsCsv(columns: number): Buffer {
  const header = ['Teléfono', ...Array.from({ length: columns - 1 }, (_, i) => `Campo ${i + 1}`)];
  const row = (n: string) => [n, ...Array.from({ length: columns - 1 }, () => 'x')].join(',');
  return Buffer.from(`${header.join(',')}\n${row('5520000001')}\n${row('5520000002')}\n`);
}

/** `Teléfono,Notas`: `longRows` rows whose note has `cellChars` characters, between `goodRows` ordinary rows. */
export function longCellsCsv(longRows: number, cellChars: number, goodRows: number): Buffer {
  const parts: string[] = ['Teléfono,Notas\n'];
  const long = 'x'.repeat(cellChars);
  for (let i = 0; i < goodRows + longRows; i++) {
    const phone = `55${String(30_000_000 + i)}`;
    parts.push(i % 2 === 1 && i / 2 < longRows ? `${phone},${long}\n` : `${phone},nota ${i}\n`);
  }
  return Buffer.from(parts.join(''));
}

/** A one-column CSV of `rows` rows none of which holds a phone number ("x"), built without a giant string. */
export function rejectedRowsCsv(rows: number): Buffer {
  const header = Buffer.from('Teléfono\n');
  const body = Buffer.alloc(rows * 2);
  for (let i = 0; i < rows; i++) {
    body[2 * i] = 0x78; // x
    body[2 * i + 1] = 0x0a;
  }
  return Buffer.concat([header, body]);
}

// ---------------------------------------------------------------------------------------------------------------
// XLSX written by hand

export interface ZipPart {
  name: string;
  /** The part's bytes, or chunks of them (inflated content, deflated here on the fly). */
  content: Buffer | (() => Iterable<Buffer>);
  /** The size written in the headers, when it should lie (a bomb that says it is small). */
  declaredSize?: number;
}

async function deflated(content: ZipPart['content']): Promise<{ data: Buffer; size: number; crc: number }> {
  if (Buffer.isBuffer(content)) return { data: deflateRawSync(content), size: content.length, crc: crc32(content) };
  const z = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  z.on('data', (c: Buffer) => out.push(c));
  const done = new Promise<void>((resolve, reject) => {
    z.on('end', resolve);
    z.on('error', reject);
  });
  let size = 0;
  let crc = 0;
  for (const chunk of content()) {
    size += chunk.length;
    crc = crc32(chunk, crc);
    if (!z.write(chunk)) await new Promise((r) => z.once('drain', r));
  }
  z.end();
  await done;
  return { data: Buffer.concat(out), size, crc };
}

/** A ZIP archive of the parts, in the given order, deflated, with a central directory. */
export async function zipOf(parts: ZipPart[]): Promise<Buffer> {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const { data, size, crc } = await deflated(p.content);
    const name = Buffer.from(p.name, 'utf8');
    const declared = p.declaredSize ?? size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(declared, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, data);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x0800, 8);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(crc >>> 0, 16);
    entry.writeUInt32LE(data.length, 20);
    entry.writeUInt32LE(declared, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, name);
    offset += local.length + name.length + data.length;
  }
  const dir = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

const xml = (s: string): Buffer => Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${s}`);
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** The parts every workbook has, around one worksheet `xl/worksheets/sheet1.xml`. */
export function workbookParts(): ZipPart[] {
  return [
    {
      name: '[Content_Types].xml',
      content: xml(
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
          '<Default Extension="xml" ContentType="application/xml"/>' +
          '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
          '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
          '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' +
          '</Types>',
      ),
    },
    {
      name: '_rels/.rels',
      content: xml(
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
          `<Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      ),
    },
    {
      name: 'xl/workbook.xml',
      content: xml(
        `<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets>` +
          '<sheet name="Contactos" sheetId="1" r:id="rId1"/></sheets></workbook>',
      ),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      content: xml(
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
          `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
          `<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
      ),
    },
  ];
}

/** Chunks of a worksheet: a header row (phone in A, shared string 0 in B), then `rows` rows, each a number in A and B. */
export function* sheetXml(
  rows: number,
  cellB: (row: number) => string = () => '<c t="s"><v>0</v></c>',
): Iterable<Buffer> {
  yield Buffer.from(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${MAIN}"><sheetData>` +
      '<row r="1"><c r="A1" t="inlineStr"><is><t>Teléfono</t></is></c><c r="B1" t="inlineStr"><is><t>Notas</t></is></c></row>',
  );
  let chunk = '';
  for (let r = 2; r <= rows + 1; r++) {
    chunk += `<row r="${r}"><c r="A${r}"><v>${5540000000 + r}</v></c>${cellB(r).replace('<c ', `<c r="B${r}" `)}</row>`;
    if (chunk.length > 256 * 1024) {
      yield Buffer.from(chunk);
      chunk = '';
    }
  }
  yield Buffer.from(`${chunk}</sheetData></worksheet>`);
}

/** Shared strings: `count` strings of `chars` characters each, in chunks. */
export function* sharedStringsXml(count: number, chars: number): Iterable<Buffer> {
  yield Buffer.from(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="${MAIN}" count="${count}" uniqueCount="${count}">`,
  );
  const block = Buffer.alloc(1024 * 1024, 'a');
  for (let i = 0; i < count; i++) {
    yield Buffer.from('<si><t>');
    for (let left = chars; left > 0; left -= block.length) yield left >= block.length ? block : block.subarray(0, left);
    yield Buffer.from('</t></si>');
  }
  yield Buffer.from('</sst>');
}

/**
 * An XLSX in Excel's order (worksheet before shared strings). `sheet` and `strings` give the two big parts; each
 * may declare another size than it has.
 */
export async function xlsxWith(opts: {
  sheet: () => Iterable<Buffer>;
  strings: () => Iterable<Buffer>;
  sheetDeclares?: number;
  stringsDeclare?: number;
}): Promise<Buffer> {
  return zipOf([
    ...workbookParts(),
    {
      name: 'xl/worksheets/sheet1.xml',
      content: opts.sheet,
      ...(opts.sheetDeclares !== undefined ? { declaredSize: opts.sheetDeclares } : {}),
    },
    {
      name: 'xl/sharedStrings.xml',
      content: opts.strings,
      ...(opts.stringsDeclare !== undefined ? { declaredSize: opts.stringsDeclare } : {}),
    },
  ]);
}
