/**
 * A state file's whole text (its snapshot): the records of one collection and key head with their version and expiry,
 * `{ "format": 2, "collection": "…", "journal": 7, "prev": 6, "records": { "<key>": { "version": 3, "expiresAt": 0,
 * "value": … } } }`, `journal` naming the journal that continues it (journal.ts) and `prev` the one its previous
 * generation (`.prev`) needs. Format 1 (no journal) is still read.
 */
import type { Row } from '../memory-store.js';

/** The format written; format 1 (no journal) is still read. */
const FORMAT = 2;

/** What one file holds, as lowdb's data. */
export interface FileData {
  collection: string;
  rows: Array<[string, Row]>;
  /** The generation of the journal that continues this snapshot (0 for a format 1 file). */
  journal: number;
  /** The journal generation the previous generation of this file (`.prev`) names, when known. */
  prev?: number;
}

export function serializeSnapshot(data: FileData): string {
  const lines = data.rows.map(([key, row]) => {
    const expiry = row.expiresAt === undefined ? '' : `,"expiresAt":${row.expiresAt}`;
    return `${JSON.stringify(key)}:{"version":${row.version}${expiry},"value":${row.json}}`;
  });
  const prev = data.prev === undefined ? '' : `,"prev":${data.prev}`;
  return (
    `{"format":${FORMAT},"collection":${JSON.stringify(data.collection)},"journal":${data.journal}${prev},"records":{` +
    (lines.length ? `\n${lines.join(',\n')}\n` : '') +
    '}}\n'
  );
}

/** Parses a file's text; throws a message naming what is wrong. */
export function parseSnapshot(text: string): FileData {
  if (text.length === 0) throw new Error('is empty');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`is not valid JSON (${(e as Error).message})`);
  }
  const doc = json as {
    format?: unknown;
    collection?: unknown;
    journal?: unknown;
    prev?: unknown;
    records?: unknown;
  } | null;
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new Error('is not a JSON object');
  if (typeof doc.format === 'number' && doc.format > FORMAT) {
    throw new Error(`was written by a newer version of this app (format ${doc.format}; this version reads ${FORMAT})`);
  }
  const journal = doc.format === 1 ? 0 : doc.journal;
  if (
    (doc.format !== FORMAT && doc.format !== 1) ||
    typeof doc.collection !== 'string' ||
    !Number.isSafeInteger(journal) ||
    (doc.prev !== undefined && !Number.isSafeInteger(doc.prev))
  ) {
    throw new Error(`does not have the expected shape { format: ${FORMAT}, collection, journal, records }`);
  }
  return {
    collection: doc.collection,
    rows: parseRecords(doc.records),
    journal: journal as number,
    ...(doc.prev !== undefined ? { prev: doc.prev as number } : {}),
  };
}

/** The `records` object of a snapshot as rows; throws a message naming what is wrong. */
function parseRecords(records: unknown): Array<[string, Row]> {
  if (records === null || typeof records !== 'object' || Array.isArray(records)) {
    throw new Error('has no "records" object');
  }
  const rows: Array<[string, Row]> = [];
  for (const [key, rec] of Object.entries(records as Record<string, unknown>)) {
    const r = rec as { version?: unknown; expiresAt?: unknown; value?: unknown } | null;
    const ok =
      r !== null &&
      typeof r === 'object' &&
      Number.isSafeInteger(r.version) &&
      (r.version as number) > 0 &&
      (r.expiresAt === undefined || typeof r.expiresAt === 'number') &&
      'value' in r;
    if (!ok) throw new Error(`has an invalid record ${JSON.stringify(key)}`);
    const row: Row = { json: JSON.stringify(r.value), version: r.version as number };
    if (r.expiresAt !== undefined) row.expiresAt = r.expiresAt as number;
    rows.push([key, row]);
  }
  return rows;
}
