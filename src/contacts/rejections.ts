/**
 * Rejected rows counted by kind, for the summary of an upload. Kept apart from normalize.ts so the main thread,
 * which only counts (the reader thread normalizes), does not load the parsing pipeline.
 */

/** Why rows were rejected, counted by kind (for a summary line such as "12 not valid · 3 repeated in the file"). */
export interface RejectionCounts {
  /** No number in the phone column. */
  empty: number;
  /** A number that is not a valid phone number. */
  invalid: number;
  /** The same number as an earlier row. */
  repeated: number;
  /** Values beyond the header's columns. */
  broken: number;
  /** A cell, the row or the phone value over the character caps. */
  tooLong: number;
}

export function noRejections(): RejectionCounts {
  return { empty: 0, invalid: 0, repeated: 0, broken: 0, tooLong: 0 };
}

/**
 * Why a row was rejected, as data: `reason` (English) is what the code says in words, this what the uploader's
 * language says it from (src/slack/upload/row-reason-text.ts).
 */
export type RowReasonCode =
  | 'emptyNumber'
  | 'noDigits'
  | 'severalNumbers'
  | 'scientific'
  | 'letters'
  | 'unknownCountryCode'
  | 'shortUnparsed'
  | 'longUnparsed'
  | 'notPhone'
  | 'extension'
  | 'tooShort'
  | 'tooLong'
  | 'invalidForCountry'
  | 'cellTooLong'
  | 'rowTooLong'
  | 'beyondHeader'
  | 'phoneTooLong'
  | 'duplicate';

export interface RowReason {
  code: RowReasonCode;
  values?: Readonly<Record<string, string | number>>;
}

const KIND_BY_CODE: Partial<Record<RowReasonCode, keyof RejectionCounts>> = {
  cellTooLong: 'tooLong',
  rowTooLong: 'tooLong',
  phoneTooLong: 'tooLong',
  beyondHeader: 'broken',
  emptyNumber: 'empty',
  duplicate: 'repeated',
};

export function rejectionKind(r: { original: string; reason: string; why?: RowReason }): keyof RejectionCounts {
  if (r.why) return KIND_BY_CODE[r.why.code] ?? (r.original === '' ? 'empty' : 'invalid');
  // Rows of an upload recorded before reasons carried their code.
  if (r.reason.startsWith('the value in column') || r.reason.startsWith('the row has')) return 'tooLong';
  if (r.reason.startsWith('too long to be a phone number')) return 'tooLong';
  if (r.reason.startsWith('has values beyond')) return 'broken';
  if (r.original === '') return 'empty';
  if (r.reason.startsWith('duplicate of row')) return 'repeated';
  return 'invalid';
}

export function totalRejected(c: RejectionCounts): number {
  return c.empty + c.invalid + c.repeated + c.broken + c.tooLong;
}
