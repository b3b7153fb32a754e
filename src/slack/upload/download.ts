/**
 * Getting an uploaded file's bytes from Slack, as a stream, with the bot token sent only where Slack said the file is.
 *
 * Rules (../../../../shared/slack-platform-notes.md §2.3):
 * - The download URL is never taken from the view_submission payload: `files.info` is asked for the file id, its
 *   answer must be about that same id, and only its `url_private_download` gets the `Authorization: Bearer` header.
 * - That URL must be https. The one exception is a Slack stand-in on plain http (the tests' fake Slack, a local
 *   sandbox): then the URL must have exactly the origin (scheme, host, port) of SLACK_API_URL, whose answer it is.
 *   A URL with user:password is refused. Redirects are not followed (`redirect: 'manual'`): Slack answers a token
 *   it does not accept with a redirect to its sign-in page, and a followed redirect could carry the request
 *   elsewhere.
 * - An answer of type text/html is Slack's sign-in page, not the file: refused.
 * - Size: files.info's `size` is checked against the limit before downloading, then the bytes are counted while
 *   streaming (the header may lie or be absent) and the download is cut at the first byte over the limit.
 */
import { fetch } from 'undici';
import type { WebClient } from '@slack/web-api';

export type SlackFileErrorCode =
  /** files.info does not know the file (deleted, or not shared with the app). */
  | 'NOT_FOUND'
  | 'TOO_LARGE'
  /** files.info's answer is unusable (no download URL, another file, an unsafe URL). */
  | 'BAD_INFO'
  /** Slack would not hand the bytes over to the app's token (sign-in page, redirect, 401/403). */
  | 'NOT_AUTHORIZED'
  /** Slack or the network failed; trying again later may work. */
  | 'UNAVAILABLE';

/** A file that cannot be read from Slack. `message` is a sentence for the person who uploaded it (plain text). */
export class SlackFileError extends Error {
  override readonly name = 'SlackFileError';
  constructor(
    readonly code: SlackFileErrorCode,
    message: string,
    /** True when the same download may work if tried again. */
    readonly transient = false,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface SlackFileInfo {
  id: string;
  name: string;
  size: number | undefined;
  mimetype: string | undefined;
  /** `url_private_download` from files.info, checked by `checkDownloadUrl`. */
  url: URL;
}

/** Slack file ids: F followed by upper-case letters and digits. */
export const FILE_ID = /^F[A-Z0-9]{2,40}$/;

const MB = 1024 * 1024;

/** "10 MB", "2.5 MB", "812 KB", "90 bytes". */
export function formatBytes(n: number): string {
  if (n >= MB) return `${Number((n / MB).toFixed(1)).toLocaleString('en-US')} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} bytes`;
}

export function tooLargeError(name: string, size: number | undefined, maxBytes: number): SlackFileError {
  const what = size !== undefined ? ` is ${formatBytes(size)};` : ' is larger than allowed;';
  return new SlackFileError(
    'TOO_LARGE',
    `"${name}"${what} files of up to ${formatBytes(maxBytes)} can be uploaded. Split it into smaller files ` +
      '(or remove columns you do not need) and upload each one.',
  );
}

/** The `error` code of a Slack Web API platform error (`file_not_found`, `message_not_found`, …), else undefined. */
export function platformError(err: unknown): string | undefined {
  const e = err as { code?: unknown; data?: { error?: unknown } } | undefined;
  return e?.code === 'slack_webapi_platform_error' && typeof e.data?.error === 'string' ? e.data.error : undefined;
}

/**
 * The URL the token may be sent to, or a SlackFileError. https always (the URL comes from Slack's own answer over
 * TLS); plain http only to the origin of a Slack stand-in configured as SLACK_API_URL.
 */
export function checkDownloadUrl(raw: unknown, slackApiUrl: string): URL {
  const refuse = (why: string) =>
    new SlackFileError('BAD_INFO', `Slack gave a download address the app will not use (${why}); nothing was read.`);
  if (typeof raw !== 'string' || raw === '') throw refuse('none was given');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('not a URL');
  }
  if (url.username || url.password) throw refuse('it carries credentials');
  if (url.protocol === 'https:') return url;
  const api = new URL(slackApiUrl);
  if (url.protocol === 'http:' && api.protocol === 'http:' && url.origin === api.origin) return url;
  throw refuse(`${url.protocol.replace(':', '')} to ${url.host}, not https`);
}

/** files.info for `fileId`; the answer must describe that file and carry a usable download URL. */
export async function slackFileInfo(client: WebClient, fileId: string, slackApiUrl: string): Promise<SlackFileInfo> {
  if (!FILE_ID.test(fileId)) throw new SlackFileError('BAD_INFO', 'The file id from Slack is not valid.');
  let res;
  try {
    res = await client.files.info({ file: fileId });
  } catch (err) {
    const code = platformError(err);
    if (code === 'file_not_found' || code === 'file_deleted') {
      throw new SlackFileError(
        'NOT_FOUND',
        'Slack no longer has this file (it was deleted, or the app cannot see it). Upload it again.',
        false,
        { cause: err },
      );
    }
    if (code) {
      throw new SlackFileError('NOT_AUTHORIZED', `Slack refused to describe the file (${code}).`, false, {
        cause: err,
      });
    }
    throw new SlackFileError('UNAVAILABLE', 'Slack could not be reached to read the file; try again shortly.', true, {
      cause: err,
    });
  }
  const f = res.file as Record<string, unknown> | undefined;
  if (!f || f.id !== fileId) throw new SlackFileError('BAD_INFO', 'Slack described another file than the one chosen.');
  const size = typeof f.size === 'number' && Number.isFinite(f.size) ? f.size : undefined;
  return {
    id: fileId,
    name: typeof f.name === 'string' && f.name ? f.name : fileId,
    size,
    mimetype: typeof f.mimetype === 'string' ? f.mimetype : undefined,
    url: checkDownloadUrl(f.url_private_download, slackApiUrl),
  };
}

export interface DownloadOptions {
  botToken: string;
  maxBytes: number;
  signal?: AbortSignal;
  /** How long to wait for the answer's headers. Default 30 s. */
  headersTimeoutMs?: number;
}

export interface Download {
  /** The file's bytes; cut with a TOO_LARGE error past `maxBytes`. Single use; stopping early closes the download. */
  body: AsyncIterable<Buffer>;
  /** Bytes received so far. */
  bytesRead(): number;
  /** Content-Length, when Slack sent one. */
  length: number | undefined;
}

/** Starts downloading a file described by `slackFileInfo`. Resolves once the headers are in and acceptable. */
export async function downloadSlackFile(info: SlackFileInfo, opts: DownloadOptions): Promise<Download> {
  if (info.size !== undefined && info.size > opts.maxBytes) throw tooLargeError(info.name, info.size, opts.maxBytes);
  const controller = new AbortController();
  const onAbort = () => controller.abort(opts.signal?.reason);
  if (opts.signal?.aborted) throw opts.signal.reason;
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => controller.abort(new Error('no answer from Slack')), opts.headersTimeoutMs ?? 30_000);
  const unavailable = (why: string, cause?: unknown) =>
    new SlackFileError('UNAVAILABLE', `Slack did not send the file (${why}); try again shortly.`, true, { cause });
  let res;
  try {
    res = await fetch(info.url, {
      headers: { authorization: `Bearer ${opts.botToken}` },
      redirect: 'manual',
      signal: controller.signal,
    });
  } catch (err) {
    opts.signal?.removeEventListener('abort', onAbort);
    if (opts.signal?.aborted) throw opts.signal.reason;
    throw unavailable('network error', err);
  } finally {
    clearTimeout(timer);
  }
  const fail = async (e: SlackFileError): Promise<never> => {
    opts.signal?.removeEventListener('abort', onAbort);
    await res.body?.cancel().catch(() => undefined);
    throw e;
  };
  const notAuthorized = (why: string) =>
    new SlackFileError(
      'NOT_AUTHORIZED',
      `Slack did not hand the file over to the app (${why}). The app needs the files:read permission; ask an ` +
        'admin to reinstall it with that scope.',
    );
  if (res.status >= 300 && res.status < 400) return fail(notAuthorized('it answered with a redirect to sign in'));
  if (res.status === 401 || res.status === 403) return fail(notAuthorized(`HTTP ${res.status}`));
  if (res.status === 404) {
    return fail(new SlackFileError('NOT_FOUND', 'Slack no longer has this file (it was deleted). Upload it again.'));
  }
  if (res.status !== 200) return fail(unavailable(`HTTP ${res.status}`));
  const type = (res.headers.get('content-type') ?? '').toLowerCase();
  if (type.includes('text/html')) return fail(notAuthorized('it sent a web page instead of the file'));
  const lengthHeader = res.headers.get('content-length');
  const length = lengthHeader !== null && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
  if (length !== undefined && length > opts.maxBytes) return fail(tooLargeError(info.name, length, opts.maxBytes));
  if (!res.body) return fail(unavailable('the answer had no body'));

  const stream = res.body;
  let received = 0;
  async function* body(): AsyncGenerator<Buffer> {
    try {
      for await (const chunk of stream) {
        received += chunk.byteLength;
        if (received > opts.maxBytes) throw tooLargeError(info.name, undefined, opts.maxBytes);
        yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      }
    } catch (err) {
      if (err instanceof SlackFileError) throw err;
      if (opts.signal?.aborted) throw opts.signal.reason;
      throw unavailable('the download was cut off', err);
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
      // Stopping early (or failing) closes the connection instead of leaving the rest of the file unread.
      controller.abort();
    }
  }
  return { body: body(), bytesRead: () => received, length };
}
