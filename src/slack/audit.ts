/**
 * Audit trail: every change (who, what, which campaign, result) is one structured log line and, when
 * AUDIT_CHANNEL_ID is set, a message in that channel.
 */
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../log.js';
import { escapeMrkdwn, truncateMrkdwn } from '../render/mrkdwn.js';

export interface AuditEntry {
  userId: string;
  action: string;
  campaignId?: number;
  result: 'ok' | 'refused' | 'failed';
  detail?: string;
}

/** Told of every entry once it is logged (the Home tab refreshes the person's view with it). Must not throw. */
type AuditListener = (entry: AuditEntry, client: WebClient) => void;

export interface Audit {
  record(entry: AuditEntry, client: WebClient): Promise<void>;
  /** Adds a listener of every recorded entry; returns a function that removes it. */
  subscribe(listener: AuditListener): () => void;
}

export function createAudit(logger: Logger, auditChannelId?: string): Audit {
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
      const icon = entry.result === 'ok' ? '✅' : entry.result === 'refused' ? '🚫' : '⚠️';
      const target = entry.campaignId !== undefined ? ` campaign #${entry.campaignId}` : '';
      const detail = entry.detail ? `: ${truncateMrkdwn(escapeMrkdwn(entry.detail), 2500, '…')}` : '';
      const text = `${icon} <@${entry.userId}> ${escapeMrkdwn(entry.action)}${target} — ${entry.result}${detail}`;
      try {
        await client.chat.postMessage({ channel: auditChannelId, text, unfurl_links: false, unfurl_media: false });
      } catch (err) {
        logger.warn({ err: String(err) }, 'could not post to the audit channel');
      }
    },
  };
}
