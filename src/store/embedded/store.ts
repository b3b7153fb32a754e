/**
 * The embedded Store (no DATABASE_URL): lowdb files under STATE_DIR, for one process. The records are kept in memory
 * (RecordTable, memory-store.ts), loaded at open; each change is made durable in the file of its collection and key
 * head (layout.ts) before its promise resolves: appended to the file's journal (journal.ts), or the whole file
 * written again (snapshot.ts) through lowdb with an adapter of ours (durable-file.ts); head-file.ts holds one file's
 * writes. One process per STATE_DIR (lock.ts).
 *
 * When a write fails (disk full, I/O error, permissions), `status()` turns not durable with the problem in words,
 * onStatus listeners hear it, the change stays in memory and is written again by `probe()` (called every few
 * seconds by the store itself, and by /healthz): once that succeeds the store is durable again. While not durable,
 * changes are refused with StoreUnavailableError before they are applied, so no caller moves on as if it was saved.
 */
import type { Dirent } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Low, type Adapter } from 'lowdb';
import { RecordTable, byKey, tableCollection, type Row } from '../memory-store.js';
import {
  StoreClosedError,
  StoreUnavailableError,
  specOf,
  type Collection,
  type CollectionSpec,
  type ExportableStore,
  type ExportedRecord,
  type StoreLogger,
  type StoreStatus,
} from '../store.js';
import { DurableJsonFile } from './durable-file.js';
import { describeWriteError, errCode, nodeStoreFs, type StoreFs } from './fs.js';
import { HeadFile, newBatch, type Batch } from './head-file.js';
import { COLLECTIONS_DIR, fileStem, safeName } from './layout.js';
import { DirLock } from './lock.js';
import type { FileData } from './snapshot.js';

export interface EmbeddedStoreOptions {
  logger?: StoreLogger;
  /** Replaces some file operations (tests inject write failures). */
  fs?: Partial<StoreFs>;
  /** The clock of expiry (tests). */
  now?: () => number;
  /** While not durable, retry the unsaved writes this often (ms). Default 5000. */
  retryMs?: number;
  /** false: every write is a whole file (no journal), as tests of the generations want. Default true. */
  journal?: boolean;
}

export interface EmbeddedStoreStats {
  /** File writes that succeeded since open: whole files (snapshots) and journal appends. */
  filesWritten: number;
  /** Bytes of those writes. */
  bytesWritten: number;
  /** Of those, the journal appends. */
  appends: number;
  /** Writes that failed. */
  writeFailures: number;
  /** Probe writes tried (`probe()`: by the store's own retry while not durable, and by /healthz). */
  probes: number;
}

export type EmbeddedStore = ExportableStore & {
  readonly kind: 'embedded';
  /** The absolute STATE_DIR. */
  readonly dir: string;
  stats(): EmbeddedStoreStats;
  /**
   * For tests: stops this instance as a crash would (no flush: changes not yet written are lost, their promises
   * reject), leaving the lock file behind as a dead process does, so the directory can be opened again.
   */
  crash(): Promise<void>;
};

const PROBE_FILE = '.probe';

interface CollectionState {
  table: RecordTable;
  dir: string;
  files: Map<string, HeadFile>;
  view?: Collection<unknown>;
  /** The collection's directory exists (created by this process or found at open). */
  dirReady: boolean;
}

/** Opens (or creates) the embedded state in `dir`. Throws StoreCorruptError or StoreLockedError. */
export async function openEmbeddedStore(dir: string, opts: EmbeddedStoreOptions = {}): Promise<EmbeddedStore> {
  const root = resolve(dir);
  try {
    await mkdir(root, { recursive: true });
  } catch (e) {
    throw new Error(
      `Cannot create STATE_DIR ${root} (${errCode(e) ?? (e as Error).message}). Check STATE_DIR and its permissions.`,
      { cause: e },
    );
  }
  const lock = await DirLock.acquire(root);
  try {
    const store = new EmbeddedStoreImpl(root, lock, opts);
    await store.load();
    return store;
  } catch (e) {
    await lock.release(root, true);
    throw e;
  }
}

class EmbeddedStoreImpl implements EmbeddedStore {
  readonly kind = 'embedded' as const;
  private readonly fs: StoreFs;
  private readonly now: () => number;
  private readonly retryMs: number;
  private readonly journal: boolean;
  private readonly logger: StoreLogger | undefined;
  private readonly collections = new Map<string, CollectionState>();
  /** Files with changes not yet durable. */
  private readonly dirty = new Set<HeadFile>();
  private readonly listeners = new Set<(status: StoreStatus) => void>();
  private current: StoreStatus = { durable: true };
  private retryTimer: NodeJS.Timeout | undefined;
  private probing: Promise<StoreStatus> | undefined;
  private closed = false;
  private crashed = false;
  private readonly counters: EmbeddedStoreStats = {
    filesWritten: 0,
    bytesWritten: 0,
    appends: 0,
    writeFailures: 0,
    probes: 0,
  };

  constructor(
    readonly dir: string,
    private readonly lock: DirLock,
    opts: EmbeddedStoreOptions,
  ) {
    this.fs = { ...nodeStoreFs, ...opts.fs };
    this.now = opts.now ?? Date.now;
    this.retryMs = opts.retryMs ?? 5000;
    this.journal = opts.journal ?? true;
    this.logger = opts.logger;
  }

  // ---- loading ----

  /** Reads every collection's files (at open: a file that cannot be used stops the start, not a later request). */
  async load(): Promise<void> {
    let entries: Dirent[];
    try {
      entries = await readdir(this.root, { withFileTypes: true });
    } catch (e) {
      if (errCode(e) === 'ENOENT') return;
      throw e;
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      await this.loadCollectionDir(join(this.root, entry.name));
    }
  }

  /** Where the collections' directories are. */
  private get root(): string {
    return join(this.dir, COLLECTIONS_DIR);
  }

  private async loadCollectionDir(dir: string): Promise<void> {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (e) {
      if (errCode(e) === 'ENOTDIR') return;
      throw e;
    }
    const stems = new Set<string>();
    const journals = new Map<string, number[]>();
    for (const e of entries) {
      if (!e.isFile()) continue;
      const m = /^(.+)\.json(?:\.prev)?$/.exec(e.name);
      if (m) stems.add(m[1]!);
      const j = /^(.+)\.json\.j(\d+)$/.exec(e.name);
      if (j) journals.set(j[1]!, [...(journals.get(j[1]!) ?? []), Number(j[2])]);
    }
    // A few files at a time: a collection may have hundreds (one per campaign).
    const list = [...stems];
    for (let i = 0; i < list.length; i += 16) {
      await Promise.all(list.slice(i, i + 16).map((stem) => this.loadFile(dir, stem, journals.get(stem) ?? [])));
    }
  }

  private async loadFile(dir: string, stem: string, journals: number[]): Promise<void> {
    const adapter = this.adapter(join(dir, `${stem}.json`));
    const probe = new Low<FileData | null>(adapter as Adapter<FileData | null>, null);
    await probe.read();
    const data = probe.data;
    if (!data) return;
    const state = this.state({ name: data.collection }, dir);
    const file = this.headFile(adapter, data.collection);
    state.files.set(stem, file);
    await file.load(data, journals, state.table, this.logger);
  }

  private adapter(path: string): DurableJsonFile {
    return new DurableJsonFile(path, this.fs, this.logger, (bytes) => this.countWrite(bytes));
  }

  private headFile(adapter: DurableJsonFile, collection: string): HeadFile {
    return new HeadFile(adapter, collection, this.fs, adapter.path.slice(this.dir.length));
  }

  private countWrite(bytes: number, append = false): void {
    this.counters.filesWritten++;
    this.counters.bytesWritten += bytes;
    if (append) this.counters.appends++;
  }

  /** The state of a collection, created (empty, directory not yet made) on first use. */
  private state(spec: CollectionSpec, dir?: string): CollectionState {
    let state = this.collections.get(spec.name);
    if (!state) {
      state = {
        table: new RecordTable(spec, this.now),
        dir: dir ?? join(this.root, safeName(spec.name)),
        files: new Map(),
        dirReady: dir !== undefined,
      };
      this.collections.set(spec.name, state);
    } else {
      state.table.ensureIndexes(spec.indexes);
    }
    return state;
  }

  // ---- the Store ----

  collection<T>(s: CollectionSpec | string): Collection<T> {
    const spec = specOf(s);
    const state = this.state(spec);
    state.view ??= tableCollection<unknown>(
      state.table,
      (keys) => this.persist(state, keys),
      (what) => this.checkWritable(what),
    );
    return state.view as Collection<T>;
  }

  async sweep(at = this.now()): Promise<number> {
    // Expired records are invisible already; while nothing can be written, removing them can wait.
    if (!this.current.durable || this.closed) return 0;
    let n = 0;
    const writes: Array<Promise<void>> = [];
    for (const state of this.collections.values()) {
      const gone = state.table.expired(at);
      n += gone.length;
      if (gone.length) writes.push(this.persist(state, gone));
    }
    await Promise.all(writes);
    return n;
  }

  async collectionNames(): Promise<string[]> {
    return [...this.collections.values()]
      .filter((s) => s.table.count({ limit: 1 }) > 0)
      .map((s) => s.table.spec.name)
      .sort(byKey);
  }

  async *exportRecords(name: string): AsyncIterable<ExportedRecord> {
    yield* this.collections.get(name)?.table.exported() ?? [];
  }

  status(): StoreStatus {
    return { ...this.current };
  }

  onStatus(listener: (status: StoreStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stats(): EmbeddedStoreStats {
    return { ...this.counters };
  }

  probe(): Promise<StoreStatus> {
    this.probing ??= this.runProbe().finally(() => (this.probing = undefined));
    return this.probing;
  }

  private async runProbe(): Promise<StoreStatus> {
    if (this.crashed) return this.status();
    this.counters.probes++;
    const path = join(this.dir, PROBE_FILE);
    try {
      await this.fs.writeFileSynced(path, `${new Date(this.now()).toISOString()}\n`);
      await this.fs.unlink(path);
    } catch (err) {
      this.setProblem(err);
      return this.status();
    }
    try {
      await this.flushDirty();
    } catch {
      return this.status(); // the failed write has set the problem
    }
    this.setDurable();
    return this.status();
  }

  async flush(): Promise<void> {
    await this.flushDirty();
  }

  async close(): Promise<void> {
    if (this.crashed) return;
    this.closed = true;
    try {
      await this.flushDirty();
    } finally {
      clearInterval(this.retryTimer);
      await this.lock.release(this.dir, true);
    }
  }

  async crash(): Promise<void> {
    if (this.crashed) return;
    this.closed = true;
    this.crashed = true;
    clearInterval(this.retryTimer);
    const running: Array<Promise<void>> = [];
    for (const state of this.collections.values()) {
      for (const file of state.files.values()) {
        file.pending?.reject(new StoreUnavailableError('The store crashed before this change was written.'));
        file.pending = undefined;
        if (file.running) running.push(file.running.promise.catch(() => undefined));
      }
    }
    // A write already in the kernel's hands finishes (or not) on its own; wait so it cannot land after the reopen.
    await Promise.all(running);
    await this.lock.release(this.dir, false);
  }

  // ---- writing ----

  private checkWritable(what: string): void {
    if (this.closed) throw new StoreClosedError(what);
    if (!this.current.durable) {
      throw new StoreUnavailableError(
        `${what} was not saved: ${this.current.problem ?? 'the state cannot be written'}. ` +
          'It will be possible again once the state can be written.',
      );
    }
  }

  /** Makes the changed keys durable: marks their files and waits for the writes that carry them. */
  private persist(state: CollectionState, keys: string[]): Promise<void> {
    const files = new Set<HeadFile>();
    for (const key of keys) {
      const stem = fileStem(key);
      let file = state.files.get(stem);
      if (!file) {
        file = this.headFile(this.adapter(join(state.dir, `${stem}.json`)), state.table.spec.name);
        state.files.set(stem, file);
      }
      if (state.table.row(key)) file.keys.add(key);
      else file.keys.delete(key);
      file.changed.add(key);
      files.add(file);
    }
    return Promise.all(
      [...files].map((file) => {
        file.changes++;
        this.dirty.add(file);
        return this.nextBatch(state, file).promise;
      }),
    ).then(() => undefined);
  }

  /** The batch the file's next write will carry (scheduled now when there is none). */
  private nextBatch(state: CollectionState, file: HeadFile): Batch {
    if (!file.pending) {
      file.pending = newBatch();
      if (!file.running) setImmediate(() => void this.write(state, file));
    }
    return file.pending;
  }

  private async write(state: CollectionState, file: HeadFile): Promise<void> {
    const batch = file.pending;
    if (!batch || file.running || this.crashed) return;
    file.pending = undefined;
    file.running = batch;
    const upTo = file.changes;
    try {
      await this.ensureDir(state);
      await this.save(state, file);
      file.saved = Math.max(file.saved, upTo);
      if (file.saved === file.changes) this.dirty.delete(file);
      batch.resolve();
    } catch (err) {
      this.counters.writeFailures++;
      // The directory may be what went away (STATE_DIR replaced or emptied): make it again at the next attempt.
      state.dirReady = false;
      this.setProblem(err);
      this.logger?.error(
        { file: file.path, code: errCode(err) },
        'could not write a state file; the change is kept in memory',
      );
      batch.reject(
        new StoreUnavailableError(
          `The change was not saved: ${this.current.problem}. It is kept in memory and retried.`,
          {
            cause: err,
          },
        ),
      );
    } finally {
      file.running = undefined;
      if (file.pending && !this.crashed) setImmediate(() => void this.write(state, file));
    }
  }

  /** Makes the collection's directory (at its first write, or again after a write failed). */
  private async ensureDir(state: CollectionState): Promise<void> {
    if (state.dirReady) return;
    await this.fs.mkdir(state.dir);
    await this.fs.syncDir(this.root);
    await this.fs.syncDir(this.dir);
    state.dirReady = true;
  }

  /** Writes the file's changes as they are now; on a failure they stay to be written by the next attempt. */
  private async save(state: CollectionState, file: HeadFile): Promise<void> {
    // What is written is taken now, synchronously: later changes go into the next write.
    const now = this.now();
    const live = (key: string): Row | undefined => {
      const row = state.table.row(key);
      return row && (row.expiresAt === undefined || row.expiresAt > now) ? row : undefined;
    };
    const changed = file.changed;
    file.changed = new Set();
    try {
      const appended = await file.save(changed, live, this.journal);
      if (appended !== undefined) this.countWrite(appended, true);
    } catch (err) {
      // Written again by the next attempt (after the probe), with what changed since.
      for (const key of changed) file.changed.add(key);
      throw err;
    }
  }

  /** Writes every file with unsaved changes; rejects if any write fails. */
  private async flushDirty(): Promise<void> {
    const waits: Array<Promise<void>> = [];
    for (const file of this.dirty) {
      const state = this.collections.get(file.collection) ?? this.stateOf(file);
      if (file.pending || !file.running) waits.push(this.nextBatch(state, file).promise);
      else waits.push(file.running.promise);
    }
    await Promise.all(waits);
    // Changes made while those writes ran are flushed too.
    if ([...this.dirty].some((f) => f.pending || !f.running)) await this.flushDirty();
  }

  private stateOf(file: HeadFile): CollectionState {
    for (const state of this.collections.values()) {
      for (const f of state.files.values()) if (f === file) return state;
    }
    throw new Error(`No collection holds ${file.path}`);
  }

  private setProblem(err: unknown): void {
    const problem = describeWriteError(this.dir, err);
    const wasDurable = this.current.durable;
    this.current = { durable: false, problem, since: wasDurable ? this.now() : (this.current.since ?? this.now()) };
    if (wasDurable) {
      this.logger?.error({ problem }, 'the state cannot be made durable; changes are refused until it can');
      this.retryTimer = setInterval(() => void this.probe(), this.retryMs);
      this.retryTimer.unref();
      this.emit();
    }
  }

  private setDurable(): void {
    if (this.current.durable) return;
    clearInterval(this.retryTimer);
    this.retryTimer = undefined;
    this.logger?.info({ since: this.current.since }, 'the state can be written again');
    this.current = { durable: true };
    this.emit();
  }

  private emit(): void {
    const status = this.status();
    for (const listener of [...this.listeners]) {
      try {
        listener(status);
      } catch (err) {
        this.logger?.error({ err: String(err) }, 'a store status listener failed');
      }
    }
  }
}
