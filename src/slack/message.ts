import type { KnownBlock } from '@slack/types';

/** A Slack message as our renderers produce it: blocks plus the notification fallback text. */
export interface Message {
  text: string;
  blocks: KnownBlock[];
}
