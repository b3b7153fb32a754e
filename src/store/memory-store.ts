/**
 * A Store that keeps everything in memory: for tests and the simulator-only sandbox runs where nothing needs to
 * survive a restart. It behaves like the other stores in everything callers can observe (store.ts): records are
 * detached JSON, keys are listed in code-point order, conditional writes and expiry work the same, and changes after
 * `close()` are refused. The record table itself (RecordTable) is shared with the embedded store, which adds files.
 */
import {
  StoreClosedError,
  assertIndexed,
  specOf,
  type Collection,
  type CollectionSpec,
  type ExportableStore,
  type ExportedRecord,
  type ListOptions,
  type StoreStatus,
  type Versioned,
  type WriteOptions,
} from './store.js';

export interface Row {
  /** The record as JSON text: stored detached, parsed on every read. */
  json: string;
  version: number;
  expiresAt?: number;
}

/** Code-point order, as PostgreSQL's "C" collation sorts the keys. */
export const byKey = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function toJson(name: string, key: string, value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`Cannot store ${String(value)} as ${name}/${key}: not a JSON value.`);
  return text;
}

function matches(row: Row, where: ListOptions['where']): boolean {
  if (!where) return true;
  const rec = JSON.parse(row.json) as Record<string, unknown> | null;
  if (rec === null || typeof rec !== 'object') return false;
  return Object.entries(where).every(([f, v]) => rec[f] === v);
}

/**
 * The rows of one collection in memory, with the semantics of store.ts. `onChange(key)` is told of every change
 * (the embedded store uses it to know which file to rewrite); a clock can be given for tests of expiry.
 */
export class RecordTable {
  readonly rows = new Map<string, Row>();
  /** The highest version ever given in this table, so a deleted-then-recreated key never reuses a version. */
  private clock = 0;

  constructor(
    readonly spec: CollectionSpec,
    private readonly now: () => number = Date.now,
  ) {}

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

  list<T>(opts: ListOptions = {}): Array<[string, T]> {
    assertIndexed(this.spec, opts.where);
    const keys = [...this.rows.keys()]
      .filter((k) => opts.prefix === undefined || k.startsWith(opts.prefix))
      .sort(byKey);
    const out: Array<[string, T]> = [];
    for (const key of keys) {
      if (opts.limit !== undefined && out.length >= opts.limit) break;
      const row = this.live(key);
      if (row && matches(row, opts.where)) out.push([key, JSON.parse(row.json) as T]);
    }
    return out;
  }

  /** Sets the row; returns the new version. */
  write(key: string, json: string, opts: WriteOptions = {}): number {
    const version = Math.max(this.clock, this.rows.get(key)?.version ?? 0) + 1;
    this.clock = version;
    const row: Row = { json, version };
    if (opts.expiresAt !== undefined) row.expiresAt = opts.expiresAt;
    this.rows.set(key, row);
    return version;
  }

  /** Loads a row read back from disk as it was. */
  load(key: string, row: Row): void {
    this.rows.set(key, row);
    this.clock = Math.max(this.clock, row.version);
  }

  remove(key: string): boolean {
    return this.rows.delete(key);
  }

  /** The unexpired rows in key order, with their expiry (for a copy of the state). */
  exported(): ExportedRecord[] {
    const out: ExportedRecord[] = [];
    for (const key of [...this.rows.keys()].sort(byKey)) {
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
    for (const key of gone) this.rows.delete(key);
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
    count: async (opts) => table.list<T>(opts).length,
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
      const keys = [...table.rows.keys()].filter((k) => k.startsWith(prefix));
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
