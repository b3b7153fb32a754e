/**
 * A report's PNG shared into its message: Slack's external upload in its three steps, as `files.uploadV2` of
 * @slack/web-api does them, written out so that the bytes go to the upload URL with no token (the SDK's POST carries
 * the client's `Authorization` header) and the picture's description is sent as Slack's reference names it too
 * (`alt_txt`).
 *
 * 1. `files.getUploadURLExternal` (filename, length, alt_txt) → upload_url, file_id;
 * 2. POST the bytes to upload_url — only Slack's own hosts over https, or the origin of SLACK_API_URL (tests);
 * 3. `files.completeUploadExternal` with the channel and the report's blocks: one message holding text and picture.
 */
import type { WebClient } from '@slack/web-api';
import { request } from 'undici';
import type { KnownBlock } from '../../render/types.js';
import { isSlackHost } from '../upload/download.js';

export interface PictureUpload {
  channelId: string;
  png: Buffer;
  filename: string;
  title: string;
  /** At most 1,000 characters. */
  altText: string;
  blocks: KnownBlock[];
}

function uploadUrl(raw: unknown, slackApiUrl: string): URL {
  const url = new URL(String(raw));
  const apiOrigin = new URL(slackApiUrl).origin;
  const slack = url.protocol === 'https:' && isSlackHost(url.hostname);
  if (url.username || url.password || !(slack || url.origin === apiOrigin))
    throw new Error(`files.getUploadURLExternal gave an upload URL outside Slack (${url.host}): nothing was sent`);
  return url;
}

export async function sharePicture(client: WebClient, slackApiUrl: string, up: PictureUpload): Promise<void> {
  const alt = up.altText.slice(0, 1000);
  // Slack's reference names the description `alt_txt`; the SDK's types `alt_text`: both are sent.
  const got = await client.files.getUploadURLExternal({
    filename: up.filename,
    length: up.png.length,
    alt_text: alt,
    ...{ alt_txt: alt },
  });
  if (!got.upload_url || !got.file_id) throw new Error('files.getUploadURLExternal answered without upload_url');
  const res = await request(uploadUrl(got.upload_url, slackApiUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream' },
    body: up.png,
  });
  await res.body.text();
  if (res.statusCode !== 200) throw new Error(`uploading the picture failed: HTTP ${res.statusCode}`);
  await client.files.completeUploadExternal({
    files: [{ id: got.file_id, title: up.title }],
    channel_id: up.channelId,
    blocks: up.blocks,
  });
}
