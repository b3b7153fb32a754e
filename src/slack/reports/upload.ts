/**
 * A report's PNG shared into its message: the three steps of Slack's external upload (src/slack/upload/file-share.ts:
 * no token sent with the bytes), with the picture's description as Slack's reference names it too (`alt_txt`) and
 * the report's blocks, so the picture is shown in the report message itself.
 */
import type { WebClient } from '@slack/web-api';
import type { KnownBlock } from '../../render/types.js';
import { shareFile, uploadFile } from '../upload/file-share.js';

export interface PictureUpload {
  channelId: string;
  png: Buffer;
  filename: string;
  title: string;
  /** At most 1,000 characters. */
  altText: string;
  blocks: KnownBlock[];
}

export async function sharePicture(client: WebClient, slackApiUrl: string, up: PictureUpload): Promise<void> {
  const fileId = await uploadFile(client, slackApiUrl, { filename: up.filename, bytes: up.png, altText: up.altText });
  await shareFile(client, { fileId, title: up.title, channelId: up.channelId, blocks: up.blocks });
}
