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

export class FileFormatError extends Error {
  override readonly name = 'FileFormatError';
  constructor(
    readonly code: FileFormatErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** `"contacts.csv"` or `The file`, to start an error message. */
export function describeFile(fileName: string | undefined): string {
  return fileName ? `"${fileName}"` : 'The file';
}
