/**
 * Writing and reading one state file's snapshot durably, as lowdb's adapter.
 *
 * Writing: the new text goes to a temporary file beside the target and is fsynced; the current file is hard-linked
 * to `<file>.prev` (through a temporary link and a rename, so the target always exists); the temporary file is
 * renamed over the target; the directory is fsynced. The write's promise resolves only then.
 *
 * Reading: a newest file that does not parse (cut short by a power loss) is replaced by its `.prev`, with a warning
 * (and the journals from the one `.prev` names on are replayed: only the changes of the write cut short are lost);
 * when neither parses, opening fails with StoreCorruptError naming the file, which is left untouched.
 */
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Adapter } from 'lowdb';
import type { StoreLogger } from '../store.js';
import { errCode, unlessGone, type StoreFs } from './fs.js';
import { parseSnapshot, serializeSnapshot, type FileData } from './snapshot.js';

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

/** lowdb adapter: reads with fallback to the previous generation, writes durably keeping it. */
export class DurableJsonFile implements Adapter<FileData> {
  /** The newest file did not parse and `.prev` was used: keep that `.prev` at the next write, do not rotate. */
  keepPrev = false;
  /** Bytes of the snapshot read or last written. */
  bytes = 0;

  constructor(
    readonly path: string,
    private readonly fs: StoreFs,
    private readonly logger: StoreLogger | undefined,
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
      const data = parseSnapshot(text);
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
    const text = serializeSnapshot(data);
    const temp = `${this.path}.tmp`;
    await this.fs.writeFileSynced(temp, text);
    if (!this.keepPrev) {
      const prevTemp = `${this.path}.prev.tmp`;
      await unlessGone(this.fs.unlink(prevTemp));
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
