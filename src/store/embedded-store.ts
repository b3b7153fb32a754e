/**
 * The embedded Store (no DATABASE_URL): lowdb files under STATE_DIR, for one process.
 *
 * Layout: one file per collection and key head (the text before a key's first `/`, e.g. a campaign or channel id):
 * `<dir>/collections/<collection>/<head>.json`, keys without `/` in `<dir>/collections/<collection>/@keys.json`
 * (under `collections/` so that whatever else lives in STATE_DIR, e.g. the old STATE_FILE or lost+found, is no
 * concern of the store). Names are made safe by
 * encoding every byte outside [A-Za-z0-9_-] as %XX (very long ones are shortened with a hash), so no key can reach
 * outside the directory. A file holds its records with their version and expiry:
 * `{ "format": 2, "collection": "…", "journal": 7, "prev": 6, "records": { "<key>": { "version": 3, "expiresAt": 0,
 * "value": … } } }`. The records are kept in memory (RecordTable), loaded at open.
 *
 * Journal: a change does not rewrite its file. The changed records (or their deletion) are appended, one JSON line
 * each, to the file's journal `<head>.json.j<N>`, N being the `journal` its snapshot names, and the journal is
 * fsynced; so a write costs about the size of what changed, however many records its file holds (a campaign's
 * calls over the retention days). When the journal has grown past the snapshot's size (and at least
 * 2 × JOURNAL_MIN_BYTES) times a factor between 1/2 and 1 drawn from the file's name and generation
 * (compactionThreshold, compactionSpread: files that grow alike, such as every campaign's calls, would otherwise all
 * compact in the same poll cycle), the next write compacts: the whole file is written again (below) naming journal
 * N + 1, and later changes go there; each byte is thus written two to three times. On disk a file then takes at
 * most about four times its records (snapshot, journal, and the previous generation's). Journals older than the one the previous
 * generation (`prev`) needs are deleted then. At open, a file is its snapshot plus its journal(s), replayed in order;
 * a line cut short by a power loss ends the replay (it was never acknowledged) and the next write compacts.
 *
 * Durability: a snapshot is written through lowdb (`Low`) with an adapter of ours (DurableJsonFile): the new text goes
 * to a temporary file beside the target and is fsynced; the current file is hard-linked to `<file>.prev` (through a
 * temporary link and a rename, so the target always exists); the temporary file is renamed over the target; the
 * directory is fsynced; a journal append is fsynced too (and the directory when the append created the journal). A
 * write's promise resolves only then. All changes made to a file before its write starts share that write (one
 * append); a change made while it runs goes into the next one.
 *
 * Reading: a newest file that does not parse (cut short by a power loss) is replaced by its `.prev`, with a warning,
 * and the journals from the one `.prev` names on are replayed (only the changes of the write cut short are lost);
 * when neither parses, opening fails with StoreCorruptError naming the file, which is left untouched.
 *
 * When a write fails (disk full, I/O error, permissions), `status()` turns not durable with the problem in words,
 * onStatus listeners hear it, the change stays in memory and is written again by `probe()` (called every few
 * seconds by the store itself, and by /healthz): once that succeeds the store is durable again. While not durable,
 * changes are refused with StoreUnavailableError before they are applied, so no caller moves on as if it was saved.
 *
 * One process per STATE_DIR: a lock file (`<dir>/.lock`, holding the pid and host, refreshed every few seconds)
 * refuses a second open; a lock left by a process that died is taken over.
 */
import { createHash } from 'node:crypto';
import { constants as fsConstants, type Dirent } from 'node:fs';
import { link, mkdir, open, readFile, readdir, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Low, type Adapter } from 'lowdb';
import { RecordTable, byKey, tableCollection, type Row } from './memory-store.js';
import {
  StoreClosedError,
  StoreUnavailableError,
  specOf,
  type Collection,
  type CollectionSpec,
  type ExportableStore,
  type ExportedRecord,
  type StoreStatus,
} from './store.js';

/** What the store logs through (the app's logger satisfies it; the store imports nothing else of the app). */
export interface StoreLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}
type Logger = StoreLogger;

/** A state file exists but cannot be used; it has not been modified. */
export class StoreCorruptError extends Error {
  override name = 'StoreCorruptError';
  constructor(
    readonly file: string,
    problem: string,
    remedy = 'Restore it (and its .prev) from a backup, or move both away to start that part of the state empty, ' +
      'then start the app again.',
  ) {
    super(`State file ${file} ${problem}. It has not been changed. ${remedy}`);
  }
}

/** STATE_DIR is in use by another process (or another store of this one). */
export class StoreLockedError extends Error {
  override name = 'StoreLockedError';
}

/** The file operations that write state: the OS boundary, replaceable in tests (a disk that fills up). */
export interface StoreFs {
  /** Writes the whole text to the file (created or truncated) and fsyncs it. */
  writeFileSynced(path: string, text: string): Promise<void>;
  /** Appends the text to the file (created if missing) and fsyncs it. */
  appendFileSynced(path: string, text: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  link(existing: string, newPath: string): Promise<void>;
  unlink(path: string): Promise<void>;
  mkdir(path: string): Promise<void>;
  /** fsyncs a directory, so the renames in it survive a power loss. */
  syncDir(path: string): Promise<void>;
}

export const nodeStoreFs: StoreFs = {
  async writeFileSynced(path, text) {
    const handle = await open(path, 'w', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  async appendFileSynced(path, text) {
    const handle = await open(path, 'a', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.datasync();
    } finally {
      await handle.close();
    }
  },
  rename: (from, to) => rename(from, to),
  link: (existing, newPath) => link(existing, newPath),
  unlink: (path) => unlink(path),
  mkdir: async (path) => {
    await mkdir(path, { recursive: true });
  },
  async syncDir(path) {
    const handle = await open(path, fsConstants.O_RDONLY);
    try {
      await handle.sync();
    } catch (err) {
      // Some file systems cannot fsync a directory (EINVAL); the renames are then as durable as they get there.
      if ((err as NodeJS.ErrnoException).code !== 'EINVAL') throw err;
    } finally {
      await handle.close();
    }
  },
};

export interface EmbeddedStoreOptions {
  logger?: Logger;
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

/** The format written; format 1 (no journal) is still read. */
const FORMAT = 2;
/** A journal is compacted into its file once it is larger than the file's snapshot and than this (× the spread). */
const JOURNAL_MIN_BYTES = 64 * 1024;

/**
 * The journal size past which a file of `snapshotBytes` compacts: half to all of its snapshot (`spread` 1 to 2,
 * halved), and for a small file 64 to 128 KB. A file takes at most its snapshot and journal and the previous
 * generation's, about four times its records on disk; with a whole to twice the snapshot it was six.
 */
function compactionThreshold(snapshotBytes: number, spread: number): number {
  return (Math.max(2 * JOURNAL_MIN_BYTES, snapshotBytes) * spread) / 2;
}

/** 1 to 2, the same for a file (its path in STATE_DIR) and generation in every run: when its journal is compacted. */
function compactionSpread(path: string, gen: number): number {
  return 1 + createHash('sha1').update(`${path}\0${gen}`).digest().readUInt16BE(0) / 65_536;
}
const NO_HEAD = '@keys';
const COLLECTIONS_DIR = 'collections';
const LOCK_FILE = '.lock';
const PROBE_FILE = '.probe';
const LOCK_REFRESH_MS = 5_000;
/** A lock not refreshed for this long belongs to a process that is gone (or frozen for longer than any request). */
const LOCK_STALE_MS = 30_000;

/** A file-name-safe form of any text: bytes outside [A-Za-z0-9_-] as %XX; '%' alone for the empty text. */
export function safeName(text: string): string {
  if (text === '') return '%';
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9_-]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  // File names are limited to 255 bytes: a long one keeps its start and gets a hash ('~' is never produced above).
  if (out.length > 180) out = `${out.slice(0, 140)}~${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
  return out;
}

/** The name (without .json) of the file a key lives in. */
function fileStem(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? NO_HEAD : safeName(key.slice(0, slash));
}

/** What one file holds, as lowdb's data. */
interface FileData {
  collection: string;
  rows: Array<[string, Row]>;
  /** The generation of the journal that continues this snapshot (0 for a format 1 file). */
  journal: number;
  /** The journal generation the previous generation of this file (`.prev`) names, when known. */
  prev?: number;
}

/** The journal file of a file's generation. */
const journalPath = (filePath: string, gen: number): string => `${filePath}.j${gen}`;

/** One journal line: a record as it is now, or its deletion. */
function journalLine(key: string, row: Row | undefined): string {
  if (!row) return `{"k":${JSON.stringify(key)},"d":1}\n`;
  const expiry = row.expiresAt === undefined ? '' : `,"x":${row.expiresAt}`;
  return `{"k":${JSON.stringify(key)},"v":${row.version}${expiry},"r":${row.json}}\n`;
}

/** A journal's lines as changes, up to the first that does not parse (a write cut short). */
function parseJournal(text: string): { changes: Array<[string, Row | undefined]>; torn: boolean } {
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

function serialize(data: FileData): string {
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
function parse(text: string): FileData {
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
  const records = doc.records;
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
  return {
    collection: doc.collection,
    rows,
    journal: journal as number,
    ...(doc.prev !== undefined ? { prev: doc.prev as number } : {}),
  };
}

const errCode = (err: unknown): string | undefined => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

/** lowdb adapter: reads with fallback to the previous generation, writes durably keeping it. */
class DurableJsonFile implements Adapter<FileData> {
  /** The newest file did not parse and `.prev` was used: keep that `.prev` at the next write, do not rotate. */
  keepPrev = false;
  /** Bytes of the snapshot read or last written. */
  bytes = 0;

  constructor(
    readonly path: string,
    private readonly fs: StoreFs,
    private readonly logger: Logger | undefined,
    private readonly written: (bytes: number) => void,
  ) {}

  private async readOne(path: string): Promise<{ data?: FileData; problem?: string; missing?: boolean }> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (e) {
      if (errCode(e) === 'ENOENT') return { missing: true };
      throw new Error(
        `Cannot read the state file ${path} (${errCode(e) ?? (e as Error).message}). Check STATE_DIR and its permissions.`,
        { cause: e },
      );
    }
    try {
      const data = parse(text);
      this.bytes = Buffer.byteLength(text);
      return { data };
    } catch (e) {
      return { problem: (e as Error).message };
    }
  }

  async read(): Promise<FileData | null> {
    const newest = await this.readOne(this.path);
    if (newest.data) return newest.data;
    const prevPath = `${this.path}.prev`;
    const prev = await this.readOne(prevPath);
    if (newest.missing && prev.missing) return null;
    if (prev.data) {
      this.keepPrev = true;
      this.logger?.warn(
        { file: this.path, problem: newest.problem ?? 'is missing' },
        `State file ${this.path} ${newest.problem ?? 'is missing'} (a write cut short?); using the previous ` +
          `generation ${prevPath}: the changes of its last write are lost.`,
      );
      return prev.data;
    }
    if (newest.missing)
      throw new StoreCorruptError(prevPath, prev.problem!, 'Restore it from a backup, or move it away.');
    throw new StoreCorruptError(
      this.path,
      `${newest.problem!}, and its previous generation ${prevPath} ${prev.missing ? 'does not exist' : prev.problem!}`,
    );
  }

  async write(data: FileData): Promise<void> {
    const text = serialize(data);
    const temp = `${this.path}.tmp`;
    await this.fs.writeFileSynced(temp, text);
    if (!this.keepPrev) {
      const prevTemp = `${this.path}.prev.tmp`;
      await this.fs.unlink(prevTemp).catch((e: unknown) => {
        if (errCode(e) !== 'ENOENT') throw e;
      });
      try {
        await this.fs.link(this.path, prevTemp);
        await this.fs.rename(prevTemp, `${this.path}.prev`);
      } catch (e) {
        if (errCode(e) !== 'ENOENT') throw e; // no current file yet: nothing to keep
      }
    }
    await this.fs.rename(temp, this.path);
    await this.fs.syncDir(dirname(this.path));
    this.keepPrev = false;
    this.bytes = Buffer.byteLength(text);
    this.written(this.bytes);
  }
}

interface Batch {
  promise: Promise<void>;
  resolve: () => void;
  reject: (err: unknown) => void;
}

function newBatch(): Batch {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A caller may fire and forget; the failure is reported to those who await it, and in status().
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/** One file: the keys it holds and its writes. */
class HeadFile {
  readonly keys = new Set<string>();
  readonly low: Low<FileData>;
  pending: Batch | undefined;
  running: Batch | undefined;
  /** Change counter and the value the file is known to hold: they differ while changes are unsaved. */
  changes = 0;
  saved = 0;
  /** Keys changed since the last write started (what the next append carries). */
  changed = new Set<string>();
  /** A snapshot of this file is on disk (the first write is always a whole file). */
  hasSnapshot = false;
  /** The journal generation appended to, its size, and the generations on disk. */
  gen = 0;
  journalBytes = 0;
  readonly journals = new Set<number>();
  /** The journal generation `.prev` needs (older ones are deleted at the next compaction). */
  prevGen: number | undefined;
  /** The journal cannot be appended to safely (a torn line, a failed append, two generations): compact next. */
  mustCompact = false;

  constructor(
    readonly adapter: DurableJsonFile,
    collection: string,
  ) {
    this.low = new Low<FileData>(adapter, { collection, rows: [], journal: 0 });
  }

  get path(): string {
    return this.adapter.path;
  }
}

interface CollectionState {
  table: RecordTable;
  dir: string;
  files: Map<string, HeadFile>;
  view?: Collection<unknown>;
  /** The collection's directory exists (created by this process or found at open). */
  dirReady: boolean;
}

/** In this process: the directories open now (the lock file alone cannot tell our own stores apart). */
const openDirs = new Set<string>();

interface LockHolder {
  pid: number;
  host: string;
  since: string;
}

class DirLock {
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    readonly path: string,
    private readonly me: LockHolder,
  ) {}

  static async acquire(dir: string): Promise<DirLock> {
    const path = join(dir, LOCK_FILE);
    if (openDirs.has(dir)) {
      throw new StoreLockedError(
        `STATE_DIR ${dir} is already open in this process; close that store before opening it again.`,
      );
    }
    const me: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
    // Written whole to a temporary file, then linked into place: the lock never exists half written, and link fails
    // if it exists already.
    const temp = join(dir, `${LOCK_FILE}.${process.pid}.${Date.now()}.tmp`);
    await writeFile(temp, JSON.stringify(me));
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          await link(temp, path);
          break;
        } catch (e) {
          if (errCode(e) !== 'EEXIST' || attempt > 0) throw e;
        }
        const holder = await DirLock.holder(path);
        if (!holder.stale) {
          const h = holder.holder;
          const who = h ? `pid ${h.pid} on ${h.host}, since ${h.since}` : 'a process that is starting';
          throw new StoreLockedError(
            `STATE_DIR ${dir} is in use by another instance of the app (${who}). Two instances must not share one ` +
              'STATE_DIR: stop the other one, give this one its own STATE_DIR, or set DATABASE_URL to share state ' +
              `between replicas through PostgreSQL. If no other instance is running, delete ${path} and start again.`,
          );
        }
        await unlink(path).catch((err: unknown) => {
          if (errCode(err) !== 'ENOENT') throw err;
        });
      }
    } finally {
      await unlink(temp).catch(() => undefined);
    }
    openDirs.add(dir);
    const lock = new DirLock(path, me);
    lock.timer = setInterval(() => {
      const now = new Date();
      utimes(path, now, now).catch(() => undefined);
    }, LOCK_REFRESH_MS);
    lock.timer.unref();
    return lock;
  }

  /** Who holds the lock, and whether that holder is gone. */
  private static async holder(path: string): Promise<{ holder?: LockHolder; stale: boolean }> {
    let text: string;
    let age: number;
    try {
      [text, age] = await Promise.all([readFile(path, 'utf8'), stat(path).then((s) => Date.now() - s.mtimeMs)]);
    } catch (e) {
      if (errCode(e) === 'ENOENT') return { stale: true };
      throw e;
    }
    let holder: LockHolder | undefined;
    try {
      holder = JSON.parse(text) as LockHolder;
    } catch {
      return { stale: age > LOCK_STALE_MS };
    }
    if (holder.host === hostname()) {
      // Our own pid, and the directory is not open here: a store of this process that crashed (or a container
      // restarted with the same pid).
      if (holder.pid === process.pid) return { holder, stale: true };
      try {
        process.kill(holder.pid, 0);
      } catch (e) {
        if (errCode(e) === 'ESRCH') return { holder, stale: true };
      }
    }
    // Alive (or on another host): stale only when it stopped refreshing the lock (a reused pid, a dead host).
    return { holder, stale: age > LOCK_STALE_MS };
  }

  /** Stops refreshing; with `remove`, deletes the lock file (a clean close) unless another process took it. */
  async release(dir: string, remove: boolean): Promise<void> {
    clearInterval(this.timer);
    openDirs.delete(dir);
    if (!remove) return;
    try {
      const holder = JSON.parse(await readFile(this.path, 'utf8')) as LockHolder;
      if (holder.pid === this.me.pid && holder.since === this.me.since) await unlink(this.path);
    } catch {
      // Gone already, or not ours any more.
    }
  }
}

const WRITE_PROBLEMS: Record<string, string> = {
  ENOSPC: 'disk full',
  EDQUOT: 'disk quota exceeded',
  EIO: 'input/output error (is the disk failing?)',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOTDIR: 'a path component is not a directory',
  ENOENT: 'the directory has disappeared',
  EISDIR: 'a directory is in the way of a file',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files',
};

/** The operator's words for a failed write: what, where, and the error code. */
function describeWriteError(dir: string, err: unknown): string {
  const code = errCode(err);
  const what = code ? (WRITE_PROBLEMS[code] ?? 'write failed') : 'write failed';
  return `cannot write the state in ${dir}: ${what} (${code ?? (err instanceof Error ? err.message : String(err))})`;
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
  private readonly logger: Logger | undefined;
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
    const file = new HeadFile(adapter, data.collection);
    state.files.set(stem, file);
    file.hasSnapshot = true;
    for (const gen of journals) file.journals.add(gen);
    // Read from `.prev` (the newest did not parse): `.prev` stays at the next write, and needs its own journal.
    if (adapter.keepPrev) file.prevGen = data.journal;
    else if (data.prev !== undefined) file.prevGen = data.prev;
    const belongs = (key: string) => {
      if (fileStem(key) !== stem) {
        throw new StoreCorruptError(
          adapter.path,
          `holds the key ${JSON.stringify(key)}, which belongs to another file`,
        );
      }
    };
    for (const [key, row] of data.rows) {
      belongs(key);
      state.table.load(key, row);
      file.keys.add(key);
    }
    // The journal that continues this snapshot, and any later one (there is one only after `.prev` was used).
    file.gen = data.journal;
    let replayed = 0;
    for (let gen = data.journal; file.journals.has(gen); gen++) {
      const path = journalPath(adapter.path, gen);
      const text = await readFile(path, 'utf8');
      const { changes, torn } = parseJournal(text);
      for (const [key, row] of changes) {
        belongs(key);
        if (row) {
          state.table.load(key, row);
          file.keys.add(key);
        } else {
          state.table.remove(key);
          file.keys.delete(key);
        }
      }
      file.gen = gen;
      file.journalBytes = Buffer.byteLength(text);
      replayed++;
      if (torn) {
        this.logger?.warn(
          { file: path },
          `State journal ${path} ends with a line cut short (a write that was never acknowledged); the lines ` +
            'before it are used.',
        );
        file.mustCompact = true;
        break;
      }
    }
    // Replace a damaged newest file, or fold two journals into one, at the next write.
    if (replayed > 1 || adapter.keepPrev) file.mustCompact = true;
  }

  private adapter(path: string): DurableJsonFile {
    return new DurableJsonFile(path, this.fs, this.logger, (bytes) => this.countWrite(bytes));
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
        file = new HeadFile(this.adapter(join(state.dir, `${stem}.json`)), state.table.spec.name);
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
      if (!state.dirReady) {
        await this.fs.mkdir(state.dir);
        await this.fs.syncDir(this.root);
        await this.fs.syncDir(this.dir);
        state.dirReady = true;
      }
      // What is written is taken now, synchronously: later changes go into the next write.
      const now = this.now();
      const live = (key: string): Row | undefined => {
        const row = state.table.row(key);
        return row && (row.expiresAt === undefined || row.expiresAt > now) ? row : undefined;
      };
      const changed = file.changed;
      file.changed = new Set();
      try {
        let journal = '';
        if (this.journal && file.hasSnapshot && !file.mustCompact) {
          for (const key of changed) journal += journalLine(key, live(key));
        }
        const appendBytes = Buffer.byteLength(journal);
        if (
          journal &&
          file.journalBytes + appendBytes <=
            compactionThreshold(file.adapter.bytes, compactionSpread(file.path.slice(this.dir.length), file.gen)) &&
          !file.mustCompact
        ) {
          await this.append(file, journal, appendBytes);
        } else {
          await this.compact(state, file, live);
        }
      } catch (err) {
        // Written again by the next attempt (after the probe), with what changed since.
        for (const key of changed) file.changed.add(key);
        throw err;
      }
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

  /** Appends to the file's journal and fsyncs it (and the directory when this creates the journal). */
  private async append(file: HeadFile, text: string, bytes: number): Promise<void> {
    const path = journalPath(file.path, file.gen);
    const created = !file.journals.has(file.gen);
    try {
      await this.fs.appendFileSynced(path, text);
      if (created) await this.fs.syncDir(dirname(path));
    } catch (err) {
      // Part of the text may be in the file: never append after it, write the whole file next.
      file.mustCompact = true;
      file.journals.add(file.gen);
      throw err;
    }
    file.journals.add(file.gen);
    file.journalBytes += bytes;
    this.countWrite(bytes, true);
  }

  /**
   * Writes the whole file, naming the next journal generation; then deletes the journals that neither it nor its
   * previous generation (`.prev`) needs.
   */
  private async compact(state: CollectionState, file: HeadFile, live: (key: string) => Row | undefined): Promise<void> {
    const rows: Array<[string, Row]> = [];
    for (const key of [...file.keys].sort(byKey)) {
      const row = live(key);
      if (row) rows.push([key, row]);
    }
    const next = file.gen + 1;
    // `.prev` after this write: the current snapshot (its journal is file.gen's), unless the current one did not
    // parse, in which case the old `.prev` stays.
    const prevGen = !file.hasSnapshot ? undefined : file.adapter.keepPrev ? file.prevGen : file.gen;
    file.low.data = {
      collection: state.table.spec.name,
      rows,
      journal: next,
      ...(prevGen !== undefined ? { prev: prevGen } : {}),
    };
    await file.low.write();
    file.hasSnapshot = true;
    file.mustCompact = false;
    file.gen = next;
    file.journalBytes = 0;
    file.prevGen = prevGen;
    for (const gen of [...file.journals]) {
      if (gen >= (prevGen ?? next)) continue;
      await this.fs.unlink(journalPath(file.path, gen)).catch((e: unknown) => {
        if (errCode(e) !== 'ENOENT') throw e;
      });
      file.journals.delete(gen);
    }
  }

  /** Writes every file with unsaved changes; rejects if any write fails. */
  private async flushDirty(): Promise<void> {
    const waits: Array<Promise<void>> = [];
    for (const file of this.dirty) {
      const state = this.collections.get(file.low.data.collection) ?? this.stateOf(file);
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
