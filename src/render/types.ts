/**
 * Block Kit types used by the builders, from `@slack/types` (a declared dependency, the same copy Bolt and the Web API
 * client use): the renderers know Block Kit, nothing of Bolt or the Web API.
 */
import type * as types from '@slack/types';

export type KnownBlock = types.KnownBlock;
export type View = types.View;
export type SectionBlock = types.SectionBlock;
export type ActionsBlock = types.ActionsBlock;
export type ContextBlock = types.ContextBlock;
export type HeaderBlock = types.HeaderBlock;
export type DividerBlock = types.DividerBlock;
export type InputBlock = types.InputBlock;
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
