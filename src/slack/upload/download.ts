/**
 * Getting an uploaded file's bytes from Slack, as a stream, with the bot token sent only to Slack.
 *
 * Rules (docs/slack-platform-notes.md §2):
 * - The download URL is never taken from the view_submission payload: `files.info` is asked for the file id, its
 *   answer must be about that same id, and only its `url_private_download` gets the `Authorization: Bearer` header.
 * - A remote or external file (`is_external`, `mode: "external"`: Google Drive, files.remote.add) is refused before
 *   any request: its url_private is whatever URL its creator gave, and Slack's files.remote docs say never to send a
 *   token there. The person is asked to upload the file itself.
 * - The token goes only to Slack's own hosts: https to slack.com, slack-gov.com or a subdomain of either, on the
 *   default port; or to exactly the origin (scheme, host, port) of SLACK_API_URL, which already gets the token for
 *   every API call (a Slack stand-in: the tests' fake Slack, a local sandbox, a proxy). Any other host, plain http
 *   elsewhere, a URL with user:password and a path under /api/ (a Web API method, never a file) are refused.
 *   Redirects are not followed (`redirect: 'manual'`): Slack answers a token it does not accept with a redirect to
 *   its sign-in page, and a followed redirect would carry the token to wherever it points.
 * - An answer of type text/html is Slack's sign-in page, not the file: refused.
 * - Size: files.info's `size` is checked against the limit before downloading, then the bytes are counted while
 *   streaming (the header may lie or be absent) and the download is cut at the first byte over the limit.
 */
import { fetch } from 'undici';
import type { WebClient } from '@slack/web-api';
import { cleanLabel } from '../../render/mrkdwn.js';
import { platformError } from '../platform.js';

export type SlackFileErrorCode =
  /** files.info does not know the file (deleted, or not shared with the app). */
  | 'NOT_FOUND'
  | 'TOO_LARGE'
  /** files.info's answer is unusable (no download URL, another file, an unsafe URL). */
  | 'BAD_INFO'
  /** The file is not kept by Slack (remote/external) or its bytes are on another host: never given the token. */
  | 'NOT_ON_SLACK'
  /** Slack would not hand the bytes over to the app's token (sign-in page, redirect, 401/403). */
  | 'NOT_AUTHORIZED'
  /** Slack or the network failed; trying again later may work. */
  | 'UNAVAILABLE';

/**
 * Which sentence a SlackFileError's message is, with the values it names, so the app can say it in the uploader's
 * language (src/render/file-problems.ts); `message` stays the English sentence (logs, the job record).
 */
export type SlackFileProblem =
  | { kind: 'tooLarge'; file: string; size?: string; max: string }
  | {
      kind: 'badUrl';
      why: 'none' | 'notUrl' | 'credentials' | 'scheme' | 'apiMethod' | 'plainHttp';
      /** The URL's scheme ('scheme') or host ('plainHttp'). */
      detail?: string;
    }
  | { kind: 'outsideSlack'; host: string; plainHttp: boolean }
  | { kind: 'externalLink'; file: string; where: string }
  | { kind: 'badFileId' | 'deletedOrHidden' | 'deleted' | 'unreachable' | 'otherFile' }
  | { kind: 'refusedInfo'; code: string }
  | { kind: 'unavailable'; why: 'network' | 'http' | 'noBody' | 'cutOff'; status?: number }
  | { kind: 'redirectedAway'; host: string }
  | { kind: 'notAuthorized'; why: 'signIn' | 'http' | 'webPage'; status?: number };

/** A file that cannot be read from Slack. `message` is a sentence for the person who uploaded it (plain text). */
export class SlackFileError extends Error {
  override readonly name = 'SlackFileError';
  constructor(
    readonly code: SlackFileErrorCode,
    message: string,
    /** The sentence as data. */
    readonly problem: SlackFileProblem,
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

function tooLargeError(name: string, size: number | undefined, maxBytes: number): SlackFileError {
  const what = size !== undefined ? ` is ${formatBytes(size)};` : ' is larger than allowed;';
  return new SlackFileError(
    'TOO_LARGE',
    `"${cleanLabel(name, 120)}"${what} files of up to ${formatBytes(maxBytes)} can be uploaded. Split it into smaller files ` +
      '(or remove columns you do not need) and upload each one.',
    {
      kind: 'tooLarge',
      file: cleanLabel(name, 120),
      ...(size !== undefined ? { size: formatBytes(size) } : {}),
      max: formatBytes(maxBytes),
    },
  );
}

/** Domains whose hosts (the domain itself and its subdomains) are Slack's own: commercial Slack and GovSlack. */
const SLACK_DOMAINS: readonly string[] = ['slack.com', 'slack-gov.com'];

/** What to do instead, said with every refusal of a file that is not on Slack. */
const UPLOAD_ITSELF =
  'Upload the file itself (choose it from your computer) instead of a link to it or a file kept elsewhere, ' +
  'then submit again.';

/** `files.slack.com`, `slack.com`, `files.slack-gov.com`: true. `slack.com.evil.example`, `evilslack.com`: false. */
export function isSlackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return SLACK_DOMAINS.some((d) => h === d || h.endsWith(`.${d}`));
}

/** Whether the bot token may be sent to `url`: Slack's own hosts over https, or the origin of SLACK_API_URL. */
function tokenMayGoTo(url: URL, slackApiUrl: string): boolean {
  if (url.username || url.password) return false;
  let apiOrigin: string | undefined;
  try {
    apiOrigin = new URL(slackApiUrl).origin;
  } catch {
    apiOrigin = undefined;
  }
  if (url.origin === apiOrigin) return true;
  return url.protocol === 'https:' && url.port === '' && isSlackHost(url.hostname);
}

/**
 * The URL the token may be sent to, or a SlackFileError: see the rules at the top. `raw` is files.info's
 * url_private_download.
 */
export function checkDownloadUrl(raw: unknown, slackApiUrl: string): URL {
  const refuse = (why: string, problem: SlackFileProblem & { kind: 'badUrl' }) =>
    new SlackFileError(
      'BAD_INFO',
      `Slack gave a download address the app will not use (${why}); nothing was read.`,
      problem,
    );
  if (typeof raw !== 'string' || raw === '') throw refuse('none was given', { kind: 'badUrl', why: 'none' });
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('not a URL', { kind: 'badUrl', why: 'notUrl' });
  }
  if (url.username || url.password) throw refuse('it carries credentials', { kind: 'badUrl', why: 'credentials' });
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    const scheme = url.protocol.replace(':', '');
    throw refuse(`${scheme} URL`, { kind: 'badUrl', why: 'scheme', detail: scheme });
  }
  if (url.pathname.startsWith('/api/')) {
    throw refuse('it is a Slack API method, not a file', { kind: 'badUrl', why: 'apiMethod' });
  }
  if (tokenMayGoTo(url, slackApiUrl)) return url;
  if (url.protocol === 'http:' && isSlackHost(url.hostname)) {
    throw refuse(`http to ${url.host}, not https`, { kind: 'badUrl', why: 'plainHttp', detail: url.host });
  }
  const where = url.protocol === 'http:' ? `http to ${url.host}, not https` : url.host;
  throw new SlackFileError(
    'NOT_ON_SLACK',
    `Slack says this file's bytes are outside Slack (at ${where}), and the app sends its Slack token only to Slack; ` +
      `nothing was read. ${UPLOAD_ITSELF}`,
    { kind: 'outsideSlack', host: url.host, plainHttp: url.protocol === 'http:' },
  );
}

/** A remote or external file (Google Drive, files.remote.add): its URL can point anywhere, so it is never opened. */
function isExternalFile(f: Record<string, unknown>): boolean {
  return (
    f.is_external === true ||
    f.mode === 'external' ||
    f.mode === 'remote' ||
    (typeof f.external_url === 'string' && f.external_url !== '')
  );
}

/** Refusal of a remote/external file, naming where Slack says it lives. */
function externalFileError(name: string, f: Record<string, unknown>): SlackFileError {
  const kind =
    typeof f.external_type === 'string' && /^[a-z0-9_-]{1,30}$/i.test(f.external_type) ? f.external_type : '';
  const where = kind === 'gdrive' ? 'Google Drive' : kind && kind !== 'app' ? kind : 'another service';
  return new SlackFileError(
    'NOT_ON_SLACK',
    `"${cleanLabel(name, 120)}" is a link to a file kept outside Slack (in ${where}), not a file uploaded to Slack; the app does not ` +
      `open it. ${UPLOAD_ITSELF}`,
    { kind: 'externalLink', file: cleanLabel(name, 120), where: where === 'another service' ? '' : where },
  );
}

/** files.info for `fileId`; the answer must describe that file and carry a usable download URL. */
export async function slackFileInfo(client: WebClient, fileId: string, slackApiUrl: string): Promise<SlackFileInfo> {
  if (!FILE_ID.test(fileId))
    throw new SlackFileError('BAD_INFO', 'The file id from Slack is not valid.', { kind: 'badFileId' });
  let res;
  try {
    res = await client.files.info({ file: fileId });
  } catch (err) {
    const code = platformError(err);
    if (code === 'file_not_found' || code === 'file_deleted') {
      throw new SlackFileError(
        'NOT_FOUND',
        'Slack no longer has this file (it was deleted, or the app cannot see it). Upload it again.',
        { kind: 'deletedOrHidden' },
        false,
        { cause: err },
      );
    }
    if (code) {
      throw new SlackFileError(
        'NOT_AUTHORIZED',
        `Slack refused to describe the file (${code}).`,
        { kind: 'refusedInfo', code },
        false,
        { cause: err },
      );
    }
    throw new SlackFileError(
      'UNAVAILABLE',
      'Slack could not be reached to read the file; try again shortly.',
      { kind: 'unreachable' },
      true,
      { cause: err },
    );
  }
  const f = res.file as Record<string, unknown> | undefined;
  if (!f || f.id !== fileId) {
    throw new SlackFileError('BAD_INFO', 'Slack described another file than the one chosen.', { kind: 'otherFile' });
  }
  const size = typeof f.size === 'number' && Number.isFinite(f.size) ? f.size : undefined;
  const name = typeof f.name === 'string' && f.name ? f.name : fileId;
  if (isExternalFile(f)) throw externalFileError(name, f);
  return {
    id: fileId,
    name,
    size,
    mimetype: typeof f.mimetype === 'string' ? f.mimetype : undefined,
    url: checkDownloadUrl(f.url_private_download, slackApiUrl),
  };
}

/** The absolute URL of a redirect's Location, or undefined. */
function redirectTarget(location: string | null, base: URL): URL | undefined {
  if (!location) return undefined;
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
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

/** Slack did not send the file for a reason that may pass: the download is worth trying again. */
function unavailableError(why: string, problem: SlackFileProblem & { kind: 'unavailable' }, cause?: unknown) {
  return new SlackFileError('UNAVAILABLE', `Slack did not send the file (${why}); try again shortly.`, problem, true, {
    cause,
  });
}

/** Slack kept the file from the app: its token lacks files:read, or the answer was a sign-in. */
function notAuthorizedError(why: string, problem: SlackFileProblem & { kind: 'notAuthorized' }): SlackFileError {
  return new SlackFileError(
    'NOT_AUTHORIZED',
    `Slack did not hand the file over to the app (${why}). The app needs the files:read permission; ask an ` +
      'admin to reinstall it with that scope.',
    problem,
  );
}

/** The answer's Content-Length, when Slack sent a readable one. */
function contentLength(res: Response): number | undefined {
  const header = res.headers.get('content-length');
  return header !== null && /^\d+$/.test(header) ? Number(header) : undefined;
}

/** Why the answer to the download is not the file (checked in this order), or undefined when it is. */
function answerRefusal(res: Response, info: SlackFileInfo, maxBytes: number): SlackFileError | undefined {
  if (res.status >= 300 && res.status < 400) {
    // Never followed (the token would go along). A redirect within the file's own origin or Slack is the sign-in
    // page; one to another host means the file is not on Slack.
    const target = redirectTarget(res.headers.get('location'), info.url);
    if (
      target &&
      target.origin !== info.url.origin &&
      !(target.protocol === 'https:' && isSlackHost(target.hostname))
    ) {
      return new SlackFileError(
        'NOT_ON_SLACK',
        `Slack sent the download on to another host (${target.host}), where the app does not send its Slack ` +
          `token; nothing was read. ${UPLOAD_ITSELF}`,
        { kind: 'redirectedAway', host: target.host },
      );
    }
    return notAuthorizedError('it answered with a redirect to sign in', { kind: 'notAuthorized', why: 'signIn' });
  }
  if (res.status === 401 || res.status === 403) {
    return notAuthorizedError(`HTTP ${res.status}`, { kind: 'notAuthorized', why: 'http', status: res.status });
  }
  if (res.status === 404) {
    return new SlackFileError('NOT_FOUND', 'Slack no longer has this file (it was deleted). Upload it again.', {
      kind: 'deleted',
    });
  }
  if (res.status !== 200) {
    return unavailableError(`HTTP ${res.status}`, { kind: 'unavailable', why: 'http', status: res.status });
  }
  const type = (res.headers.get('content-type') ?? '').toLowerCase();
  if (type.includes('text/html')) {
    return notAuthorizedError('it sent a web page instead of the file', { kind: 'notAuthorized', why: 'webPage' });
  }
  const length = contentLength(res);
  if (length !== undefined && length > maxBytes) return tooLargeError(info.name, length, maxBytes);
  if (!res.body) return unavailableError('the answer had no body', { kind: 'unavailable', why: 'noBody' });
  return undefined;
}

/** Starts downloading a file described by `slackFileInfo`. Resolves once the headers are in and acceptable. */
export async function downloadSlackFile(info: SlackFileInfo, opts: DownloadOptions): Promise<Download> {
  if (info.size !== undefined && info.size > opts.maxBytes) throw tooLargeError(info.name, info.size, opts.maxBytes);
  const controller = new AbortController();
  const onAbort = () => controller.abort(opts.signal?.reason);
  if (opts.signal?.aborted) throw opts.signal.reason;
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const unhook = () => opts.signal?.removeEventListener('abort', onAbort);
  const timer = setTimeout(() => controller.abort(new Error('no answer from Slack')), opts.headersTimeoutMs ?? 30_000);
  let res;
  try {
    res = await fetch(info.url, {
      headers: { authorization: `Bearer ${opts.botToken}` },
      redirect: 'manual',
      signal: controller.signal,
    });
  } catch (err) {
    unhook();
    if (opts.signal?.aborted) throw opts.signal.reason;
    throw unavailableError('network error', { kind: 'unavailable', why: 'network' }, err);
  } finally {
    clearTimeout(timer);
  }
  const refused = answerRefusal(res, info, opts.maxBytes);
  if (refused) {
    unhook();
    await res.body?.cancel().catch(() => undefined);
    throw refused;
  }
  // answerRefusal refused an answer without a body.
  const { body, bytesRead } = meteredBody(res.body!, info.name, opts, () => {
    unhook();
    // Stopping early (or failing) closes the connection instead of leaving the rest of the file unread.
    controller.abort();
  });
  return { body, bytesRead, length: contentLength(res) };
}

/** The file's bytes as they come, cut past `maxBytes`; `end` runs once they stop (read to the end, failed or left). */
function meteredBody(
  stream: ReadableStream<Uint8Array>,
  name: string,
  opts: Pick<DownloadOptions, 'maxBytes' | 'signal'>,
  end: () => void,
): Pick<Download, 'body' | 'bytesRead'> {
  let received = 0;
  async function* body(): AsyncGenerator<Buffer> {
    try {
      for await (const chunk of stream) {
        received += chunk.byteLength;
        if (received > opts.maxBytes) throw tooLargeError(name, undefined, opts.maxBytes);
        yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      }
    } catch (err) {
      if (err instanceof SlackFileError) throw err;
      if (opts.signal?.aborted) throw opts.signal.reason;
      throw unavailableError('the download was cut off', { kind: 'unavailable', why: 'cutOff' }, err);
    } finally {
      end();
    }
  }
  return { body: body(), bytesRead: () => received };
}
