/**
 * The Store on a JSON file, with lowdb 7.
 *
 * File format: `{ "schemaVersion": 1, "collections": { "<name>": { "<key>": <record> } } }`.
 *
 * Atomicity: lowdb's `JSONFile` writes through steno's `Writer` (steno 4, `lib/index.js`), which writes the whole
 * text to a temporary file beside the target (`.<name>.tmp`) and then `rename`s it over the target. A rename within a
 * directory is atomic, so after a crash the file holds either the previous state or the new one, never a mix. steno
 * does not fsync, so a write is durable against the process dying (crash, kill, restart) as soon as its promise
 * resolves; surviving a power loss of the machine is up to the file system's own journaling.
 *
 * Coalescing: `set`/`delete` change memory at once and schedule one write of the whole state (next turn of the event
 * loop, or after `coalesceMs`). Every change made before that write starts shares its promise; a change made while a
 * write runs goes into the next one. A failed write rejects the promises of the changes it carried; those changes
 * stay in memory and go out with the next write (the next change, `flush()` or `close()` starts one).
 *
 * A file that cannot be understood is never overwritten: opening fails with `StoreCorruptError` and the file is left
 * byte for byte as it was.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { z } from 'zod';
import type { Collection, Store } from './store.js';

export const SCHEMA_VERSION = 1;

type Records = Record<string, unknown>;
interface StateFile {
  schemaVersion: number;
  collections: Record<string, Records>;
}

const StateFileSchema = z.object({
  schemaVersion: z.number().int().min(1),
  collections: z.record(z.string(), z.record(z.string(), z.unknown())),
});

/** The state file exists but cannot be used; it has not been modified. */
export class StoreCorruptError extends Error {
  override name = 'StoreCorruptError';
  constructor(
    readonly file: string,
    problem: string,
    remedy = 'Restore it from a backup, or move it away to start with empty state (watches and cursors are then ' +
      'forgotten), then start the app again.',
  ) {
    super(`State file ${file} ${problem}. It has not been changed. ${remedy}`);
  }
}

/** A change was attempted after `close()`. */
export class StoreClosedError extends Error {
  override name = 'StoreClosedError';
  constructor(what: string) {
    super(`The store is closed (the app is shutting down), so ${what} was not saved.`);
  }
}

export interface LowdbStoreOptions {
  /** Wait this long after the first change before writing, to gather more changes; 0 = next turn of the event loop. */
  coalesceMs?: number;
}

export type LowdbStore = Store & {
  /** How many times the file has been written (successfully or not): for tests and benchmarks. */
  readonly writes: number;
  /** The absolute path of the file. */
  readonly file: string;
  /** The error of the latest write, until a write succeeds (for /healthz). */
  readonly lastWriteError: Error | undefined;
};

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
  // Nobody may be awaiting a batch (a caller that fires and forgets); its failure is reported to those who do.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/** Records live in prototype-less objects, so any string (even "__proto__") is an ordinary key. */
function dictionary(from?: Records): Records {
  const d = Object.create(null) as Records;
  if (from) for (const [k, v] of Object.entries(from)) d[k] = v;
  return d;
}

async function readState(file: string): Promise<StateFile | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf-8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(
      `Cannot read the state file ${file}: ${(e as Error).message}. Check STATE_FILE and its permissions.`,
      {
        cause: e,
      },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new StoreCorruptError(file, `is not valid JSON (${(e as Error).message})`);
  }
  const version = (json as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version === 'number' && version > SCHEMA_VERSION) {
    throw new StoreCorruptError(
      file,
      `was written by a newer version of this app (schemaVersion ${version}; this version reads ${SCHEMA_VERSION})`,
      'Run the newer version of the app, or restore a backup made by this version, or move the file away to start ' +
        'with empty state, then start the app again.',
    );
  }
  const parsed = StateFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    throw new StoreCorruptError(
      file,
      `does not have the expected shape { schemaVersion: ${SCHEMA_VERSION}, collections: { name: { key: record } } }` +
        ` (${issue?.message ?? 'invalid'}${where})`,
    );
  }
  const collections: Record<string, Records> = dictionary() as Record<string, Records>;
  // Copy from the raw JSON (not zod's output) so the records are kept exactly as read.
  const raw = json as StateFile;
  for (const name of Object.keys(raw.collections)) collections[name] = dictionary(raw.collections[name]);
  return { schemaVersion: SCHEMA_VERSION, collections };
}

/** Files open in this process: two stores on one file would overwrite each other's changes. */
const openFiles = new Set<string>();

/** Opens (or creates) the state file. Throws `StoreCorruptError` if it exists but cannot be used. */
export async function openLowdbStore(file: string, opts: LowdbStoreOptions = {}): Promise<LowdbStore> {
  const path = resolve(file);
  await mkdir(dirname(path), { recursive: true });
  const initial = (await readState(path)) ?? {
    schemaVersion: SCHEMA_VERSION,
    collections: dictionary() as Record<string, Records>,
  };
  if (openFiles.has(path)) {
    throw new Error(`State file ${path} is already open in this process; close that store first.`);
  }
  openFiles.add(path);
  const db = new Low<StateFile>(new JSONFile<StateFile>(path), initial);
  return new LowdbStoreImpl(path, db, Math.max(0, opts.coalesceMs ?? 0));
}

class LowdbStoreImpl implements LowdbStore {
  writes = 0;
  lastWriteError: Error | undefined;
  /** The batch waiting for its write to start; changes made now join it. */
  private pending: Batch | undefined;
  /** The batch whose write is in progress. */
  private running: Batch | undefined;
  /** Cancels the timer that would start the pending batch's write. */
  private cancelTimer: (() => void) | undefined;
  /** Someone is flushing: write the pending batch as soon as possible, without the coalescing delay. */
  private urgent = false;
  /** Change counter, and the counter value the file is known to hold: they differ while changes are unsaved. */
  private changes = 0;
  private saved = 0;
  private closed = false;
  private readonly views = new Map<string, Collection<unknown>>();

  constructor(
    readonly file: string,
    private readonly db: Low<StateFile>,
    private readonly coalesceMs: number,
  ) {}

  collection<T>(name: string): Collection<T> {
    let view = this.views.get(name);
    if (!view) {
      view = this.makeCollection(name);
      this.views.set(name, view);
    }
    return view as Collection<T>;
  }

  async flush(): Promise<void> {
    // After a failed write nothing may be scheduled although changes are unsaved: try again.
    if (this.changes !== this.saved && !this.pending && !this.running) this.nextBatch();
    if (this.pending) {
      this.urgent = true;
      if (!this.running) void this.write();
    }
    // The pending batch is written after the running one and carries the whole state, so it covers everything.
    await (this.pending ?? this.running)?.promise;
  }

  async close(): Promise<void> {
    this.closed = true;
    try {
      await this.flush();
    } finally {
      openFiles.delete(this.file);
    }
  }

  private makeCollection<T>(name: string): Collection<T> {
    const records = (): Records => this.db.data.collections[name] ?? dictionary();
    return {
      get: (key) => records()[key] as T | undefined,
      has: (key) => key in records(),
      // Insertion order, except that integer-like keys ("42") come first in ascending order: JavaScript's object key
      // order, which is also what a restart reads back from the file, so the order is the same before and after.
      entries: () => Object.entries(records()) as Array<[string, T]>,
      values: () => Object.values(records()) as T[],
      size: () => Object.keys(records()).length,
      set: (key, value) => {
        if (this.closed) return Promise.reject(new StoreClosedError(`the change to ${name}/${key}`));
        const text = JSON.stringify(value);
        if (text === undefined) {
          return Promise.reject(new TypeError(`Cannot store ${String(value)} as ${name}/${key}: not a JSON value.`));
        }
        // Kept as it will read back after a restart (a Date becomes a string, etc.), and detached from the caller's
        // object, so mutating that object later changes nothing here.
        (this.db.data.collections[name] ??= dictionary())[key] = JSON.parse(text) as unknown;
        this.changes++;
        return this.schedule();
      },
      delete: (key) => {
        if (this.closed) return Promise.reject(new StoreClosedError(`the deletion of ${name}/${key}`));
        const current = this.db.data.collections[name];
        if (current && key in current) {
          delete current[key];
          this.changes++;
        }
        // Even a no-op waits for the writes in flight: an earlier deletion of this key may not be on disk yet.
        return this.schedule();
      },
    };
  }

  /** Makes sure a write is coming that will carry every change made so far, and returns its promise. */
  private schedule(): Promise<void> {
    return this.nextBatch().promise;
  }

  /** The batch that the next write will carry (started now when there is none). */
  private nextBatch(): Batch {
    if (!this.pending) {
      this.pending = newBatch();
      if (!this.running) this.arm();
    }
    return this.pending;
  }

  private arm(): void {
    if (this.coalesceMs > 0 && !this.urgent) {
      const t = setTimeout(() => void this.write(), this.coalesceMs);
      this.cancelTimer = () => clearTimeout(t);
    } else {
      const t = setImmediate(() => void this.write());
      this.cancelTimer = () => clearImmediate(t);
    }
  }

  private async write(): Promise<void> {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    const batch = this.pending;
    if (!batch || this.running) return;
    this.pending = undefined;
    this.running = batch;
    this.urgent = false;
    const upTo = this.changes;
    this.writes++;
    try {
      // JSONFile stringifies `db.data` synchronously inside this call, so later changes cannot leak into this write.
      await this.db.write();
      this.saved = Math.max(this.saved, upTo);
      this.lastWriteError = undefined;
      batch.resolve();
    } catch (err) {
      // Kept as thrown (not `instanceof Error`: fs errors may come from another realm, e.g. under jest).
      this.lastWriteError = typeof err === 'object' && err !== null ? (err as Error) : new Error(String(err));
      batch.reject(
        new Error(
          `Could not save the state file ${this.file}: ${(err as Error).message}. The change is kept in memory.`,
          {
            cause: err,
          },
        ),
      );
    } finally {
      this.running = undefined;
      if (this.pending) this.arm();
    }
  }
}
