/**
 * Copying a whole state from one store to another (`npm run state:copy`: an embedded STATE_DIR into PostgreSQL).
 * Every unexpired record is copied with its key and expiry, collection by collection; versions are the target's own
 * (a version is only ever compared with one read from the same store).
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openEmbeddedStore } from './embedded/store.js';
import { databaseWhere, openPostgresStore } from './pg-store.js';
import type { ExportableStore } from './store.js';

/** The target already holds records and `force` was not given. */
export class CopyTargetNotEmptyError extends Error {
  override name = 'CopyTargetNotEmptyError';
  constructor(
    readonly collections: string[],
    where: string,
  ) {
    super(
      `${where} already holds records (collections: ${collections.join(', ')}), so nothing was copied. ` +
        'Copy into an empty database, or pass --force to write the copied records over the ones with the same keys ' +
        '(records the source does not have are kept).',
    );
  }
}

export interface CopyOptions {
  /** Copy even if the target holds records: the source's records replace those with the same keys. */
  force?: boolean;
  /** How the target is named in messages (e.g. "PostgreSQL at db:5432/outreach"); never with credentials. */
  targetName?: string;
  /** Told after each collection is copied. */
  onCollection?: (name: string, records: number) => void;
  /** Writes in flight at once (default 8). */
  concurrency?: number;
}

export interface CopyResult {
  /** Records copied per collection, in the order copied (code-point order of names). */
  collections: Array<{ name: string; records: number }>;
  total: number;
}

export async function copyState(
  from: ExportableStore,
  to: ExportableStore,
  opts: CopyOptions = {},
): Promise<CopyResult> {
  const existing = await to.collectionNames();
  if (existing.length > 0 && !opts.force) {
    throw new CopyTargetNotEmptyError(existing, opts.targetName ?? 'The target');
  }
  const concurrency = Math.max(1, opts.concurrency ?? 8);
  const result: CopyResult = { collections: [], total: 0 };
  for (const name of await from.collectionNames()) {
    const target = to.collection<unknown>(name);
    let records = 0;
    const inFlight = new Set<Promise<void>>();
    // The first failed write stops the copy (after the writes in flight settle); it is what the caller sees.
    let failure: { err: unknown } | undefined;
    for await (const rec of from.exportRecords(name)) {
      const tracked: Promise<void> = target
        .put(rec.key, rec.value, rec.expiresAt === undefined ? {} : { expiresAt: rec.expiresAt })
        .then(
          () => void records++,
          (err: unknown) => void (failure ??= { err }),
        )
        .finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
      if (inFlight.size >= concurrency) await Promise.race(inFlight);
      if (failure) break;
    }
    await Promise.all(inFlight);
    if (failure) throw failure.err;
    result.collections.push({ name, records });
    result.total += records;
    opts.onCollection?.(name, records);
  }
  await to.flush();
  return result;
}

/** Where `runStateCopy` writes (the terminal, or a test's capture). */
export interface CopyCliIo {
  out(line: string): void;
  err(line: string): void;
}

const USAGE = `Usage: npm run state:copy -- --to "$DATABASE_URL" [--from <STATE_DIR>] [--force]

Copies every record of an embedded state (the files under STATE_DIR) into a PostgreSQL database, keeping expiries.
  --to     the target, a postgres:// URL (default: DATABASE_URL). Its tables are created if missing.
  --from   the embedded state's directory (default: STATE_DIR, else ./data). Stop the app that uses it first.
  --force  copy even if the target already holds records: copied records replace those with the same keys.`;

/** Hides the password of any URL in a text (a safety net: messages are written without credentials already). */
export function hideCredentials(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/[^/:@\s]*:)[^@\s]*@/gi, '$1***@');
}

/**
 * `npm run state:copy` (src/store/copy-cli.ts runs it with the process's arguments and environment). Returns the exit
 * code: 0 copied, 1 failed (nothing or part copied; it can be run again with --force), 2 wrong usage.
 */
export async function runStateCopy(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  io: CopyCliIo,
): Promise<number> {
  const request = readRequest(args, env, io);
  if (typeof request === 'number') return request;
  const isDir = await stat(request.source).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDir) {
    io.err(
      `There is no embedded state in ${request.source}: give the app's STATE_DIR with --from <dir>. (A state file ` +
        'of the old format, STATE_FILE, is converted when the app starts once without DATABASE_URL.)',
    );
    return 1;
  }
  return copyToPostgres(request, io);
}

/** What the command asks to copy: the source directory, the target's URL and its name for messages. */
interface CopyRequest {
  source: string;
  to: string;
  where: string;
  force: boolean;
}

/** The request of the arguments (with DATABASE_URL and STATE_DIR as defaults), or the exit code of help and usage. */
function readRequest(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  io: CopyCliIo,
): CopyRequest | number {
  let to: string | undefined;
  let fromDir: string;
  let force: boolean;
  try {
    const { values } = parseArgs({
      args: [...args],
      options: {
        to: { type: 'string' },
        from: { type: 'string' },
        force: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    });
    if (values.help) {
      io.out(USAGE);
      return 0;
    }
    to = values.to || env.DATABASE_URL || undefined;
    fromDir = values.from || env.STATE_DIR || './data';
    force = values.force;
  } catch (err) {
    io.err(hideCredentials(`${err instanceof Error ? err.message : String(err)}\n\n${USAGE}`));
    return 2;
  }
  if (!to) {
    io.err(`Say where to copy to: --to "$DATABASE_URL" (a postgres:// URL).\n\n${USAGE}`);
    return 2;
  }
  try {
    if (!/^postgres(ql)?:$/.test(new URL(to).protocol)) throw new Error('not postgres');
    return { source: resolve(fromDir), to, where: `PostgreSQL at ${databaseWhere(to)}`, force };
  } catch {
    io.err('--to must be a PostgreSQL URL such as postgres://user:password@db.example.com:5432/outreach.');
    return 2;
  }
}

/** Opens both stores and copies; returns the exit code (0 copied, 1 not or partly copied). */
async function copyToPostgres({ source, to, where, force }: CopyRequest, io: CopyCliIo): Promise<number> {
  let from: ExportableStore | undefined;
  let target: ExportableStore | undefined;
  let copying = false;
  try {
    from = await openEmbeddedStore(source);
    target = await openPostgresStore(to, { poolSize: 8 });
    io.out(`Copying the embedded state in ${source} to ${where}…`);
    copying = true;
    const result = await copyState(from, target, {
      force,
      targetName: where,
      concurrency: 8,
      onCollection: (name, n) => io.out(`  ${name}: ${n} record${n === 1 ? '' : 's'}`),
    });
    const n = result.collections.length;
    io.out(
      `Copied ${result.total} record${result.total === 1 ? '' : 's'} in ${n} collection${n === 1 ? '' : 's'}. ` +
        'Start the app with DATABASE_URL set to this database to use them.',
    );
    return 0;
  } catch (err) {
    const text = err instanceof Error ? err.message : String(err);
    if (err instanceof CopyTargetNotEmptyError || !copying) {
      io.err(hideCredentials(`The copy did not start: ${text}`));
    } else {
      io.err(
        hideCredentials(
          `The copy stopped: ${text} Records copied before stay in the target; once the problem is fixed, run ` +
            'the copy again with --force to copy everything.',
        ),
      );
    }
    return 1;
  } finally {
    await target?.close().catch(() => undefined);
    await from?.close().catch(() => undefined);
  }
}
