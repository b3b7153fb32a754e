/**
 * Audit trail: every change (who, what, which campaign, result) is one structured log line and, when
 * AUDIT_CHANNEL_ID is set, a message in that channel.
 */
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../log.js';
import { escapeMrkdwn } from './blocks/mrkdwn.js';

export interface AuditEntry {
  userId: string;
  action: string;
  campaignId?: number;
  result: 'ok' | 'refused' | 'failed';
  detail?: string;
}

export interface Audit {
  record(entry: AuditEntry, client: WebClient): Promise<void>;
}

export function createAudit(logger: Logger, auditChannelId?: string): Audit {
  return {
    async record(entry, client) {
      logger.info({ audit: entry }, 'audit');
      if (!auditChannelId) return;
      const icon = entry.result === 'ok' ? '✅' : entry.result === 'refused' ? '🚫' : '⚠️';
      const target = entry.campaignId !== undefined ? ` campaign #${entry.campaignId}` : '';
      const detail = entry.detail ? `: ${escapeMrkdwn(entry.detail).slice(0, 2500)}` : '';
      const text = `${icon} <@${entry.userId}> ${escapeMrkdwn(entry.action)}${target} — ${entry.result}${detail}`;
      try {
        await client.chat.postMessage({ channel: auditChannelId, text, unfurl_links: false, unfurl_media: false });
      } catch (err) {
        logger.warn({ err: String(err) }, 'could not post to the audit channel');
      }
    },
  };
}
