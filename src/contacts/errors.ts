/**
 * The one error the contacts pipeline throws for a file it cannot read. Its message is written for the person who
 * uploaded the file: it names what is wrong and how to fix it, and can be shown as is (after mrkdwn escaping).
 */
export type FileFormatErrorCode =
  /** 0 bytes, or nothing but blank lines. */
  | 'EMPTY_FILE'
  /** A header row and nothing (but blank rows) under it. */
  | 'NO_CONTACT_ROWS'
  /** NUL bytes / control characters where text was expected. */
  | 'BINARY_FILE'
  /** A known format we do not read (.xls, .ods, PDF, HTML saved as .xls...). */
  | 'UNSUPPORTED_FORMAT'
  /** A ZIP that exceljs cannot read as a workbook, or a workbook without a worksheet. */
  | 'UNREADABLE_XLSX'
  /** Broken CSV quoting (a quote never closed, text after a closing quote, a record too large). */
  | 'MALFORMED_CSV'
  /** No column of the header row is a phone column. */
  | 'NO_PHONE_COLUMN'
  /** A header row wider than the column cap (FileLimits.maxColumns). */
  | 'TOO_MANY_COLUMNS'
  /** An XLSX whose parts unpack (declared or actually) to more than FileLimits.maxUnpackedBytes. */
  | 'TOO_LARGE_UNPACKED'
  /** Reading the file took more memory than a reader may use (its worker thread was ended). */
  | 'TOO_COMPLEX';

/**
 * Which sentence a FileFormatError's message is, with the values it names, so the app can say it in the uploader's
 * language (src/render/file-problems.ts); `message` stays the English sentence (logs, the job record, audit).
 */
export type FileProblem =
  | {
      kind: 'binary' | 'emptyBytes' | 'openDocument' | 'emptyZip' | 'oldExcel' | 'pdf' | 'webPage' | 'xmlFile';
      file: string;
    }
  | { kind: 'noWorksheet' | 'tooComplex' | 'passwordProtected' | 'noRows'; file: string }
  | { kind: 'noRowsInSheet'; file: string; sheet: string }
  | { kind: 'workbookTooLarge'; file: string; mb: number }
  | { kind: 'tooManyColumns'; file: string; width: number; max: number }
  | { kind: 'noContacts'; file: string; headers: string }
  | { kind: 'quoteNotClosed' | 'textAfterQuote'; file: string; row: number }
  | { kind: 'recordTooLong'; file: string; row: number; max: number }
  | { kind: 'csvUnreadable'; file: string; row: number; detail: string }
  | { kind: 'zipManyParts'; file: string; parts: number }
  | {
      kind: 'unpacksTooLarge';
      file: string;
      max: string;
      part: string;
      /** Set when the parts' declared sizes went over, not their bytes while unpacking. */
      declared?: { total: string; part: string };
    }
  | { kind: 'lyingPart'; file: string; part: string }
  | { kind: 'unreadableWorkbook'; file: string; damage: 'cutShort' | 'damagedPart' | 'other'; detail: string }
  | { kind: 'noPhoneColumn'; file: string; found: string; more: number };

export class FileFormatError extends Error {
  override readonly name = 'FileFormatError';
  constructor(
    readonly code: FileFormatErrorCode,
    message: string,
    /** The sentence as data (`file` is the file's name, '' when unknown). */
    readonly problem: FileProblem,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** `"contacts.csv"` or `The file`, to start an error message. */
export function describeFile(fileName: string | undefined): string {
  return fileName ? `"${fileName}"` : 'The file';
}
