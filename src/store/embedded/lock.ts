/**
 * One process per STATE_DIR: a lock file (`<dir>/.lock`, holding the pid and host, refreshed every few seconds)
 * refuses a second open; a lock left by a process that died is taken over.
 */
import { link, readFile, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { errCode, unlessGone } from './fs.js';

/** STATE_DIR is in use by another process (or another store of this one). */
export class StoreLockedError extends Error {
  override name = 'StoreLockedError';
}

const LOCK_FILE = '.lock';
const LOCK_REFRESH_MS = 5_000;
/** A lock not refreshed for this long belongs to a process that is gone (or frozen for longer than any request). */
const LOCK_STALE_MS = 30_000;

/** In this process: the directories open now (the lock file alone cannot tell our own stores apart). */
const openDirs = new Set<string>();

interface LockHolder {
  pid: number;
  host: string;
  since: string;
}

export class DirLock {
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
        await unlessGone(unlink(path));
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
