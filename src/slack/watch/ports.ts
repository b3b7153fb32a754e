/**
 * The Slack side of what watch's core asks besides posting (src/watch/ports.ts): a DM, whether a channel is
 * reachable, a thread's parent message, `auth.test`, what an error code means, a person's name. Each is one Web API
 * call on the app's client.
 */
import type { WebClient } from '@slack/web-api';
import type { SlackMessageFacts, TokenCheck, WatchSlack } from '../../watch/ports.js';
import { platformError, TOKEN_ERRORS } from '../platform.js';

/**
 * `auth.test`: is the token accepted, and (given `needed`, Slack's comma-separated alternatives of a missing scope)
 * does it carry one of those scopes? Scopes not reported count as missing: Slack said so and nothing says otherwise.
 */
async function checkToken(client: WebClient, needed?: string): Promise<TokenCheck> {
  try {
    const res = await client.auth.test();
    if (needed) {
      const scopes = res.response_metadata?.scopes;
      const wanted = needed.split(',').map((s) => s.trim());
      if (!scopes || !wanted.some((w) => scopes.includes(w))) return { ok: false, code: 'missing_scope' };
    }
    return { ok: true };
  } catch (err) {
    const code = platformError(err);
    if (code && TOKEN_ERRORS.has(code)) return { ok: false, code };
    return { ok: undefined, err: code ?? (err instanceof Error ? err.message : String(err)) };
  }
}

/**
 * `background` (the watch's own client, which leaves part of each Slack budget to people) carries the lookups the
 * leader makes while delivering: an assignee's email, a thread's permalink.
 */
export function watchSlack(client: WebClient, background: WebClient = client): WatchSlack {
  return {
    async dm(userId, text) {
      await client.chat.postMessage({ channel: userId, text, unfurl_links: false, unfurl_media: false });
    },
    async reachable(channelId) {
      try {
        const info = await client.conversations.info({ channel: channelId });
        const ch = info.channel as { is_archived?: boolean; is_member?: boolean; is_im?: boolean } | undefined;
        return !!ch && !ch.is_archived && (ch.is_member === true || ch.is_im === true);
      } catch {
        return false;
      }
    },
    async messageAt(channelId, ts) {
      const res = await client.conversations.history({
        channel: channelId,
        latest: ts,
        oldest: ts,
        inclusive: true,
        limit: 1,
        include_all_metadata: true,
      });
      return (res.messages ?? [])[0] as SlackMessageFacts | undefined;
    },
    checkToken: (needed) => checkToken(client, needed),
    isTokenError: (code) => TOKEN_ERRORS.has(code),
    async displayName(userId) {
      try {
        const info = await client.users.info({ user: userId });
        const u = info.user as
          { real_name?: string; profile?: { display_name?: string; real_name?: string } } | undefined;
        return u?.profile?.display_name || u?.real_name || u?.profile?.real_name || undefined;
      } catch {
        // users:read missing or the lookup failed: the caller has its own stand-in.
        return undefined;
      }
    },
    async userIdByEmail(email) {
      try {
        const res = await background.users.lookupByEmail({ email });
        const u = res.user as { id?: string; deleted?: boolean; is_bot?: boolean } | undefined;
        return u?.id && !u.deleted && !u.is_bot ? u.id : undefined;
      } catch (err) {
        if (platformError(err) === 'users_not_found') return undefined;
        throw err;
      }
    },
    async permalink(channelId, ts) {
      try {
        const res = await background.chat.getPermalink({ channel: channelId, message_ts: ts });
        return res.permalink ?? undefined;
      } catch {
        return undefined;
      }
    },
  };
}
