/**
 * What watch's core asks of Slack besides posting (poster.ts), of the people check and of the audit trail. The core
 * is handed these by the Slack layer (src/slack/watch/), so it imports nothing of Slack itself.
 */

import type { MemoryFigures } from '../bounded.js';
import type { Locale } from '../i18n/locale.js';
import type { Translator } from '../i18n/translator.js';

/**
 * The languages watch writes in, handed in by the Slack layer (src/slack/locale.ts `Languages`): watch's core decides
 * who reads a message (a channel, or one person) and renders it in src/render with that reader's translator; which
 * language that is lives with the Slack layer (users.info locale, `/campaign lang` choices, DEFAULT_LOCALE).
 */
export interface WatchLanguages {
  /** What is posted in a channel: its `/campaign lang` choice, else DEFAULT_LOCALE. */
  channel(channelId: string): Promise<Locale>;
  /** What one person reads (DMs, ephemerals): their language, and their Slack timezone when Slack told it. */
  person(userId: string): Promise<{ locale: Locale; timeZone?: string }>;
}

/** What `auth.test` says of the token: accepted; refused (the code); or nothing (it could not be asked). */
export type TokenCheck = { ok: true } | { ok: false; code: string } | { ok: undefined; err: string };

/** The parts of a Slack message that tell whether it is one of our call messages. */
export interface SlackMessageFacts {
  ts?: string;
  bot_id?: string;
  app_id?: string;
  bot_profile?: { app_id?: string };
  metadata?: { event_type?: string; event_payload?: Record<string, unknown> };
}

export interface WatchSlack {
  /** Tells a person something by DM (not paced: a few notices now and then). Rejects when Slack refuses. */
  dm(userId: string, text: string): Promise<void>;
  /** Whether the bot can post in the channel (a member, not archived); false when Slack cannot tell. */
  reachable(channelId: string): Promise<boolean>;
  /** The message at `ts` in a channel, with its metadata (a thread's parent); rejects when Slack refuses. */
  messageAt(channelId: string, ts: string): Promise<SlackMessageFacts | undefined>;
  /** `auth.test`: is the token accepted and (given `needed`, Slack's comma-separated alternatives) scoped enough? */
  checkToken(needed?: string): Promise<TokenCheck>;
  /** Whether a Slack error code refuses the token itself (not one channel or one message). */
  isTokenError(code: string): boolean;
  /** The name Slack shows for a person, when it can be read. */
  displayName(userId: string): Promise<string | undefined>;
  /**
   * The Slack user id of the workspace member with this email (`users.lookupByEmail`, scope `users:read.email`);
   * undefined when Slack knows no such member (`users_not_found`). Rejects when Slack could not be asked.
   */
  userIdByEmail(email: string): Promise<string | undefined>;
  /** A link to a message (`chat.getPermalink`), when Slack gives one. */
  permalink(channelId: string, ts: string): Promise<string | undefined>;
}

export type SpeakerRefusal = 'external' | 'guest' | 'not-responder' | 'unknown';

export type SpeakerVerdict = { ok: true } | { ok: false; reason: SpeakerRefusal; detail: string };

export interface SpeakerQuery {
  userId: string;
  /** From the message event (`user_team`, `source_team`); absent for commands and buttons. */
  userTeam?: string;
  sourceTeam?: string;
  /** The installation's team as the payload states it (Bolt's `context.teamId`), used only without auth.test. */
  payloadTeamId?: string;
}

/** Who may speak to customers and agents through the app (src/slack/watch/speakers.ts). */
export interface SpeakerCheck {
  /** May this person's words reach a customer (or an agent)? */
  check(q: SpeakerQuery): Promise<SpeakerVerdict>;
  /** What the refused person is told (our own sentences, in their words `t`). */
  refusalSentence(reason: SpeakerRefusal, what: 'reply' | 'try', t: Translator): string;
  /** The size of what it keeps in memory of people. */
  memoryFigures?(): MemoryFigures;
}

/** One entry of the audit trail, as watch writes it (who did what, to which campaign, and how it went). */
interface WatchAuditEntry {
  userId: string;
  action: string;
  campaignId?: number;
  result: 'ok' | 'refused' | 'failed';
  detail?: string;
}

/** Records an entry in the audit trail (never rejects). */
export type AuditRecord = (entry: WatchAuditEntry) => Promise<void>;
