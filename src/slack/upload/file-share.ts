/**
 * A file of ours shared into a conversation: Slack's external upload in its three steps, as `files.uploadV2` of
 * @slack/web-api does them, written out for two reasons. The bytes go to the upload URL with no token (the SDK's
 * POST carries the client's `Authorization` header), only to Slack's own hosts over https or the origin of
 * SLACK_API_URL (tests). And the file's id is known before the share: a caller that must not share a file twice (the
 * failed-rows report, failed-rows-report.ts) records the id between `uploadFile` and `shareFile`, and whoever finds
 * that record asks Slack (`fileSharedIn`) whether the share went through before sharing again.
 *
 * 1. `files.getUploadURLExternal` (filename, length, alt_txt) → upload_url, file_id;
 * 2. POST the bytes to upload_url: the file exists, private to the bot, shared nowhere;
 * 3. `files.completeUploadExternal` with the channel (and thread), and a comment or blocks: the message holding it.
 */
import type { WebClient } from '@slack/web-api';
import { request } from 'undici';
import type { KnownBlock } from '../../render/types.js';
import { platformError } from '../platform.js';
import { isSlackHost } from './download.js';

function uploadUrl(raw: unknown, slackApiUrl: string): URL {
  const url = new URL(String(raw));
  const apiOrigin = new URL(slackApiUrl).origin;
  const slack = url.protocol === 'https:' && isSlackHost(url.hostname);
  if (url.username || url.password || !(slack || url.origin === apiOrigin))
    throw new Error(`files.getUploadURLExternal gave an upload URL outside Slack (${url.host}): nothing was sent`);
  return url;
}

/** Steps 1 and 2: the bytes are in Slack, shared nowhere yet. Resolves with the file's id. */
export async function uploadFile(
  client: WebClient,
  slackApiUrl: string,
  f: { filename: string; bytes: Buffer; altText?: string },
): Promise<string> {
  const alt = f.altText?.slice(0, 1000);
  // Slack's reference names the description `alt_txt`; the SDK's types `alt_text`: both are sent.
  const got = await client.files.getUploadURLExternal({
    filename: f.filename,
    length: f.bytes.length,
    ...(alt !== undefined ? { alt_text: alt, ...{ alt_txt: alt } } : {}),
  });
  if (!got.upload_url || !got.file_id) throw new Error('files.getUploadURLExternal answered without upload_url');
  const res = await request(uploadUrl(got.upload_url, slackApiUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream' },
    body: f.bytes,
  });
  await res.body.text();
  if (res.statusCode !== 200) throw new Error(`uploading the file failed: HTTP ${res.statusCode}`);
  return got.file_id;
}

export interface FileShare {
  fileId: string;
  title: string;
  channelId: string;
  /** Into this message's thread. */
  threadTs?: string;
  /** The message's text (Slack then ignores `blocks`). */
  initialComment?: string;
  blocks?: KnownBlock[];
}

/** Step 3: the uploaded file shared into the conversation, in one message with its comment or blocks. */
export async function shareFile(client: WebClient, s: FileShare): Promise<void> {
  await client.files.completeUploadExternal({
    files: [{ id: s.fileId, title: s.title }],
    channel_id: s.channelId,
    ...(s.threadTs ? { thread_ts: s.threadTs } : {}),
    ...(s.initialComment !== undefined ? { initial_comment: s.initialComment } : {}),
    ...(s.blocks ? { blocks: s.blocks } : {}),
  });
}

/**
 * Whether Slack shows the file shared in `channelId` (`files.info`: the conversations it is in). False also when
 * Slack has no such file (an upload never completed); undefined when Slack could not be asked.
 */
export async function fileSharedIn(client: WebClient, fileId: string, channelId: string): Promise<boolean | undefined> {
  try {
    const { file } = await client.files.info({ file: fileId });
    const f = file as
      | { channels?: string[]; groups?: string[]; ims?: string[]; shares?: Record<string, Record<string, unknown>> }
      | undefined;
    const listed = [...(f?.channels ?? []), ...(f?.groups ?? []), ...(f?.ims ?? [])];
    // Slack also lists the shares by conversation: `shares.public` / `shares.private`, keyed by channel id.
    for (const byChannel of Object.values(f?.shares ?? {})) listed.push(...Object.keys(byChannel ?? {}));
    return listed.includes(channelId);
  } catch (err) {
    return platformError(err) === 'file_not_found' ? false : undefined;
  }
}
