import { parse } from 'csv-parse/sync';
import {
  batch,
  batchIdempotencyKey,
  failureReportCsv,
  normalizeRows,
  onlyContacts,
  mapHeaders,
  type ContactBatch,
  type HeaderMapping,
  type RejectedRow,
  type RowContact,
} from '../../src/contacts/index.js';
import { MAX_CONTACTS_PER_BATCH } from '../../src/outreach/unspecified.js';

function contacts(n: number, firstRow = 2): RowContact[] {
  return Array.from({ length: n }, (_, i) => ({
    rowNumber: firstRow + i,
    contact: { contact: `+5255${String(10000000 + i)}` },
  }));
}

async function collect(it: AsyncIterable<ContactBatch>): Promise<ContactBatch[]> {
  const out: ContactBatch[] = [];
  for await (const b of it) out.push(b);
  return out;
}

describe('batch', () => {
  it('cuts 2,500 contacts into 1000 + 1000 + 500 by default, keeping file rows for each item', async () => {
    const batches = await collect(batch(contacts(2500)));
    expect(batches.map((b) => [b.index, b.contacts.length, b.rowNumbers.length])).toEqual([
      [0, 1000, 1000],
      [1, 1000, 1000],
      [2, 500, 500],
    ]);
    // results[].index of batch 1 item 0 → file row 1002.
    expect(batches[1]!.rowNumbers[0]).toBe(1002);
    expect(batches[1]!.contacts[0]).toEqual({ contact: '+525510001000' });
    expect(batches[2]!.rowNumbers.at(-1)).toBe(2501);
  });

  it('makes exact-size batches without an empty one at the end, and nothing for no contacts', async () => {
    expect((await collect(batch(contacts(6), 3))).map((b) => b.rowNumbers)).toEqual([
      [2, 3, 4],
      [5, 6, 7],
    ]);
    expect(await collect(batch([], 10))).toEqual([]);
  });

  it('refuses sizes the service does not accept', async () => {
    for (const size of [0, -1, 1.5, MAX_CONTACTS_PER_BATCH + 1]) {
      await expect(collect(batch(contacts(1), size))).rejects.toThrow(RangeError);
    }
  });

  it('takes the contacts of normalizeRows, handing rejected rows to a callback', async () => {
    const mapping = mapHeaders(['Teléfono']) as HeaderMapping;
    const rows = ['5512345678', 'x', '3312345678', '5512345678'].map((v, i) => ({
      rowNumber: i + 2,
      cells: { Teléfono: v },
    }));
    const rejected: RejectedRow[] = [];
    const batches = await collect(
      batch(
        onlyContacts(normalizeRows(rows, mapping, { defaultCountry: 'MX' }), (r) => rejected.push(r)),
        2,
      ),
    );
    expect(batches).toEqual([
      { index: 0, contacts: [{ contact: '+525512345678' }, { contact: '+523312345678' }], rowNumbers: [2, 4] },
    ]);
    expect(rejected.map((r) => [r.rowNumber, r.reason])).toEqual([
      [3, 'no digits: not a phone number'],
      [5, 'duplicate of row 2 (same number +525512345678)'],
    ]);
  });
});

describe('batchIdempotencyKey', () => {
  it('is a UUID (version 5 bits, RFC 4122 variant), the same for the same batch, different otherwise', () => {
    const key = batchIdempotencyKey('F0123ABC', 42, 0);
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(batchIdempotencyKey('F0123ABC', 42, 0)).toBe(key);
    const others = [
      batchIdempotencyKey('F0123ABC', 42, 1),
      batchIdempotencyKey('F0123ABC', 43, 0),
      batchIdempotencyKey('F0123ABD', 42, 0),
      // No ambiguity between the parts: ("a1", 2) vs ("a", 12).
      batchIdempotencyKey('F0123ABC4', 2, 0),
      batchIdempotencyKey('F0123ABC', 42, 10),
    ];
    expect(new Set([key, ...others]).size).toBe(6);
  });

  it('never changes across releases (a re-sent batch after an upgrade must keep its key)', () => {
    expect(batchIdempotencyKey('F0123ABC', 42, 0)).toBe('efa8859a-cbf1-591d-bc7d-95afa8c2dd20');
  });

  it('refuses inputs that would make keys collide or be meaningless', () => {
    expect(() => batchIdempotencyKey('', 1, 0)).toThrow(RangeError);
    expect(() => batchIdempotencyKey('F1', 1, -1)).toThrow(RangeError);
    expect(() => batchIdempotencyKey('F1', 1.5, 0)).toThrow(RangeError);
  });
});

describe('failureReportCsv', () => {
  it('writes row,value,reason with RFC 4180 quoting and CRLF line ends', () => {
    const csv = failureReportCsv([
      { rowNumber: 3, original: 'N/A', reason: 'no digits: not a phone number' },
      { rowNumber: 4, original: '5512345690, 5512345691', reason: 'holds more than one number' },
      { rowNumber: 5, original: '55 "casa"', reason: 'contains letters' },
      { rowNumber: 6, original: 'línea 1\nlínea 2', reason: 'x' },
      { rowNumber: 7, original: '', reason: 'empty number' },
    ]);
    expect(csv).toBe(
      'row,value,reason\r\n' +
        '3,N/A,no digits: not a phone number\r\n' +
        '4,"5512345690, 5512345691",holds more than one number\r\n' +
        '5,"55 ""casa""",contains letters\r\n' +
        '6,"línea 1\nlínea 2",x\r\n' +
        '7,,empty number\r\n',
    );
  });

  it('prefixes cells a spreadsheet would run as formulas, phone numbers with + included', () => {
    const csv = failureReportCsv([
      { rowNumber: 2, original: '+52 55 1234 567', reason: 'too short: 9 digits; a number in Mexico has 10' },
      { rowNumber: 3, original: '=HYPERLINK("http://x","y")', reason: '@SUM(1)' },
      { rowNumber: 4, original: '-5512345678', reason: '\tx' },
    ]);
    expect(csv).toBe(
      'row,value,reason\r\n' +
        "2,'+52 55 1234 567,too short: 9 digits; a number in Mexico has 10\r\n" +
        `3,"'=HYPERLINK(""http://x"",""y"")",'@SUM(1)\r\n` +
        "4,'-5512345678,'\tx\r\n",
    );
    // And a CSV parser reads back exactly the (prefixed) values.
    expect(parse(csv, { relax_column_count: false })).toEqual([
      ['row', 'value', 'reason'],
      ['2', "'+52 55 1234 567", 'too short: 9 digits; a number in Mexico has 10'],
      ['3', `'=HYPERLINK("http://x","y")`, "'@SUM(1)"],
      ['4', "'-5512345678", "'\tx"],
    ]);
  });

  it('starts with a BOM only when asked (for Excel to read UTF-8)', () => {
    expect(failureReportCsv([])).toBe('row,value,reason\r\n');
    expect(failureReportCsv([], { bom: true })).toBe('\uFEFFrow,value,reason\r\n');
  });
});
