/**
 * Where an answer goes. A person's failures are only for them (ephemeral); results of changes are posted for the
 * conversation. Commands and message buttons answer through `response_url`; Home tab buttons have none, so they
 * answer in the person's DM with the app.
 */
import type { RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { SlackMessage } from '../render/types.js';

export interface Reply {
  ephemeral(msg: SlackMessage): Promise<void>;
  inChannel(msg: SlackMessage): Promise<void>;
}

export function respondReply(respond: RespondFn): Reply {
  return {
    async ephemeral(msg) {
      await respond({ response_type: 'ephemeral', replace_original: false, text: msg.text, blocks: msg.blocks });
    },
    async inChannel(msg) {
      await respond({ response_type: 'in_channel', replace_original: false, text: msg.text, blocks: msg.blocks });
    },
  };
}

export function dmReply(client: WebClient, userId: string): Reply {
  const post = async (msg: SlackMessage) => {
    await client.chat.postMessage({ channel: userId, text: msg.text, blocks: msg.blocks, unfurl_links: false });
  };
  return { ephemeral: post, inChannel: post };
}
