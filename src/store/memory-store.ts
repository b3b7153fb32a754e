/**
 * A Store that keeps everything in memory: for tests and the simulator-only sandbox runs where nothing needs to
 * survive a restart. It behaves like the other stores in everything callers can observe (store.ts): records are
 * detached JSON, keys are listed in code-point order, conditional writes and expiry work the same, and changes after
 * `close()` are refused. The record table itself (RecordTable) is shared with the embedded store, which adds files.
 */
import sortedBtree from 'sorted-btree';
import {
  StoreClosedError,
  assertIndexed,
  specOf,
  type Collection,
  type CollectionSpec,
  type ExportableStore,
  type ExportedRecord,
  type IndexValue,
  type ListOptions,
  type StoreStatus,
  type Versioned,
  type WriteOptions,
} from './store.js';

// sorted-btree is CommonJS with `exports.default = BTree`: imported from ESM, its default is `module.exports`.
const BTree = sortedBtree.default;
type BTreeOf<K, V> = import('sorted-btree').default<K, V>;

export interface Row {
  /** The record as JSON text: stored detached, parsed on every read. */
  json: string;
  version: number;
  expiresAt?: number;
  /** The record's indexed top-level fields (of the collection's spec) that hold an IndexValue. */
  indexed?: Record<string, IndexValue>;
}

/**
 * Code-point order, as PostgreSQL's "C" collation sorts UTF-8 keys. JavaScript's `<` compares UTF-16 code units,
 * which puts characters above U+FFFF (surrogate pairs) before U+E000..U+FFFF; the units are remapped so they do not.
 */
export function byKey(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800) x += x >= 0xe000 ? -0x800 : 0x2000;
    if (y >= 0xd800) y += y >= 0xe000 ? -0x800 : 0x2000;
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

export function toJson(name: string, key: string, value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`Cannot store ${String(value)} as ${name}/${key}: not a JSON value.`);
  return text;
}

/** Sets of keys at most this big are a sorted array; bigger ones a B+ tree (SortedKeys). */
const ARRAY_MAX = 512;

/**
 * Keys kept in code-point order, so a prefix is one contiguous run. Small sets (most index values: one thread's
 * posts) are a sorted array, found by binary search; a set that grows past ARRAY_MAX becomes a B+ tree
 * (sorted-btree), because inserting into or deleting from the middle of an array moves everything after it: with
 * a week of calls at 200 campaigns × 1,000 a day (1.4 million keys) each change moved megabytes, and a sweep
 * blocked the event loop for seconds.
 */
export class SortedKeys {
  private keys: string[] | undefined = [];
  private tree: BTreeOf<string, true> | undefined;

  get size(): number {
    return this.tree ? this.tree.size : this.keys!.length;
  }

  /** The index of the first key not before `key` in the array. */
  private lower(keys: string[], key: string): number {
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (byKey(keys[mid]!, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  add(key: string): void {
    if (this.tree) {
      this.tree.set(key, true);
      return;
    }
    const keys = this.keys!;
    const i = this.lower(keys, key);
    if (keys[i] === key) return;
    keys.splice(i, 0, key);
    if (keys.length > ARRAY_MAX) {
      this.tree = new BTree<string, true>(
        keys.map((k) => [k, true]),
        byKey,
      );
      this.keys = undefined;
    }
  }

  delete(key: string): void {
    if (this.tree) {
      this.tree.delete(key);
      return;
    }
    const keys = this.keys!;
    const i = this.lower(keys, key);
    if (keys[i] === key) keys.splice(i, 1);
  }

  /** The keys starting with `prefix`, in order (a snapshot: safe to change the set while iterating). */
  withPrefix(prefix = ''): string[] {
    return [...this.iterate(prefix)];
  }

  /** Like withPrefix, lazily: stops as soon as the caller does (a list with a limit). Do not change the set meanwhile. */
  *iterate(prefix = ''): Generator<string> {
    if (this.tree) {
      for (const key of this.tree.keys(prefix)) {
        if (!key.startsWith(prefix)) return;
        yield key;
      }
      return;
    }
    const keys = this.keys!;
    for (let i = this.lower(keys, prefix); i < keys.length && keys[i]!.startsWith(prefix); i++) yield keys[i]!;
  }
}

const indexSlot = (v: IndexValue): string => `${typeof v}:${String(v)}`;

function indexedFields(spec: CollectionSpec, json: string): Record<string, IndexValue> | undefined {
  if (!spec.indexes?.length) return undefined;
  const rec = JSON.parse(json) as unknown;
  if (rec === null || typeof rec !== 'object' || Array.isArray(rec)) return undefined;
  const out: Record<string, IndexValue> = {};
  for (const field of spec.indexes) {
    const v = (rec as Record<string, unknown>)[field];
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[field] = v;
  }
  return out;
}

/**
 * The rows of one collection in memory, with the semantics of store.ts: all keys in code-point order, and for each
 * indexed field the keys of each value in that order, so listing a prefix or an index value costs what it returns,
 * not the size of the collection. A clock can be given for tests of expiry.
 */
export class RecordTable {
  private readonly rows = new Map<string, Row>();
  private readonly sorted = new SortedKeys();
  /** field -> value slot -> keys. */
  private readonly indexes = new Map<string, Map<string, SortedKeys>>();
  /** The highest version ever given in this table, so a deleted-then-recreated key never reuses a version. */
  private clock = 0;

  constructor(
    public spec: CollectionSpec,
    private readonly now: () => number = Date.now,
  ) {
    for (const field of spec.indexes ?? []) this.indexes.set(field, new Map());
  }

  /**
   * Adds indexes on more fields (a collection opened again with a spec naming more, or first loaded from disk
   * without its spec): the rows are indexed on them at once.
   */
  ensureIndexes(fields: readonly string[] = []): void {
    const missing = fields.filter((f) => !this.indexes.has(f));
    if (!missing.length) return;
    this.spec = { ...this.spec, indexes: [...(this.spec.indexes ?? []), ...missing] };
    for (const field of missing) this.indexes.set(field, new Map());
    for (const [key, row] of this.rows) this.load(key, row);
  }

  get size(): number {
    return this.rows.size;
  }

  /** The row as stored, expired or not. */
  row(key: string): Row | undefined {
    return this.rows.get(key);
  }

  live(key: string): Row | undefined {
    const row = this.rows.get(key);
    if (!row) return undefined;
    if (row.expiresAt !== undefined && row.expiresAt <= this.now()) return undefined;
    return row;
  }

  getVersioned<T>(key: string): Versioned<T> | undefined {
    const row = this.live(key);
    return row ? { value: JSON.parse(row.json) as T, version: row.version } : undefined;
  }

  /** Every key starting with `prefix` (expired ones included), in order. */
  keys(prefix = ''): string[] {
    return this.sorted.withPrefix(prefix);
  }

  /** The live keys matching the options, in order, with their rows. */
  private *matching(opts: ListOptions): Generator<[string, Row]> {
    assertIndexed(this.spec, opts.where);
    const where = Object.entries(opts.where ?? {});
    let candidates: SortedKeys | undefined = this.sorted;
    if (where.length) {
      // The smallest of the index value sets narrows most; the other fields are checked on the row.
      candidates = undefined;
      for (const [field, v] of where) {
        const set = this.indexes.get(field)?.get(indexSlot(v));
        if (!set) return;
        if (!candidates || set.size < candidates.size) candidates = set;
      }
    }
    for (const key of candidates!.iterate(opts.prefix)) {
      const row = this.live(key);
      if (row && where.every(([f, v]) => row.indexed?.[f] === v)) yield [key, row];
    }
  }

  list<T>(opts: ListOptions = {}): Array<[string, T]> {
    const out: Array<[string, T]> = [];
    if (opts.limit !== undefined && opts.limit <= 0) return out;
    for (const [key, row] of this.matching(opts)) {
      out.push([key, JSON.parse(row.json) as T]);
      if (opts.limit !== undefined && out.length >= opts.limit) break;
    }
    return out;
  }

  count(opts: ListOptions = {}): number {
    let n = 0;
    for (const entry of this.matching(opts)) {
      void entry;
      n++;
      if (opts.limit !== undefined && n >= opts.limit) break;
    }
    return n;
  }

  /** Sets the row; returns the new version. */
  write(key: string, json: string, opts: WriteOptions = {}): number {
    const version = Math.max(this.clock, this.rows.get(key)?.version ?? 0) + 1;
    const row: Row = { json, version };
    if (opts.expiresAt !== undefined) row.expiresAt = opts.expiresAt;
    this.load(key, row);
    return version;
  }

  /** Loads a row read back from disk as it was. */
  load(key: string, row: Row): void {
    this.unindex(key);
    const indexed = indexedFields(this.spec, row.json);
    if (indexed) row.indexed = indexed;
    else delete row.indexed;
    this.rows.set(key, row);
    this.sorted.add(key);
    for (const [field, v] of Object.entries(row.indexed ?? {})) {
      const values = this.indexes.get(field)!;
      let set = values.get(indexSlot(v));
      if (!set) values.set(indexSlot(v), (set = new SortedKeys()));
      set.add(key);
    }
    this.clock = Math.max(this.clock, row.version);
  }

  private unindex(key: string): void {
    const old = this.rows.get(key);
    if (!old) return;
    for (const [field, v] of Object.entries(old.indexed ?? {})) {
      const values = this.indexes.get(field)!;
      const set = values.get(indexSlot(v));
      set?.delete(key);
      if (set?.size === 0) values.delete(indexSlot(v));
    }
  }

  remove(key: string): boolean {
    if (!this.rows.has(key)) return false;
    this.unindex(key);
    this.rows.delete(key);
    this.sorted.delete(key);
    return true;
  }

  /** The unexpired rows in key order, with their expiry (for a copy of the state). */
  exported(): ExportedRecord[] {
    const out: ExportedRecord[] = [];
    for (const key of this.sorted.withPrefix()) {
      const row = this.live(key);
      if (!row) continue;
      const rec: ExportedRecord = { key, value: JSON.parse(row.json) as unknown };
      if (row.expiresAt !== undefined) rec.expiresAt = row.expiresAt;
      out.push(rec);
    }
    return out;
  }

  /** Removes expired rows; returns their keys. */
  expired(now: number): string[] {
    const gone: string[] = [];
    for (const [key, row] of this.rows) {
      if (row.expiresAt !== undefined && row.expiresAt <= now) gone.push(key);
    }
    for (const key of gone) this.remove(key);
    return gone;
  }
}

/**
 * The collection operations over a RecordTable. `persist(keys)` makes the changed keys durable (nothing for the
 * memory store; the embedded store writes the files they belong to) and is awaited before each write resolves.
 */
export function tableCollection<T>(
  table: RecordTable,
  persist: (keys: string[]) => Promise<void>,
  checkOpen: (what: string) => void,
): Collection<T> {
  const name = table.spec.name;
  const change = async (key: string, what: string, apply: () => boolean): Promise<boolean> => {
    checkOpen(`${what} ${name}/${key}`);
    const changed = apply();
    if (changed) await persist([key]);
    return changed;
  };
  return {
    name,
    get: async (key) => table.getVersioned<T>(key)?.value,
    getVersioned: async (key) => table.getVersioned<T>(key),
    list: async (opts) => table.list<T>(opts),
    count: async (opts) => table.count(opts),
    put: async (key, value, opts) => {
      const json = toJson(name, key, value);
      await change(key, 'the change to', () => (table.write(key, json, opts), true));
    },
    insertIfAbsent: async (key, value, opts) => {
      const json = toJson(name, key, value);
      return change(key, 'the insertion of', () => {
        if (table.live(key)) return false;
        table.write(key, json, opts);
        return true;
      });
    },
    compareAndSet: async (key, expectedVersion, value, opts) => {
      const json = toJson(name, key, value);
      return change(key, 'the change to', () => {
        if (table.live(key)?.version !== expectedVersion) return false;
        table.write(key, json, opts);
        return true;
      });
    },
    delete: async (key) => {
      await change(key, 'the deletion of', () => table.remove(key));
    },
    deletePrefix: async (prefix) => {
      checkOpen(`the deletion of ${name}/${prefix}*`);
      const keys = table.keys(prefix);
      for (const key of keys) table.remove(key);
      if (keys.length) await persist(keys);
      return keys.length;
    },
  };
}

export function createMemoryStore(opts: { now?: () => number } = {}): ExportableStore {
  const now = opts.now ?? Date.now;
  const tables = new Map<string, RecordTable>();
  const views = new Map<string, Collection<unknown>>();
  let closed = false;
  const status: StoreStatus = { durable: true };
  const checkOpen = (what: string) => {
    if (closed) throw new StoreClosedError(what);
  };

  return {
    kind: 'memory',
    collection<T>(s: CollectionSpec | string): Collection<T> {
      const spec = specOf(s);
      let view = views.get(spec.name);
      tables.get(spec.name)?.ensureIndexes(spec.indexes);
      if (!view) {
        const table = new RecordTable(spec, now);
        tables.set(spec.name, table);
        view = tableCollection<unknown>(table, async () => {}, checkOpen);
        views.set(spec.name, view);
      }
      return view as Collection<T>;
    },
    sweep: async (at = now()) => {
      let n = 0;
      for (const t of tables.values()) n += t.expired(at).length;
      return n;
    },
    collectionNames: async () =>
      [...tables.values()]
        .filter((t) => t.exported().length > 0)
        .map((t) => t.spec.name)
        .sort(byKey),
    exportRecords: async function* (name) {
      yield* tables.get(name)?.exported() ?? [];
    },
    status: () => ({ ...status }),
    probe: async () => ({ ...status }),
    onStatus: () => () => {},
    flush: async () => {},
    close: async () => {
      closed = true;
    },
  };
}
