/**
 * The state as it was kept before STATE_DIR (one JSON file, STATE_FILE, written by lowdb as
 * `{ "schemaVersion": 1, "collections": { "<name>": { "<key>": <record> } } }`) is converted into the embedded store
 * on first start: every record of every collection is copied as it is (subscriptions, cursors, call and post
 * mappings, upload jobs, home preferences, form submissions, ...), made durable, and only then is the old file renamed
 * to `<file>.converted-<date>.bak`, kept as a backup.
 *
 * A crash half way is safe: a marker in STATE_DIR (`.state-file-conversion.json`, naming the file and its SHA-256)
 * says a conversion of that exact file started; the next start converts it again (writing the same records again) or,
 * when the marker says it finished, only renames the file. A file that does not parse stops the start with
 * StoreCorruptError and is left as it was. A STATE_FILE found beside a STATE_DIR that already holds other state is
 * left alone, with a warning: merging two states silently could bring back what was deleted.
 */
import { createHash } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { StoreCorruptError } from './embedded/durable-file.js';
import type { EmbeddedStore } from './embedded/store.js';
import type { StoreLogger } from './store.js';

const LEGACY_SCHEMA_VERSION = 1;
const MARKER = '.state-file-conversion.json';

interface Marker {
  file: string;
  sha256: string;
  state: 'started' | 'done';
  counts?: Record<string, number>;
}

export interface ConversionResult {
  /** What happened: nothing to convert, converted now, only the backup renamed (converted before), left alone. */
  outcome: 'none' | 'converted' | 'finished' | 'skipped';
  /** Records converted per collection. */
  counts?: Record<string, number>;
  /** Where the old file is now. */
  backup?: string;
}

const REMEDY =
  'Restore it from a backup, or move it away to start without the old state (watches, cursors and mappings are ' +
  'then forgotten), then start the app again.';

/** Parses the legacy file; throws StoreCorruptError naming what is wrong. */
function parseLegacy(file: string, text: string): Record<string, Record<string, unknown>> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new StoreCorruptError(file, `is not valid JSON (${(e as Error).message})`, REMEDY);
  }
  const doc = json as { schemaVersion?: unknown; collections?: unknown } | null;
  const shape = `does not have the expected shape { schemaVersion: ${LEGACY_SCHEMA_VERSION}, collections: { name: { key: record } } }`;
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new StoreCorruptError(file, shape, REMEDY);
  if (typeof doc.schemaVersion === 'number' && doc.schemaVersion > LEGACY_SCHEMA_VERSION) {
    throw new StoreCorruptError(
      file,
      `was written by a newer version of this app (schemaVersion ${doc.schemaVersion}; this version reads ` +
        `${LEGACY_SCHEMA_VERSION})`,
      REMEDY,
    );
  }
  if (doc.schemaVersion !== LEGACY_SCHEMA_VERSION)
    throw new StoreCorruptError(file, `${shape} (no schemaVersion 1)`, REMEDY);
  const collections = doc.collections;
  if (collections === null || typeof collections !== 'object' || Array.isArray(collections)) {
    throw new StoreCorruptError(file, `${shape} (collections is not an object)`, REMEDY);
  }
  for (const [name, records] of Object.entries(collections as Record<string, unknown>)) {
    if (records === null || typeof records !== 'object' || Array.isArray(records)) {
      throw new StoreCorruptError(file, `${shape} (collection ${JSON.stringify(name)} is not an object)`, REMEDY);
    }
  }
  return collections as Record<string, Record<string, unknown>>;
}

async function readMarker(dir: string): Promise<Marker | undefined> {
  try {
    return JSON.parse(await readFile(join(dir, MARKER), 'utf8')) as Marker;
  } catch {
    return undefined;
  }
}

async function writeMarker(dir: string, marker: Marker): Promise<void> {
  await writeFile(join(dir, MARKER), `${JSON.stringify(marker, null, 2)}\n`);
}

/** `<file>.converted-2026-11-25T04-17-08Z.bak` (no ':' so it is a valid name everywhere). */
function backupName(file: string, now: Date): string {
  return `${file}.converted-${now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-')}.bak`;
}

/** Converts the legacy STATE_FILE into the (open) embedded store, once. */
export async function convertStateFile(
  store: EmbeddedStore,
  stateFile: string,
  opts: { logger?: StoreLogger; now?: () => Date } = {},
): Promise<ConversionResult> {
  const file = resolve(stateFile);
  const now = opts.now ?? (() => new Date());
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { outcome: 'none' };
    throw new Error(
      `Cannot read STATE_FILE ${file} to convert it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}). ` +
        'Check its permissions, or move it away to start without the old state.',
      { cause: e },
    );
  }
  const sha256 = createHash('sha256').update(text).digest('hex');
  const marker = await readMarker(store.dir);

  const finish = async (counts: Record<string, number>, outcome: 'converted' | 'finished') => {
    const backup = backupName(file, now());
    await rename(file, backup);
    opts.logger?.info(
      { stateFile: file, backup, counts, stateDir: store.dir },
      `converted the old state file into STATE_DIR ${store.dir}; the old file is kept as ${backup}`,
    );
    return { outcome, counts, backup };
  };

  if (marker?.sha256 === sha256 && marker.state === 'done') return finish(marker.counts ?? {}, 'finished');
  const holdsState = (await store.collectionNames()).length > 0;
  if ((marker && marker.sha256 !== sha256) || (!marker && holdsState)) {
    opts.logger?.warn(
      { stateFile: file, stateDir: store.dir },
      `STATE_FILE ${file} was not converted: STATE_DIR ${store.dir} already holds state of its own. The file is ` +
        'left as it is; move it away to silence this warning.',
    );
    return { outcome: 'skipped' };
  }

  const collections = parseLegacy(file, text);
  await writeMarker(store.dir, { file, sha256, state: 'started' });
  const counts: Record<string, number> = {};
  for (const [name, records] of Object.entries(collections)) {
    const c = store.collection<unknown>(name);
    const keys = Object.keys(records);
    // All at once: the store writes each file once for all its records.
    await Promise.all(keys.map((key) => c.put(key, records[key])));
    counts[name] = keys.length;
  }
  await store.flush();
  await writeMarker(store.dir, { file, sha256, state: 'done', counts });
  return finish(counts, 'converted');
}
