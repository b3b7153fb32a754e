/**
 * Each upload's own temp directory: the downloaded file, its rejected rows (spooled as they are found) and the
 * failed-rows report. One directory per upload, removed whole on every way out (done, stopped, refused, the app
 * stopping). A directory left by a process that died (killed, out of memory) is removed at the next start.
 *
 * Names: `outreach-upload-<pid>-<random>` under the system temp directory (TMPDIR), so a start can tell the
 * directories of a process still running (another instance, or this one) from those of a dead one.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const WORKSPACE_PREFIX = 'outreach-upload-';

export class UploadWorkspace {
  private removed = false;

  constructor(readonly dir: string) {}

  /** A file of this upload (not created). */
  path(name: string): string {
    return join(this.dir, name);
  }

  /** Removes the directory and everything in it. Safe to call more than once. */
  async remove(): Promise<void> {
    if (this.removed) return;
    this.removed = true;
    await rm(this.dir, { recursive: true, force: true });
  }
}

export async function createWorkspace(root = tmpdir()): Promise<UploadWorkspace> {
  return new UploadWorkspace(await mkdtemp(join(root, `${WORKSPACE_PREFIX}${process.pid}-`)));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, run by someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the workspaces of processes that no longer run. Resolves with how many were removed. */
export async function sweepDeadWorkspaces(root = tmpdir()): Promise<number> {
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const pid = new RegExp(`^${WORKSPACE_PREFIX}(\\d+)-`).exec(name)?.[1];
    if (pid === undefined || alive(Number(pid))) continue;
    await rm(join(root, name), { recursive: true, force: true }).catch(() => undefined);
    removed++;
  }
  return removed;
}
