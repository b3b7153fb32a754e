/**
 * A Slack file opened as a contacts table: files.info, the download started, and the contacts pipeline reading the
 * header (so an empty file, a header-only file, an unreadable one or one without a phone column is known before
 * anything is sent). The body is never held whole: the parser pulls it from the download as it goes.
 */
import type { WebClient } from '@slack/web-api';
import { readTable, requirePhoneColumn, type HeaderMapping, type Table } from '../../contacts/index.js';
import { downloadSlackFile, slackFileInfo, type Download, type SlackFileInfo } from './download.js';

export interface OpenedFile {
  info: SlackFileInfo;
  download: Download;
  table: Table;
  mapping: HeaderMapping;
}

export interface OpenFileOptions {
  botToken: string;
  slackApiUrl: string;
  maxBytes: number;
  signal?: AbortSignal;
}

/** Throws SlackFileError (Slack side) or FileFormatError (content). */
export async function openSlackContactsFile(
  client: WebClient,
  fileId: string,
  opts: OpenFileOptions,
): Promise<OpenedFile> {
  const info = await slackFileInfo(client, fileId, opts.slackApiUrl);
  const download = await downloadSlackFile(info, {
    botToken: opts.botToken,
    maxBytes: opts.maxBytes,
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  let table: Table;
  try {
    table = await readTable(download.body, {
      fileName: info.name,
      ...(info.mimetype ? { mimeType: info.mimetype } : {}),
    });
  } catch (err) {
    // readTable released the input; make sure the connection is closed too.
    await (download.body as AsyncGenerator<Buffer>).return?.(undefined);
    throw err;
  }
  try {
    return { info, download, table, mapping: requirePhoneColumn(table.headers, info.name) };
  } catch (err) {
    await table.close();
    throw err;
  }
}

/** Total size for the progress estimate: files.info's, else the download's Content-Length. */
export function fileSize(f: OpenedFile): number | undefined {
  return f.info.size ?? f.download.length;
}
