/**
 * Audit trail: every change (who, what, which campaign, result) is one structured log line and, when
 * AUDIT_CHANNEL_ID is set, a message in that channel, in the channel's language (`/campaign lang` there, else
 * DEFAULT_LOCALE). The known actions are worded by the catalogs; others (`watch in C…`, `try agent …`) and the
 * detail (the service's sentence, as logged) are shown as recorded.
 */
import type { WebClient } from '@slack/web-api';
import type { Locale } from '../i18n/locale.js';
import { translator, type MessageKey, type Translator } from '../i18n/translator.js';
import type { Logger } from '../log.js';
import { ENGLISH } from '../render/format.js';
import { raw, truncateMrkdwn, escapeMrkdwn } from '../render/mrkdwn.js';
import { tmd } from '../render/text.js';

export interface AuditEntry {
  userId: string;
  action: string;
  campaignId?: number;
  result: 'ok' | 'refused' | 'failed';
  detail?: string;
  /** The service's error key of a failure (e.g. `BILLING_LIMIT_REACHED`), when it gave one. */
  code?: string;
}

/** Told of every entry once it is logged (the Home tab refreshes the person's view with it). Must not throw. */
type AuditListener = (entry: AuditEntry, client: WebClient) => void;

export interface Audit {
  record(entry: AuditEntry, client: WebClient): Promise<void>;
  /** Adds a listener of every recorded entry; returns a function that removes it. */
  subscribe(listener: AuditListener): () => void;
}

/** Actions recorded by their short names, worded in the audit channel's language. */
const AUDIT_ACTIONS: Record<string, MessageKey> = {
  activate: 'audit.action.activate',
  pause: 'audit.action.pause',
  resume: 'audit.action.resume',
  archive: 'audit.action.archive',
  create: 'audit.action.create',
  edit: 'audit.action.edit',
  upload: 'audit.action.upload',
  'upload finished': 'audit.action.uploadFinished',
};

/** Where the audit channel's language comes from (src/slack/locale.ts's Languages). */
interface ChannelLanguages {
  channel(channelId: string): Promise<{ locale: Locale }>;
}

/** The audit channel's line for one entry: "✅ @ana activate campaign #12 — ok". */
export function auditLine(entry: AuditEntry, t: Translator): string {
  const icon = entry.result === 'ok' ? '✅' : entry.result === 'refused' ? '🚫' : '⚠️';
  const known = AUDIT_ACTIONS[entry.action];
  return tmd(t, 'audit.line', {
    icon,
    who: raw(`<@${entry.userId}>`),
    action: known ? t.t(known) : entry.action,
    campaign: entry.campaignId !== undefined ? String(entry.campaignId) : 'none',
    result: entry.result,
    detail: entry.detail ? raw(truncateMrkdwn(escapeMrkdwn(entry.detail), 2500, '…')) : 'none',
  });
}

export function createAudit(logger: Logger, auditChannelId?: string, languages?: ChannelLanguages): Audit {
  const wordsOf = async (channelId: string): Promise<Translator> => {
    if (!languages) return ENGLISH;
    try {
      return translator((await languages.channel(channelId)).locale);
    } catch {
      return ENGLISH;
    }
  };
  const listeners = new Set<AuditListener>();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async record(entry, client) {
      logger.info({ audit: entry }, 'audit');
      for (const listener of listeners) {
        try {
          listener(entry, client);
        } catch (err) {
          logger.warn({ err: String(err) }, 'an audit listener failed');
        }
      }
      if (!auditChannelId) return;
      try {
        const text = auditLine(entry, await wordsOf(auditChannelId));
        await client.chat.postMessage({ channel: auditChannelId, text, unfurl_links: false, unfurl_media: false });
      } catch (err) {
        logger.warn({ err: String(err) }, 'could not post to the audit channel');
      }
    },
  };
}
