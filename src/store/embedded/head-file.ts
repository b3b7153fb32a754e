/**
 * One state file (a collection's records under one key head, layout.ts) in a running store: the keys it holds, reading
 * it back at open (its snapshot, then its journals), and its writes: a journal append, or the whole file (compaction).
 * All changes made to a file before its write starts share that write (one append, one batch of promises); a change
 * made while it runs goes into the next one.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { Low } from 'lowdb';
import { byKey, type RecordTable, type Row } from '../memory-store.js';
import type { StoreLogger } from '../store.js';
import { DurableJsonFile, StoreCorruptError } from './durable-file.js';
import { unlessGone, type StoreFs } from './fs.js';
import { compactionThreshold, compactionSpread, journalLine, journalPath, parseJournal } from './journal.js';
import { fileStem } from './layout.js';
import type { FileData } from './snapshot.js';

/** The promise of one write, shared by every change it carries. */
export interface Batch {
  promise: Promise<void>;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export function newBatch(): Batch {
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

/** A key's row as it is to be written: undefined when it is gone or expired. */
type Live = (key: string) => Row | undefined;

/** One file: the keys it holds and its writes. */
export class HeadFile {
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

  /** `spreadKey`: the file's path inside STATE_DIR, which spreads its compactions (journal.ts compactionSpread). */
  constructor(
    readonly adapter: DurableJsonFile,
    readonly collection: string,
    private readonly fs: StoreFs,
    private readonly spreadKey: string,
  ) {
    this.low = new Low<FileData>(adapter, { collection, rows: [], journal: 0 });
  }

  get path(): string {
    return this.adapter.path;
  }

  // ---- reading back (at open)

  /** Loads the file's snapshot `data` (read by its adapter) and then its journals into `table`. */
  async load(data: FileData, journals: readonly number[], table: RecordTable, logger?: StoreLogger): Promise<void> {
    this.hasSnapshot = true;
    for (const gen of journals) this.journals.add(gen);
    // Read from `.prev` (the newest did not parse): `.prev` stays at the next write, and needs its own journal.
    if (this.adapter.keepPrev) this.prevGen = data.journal;
    else if (data.prev !== undefined) this.prevGen = data.prev;
    for (const [key, row] of data.rows) {
      this.belongs(key);
      table.load(key, row);
      this.keys.add(key);
    }
    // The journal that continues this snapshot, and any later one (there is one only after `.prev` was used).
    this.gen = data.journal;
    const replayed = await this.replay(table, logger);
    // Replace a damaged newest file, or fold two journals into one, at the next write.
    if (replayed > 1 || this.adapter.keepPrev) this.mustCompact = true;
  }

  /** Replays the journals from the current generation on; returns how many were read. */
  private async replay(table: RecordTable, logger?: StoreLogger): Promise<number> {
    let replayed = 0;
    for (let gen = this.gen; this.journals.has(gen); gen++) {
      const path = journalPath(this.path, gen);
      const text = await readFile(path, 'utf8');
      const { changes, torn } = parseJournal(text);
      for (const [key, row] of changes) {
        this.belongs(key);
        if (row) {
          table.load(key, row);
          this.keys.add(key);
        } else {
          table.remove(key);
          this.keys.delete(key);
        }
      }
      this.gen = gen;
      this.journalBytes = Buffer.byteLength(text);
      replayed++;
      if (torn) {
        logger?.warn(
          { file: path },
          `State journal ${path} ends with a line cut short (a write that was never acknowledged); the lines ` +
            'before it are used.',
        );
        this.mustCompact = true;
        break;
      }
    }
    return replayed;
  }

  /** A key read from this file must live in it (layout.ts), or the file is not what its name says. */
  private belongs(key: string): void {
    if (fileStem(key) !== basename(this.path, '.json')) {
      throw new StoreCorruptError(this.path, `holds the key ${JSON.stringify(key)}, which belongs to another file`);
    }
  }

  // ---- writing

  /**
   * Writes the changed keys: appended to the journal while `journal` is on, the journal can be trusted and has room;
   * else the whole file (a compaction). Returns the bytes appended, or undefined when the whole file was written.
   */
  async save(changed: ReadonlySet<string>, live: Live, journal: boolean): Promise<number | undefined> {
    let text = '';
    if (journal && this.hasSnapshot && !this.mustCompact) {
      for (const key of changed) text += journalLine(key, live(key));
    }
    const bytes = Buffer.byteLength(text);
    if (
      text &&
      this.journalBytes + bytes <=
        compactionThreshold(this.adapter.bytes, compactionSpread(this.spreadKey, this.gen)) &&
      !this.mustCompact
    ) {
      await this.append(text, bytes);
      return bytes;
    }
    await this.compact(live);
    return undefined;
  }

  /** Appends to the file's journal and fsyncs it (and the directory when this creates the journal). */
  private async append(text: string, bytes: number): Promise<void> {
    const path = journalPath(this.path, this.gen);
    const created = !this.journals.has(this.gen);
    try {
      await this.fs.appendFileSynced(path, text);
      if (created) await this.fs.syncDir(dirname(path));
    } catch (err) {
      // Part of the text may be in the file: never append after it, write the whole file next.
      this.mustCompact = true;
      this.journals.add(this.gen);
      throw err;
    }
    this.journals.add(this.gen);
    this.journalBytes += bytes;
  }

  /**
   * Writes the whole file, naming the next journal generation; then deletes the journals that neither it nor its
   * previous generation (`.prev`) needs.
   */
  private async compact(live: Live): Promise<void> {
    const rows: Array<[string, Row]> = [];
    for (const key of [...this.keys].sort(byKey)) {
      const row = live(key);
      if (row) rows.push([key, row]);
    }
    const next = this.gen + 1;
    // `.prev` after this write: the current snapshot (its journal is this.gen's), unless the current one did not
    // parse, in which case the old `.prev` stays.
    const prevGen = !this.hasSnapshot ? undefined : this.adapter.keepPrev ? this.prevGen : this.gen;
    this.low.data = {
      collection: this.collection,
      rows,
      journal: next,
      ...(prevGen !== undefined ? { prev: prevGen } : {}),
    };
    await this.low.write();
    this.hasSnapshot = true;
    this.mustCompact = false;
    this.gen = next;
    this.journalBytes = 0;
    this.prevGen = prevGen;
    for (const gen of [...this.journals]) {
      if (gen >= (prevGen ?? next)) continue;
      await unlessGone(this.fs.unlink(journalPath(this.path, gen)));
      this.journals.delete(gen);
    }
  }
}
