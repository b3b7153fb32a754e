/**
 * Block Kit types used by the builders, taken from the `@slack/types` that @slack/bolt re-exports (so we depend on
 * bolt's copy, not on a hoisted transitive package).
 */
import type { types } from '@slack/bolt';

export type KnownBlock = types.KnownBlock;
export type Block = types.Block;
export type View = types.View;
export type SectionBlock = types.SectionBlock;
export type ActionsBlock = types.ActionsBlock;
export type ContextBlock = types.ContextBlock;
export type HeaderBlock = types.HeaderBlock;
export type DividerBlock = types.DividerBlock;
export type Button = types.Button;
export type ConfirmationDialog = types.ConfirmationDialog;
export type PlainTextElement = types.PlainTextElement;
export type MrkdwnElement = types.MrkdwnElement;

/** What every message builder returns: a notification fallback plus the blocks. Pass both to chat.postMessage. */
export interface SlackMessage {
  /** Notification / screen-reader fallback; already escaped mrkdwn, at most `LIMITS.fallbackText` characters. */
  text: string;
  blocks: KnownBlock[];
}
