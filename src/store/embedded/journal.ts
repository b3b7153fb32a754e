/**
 * The journal: a change does not rewrite its file. The changed records (or their deletion) are appended, one JSON
 * line each, to the file's journal `<head>.json.j<N>`, N being the `journal` its snapshot names, and the journal is
 * fsynced; so a write costs about the size of what changed, however many records its file holds (a campaign's calls
 * over the retention days). When the journal has grown past the snapshot's size (and at least 2 × JOURNAL_MIN_BYTES)
 * times a factor between 1/2 and 1 drawn from the file's name and generation (compactionThreshold, compactionSpread:
 * files that grow alike, such as every campaign's calls, would otherwise all compact in the same poll cycle), the
 * next write compacts: the whole file is written again (snapshot.ts, durable-file.ts) naming journal N + 1, and later
 * changes go there; each byte is thus written two to three times. On disk a file then takes at most about four times
 * its records (snapshot, journal, and the previous generation's). Journals older than the one the previous generation
 * (`prev`) needs are deleted then. At open, a file is its snapshot plus its journal(s), replayed in order; a line cut
 * short by a power loss ends the replay (it was never acknowledged) and the next write compacts.
 */
import { createHash } from 'node:crypto';
import type { Row } from '../memory-store.js';

/** A journal is compacted into its file once it is larger than the file's snapshot and than this (× the spread). */
const JOURNAL_MIN_BYTES = 64 * 1024;

/**
 * The journal size past which a file of `snapshotBytes` compacts: half to all of its snapshot (`spread` 1 to 2,
 * halved), and for a small file 64 to 128 KB. A file takes at most its snapshot and journal and the previous
 * generation's, about four times its records on disk; with a whole to twice the snapshot it was six.
 */
export function compactionThreshold(snapshotBytes: number, spread: number): number {
  return (Math.max(2 * JOURNAL_MIN_BYTES, snapshotBytes) * spread) / 2;
}

/** 1 to 2, the same for a file (its path in STATE_DIR) and generation in every run: when its journal is compacted. */
export function compactionSpread(path: string, gen: number): number {
  return 1 + createHash('sha1').update(`${path}\0${gen}`).digest().readUInt16BE(0) / 65_536;
}

/** The journal file of a file's generation. */
export const journalPath = (filePath: string, gen: number): string => `${filePath}.j${gen}`;

/** One journal line: a record as it is now, or its deletion. */
export function journalLine(key: string, row: Row | undefined): string {
  if (!row) return `{"k":${JSON.stringify(key)},"d":1}\n`;
  const expiry = row.expiresAt === undefined ? '' : `,"x":${row.expiresAt}`;
  return `{"k":${JSON.stringify(key)},"v":${row.version}${expiry},"r":${row.json}}\n`;
}

/** A journal's lines as changes, up to the first that does not parse (a write cut short). */
export function parseJournal(text: string): { changes: Array<[string, Row | undefined]>; torn: boolean } {
  const changes: Array<[string, Row | undefined]> = [];
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf('\n', start);
    if (end < 0) return { changes, torn: true };
    let line: { k?: unknown; v?: unknown; x?: unknown; r?: unknown; d?: unknown };
    try {
      line = JSON.parse(text.slice(start, end)) as typeof line;
    } catch {
      return { changes, torn: true };
    }
    if (typeof line !== 'object' || line === null || typeof line.k !== 'string') return { changes, torn: true };
    if (line.d === 1) changes.push([line.k, undefined]);
    else if (Number.isSafeInteger(line.v) && 'r' in line) {
      const row: Row = { json: JSON.stringify(line.r), version: line.v as number };
      if (typeof line.x === 'number') row.expiresAt = line.x;
      changes.push([line.k, row]);
    } else return { changes, torn: true };
    start = end + 1;
  }
  return { changes, torn: false };
}
