/**
 * Slack's Web API errors, read in one place: the `error` code of a platform error, and what the codes the app acts on
 * mean (see docs/slack-platform-notes.md). The watch poster classifies its failures with these sets, the health check
 * and the token monitor read the auth failures, uploads read `file_not_found` and friends through `platformError`.
 */

/** The `error` code of a Slack Web API platform error (`file_not_found`, `message_not_found`, …), else undefined. */
export function platformError(err: unknown): string | undefined {
  const e = err as { code?: unknown; data?: { error?: unknown } } | undefined;
  return e?.code === 'slack_webapi_platform_error' && typeof e.data?.error === 'string' ? e.data.error : undefined;
}

/** Refusals of one channel: nothing posted there will go through until someone changes the channel. */
export const CHANNEL_ERRORS = new Set([
  'channel_not_found',
  'is_archived',
  'channel_is_archived',
  'not_in_channel',
  'restricted_action',
  'restricted_action_read_only_channel',
  'restricted_action_non_threadable_channel',
  'restricted_action_thread_only_channel',
  'ekm_access_denied',
  'team_access_not_granted',
  'cannot_reply_to_message',
  // chat.postMessage: "make sure your app is a member of the conversation" — about this channel, not the token.
  'no_permission',
]);

/** Refusals of the token itself; watching stops only once `auth.test` agrees (watch/slack-health.ts). */
export const TOKEN_ERRORS = new Set([
  'token_revoked',
  'token_expired',
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'missing_scope',
]);

/** The workspace is busy (SSO sign-in required, moving into an Enterprise org): wait and try again, nothing is wrong. */
export const WAIT_ERRORS = new Set(['org_login_required', 'team_added_to_org']);

/** The message itself was refused: sending it again would fail the same way. */
export const MESSAGE_ERRORS = new Set([
  'invalid_blocks',
  'invalid_blocks_format',
  'msg_too_long',
  'msg_blocks_too_long',
  'too_many_attachments',
  'invalid_metadata_format',
  'invalid_metadata_schema',
  'metadata_too_large',
  'message_not_found',
  'cant_update_message',
  'edit_window_closed',
  'no_text',
]);

/** Slack error codes that mean the token itself no longer works: nothing the app does will succeed until fixed. */
export const AUTH_FAILURE_CODES = new Set([
  'invalid_auth',
  'not_authed',
  'token_revoked',
  'token_expired',
  'account_inactive',
]);

/** Which of the app's tokens a Web API call was made with. */
export type TokenKind = 'bot' | 'app';
