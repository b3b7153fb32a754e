/**
 * Why a file could not be read, in both languages (src/slack/upload/file-problem-text.ts): every FileFormatError and
 * SlackFileError problem has an English and a Spanish sentence; the English one is the error's own message (the
 * text users saw before the catalogs, still what logs and the job record keep), checked on errors the real reading
 * code and the download checks throw.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { FileFormatError, type FileProblem } from '../../src/contacts/errors.js';
import { fileLimits, openContactFile } from '../../src/contacts/index.js';
import { openIsolatedContactFile } from '../../src/contacts/isolated-reader.js';
import { unreadable } from '../../src/contacts/xlsx-zip.js';
import { translator } from '../../src/i18n/translator.js';
import { checkDownloadUrl, SlackFileError, type SlackFileProblem } from '../../src/slack/upload/download.js';
import { fileErrorSentence, fileProblemText, slackFileProblemText } from '../../src/slack/upload/file-problem-text.js';
import { namedColumnsCsv, zipOf } from '../support/hostile-files.js';

const en = translator('en');
const es = translator('es');

/** One problem of each kind: the Record makes a new kind without a sample a compile error. */
const FILE_PROBLEMS: { [K in FileProblem['kind']]: FileProblem & { kind: K } } = {
  binary: { kind: 'binary', file: 'a.csv' },
  emptyBytes: { kind: 'emptyBytes', file: 'a.csv' },
  openDocument: { kind: 'openDocument', file: 'a.ods' },
  emptyZip: { kind: 'emptyZip', file: 'a.xlsx' },
  oldExcel: { kind: 'oldExcel', file: 'a.xls' },
  pdf: { kind: 'pdf', file: 'a.pdf' },
  webPage: { kind: 'webPage', file: 'a.xls' },
  xmlFile: { kind: 'xmlFile', file: 'a.xml' },
  noWorksheet: { kind: 'noWorksheet', file: 'a.xlsx' },
  tooComplex: { kind: 'tooComplex', file: 'a.xlsx' },
  passwordProtected: { kind: 'passwordProtected', file: 'a.xlsx' },
  noRows: { kind: 'noRows', file: '' },
  noRowsInSheet: { kind: 'noRowsInSheet', file: 'a.xlsx', sheet: 'Hoja1' },
  workbookTooLarge: { kind: 'workbookTooLarge', file: 'a.xlsx', mb: 20 },
  tooManyColumns: { kind: 'tooManyColumns', file: 'a.csv', width: 1200, max: 1000 },
  noContacts: { kind: 'noContacts', file: 'a.csv', headers: '"Teléfono", "Nombre"' },
  quoteNotClosed: { kind: 'quoteNotClosed', file: 'a.csv', row: 3 },
  recordTooLong: { kind: 'recordTooLong', file: 'a.csv', row: 3, max: 1048576 },
  textAfterQuote: { kind: 'textAfterQuote', file: 'a.csv', row: 3 },
  csvUnreadable: { kind: 'csvUnreadable', file: 'a.csv', row: 3, detail: 'x' },
  zipManyParts: { kind: 'zipManyParts', file: 'a.xlsx', parts: 20000 },
  unpacksTooLarge: { kind: 'unpacksTooLarge', file: 'a.xlsx', max: '100 MB', part: 'xl/sharedStrings.xml' },
  lyingPart: { kind: 'lyingPart', file: 'a.xlsx', part: 'xl/sharedStrings.xml' },
  unreadableWorkbook: { kind: 'unreadableWorkbook', file: 'a.xlsx', damage: 'cutShort', detail: 'x' },
  noPhoneColumn: { kind: 'noPhoneColumn', file: 'a.csv', found: '"Nombre"', more: 0 },
};

const SLACK_PROBLEMS: { [K in SlackFileProblem['kind']]: SlackFileProblem & { kind: K } } = {
  tooLarge: { kind: 'tooLarge', file: 'a.csv', size: '12 MB', max: '10 MB' },
  badUrl: { kind: 'badUrl', why: 'notUrl' },
  outsideSlack: { kind: 'outsideSlack', host: 'evil.example', plainHttp: false },
  externalLink: { kind: 'externalLink', file: 'a.csv', where: 'Google Drive' },
  badFileId: { kind: 'badFileId' },
  deletedOrHidden: { kind: 'deletedOrHidden' },
  deleted: { kind: 'deleted' },
  unreachable: { kind: 'unreachable' },
  otherFile: { kind: 'otherFile' },
  refusedInfo: { kind: 'refusedInfo', code: 'missing_scope' },
  unavailable: { kind: 'unavailable', why: 'http', status: 502 },
  redirectedAway: { kind: 'redirectedAway', host: 'evil.example' },
  notAuthorized: { kind: 'notAuthorized', why: 'signIn' },
};

describe('every problem in both languages', () => {
  it.each(Object.values(FILE_PROBLEMS))('file problem $kind', (p) => {
    const english = fileProblemText(p, en);
    const spanish = fileProblemText(p, es);
    expect(english).not.toBe(spanish);
    expect(spanish).not.toMatch(/undefined|\bthe file\b|\bupload\b/i);
    if (p.file) expect(spanish).toContain(`"${p.file}"`);
  });

  it.each(Object.values(SLACK_PROBLEMS))('Slack file problem $kind', (p) => {
    const english = slackFileProblemText(p, en);
    const spanish = slackFileProblemText(p, es);
    expect(english).not.toBe(spanish);
    expect(spanish).not.toMatch(/undefined|\bthe file\b|\bupload\b/i);
  });

  it('a Spanish file-format error reads as Spanish', () => {
    expect(fileProblemText(FILE_PROBLEMS.noRows, es)).toBe(
      'El archivo no tiene filas: está vacío o solo tiene líneas en blanco. Sube un archivo con una fila de encabezados y contactos.',
    );
    expect(fileProblemText(FILE_PROBLEMS.tooManyColumns, es)).toContain('tiene 1,200 columnas');
  });
});

describe('the English sentence is the error message the code throws', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'file-problem-text-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function thrown(bytes: Buffer, fileName?: string): Promise<FileFormatError> {
    const err = await openContactFile(Readable.from([bytes]), {
      ...(fileName ? { fileName } : {}),
      defaultCountry: 'MX',
      limits: { ...fileLimits(), maxColumns: 50 },
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(err instanceof FileFormatError)) throw new Error(`expected a FileFormatError, got ${String(err)}`);
    return err;
  }

  const FILES: [string, () => Buffer | Promise<Buffer>][] = [
    ['empty', () => Buffer.alloc(0)],
    ['binary', () => Buffer.from([1, 2, 3, 4, 5, 6, 0, 7, 8, 9])],
    ['pdf', () => Buffer.from('%PDF-1.4\n...')],
    ['old Excel', () => Buffer.from('d0cf11e0a1b11ae1000000', 'hex')],
    ['web page', () => Buffer.from('<html><table><tr><td>1</td></tr></table></html>')],
    ['XML', () => Buffer.from('<?xml version="1.0"?><Workbook/>')],
    ['empty ZIP', () => Buffer.from('504b0506' + '00'.repeat(18), 'hex')],
    ['blank lines', () => Buffer.from('\n\n\n')],
    ['header only', () => Buffer.from('Teléfono,Nombre\n')],
    ['no phone column', () => Buffer.from('Nombre,Notas\nAna,x\n')],
    ['quote not closed', () => Buffer.from('Teléfono,Nombre\n5520000001,"Ana\n5520000002,Bea\n')],
    ['text after a quote', () => Buffer.from('Teléfono,Nombre\n5520000001,"Ana"x\n')],
    ['too many columns', () => namedColumnsCsv(80)],
    ['a ZIP without a worksheet', () => zipOf([{ name: 'hello.txt', content: Buffer.from('hi') }])],
    ['a damaged workbook', () => Buffer.concat([Buffer.from('504b0304', 'hex'), Buffer.alloc(64, 7)])],
  ];

  it.each(FILES)('%s, named and unnamed', async (_what, bytes) => {
    for (const name of ['contactos.csv', undefined]) {
      const err = await thrown(await bytes(), name);
      expect(fileProblemText(err.problem, en)).toBe(err.message);
      expect(fileErrorSentence(err, es)).not.toBe(err.message);
    }
  });

  it('a file-format error keeps its problem across the reader thread', async () => {
    writeFileSync(join(dir, 'sin-telefono.csv'), 'Nombre\nAna\n');
    const err = await openIsolatedContactFile({
      path: join(dir, 'sin-telefono.csv'),
      fileName: 'sin-telefono.csv',
      defaultCountry: 'MX',
      batchSize: 100,
      limits: fileLimits(),
      rejectedPath: join(dir, 'rejected'),
      rejectedKept: 3,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileFormatError);
    const e = err as FileFormatError;
    expect(fileProblemText(e.problem, en)).toBe(e.message);
    expect(fileProblemText(e.problem, es)).toBe(
      '"sin-telefono.csv": No se encontró una columna de teléfono. Columnas del archivo: "Nombre". Ponle a la columna de los números el nombre "Teléfono", "Celular", "WhatsApp" o "Phone" (la primera fila debe ser la de encabezados).',
    );
  });

  it('an unreadable workbook, cut short', () => {
    const err = unreadable('a.xlsx', new Error('end of central directory record signature not found'));
    expect(fileProblemText(err.problem, en)).toBe(err.message);
  });

  it.each([
    '',
    'not a url',
    'https://user:pw@files.slack.com/x',
    'ftp://files.slack.com/x',
    'https://files.slack.com/api/files.info',
    'http://files.slack.com/x',
    'https://evil.example/x',
    'http://evil.example/x',
  ])('download address %j', (url) => {
    let err: unknown;
    try {
      checkDownloadUrl(url, 'http://127.0.0.1:1/api/');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SlackFileError);
    const e = err as SlackFileError;
    expect(slackFileProblemText(e.problem, en)).toBe(e.message);
    expect(fileErrorSentence(e, es)).toMatch(/^Slack dio|^Slack dice/);
  });
});
