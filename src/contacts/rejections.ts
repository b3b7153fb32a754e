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

export function rejectionKind(r: { original: string; reason: string }): keyof RejectionCounts {
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
