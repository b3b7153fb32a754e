/** How the embedded store writes files (fsynced, replaceable in tests), and its words for a write that failed. */
import { constants as fsConstants } from 'node:fs';
import { link, mkdir, open, rename, unlink } from 'node:fs/promises';

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

/**
 * Opens the file (`w`: created or truncated, `a`: appended to), writes the text and makes it durable before closing:
 * `sync` with the file's metadata, `datasync` its data (an append's size is data enough).
 */
async function writeSynced(path: string, flags: 'w' | 'a', text: string, sync: 'sync' | 'datasync'): Promise<void> {
  const handle = await open(path, flags, 0o600);
  try {
    await handle.writeFile(text, 'utf8');
    await handle[sync]();
  } finally {
    await handle.close();
  }
}

export const nodeStoreFs: StoreFs = {
  writeFileSynced: (path, text) => writeSynced(path, 'w', text, 'sync'),
  appendFileSynced: (path, text) => writeSynced(path, 'a', text, 'datasync'),
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

/** The code of a file system error (ENOENT, ENOSPC, ...), if it has one. */
export const errCode = (err: unknown): string | undefined => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

/** Runs an unlink (or the like) for which a file already gone is as good as done. */
export async function unlessGone(op: Promise<void>): Promise<void> {
  await op.catch((e: unknown) => {
    if (errCode(e) !== 'ENOENT') throw e;
  });
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
export function describeWriteError(dir: string, err: unknown): string {
  const code = errCode(err);
  const what = code ? (WRITE_PROBLEMS[code] ?? 'write failed') : 'write failed';
  return `cannot write the state in ${dir}: ${what} (${code ?? (err instanceof Error ? err.message : String(err))})`;
}
