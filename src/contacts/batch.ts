/**
 * Contacts → request-sized batches for POST /campaigns/{id}/contacts, and the idempotency key of each batch.
 */
import { createHash } from 'node:crypto';
import { MAX_CONTACTS_PER_BATCH } from '../outreach/unspecified.js';
import type { ContactInput } from '../outreach/schemas.js';
import type { NormalizedRow, RejectedRow } from './normalize.js';

export interface ContactBatch {
  /** 0-based position of the batch in the file. */
  index: number;
  contacts: ContactInput[];
  /** `rowNumbers[i]` is the file row of `contacts[i]`: maps the response's `results[].index` back to the file. */
  rowNumbers: number[];
}

export interface RowContact {
  rowNumber: number;
  contact: ContactInput;
}

/** Groups contacts in file order into batches of `size` (1 to MAX_CONTACTS_PER_BATCH); the last may be smaller. */
export async function* batch(
  contacts: AsyncIterable<RowContact> | Iterable<RowContact>,
  size: number = MAX_CONTACTS_PER_BATCH,
): AsyncGenerator<ContactBatch> {
  if (!Number.isInteger(size) || size < 1 || size > MAX_CONTACTS_PER_BATCH) {
    throw new RangeError(`batch size must be an integer from 1 to ${MAX_CONTACTS_PER_BATCH}, got ${size}`);
  }
  let index = 0;
  let current: ContactBatch = { index, contacts: [], rowNumbers: [] };
  for await (const c of contacts) {
    current.contacts.push(c.contact);
    current.rowNumbers.push(c.rowNumber);
    if (current.contacts.length === size) {
      yield current;
      current = { index: ++index, contacts: [], rowNumbers: [] };
    }
  }
  if (current.contacts.length > 0) yield current;
}

/**
 * The contacts of a `normalizeRows` stream, handing each rejected row to `onRejected` on the way (to collect them
 * for the failure report): `batch(onlyContacts(normalizeRows(...), (r) => rejected.push(r)))`.
 */
export async function* onlyContacts(
  rows: AsyncIterable<NormalizedRow> | Iterable<NormalizedRow>,
  onRejected: (row: RejectedRow) => void,
): AsyncGenerator<RowContact> {
  for await (const r of rows) {
    if (r.kind === 'contact') yield r;
    else onRejected(r);
  }
}

/** Namespace of our name-based UUIDs (a random UUID fixed once for this app). */
const BATCH_KEY_NAMESPACE = 'c8d3f1a2-5b7e-4e09-9a41-3f6d2b8e7c15';
const NAMESPACE_BYTES = Buffer.from(BATCH_KEY_NAMESPACE.replace(/-/g, ''), 'hex');

/**
 * `Idempotency-Key` of one batch of one file sent to one campaign: the same three values always give the same
 * key, so a batch re-sent after a crash or a timeout is recognised by the service instead of added twice.
 *
 * Shaped as an RFC 4122 name-based UUID (version 5 and variant bits set) so any UUID validator accepts it; the
 * bits come from SHA-256 of the namespace and the JSON of the three values rather than v5's SHA-1.
 */
export function batchIdempotencyKey(fileId: string, campaignId: number, batchIndex: number): string {
  if (!fileId) throw new RangeError('batchIdempotencyKey: fileId must not be empty');
  if (!Number.isSafeInteger(campaignId)) throw new RangeError(`batchIdempotencyKey: bad campaign id ${campaignId}`);
  if (!Number.isSafeInteger(batchIndex) || batchIndex < 0) {
    throw new RangeError(`batchIdempotencyKey: bad batch index ${batchIndex}`);
  }
  const digest = createHash('sha256')
    .update(NAMESPACE_BYTES)
    .update(JSON.stringify([fileId, campaignId, batchIndex]), 'utf8')
    .digest();
  const b = digest.subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x50; // version 5
  b[8] = (b[8]! & 0x3f) | 0x80; // RFC 4122 variant
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
