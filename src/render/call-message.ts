/**
 * Messages of watched campaigns: one message per call (updated in place), the call's conversation as thread replies,
 * the burst digest, WhatsApp digests and contact messages, the call details and the end-user modal.
 *
 * Everything that comes from outside (contact names, extracted data, tags, conversation text, policy explanations,
 * end-user fields) goes through `md`/`escapeMrkdwn` and is cut to Block Kit's limits, so it can never mention a
 * person, a channel or a group, nor make Slack reject a message.
 */
import type {
  Call,
  CampaignCallItem,
  CampaignContact,
  EndUser,
  Message as ServiceMessage,
  PolicyResult,
} from '../outreach/schemas.js';
import { z } from 'zod';
import { LOCALES } from '../i18n/locale.js';
import type { MessageKey, Translator } from '../i18n/translator.js';
import {
  answeredByLabel,
  callStatusLabel,
  contactStatusLabel,
  endedByLabel,
  formatDateTime,
  formatDuration,
  formatPhone,
  NONE,
} from './format.js';
import {
  actions,
  button,
  cleanLabel,
  context,
  escapeMrkdwn,
  fallback,
  fieldSections,
  header,
  inputBlock,
  LIMITS,
  md,
  mrkdwnSection,
  plainText,
  raw,
  truncate,
  truncateMrkdwn,
} from './mrkdwn.js';
import type { KnownBlock, SectionBlock, SlackMessage, View } from './types.js';
import { encodeCallCardValue, END_USER_VIEW_ID, WATCH_ACTION_IDS, WATCH_CALL_CARD_INFO_VIEW_ID } from './ids.js';
import { tmd } from './text.js';

export const END_USER_BLOCKS = { name: 'enduser_name', info: 'enduser_info' } as const;
export const END_USER_LIMITS = { name: 255, info: 3000 } as const;

/** Slack message metadata attached to every call message (lets mappings be rebuilt from Slack). */
export interface CallMetadata {
  event_type: 'outreach_call';
  event_payload: { campaign_id: number; call_id: string; thread_id: string };
}

export function callMetadata(campaignId: number, callId: string, threadId: string | null | undefined): CallMetadata {
  return {
    event_type: 'outreach_call',
    event_payload: { campaign_id: campaignId, call_id: callId, thread_id: threadId ?? '' },
  };
}

/** The contact's name as one clean line (cleanLabel), or "Contact #id" / "Unknown contact". Plain text. */
function contactName(call: Pick<CampaignCallItem, 'contact'>, t: Translator): string {
  const name = cleanLabel(call.contact?.name ?? '');
  if (name) return name;
  return call.contact
    ? t.t('callMessage.contactNumbered', { id: String(call.contact.id) })
    : t.t('callMessage.unknownContact');
}

/** A link only for plain http(s) URLs; anything else is shown as escaped text, never as mrkdwn. */
function safeLink(url: string, label: string): string {
  const u = url.trim();
  if (/^https?:\/\/[^\s<>|]+$/i.test(u) && u.length <= 2000) {
    return `<${u.replace(/&/g, '&amp;')}|${escapeMrkdwn(label).replace(/\|/g, '¦')}>`;
  }
  return md`${label}: ${truncate(u, 300)}`;
}

/** The recording path of a call item (`/api/v1.0/call/<id>/recording`) as a link on the service's origin. */
function recordingLink(
  recordingUrl: string | null | undefined,
  serviceOrigin: string | undefined,
  t: Translator,
): string {
  if (!recordingUrl) return NONE;
  const abs = /^https?:\/\//i.test(recordingUrl)
    ? recordingUrl
    : serviceOrigin && recordingUrl.startsWith('/')
      ? `${serviceOrigin}${recordingUrl}`
      : recordingUrl;
  return safeLink(abs, t.t('callMessage.recording'));
}

/** "87 (3/4 met) · evaluating": plain text. */
function policyScore(call: Pick<Call, 'policy_evaluation'>, t: Translator): string | undefined {
  const pe = call.policy_evaluation;
  if (!pe || pe.score === null || pe.score === undefined) return undefined;
  const counted =
    pe.policies_met_count !== null && pe.policies_met_count !== undefined && !!pe.policies_evaluated_count;
  return t.t('callMessage.policyScore', {
    score: t.number(pe.score),
    counted: counted ? 'yes' : 'no',
    met: String(pe.policies_met_count ?? 0),
    evaluated: String(pe.policies_evaluated_count ?? 0),
    evaluating: pe.completed === false ? 'yes' : 'no',
  });
}

/** The first section of a call's or a contact's message: name and number, the status below. */
function whoSection(who: string, phone: string, status: string): SectionBlock {
  return mrkdwnSection(md`*${cleanLabel(who, 200)}*${raw(phone ? md` · ${phone}` : '')}\n${status}`);
}

/** "• *key:* value" per extracted item (one clean line each, escaped, cut); empty when there is none. */
function extractedDataLines(data: Record<string, unknown> | null | undefined): string {
  return Object.entries(data ?? {})
    .map(([k, v]) => md`• *${cleanLabel(k, 100)}:* ${cleanLabel(String(v), 500)}`)
    .join('\n');
}

/** "🏷 a, b" of the tags (each one clean line), or undefined without tags. */
function tagsLine(tags: readonly string[] | null | undefined): string | undefined {
  const clean = (tags ?? []).map((t) => cleanLabel(t)).filter((t) => t !== '');
  return clean.length ? md`🏷 ${truncate(clean.join(', '), 1000)}` : undefined;
}

export interface CallMessageInput {
  campaignId: number;
  campaignName?: string;
  call: CampaignCallItem;
  /** Origin (scheme://host[:port]) of the service, to turn `recording_url` into a link. */
  serviceOrigin?: string;
  /** The campaign's zone (times in a channel are in it, naming it); the service's default without one. */
  timezone?: string | null;
}

/**
 * The call's message. Its fallback `text` names the contact and the status; the blocks carry the outcome:
 * contact name and number, status, answered by, duration, ended by and reason, policy score, extracted data, tags,
 * recording link, and the Details / Contact buttons.
 */
export function callMessage(input: CallMessageInput, t: Translator): SlackMessage {
  const { call, campaignId } = input;
  const who = contactName(call, t);
  const phone = call.contact?.phone_number ? formatPhone(call.contact.phone_number) : '';
  const status = callStatusLabel(call.status, t);
  const campaign = input.campaignName ? md`${cleanLabel(input.campaignName, 80)} (#${campaignId})` : `#${campaignId}`;

  const blocks: KnownBlock[] = [whoSection(who, phone, status)];
  const duration = call.status === 'in-progress' && !call.duration ? null : call.duration;
  const fields = [
    tmd(t, 'callMessage.field.answeredBy', { value: answeredByLabel(call.answered_by, t) }),
    tmd(t, 'callMessage.field.duration', { value: formatDuration(duration, t) }),
    tmd(t, 'callMessage.field.endedBy', { value: truncate(endedByLabel(call.ended_by, call.ended_reason, t), 500) }),
    tmd(t, 'callMessage.field.started', {
      value: formatDateTime(call.started_at ?? call.created_at, input.timezone, t),
    }),
  ];
  const score = policyScore(call, t);
  if (score) fields.push(tmd(t, 'callMessage.field.policyScore', { value: score }));
  if (call.recording_url) {
    const link = recordingLink(call.recording_url, input.serviceOrigin, t);
    fields.push(tmd(t, 'callMessage.field.recording', { value: raw(link) }));
  }
  blocks.push(...fieldSections(fields));

  const data = extractedDataLines(call.extracted_data);
  if (data) blocks.push(mrkdwnSection(tmd(t, 'callMessage.extractedData', { data: raw(data) })));
  const ctx = [tmd(t, 'callMessage.context', { campaign: raw(campaign), callId: truncate(call.id, 80) })];
  const tags = tagsLine(call.tags);
  if (tags) ctx.push(tags);
  blocks.push(context(...ctx));

  const buttons = [
    button({
      text: t.t('callMessage.details'),
      actionId: WATCH_ACTION_IDS.callDetails,
      value: truncate(call.id, 1000),
    }),
  ];
  if (call.thread_id) {
    const value = JSON.stringify({ callId: call.id, threadId: call.thread_id });
    if (value.length <= LIMITS.buttonValue) {
      buttons.push(button({ text: t.t('callMessage.contact'), actionId: WATCH_ACTION_IDS.callContact, value }));
    }
  }
  blocks.push(actions(buttons));

  return { text: fallback(md`${who}${raw(phone ? md` (${phone})` : '')}: ${status}`), blocks };
}

/**
 * A call as one line (a watch's `compact` format): status, contact and number, answered by, duration, and a Details
 * button that opens the full card in a modal (`callCardModal`). Its fallback `text` is the card's.
 */
export function compactCallMessage(input: { campaignId: number; call: CampaignCallItem }, t: Translator): SlackMessage {
  const { call, campaignId } = input;
  const who = contactName(call, t);
  const phone = call.contact?.phone_number ? formatPhone(call.contact.phone_number) : '';
  const status = callStatusLabel(call.status, t);
  const duration = call.duration ? formatDuration(call.duration, t) : '';
  const line = tmd(t, 'compactCall.line', {
    status,
    who: cleanLabel(who, 120),
    phone: phone || 'none',
    answeredBy: call.answered_by ? answeredByLabel(call.answered_by, t) : 'none',
    duration: duration || 'none',
  });
  const value = encodeCallCardValue({ campaignId, callId: truncate(call.id, 200, '') });
  return {
    text: fallback(md`${who}${raw(phone ? md` (${phone})` : '')}: ${status}`),
    blocks: [
      {
        ...mrkdwnSection(line),
        accessory: button({ text: t.t('callMessage.details'), actionId: WATCH_ACTION_IDS.callCard, value }),
      },
    ],
  };
}

/** The full card of a compact line's call, in a modal (its buttons left out: they answer in a channel). */
export function callCardModal(input: CallMessageInput, t: Translator): View {
  const card = callMessage(input, t);
  return {
    type: 'modal',
    callback_id: WATCH_CALL_CARD_INFO_VIEW_ID,
    title: plainText(t.t('compactCall.modalTitle'), 24),
    close: plainText(t.t('common.close'), 24),
    blocks: card.blocks.filter((b) => b.type !== 'actions'),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Conversation

const SENDER_LABELS: Record<string, MessageKey> = {
  AI: 'conversation.sender.agent',
  EU: 'conversation.sender.endUser',
  SYS: 'conversation.sender.system',
};

/** Room for one reply's text: well under chat.update's 4,000 characters, like every other text we post. */
export const REPLY_MAX = 3500;

/** Who wrote a line: the end user by name (or "You" in one's own try), the agent, the system. Plain text. */
function senderLabel(sentBy: string, t: Translator, opts: ConversationReplyOptions): string {
  if (opts.sentFrom) return t.t('conversation.sender.slack');
  if (sentBy === 'EU' && opts.self) return t.t('conversation.sender.you');
  const name = cleanLabel(opts.endUserName ?? '', 80);
  if (sentBy === 'EU' && name) return `👤 ${name}`;
  const key = SENDER_LABELS[sentBy];
  return key ? t.t(key) : `❔ ${sentBy}`;
}

export interface ConversationReplyOptions {
  endUserName?: string;
  /** The end user is the reader (a `/campaign try` DM): their lines read "You". */
  self?: boolean;
  /**
   * A reply a person sent from the thread of this call in another channel (its id): the service holds it as the end
   * user's message, but the end user did not write it.
   */
  sentFrom?: string;
}

/** One conversation message as a thread reply: labelled by who sent it, media as a link, escaped and cut. */
export function conversationReply(m: ServiceMessage, opts: ConversationReplyOptions, t: Translator): SlackMessage {
  const label = senderLabel(m.sent_by, t, opts);
  const parts: string[] = [];
  const content = m.content?.trim() ?? '';
  if (content) parts.push(escapeMrkdwn(content));
  if (m.media?.trim()) parts.push(safeLink(m.media, t.t('conversation.media', { type: m.type })));
  if (!parts.length) parts.push(t.t('conversation.empty', { type: m.type }));
  const body = truncateMrkdwn(parts.join('\n'), REPLY_MAX - label.length - 10, t.t('conversation.shortened'));
  const from = opts.sentFrom && /^[CG][A-Z0-9]+$/.test(opts.sentFrom) ? ` (<#${opts.sentFrom}>)` : undefined;
  const text = from ? `*${escapeMrkdwn(label)}*${from}: ${body}` : `*${escapeMrkdwn(label)}:* ${body}`;
  return { text, blocks: [mrkdwnSection(text)] };
}

/** The first reply of each conversation thread: says how replies work, in one line. */
export function conversationIntro(t: Translator): SlackMessage {
  const text = t.t('conversation.intro');
  return { text, blocks: [context(text)] };
}

// ---------------------------------------------------------------------------------------------------------------
// Burst digest

export interface DigestLine {
  callId: string;
  campaignId: number;
  /** The contact's name; empty when it has none (then `contactId`, when there is a contact). */
  name: string;
  contactId?: number;
  phone?: string;
  status: string;
  duration?: number | null;
}

/**
 * Calls per digest message: 10 lines per section (each line at most 250 characters), 2 sections. Kept small: a
 * digest is stored again at each change of one of its lines, and a full one is followed by a new message.
 */
export const DIGEST_CAPACITY = 20;
const DIGEST_LINES_PER_SECTION = 10;

/**
 * A call as a digest line. Stored with the digest and shown later in the channel's language: a contact without a
 * name is kept without one (`name` empty) and named when shown.
 */
export function digestLine(call: CampaignCallItem, campaignId: number): DigestLine {
  const name = cleanLabel(call.contact?.name ?? '');
  const line: DigestLine = { callId: call.id, campaignId, name, status: call.status };
  if (!name && call.contact) line.contactId = call.contact.id;
  if (call.contact?.phone_number) line.phone = call.contact.phone_number;
  if (call.duration !== null && call.duration !== undefined) line.duration = call.duration;
  return line;
}

function digestLineText(l: DigestLine, t: Translator): string {
  const phone = l.phone ? md` ${formatPhone(l.phone)}` : '';
  const dur = l.duration ? md` · ${formatDuration(l.duration, t)}` : '';
  // Lines stored before names were resolved at display time hold "Contact #id" / "Unknown contact" as their name.
  const name =
    l.name ||
    (l.contactId !== undefined
      ? t.t('callMessage.contactNumbered', { id: String(l.contactId) })
      : t.t('callMessage.unknownContact'));
  const text = md`${callStatusLabel(l.status, t)} · *${cleanLabel(name, 80)}*${raw(phone)}${raw(dur)} · #${l.campaignId} · \`${truncate(l.callId, 60)}\``;
  return truncateMrkdwn(text, 250, '…');
}

/**
 * One message listing many calls while calls arrive faster than Slack lets us post (about one message per second
 * per channel). Every call of the burst is findable here by contact, number or call id; lines change in place.
 */
export function callDigestMessage(lines: DigestLine[], opts: { part?: number }, t: Translator): SlackMessage {
  const shown = lines.slice(0, DIGEST_CAPACITY);
  const campaigns = [...new Set(shown.map((l) => l.campaignId))].map((c) => `#${c}`).join(', ') || NONE;
  const blocks: KnownBlock[] = [
    mrkdwnSection(
      tmd(t, 'digest.title', { part: opts.part ? String(opts.part) : 'none' }) +
        '\n' +
        tmd(t, 'digest.summary', { count: shown.length, campaigns }),
    ),
  ];
  for (let i = 0; i < shown.length; i += DIGEST_LINES_PER_SECTION) {
    blocks.push(
      mrkdwnSection(
        shown
          .slice(i, i + DIGEST_LINES_PER_SECTION)
          .map((l) => digestLineText(l, t))
          .join('\n'),
      ),
    );
  }
  const counts = new Map<string, number>();
  for (const l of shown) counts.set(l.status, (counts.get(l.status) ?? 0) + 1);
  blocks.push(
    context([...counts].map(([s, n]) => escapeMrkdwn(`${callStatusLabel(s, t)} ${t.number(n)}`)).join(' · ') || NONE),
  );
  return { text: fallback(tmd(t, 'digest.fallback', { count: shown.length, campaigns })), blocks };
}

// ---------------------------------------------------------------------------------------------------------------
// WhatsApp

export function whatsappDigestMessage(
  input: {
    campaignId: number;
    campaignName?: string;
    counts: Record<string, number>;
    updatedAt: Date;
    /** The campaign's zone; the service's default without one. */
    timezone?: string | null;
  },
  t: Translator,
): SlackMessage {
  const name = input.campaignName
    ? md`${cleanLabel(input.campaignName, 120)} (#${input.campaignId})`
    : `#${input.campaignId}`;
  const entries = Object.entries(input.counts).filter(([, n]) => n > 0);
  const total = entries.reduce((s, [, n]) => s + n, 0);
  const fields = entries.map(([s, n]) => md`*${contactStatusLabel(s, t)}*\n${t.number(n)}`);
  const blocks: KnownBlock[] = [
    mrkdwnSection(tmd(t, 'whatsapp.digestTitle', { name: raw(name), count: total })),
    ...fieldSections(fields.length ? fields : [t.t('whatsapp.noContacts')]).slice(0, 3),
    context(tmd(t, 'whatsapp.updated', { at: formatDateTime(input.updatedAt, input.timezone, t) })),
  ];
  return { text: fallback(tmd(t, 'whatsapp.fallback', { name: raw(name), count: total })), blocks };
}

export function whatsappContactMessage(
  input: { campaignId: number; contact: CampaignContact },
  t: Translator,
): SlackMessage {
  const c = input.contact;
  const who = cleanLabel(c.name ?? '', 200) || t.t('callMessage.contactNumbered', { id: String(c.id) });
  const phone = c.contact ? formatPhone(c.contact) : '';
  const status = contactStatusLabel(c.status, t);
  const blocks: KnownBlock[] = [whoSection(who, phone, status)];
  const data = extractedDataLines(c.extracted_data);
  if (data) blocks.push(mrkdwnSection(data));
  const ctx = [tmd(t, 'whatsapp.contactContext', { campaignId: String(input.campaignId), contactId: String(c.id) })];
  const tags = tagsLine(c.tags);
  if (tags) ctx.push(tags);
  blocks.push(context(...ctx));
  return { text: fallback(md`${who}: ${status}`), blocks };
}

// ---------------------------------------------------------------------------------------------------------------
// Details and end user

function policyIcon(result: string): string {
  const r = result.toLowerCase();
  if (r === 'met') return '✅';
  if (r === 'not_met' || r === 'not met' || r === 'failed' || r === 'unmet') return '❌';
  if (r.includes('not_applicable') || r.includes('not applicable') || r === 'n/a') return '➖';
  return '❔';
}

function policyLine(p: PolicyResult): string {
  const name = cleanLabel(p.policy_name ?? '', 150) || cleanLabel(p.policy_id, 150);
  const explanation = cleanLabel(p.explanation ?? '', 600);
  const why = explanation ? md`\n_${explanation}_` : '';
  return md`${policyIcon(p.result)} *${name}* — ${cleanLabel(p.result, 60)}${raw(why)}`;
}

/**
 * The full call (GET /call/{id}), with each policy's result and explanation: an ephemeral answer to "Details", in the
 * clicker's words, its times in `opts.timezone` (theirs).
 */
export function callDetailsMessage(call: Call, opts: { timezone?: string | null }, t: Translator): SlackMessage {
  const endUser = call.thread?.end_user;
  const who = cleanLabel(endUser?.display_name ?? '') || t.t('callDetails.untitled');
  const status = callStatusLabel(call.status, t);
  const callId = truncate(call.id, 80);
  const blocks: KnownBlock[] = [header(t.t('callDetails.header'))];
  blocks.push(mrkdwnSection(tmd(t, 'callDetails.summary', { who: cleanLabel(who, 200), status, callId })));
  const at = (v: string | null | undefined) => formatDateTime(v, opts.timezone, t);
  const fields = [
    tmd(t, 'callDetails.field.type', { value: call.type ?? NONE }),
    tmd(t, 'callMessage.field.answeredBy', { value: answeredByLabel(call.answered_by, t) }),
    tmd(t, 'callDetails.field.created', { value: at(call.created_at) }),
    tmd(t, 'callMessage.field.started', { value: at(call.started_at) }),
    tmd(t, 'callDetails.field.ended', { value: at(call.ended_at) }),
    tmd(t, 'callMessage.field.duration', { value: formatDuration(call.duration, t) }),
    tmd(t, 'callDetails.field.billed', { value: formatDuration(call.billed_duration, t) }),
    tmd(t, 'callMessage.field.endedBy', { value: truncate(endedByLabel(call.ended_by, call.ended_reason, t), 500) }),
  ];
  const score = policyScore(call, t);
  if (score) fields.push(tmd(t, 'callMessage.field.policyScore', { value: score }));
  if (call.thread?.agent) {
    const agent = cleanLabel(call.thread.agent.name ?? call.thread.agent.id, 150);
    fields.push(tmd(t, 'callDetails.field.agent', { value: agent }));
  }
  blocks.push(...fieldSections(fields));
  const policies = call.policy_evaluation?.policies ?? [];
  if (policies.length) {
    const pe = call.policy_evaluation!;
    const summary = tmd(t, 'callDetails.policies', {
      met: pe.policies_met_count ?? 0,
      evaluated: pe.policies_evaluated_count ?? policies.length,
      notApplicable: pe.policies_not_applicable_count ?? 0,
    });
    blocks.push(mrkdwnSection(summary));
    // One section per policy (explanations can be long); keep the message within 50 blocks.
    const room = LIMITS.messageBlocks - blocks.length - 1;
    const shownPolicies = policies.slice(0, room);
    for (const p of shownPolicies) blocks.push(mrkdwnSection(policyLine(p)));
    if (policies.length > shownPolicies.length) {
      blocks.push(context(t.t('callDetails.morePolicies', { count: policies.length - shownPolicies.length })));
    }
  } else {
    blocks.push(context(t.t(call.policy_evaluation ? 'callDetails.noResults' : 'callDetails.noEvaluation')));
  }
  return { text: fallback(tmd(t, 'callDetails.fallback', { callId, status })), blocks };
}

/** The end user's name, notes and id, with an optional `note` (our own mrkdwn), in the reader's words. */
export function endUserSummary(endUser: EndUser, opts: { note?: string }, t: Translator): SlackMessage {
  const name = cleanLabel(endUser.display_name ?? '', 200) || t.t('endUser.untitled');
  const blocks: KnownBlock[] = [
    mrkdwnSection(tmd(t, 'endUser.summary', { name, info: truncate(endUser.info?.trim() || NONE, 2000) })),
    context(endUserIdLine(endUser, t)),
  ];
  if (opts.note) blocks.push(context(opts.note));
  const named = cleanLabel(endUser.display_name ?? '') || endUser.id;
  return { text: fallback(tmd(t, 'endUser.fallback', { name: named })), blocks };
}

/** "End user `id` · whatsapp" (mrkdwn). */
function endUserIdLine(endUser: Pick<EndUser, 'id' | 'integration_type'>, t: Translator): string {
  return tmd(t, 'endUser.idLine', { id: truncate(endUser.id, 80), type: endUser.integration_type || 'none' });
}

/**
 * The end-user modal's private metadata, as `decodeJson` reads it back: whose, where to confirm the change, and the
 * language of whoever opened it (its errors and the confirmation speak it; absent in a modal opened before
 * languages: English).
 */
export const EndUserModalMeta = z.object({
  endUserId: z.string().min(1),
  channelId: z.string().optional(),
  lang: z.enum(LOCALES).optional(),
});
export type EndUserModalMeta = z.infer<typeof EndUserModalMeta>;

/** The modal in which a permitted person corrects an end user's display name and info (PUT /enduser/{id}). */
export function endUserModal(endUser: EndUser, meta: EndUserModalMeta, t: Translator): View {
  return {
    type: 'modal',
    callback_id: END_USER_VIEW_ID,
    private_metadata: JSON.stringify({ ...meta, lang: t.locale }).slice(0, 3000),
    title: plainText(t.t('endUser.title'), 24),
    submit: plainText(t.t('endUser.save'), 24),
    close: plainText(t.t('common.cancel'), 24),
    blocks: [
      context(endUserIdLine({ id: endUser.id }, t)),
      inputBlock({
        blockId: END_USER_BLOCKS.name,
        label: t.t('endUser.nameLabel'),
        element: {
          type: 'plain_text_input',
          action_id: 'value',
          max_length: END_USER_LIMITS.name,
          ...(endUser.display_name ? { initial_value: truncate(endUser.display_name, END_USER_LIMITS.name, '') } : {}),
        },
      }),
      inputBlock({
        blockId: END_USER_BLOCKS.info,
        optional: true,
        label: t.t('endUser.infoLabel'),
        hint: t.t('endUser.infoHint'),
        element: {
          type: 'plain_text_input',
          action_id: 'value',
          multiline: true,
          max_length: END_USER_LIMITS.info,
          ...(endUser.info ? { initial_value: truncate(endUser.info, END_USER_LIMITS.info, '') } : {}),
        },
      }),
    ],
  };
}

/** The end-user modal before (or instead of) its form: a loading note, or what went wrong. */
export function endUserNotice(blocks: KnownBlock[], t: Translator): View {
  return {
    type: 'modal',
    title: plainText(t.t('endUser.title'), 24),
    close: plainText(t.t('common.close'), 24),
    blocks,
  };
}
