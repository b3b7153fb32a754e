/**
 * A Slack file opened as a contacts table: files.info, the bytes downloaded into the upload's own temp directory
 * (streamed to disk, counted against UPLOAD_MAX_BYTES), then read by the contacts pipeline in a worker thread up to
 * the header (so an empty file, a header-only file, an unreadable one or one without a phone column is known before
 * anything is sent). The main thread never parses the file: it only receives batches.
 */
import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { ResourceLimits } from 'node:worker_threads';
import type { WebClient } from '@slack/web-api';
import type { CountryCode, FileLimits, HeaderMapping } from '../../contacts/index.js';
import { IsolatedContactFile } from '../../contacts/isolated-reader.js';
import { downloadSlackFile, slackFileInfo, type SlackFileInfo } from './download.js';
import { createWorkspace, type UploadWorkspace } from './workspace.js';

/** How the worker reads the file: the job's own settings (a resumed job keeps its batch size and country). */
export interface ReaderSettings {
  defaultCountry: CountryCode;
  batchSize: number;
  limits: FileLimits;
  /** Rows the failure report lists at most (the rejected rows spooled beyond that are not kept). */
  reportMaxRows: number;
  resourceLimits?: ResourceLimits;
}

export interface OpenFileOptions {
  botToken: string;
  slackApiUrl: string;
  maxBytes: number;
  signal?: AbortSignal;
  reader: ReaderSettings;
  /** A reader started ahead (`spawnReader`), used instead of starting one here; ended if opening fails. */
  spawned?: IsolatedContactFile;
}

export interface OpenedFile {
  info: SlackFileInfo;
  workspace: UploadWorkspace;
  /** The downloaded file. */
  path: string;
  size: number;
  /** Where the reader spools the rejected rows. */
  rejectedPath: string;
  /** The worker reading the file, header read; undefined once let go (a job waiting for its turn). */
  reader: IsolatedContactFile | undefined;
  mapping: HeaderMapping;
}

const SOURCE = 'source';
const REJECTED = 'rejected.ndjson';

/** A reader thread started ahead of its file (it loads the pipeline meanwhile). */
export function spawnReader(settings: ReaderSettings): IsolatedContactFile {
  return IsolatedContactFile.spawn(settings.resourceLimits ? { resourceLimits: settings.resourceLimits } : {});
}

/** Opens the downloaded file in a reader (`spawned`, or a new one): resolves once the header is read and mapped. */
export async function startReader(
  f: Pick<OpenedFile, 'info' | 'path' | 'rejectedPath'>,
  settings: ReaderSettings,
  spawned: IsolatedContactFile = spawnReader(settings),
): Promise<IsolatedContactFile> {
  return spawned.open({
    path: f.path,
    fileName: f.info.name,
    ...(f.info.mimetype ? { mimeType: f.info.mimetype } : {}),
    defaultCountry: settings.defaultCountry,
    batchSize: settings.batchSize,
    limits: settings.limits,
    rejectedPath: f.rejectedPath,
    rejectedKept: settings.reportMaxRows,
  });
}

/** Throws SlackFileError (Slack side) or FileFormatError (content); leaves nothing on disk when it throws. */
export async function openSlackContactsFile(
  client: WebClient,
  fileId: string,
  opts: OpenFileOptions,
): Promise<OpenedFile> {
  // The reader loads while Slack answers and the file downloads.
  const spawned = opts.spawned ?? spawnReader(opts.reader);
  let info: SlackFileInfo;
  let download;
  try {
    info = await slackFileInfo(client, fileId, opts.slackApiUrl);
    download = await downloadSlackFile(info, {
      botToken: opts.botToken,
      maxBytes: opts.maxBytes,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
  } catch (err) {
    await spawned.close();
    throw err;
  }
  let workspace: UploadWorkspace | undefined;
  try {
    workspace = await createWorkspace();
    const path = workspace.path(SOURCE);
    await pipeline(download.body, createWriteStream(path, { flags: 'wx' }));
    const size = (await stat(path)).size;
    const rejectedPath = workspace.path(REJECTED);
    const reader = await startReader({ info, path, rejectedPath }, opts.reader, spawned);
    return { info, workspace, path, size, rejectedPath, reader, mapping: reader.mapping };
  } catch (err) {
    // Ends the download if it is still going (a failure on our side), then removes what was written.
    await spawned.close();
    await (download.body as AsyncGenerator<Buffer>).return?.(undefined);
    await workspace?.remove();
    throw err;
  }
}

/** Ends the file's reader and removes its temp directory. */
export async function closeOpenedFile(f: OpenedFile | undefined): Promise<void> {
  if (!f) return;
  await f.reader?.close().catch(() => undefined);
  f.reader = undefined;
  await f.workspace.remove().catch(() => undefined);
}
