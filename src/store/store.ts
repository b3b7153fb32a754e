/**
 * What the app remembers, behind one interface with two implementations: embedded (lowdb files under STATE_DIR,
 * one process) and PostgreSQL (DATABASE_URL, any number of replicas). Tests use the in-memory one as well.
 *
 * State is named collections of JSON records keyed by string. Each feature owns its collections and their record
 * types; the store keeps, persists, lists and expires them. Every read is asynchronous (a record may live in
 * another process's database), nothing requires the whole state in memory, and a caller sees its own writes.
 *
 * Rules callers rely on, identical in every implementation (test/contract/store-contract.ts proves them):
 * - A write's promise resolves once the change is durable (fsynced file, committed row). A caller that must not
 *   lose something awaits it before moving on (e.g. before posting to Slack what the record describes).
 * - `list` returns records in ascending key order (code-point order), filtered by key prefix and/or by equality on
 *   indexed top-level fields (declared in the collection's spec).
 * - Conditional writes are atomic across processes: of two concurrent `insertIfAbsent` of one key exactly one
 *   returns true; `compareAndSet` succeeds only if the record's version is still the one read.
 * - A record put with `expiresAt` (ms since the epoch) is invisible from that instant and is removed by `sweep`.
 * - Records are detached JSON: what `get` returns is a copy as a restart would read it back.
 *
 * Keys: a key's head (the text before its first `/`, e.g. a campaign or channel id) is the unit the embedded store
 * writes: one file per collection and key head, so a change rewrites only that small part. Key records that change
 * together under one head (`${campaignId}/${callId}`), and give keys without `/` only to small collections.
 */

/** A top-level field of a record that can be listed by equality. */
export type IndexValue = string | number | boolean;

export interface CollectionSpec {
  name: string;
  /** Top-level fields listed by equality (`list({ where })`); only these may be used in `where`. */
  indexes?: readonly string[];
}

export interface Versioned<T> {
  value: T;
  /** Increases with every write of the key; compare-and-set compares it. */
  version: number;
}

export interface WriteOptions {
  /** ms since the epoch from which the record no longer exists. */
  expiresAt?: number;
}

export interface ListOptions {
  /** Only keys starting with this text. */
  prefix?: string;
  /** Only records whose indexed fields equal these values. */
  where?: Readonly<Record<string, IndexValue>>;
  /** At most this many (the first ones in key order). */
  limit?: number;
}

export interface Collection<T> {
  readonly name: string;
  get(key: string): Promise<T | undefined>;
  getVersioned(key: string): Promise<Versioned<T> | undefined>;
  list(opts?: ListOptions): Promise<Array<[string, T]>>;
  count(opts?: ListOptions): Promise<number>;
  /** Writes the record, replacing any previous one. */
  put(key: string, value: T, opts?: WriteOptions): Promise<void>;
  /** Writes only if no (unexpired) record has the key; true when this call wrote it. */
  insertIfAbsent(key: string, value: T, opts?: WriteOptions): Promise<boolean>;
  /** Writes only if the record's version is still `expectedVersion`; true when this call wrote it. */
  compareAndSet(key: string, expectedVersion: number, value: T, opts?: WriteOptions): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Deletes every record whose key starts with the prefix; returns how many. */
  deletePrefix(prefix: string): Promise<number>;
}

/** Whether changes can be made durable right now (for /healthz and for pausing delivery to Slack). */
export interface StoreStatus {
  durable: boolean;
  /** Why not, in words for an operator (no secrets). */
  problem?: string;
  /** When the current problem was first seen (ms since the epoch). */
  since?: number;
}

export interface Store {
  readonly kind: 'embedded' | 'postgres' | 'memory';
  collection<T>(spec: CollectionSpec | string): Collection<T>;
  /** Removes records whose `expiresAt` has passed; returns how many. Called periodically by the app. */
  sweep(now?: number): Promise<number>;
  status(): StoreStatus;
  /**
   * Tries a write now (a small probe record) and updates `status()`: lets delivery resume by itself once the disk
   * or the database takes writes again.
   */
  probe(): Promise<StoreStatus>;
  /** Calls `listener` whenever `status().durable` changes. Returns a function that removes it. */
  onStatus(listener: (status: StoreStatus) => void): () => void;
  /** Resolves when every change made so far is durable. */
  flush(): Promise<void>;
  /** Flushes, then refuses further writes. */
  close(): Promise<void>;
}

/** One record as a copy of the state must keep it (`npm run state:copy`). */
export interface ExportedRecord {
  key: string;
  value: unknown;
  /** ms since the epoch, when the record was written with one. */
  expiresAt?: number;
}

/** A store whose whole content can be read out, collection by collection (the source and target of a copy). */
export interface ExportableStore extends Store {
  /** The names of the collections that hold at least one record, in code-point order. */
  collectionNames(): Promise<string[]>;
  /** Every unexpired record of the collection, in key order, with its expiry. */
  exportRecords(collection: string): AsyncIterable<ExportedRecord>;
}

/** What a store logs through (the app's logger satisfies it; the store imports nothing else of the app). */
export interface StoreLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** A change was attempted after `close()`. */
export class StoreClosedError extends Error {
  override name = 'StoreClosedError';
  constructor(what: string) {
    super(`The store is closed (the app is shutting down), so ${what} was not saved.`);
  }
}

/** A write could not be made durable (disk full, database down, ...); nothing that depends on it may go on. */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A `where` on a field the collection does not index. */
export function assertIndexed(spec: CollectionSpec, where: ListOptions['where']): void {
  for (const field of Object.keys(where ?? {})) {
    if (!spec.indexes?.includes(field)) {
      throw new Error(`Collection ${spec.name} does not index "${field}"; declare it in its spec's indexes.`);
    }
  }
}

export function specOf(spec: CollectionSpec | string): CollectionSpec {
  return typeof spec === 'string' ? { name: spec } : spec;
}
