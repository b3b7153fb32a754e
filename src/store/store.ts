/**
 * What the app remembers, behind one small interface: named collections of JSON records keyed by string.
 * Each feature owns its collections (subscriptions, poll cursors, message mappings, upload jobs, ...) and their
 * record types; the store only keeps, persists and reloads them.
 *
 * Writes are coalesced: `set`/`delete` change memory at once and schedule one write of the whole state; every call
 * made before that write starts shares it. The returned promise resolves once the change is durable on disk, so a
 * caller that must not lose a cursor awaits it before moving on, and a loop that sets many records writes once.
 */
export interface Collection<T> {
  get(key: string): T | undefined;
  has(key: string): boolean;
  /** Every [key, record] pair, in insertion order. */
  entries(): Array<[string, T]>;
  values(): T[];
  size(): number;
  set(key: string, value: T): Promise<void>;
  delete(key: string): Promise<void>;
}

export interface Store {
  collection<T>(name: string): Collection<T>;
  /** Resolves when every change made so far is on disk. */
  flush(): Promise<void>;
  /** Flushes, then refuses further writes. */
  close(): Promise<void>;
}
