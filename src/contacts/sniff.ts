/**
 * Tells a spreadsheet from delimited text by the first bytes of the file. The content decides, not the name:
 * a CSV renamed `.xlsx` is read as CSV, an XLSX without extension as XLSX. The name and MIME type only give the
 * wording of messages and a tie-break for the delimiter (`.tsv` → tab).
 */
import { describeFile, FileFormatError } from './errors.js';

export type FileFormat = 'csv' | 'xlsx';

export interface SniffOptions {
  fileName?: string;
  mimeType?: string;
}

export interface Sniffed {
  format: FileFormat;
  /** Delimiter to prefer when the content does not decide (a one-column file). */
  delimiterHint?: string;
}

/** How many bytes `sniffFormat` wants to see (fewer if the file is shorter). */
export const SNIFF_BYTES = 8 * 1024;

const ZIP_LOCAL_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const ZIP_EMPTY = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const PDF = Buffer.from('%PDF-', 'latin1');

const SAVE_AS_HINT = 'Open it in Excel or Google Sheets and save it as .xlsx or "CSV UTF-8", then upload that file.';

function startsWith(head: Buffer, magic: Buffer): boolean {
  return head.length >= magic.length && head.subarray(0, magic.length).equals(magic);
}

/**
 * Bytes that never occur in text: C0 controls other than tab, LF, VT, FF, CR and the DOS end-of-file mark (0x1A).
 * One NUL is enough to call a file binary (CSV never holds one); other controls must be over 1% of the head.
 */
function looksBinary(head: Buffer): boolean {
  if (head.indexOf(0) !== -1) return true;
  let controls = 0;
  for (let i = 0; i < head.length; i++) {
    const b = head[i]!;
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0b && b !== 0x0c && b !== 0x0d && b !== 0x1a) controls++;
    else if (b === 0x7f) controls++;
  }
  return controls > Math.max(2, head.length / 100);
}

export function binaryFileError(fileName: string | undefined): FileFormatError {
  return new FileFormatError(
    'BINARY_FILE',
    `${describeFile(fileName)} is not a CSV or Excel file: it contains binary data. Upload a .csv, .tsv, .txt or .xlsx ` +
      `file. ${SAVE_AS_HINT}`,
    { kind: 'binary', file: fileName ?? '' },
  );
}

function hasUtf16Bom(head: Buffer): boolean {
  return head.length >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff));
}

export function sniffFormat(head: Buffer, opts: SniffOptions): Sniffed {
  const file = describeFile(opts.fileName);
  if (head.length === 0) {
    throw new FileFormatError(
      'EMPTY_FILE',
      `${file} is empty (0 bytes). Upload a file with a header row and contacts.`,
      { kind: 'emptyBytes', file: opts.fileName ?? '' },
    );
  }
  if (startsWith(head, ZIP_LOCAL_HEADER)) {
    // An OpenDocument file is a ZIP whose first entry is an uncompressed `mimetype` naming its type.
    const firstName = head.subarray(30, 38).toString('latin1');
    if (firstName === 'mimetype' && head.subarray(38, 120).toString('latin1').includes('opendocument')) {
      throw new FileFormatError(
        'UNSUPPORTED_FORMAT',
        `${file} is an OpenDocument file (LibreOffice / .ods), which can't be read. ${SAVE_AS_HINT}`,
        { kind: 'openDocument', file: opts.fileName ?? '' },
      );
    }
    return { format: 'xlsx' };
  }
  if (startsWith(head, ZIP_EMPTY)) {
    throw new FileFormatError('UNREADABLE_XLSX', `${file} is an empty ZIP archive, not an Excel workbook.`, {
      kind: 'emptyZip',
      file: opts.fileName ?? '',
    });
  }
  if (startsWith(head, OLE2)) {
    throw new FileFormatError(
      'UNSUPPORTED_FORMAT',
      `${file} is an old-style Excel 97-2003 workbook (.xls), which can't be read. ${SAVE_AS_HINT}`,
      { kind: 'oldExcel', file: opts.fileName ?? '' },
    );
  }
  if (startsWith(head, PDF)) {
    throw new FileFormatError(
      'UNSUPPORTED_FORMAT',
      `${file} is a PDF, not a spreadsheet. Upload a .csv or .xlsx file.`,
      { kind: 'pdf', file: opts.fileName ?? '' },
    );
  }
  if (!hasUtf16Bom(head)) {
    if (looksBinary(head)) throw binaryFileError(opts.fileName);
    // Web apps often export an HTML table (or Excel's 2003 XML) named .xls: it reads as text but is not CSV.
    const start = head
      .subarray(0, 1024)
      .toString('latin1')
      .replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
      .trimStart();
    if (start.startsWith('<')) {
      const lower = start.toLowerCase();
      if (lower.includes('<html') || lower.includes('<table') || lower.includes('<!doctype')) {
        throw new FileFormatError(
          'UNSUPPORTED_FORMAT',
          `${file} is a web page (an HTML table), not a CSV or Excel file. ${SAVE_AS_HINT}`,
          { kind: 'webPage', file: opts.fileName ?? '' },
        );
      }
      if (lower.startsWith('<?xml')) {
        throw new FileFormatError(
          'UNSUPPORTED_FORMAT',
          `${file} is an XML file (perhaps "XML Spreadsheet 2003"), not a CSV or Excel file. ${SAVE_AS_HINT}`,
          { kind: 'xmlFile', file: opts.fileName ?? '' },
        );
      }
    }
  }
  const name = (opts.fileName ?? '').toLowerCase();
  const mime = (opts.mimeType ?? '').toLowerCase();
  const tabHinted = name.endsWith('.tsv') || name.endsWith('.tab') || mime.includes('tab-separated');
  return { format: 'csv', ...(tabHinted ? { delimiterHint: '\t' } : {}) };
}
