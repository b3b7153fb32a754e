/**
 * Errors, confirmations, the messages posted after a change ("who did what": a lifecycle move, a campaign created or
 * edited with the form) and the `/campaign` usage. Sentences passed in are escaped here, so they may quote outside
 * text (a service message, a name) safely; `*bold*` and `_italic_` still work, mentions and links do not.
 */
import type { CampaignDetail, CampaignStatus, LifecycleAction } from '../outreach/schemas.js';
import { DEFAULT_TIMEZONE } from '../outreach/unspecified.js';
import { ACTION_IDS, encodeCampaignId } from './ids.js';
import { campaignStateLabel, channelLabel, ENGLISH, statusLabel } from './format.js';
import { lifecycleButtons } from './lifecycle.js';
import {
  actions,
  button,
  cleanLabel,
  confirmDialog,
  context,
  escapeMrkdwn,
  fallback,
  fieldSections,
  mrkdwnSection,
  raw,
  truncate,
  type RawMrkdwn,
} from './mrkdwn.js';
import { cyclesInWords, scheduleInWords } from './schedule.js';
import { tmd } from './text.js';
import type { KnownBlock, SectionBlock, SlackMessage } from './types.js';
import type { MessageKey, Translator } from '../i18n/translator.js';
import { actionForTarget } from '../outreach/rules.js';

export interface ErrorMessageInput {
  /** What happened, why, and what to do, in a sentence or two. Escaped here. */
  sentence: string;
  campaignId?: number;
  campaignName?: string | null;
  /** INVALID_STATUS_TRANSITION: the campaign's status now. */
  currentStatus?: string | null;
  /** INVALID_STATUS_TRANSITION: the service's valid_targets (actions or statuses; both are understood). */
  validTargets?: readonly string[] | null;
}

/**
 * "⚠️ <sentence>", plus, for a refused lifecycle move, the campaign's status now and one button per move that is
 * possible from it (action_id `campaign_action:<action>`). Meant to be shown to the person only (ephemeral).
 */
export function errorMessage(input: ErrorMessageInput, t: Translator = ENGLISH): SlackMessage {
  const text = tmd(t, 'feedback.error', { sentence: input.sentence });
  const blocks: KnownBlock[] = [mrkdwnSection(text)];
  if (input.campaignId !== undefined && input.currentStatus) {
    blocks.push(
      context(
        tmd(t, 'feedback.currentStatus', { id: String(input.campaignId), status: statusLabel(input.currentStatus, t) }),
      ),
    );
  }
  if (input.campaignId !== undefined && input.validTargets?.length) {
    const possible: LifecycleAction[] = [];
    for (const target of input.validTargets) {
      const a = actionForTarget(target, input.currentStatus);
      if (a && !possible.includes(a)) possible.push(a);
    }
    if (possible.length) {
      blocks.push(mrkdwnSection(t.t('feedback.instead')));
      blocks.push(actions(lifecycleButtons({ id: input.campaignId, name: input.campaignName }, possible, t)));
    }
  }
  return { text: fallback(text), blocks };
}

/** "✅ <sentence>" (escaped). */
export function successMessage(sentence: string, t: Translator = ENGLISH): SlackMessage {
  const text = tmd(t, 'feedback.success', { sentence });
  return { text: fallback(text), blocks: [mrkdwnSection(text)] };
}

/** A Slack user id we may mention: `U…`/`W…` (people), letters and digits only. */
const USER_ID = /^[UW][A-Z0-9]+$/;

/** `<@U123>` for a real user id; anything else is shown escaped and mentions nobody. */
export function mentionUser(userId: string): string {
  return USER_ID.test(userId) ? `<@${userId}>` : escapeMrkdwn(userId);
}

export interface LifecycleResultInput {
  /** The Slack user who acted (from the request payload, not outside text). */
  userId: string;
  action: LifecycleAction;
  /** The campaign as the service returned it after the action. */
  campaign: { id: number; name: string; status: CampaignStatus | string; archived?: boolean | null };
}

/**
 * The "who did what" line for a channel: "<@U123> paused *Name* (#12). It is now ⏸ Inactive." with a Show button.
 * Archiving leaves the status: "… archived *Name* (#12). Its status stays 🟢 Active."
 */
export function lifecycleResultMessage(
  { userId, action, campaign }: LifecycleResultInput,
  t: Translator = ENGLISH,
): SlackMessage {
  const text = tmd(t, 'lifecycleResult.done', {
    who: raw(mentionUser(userId)),
    action,
    name: cleanLabel(campaign.name, 200),
    id: String(campaign.id),
    status: statusLabel(campaign.status, t),
    state: campaignStateLabel(campaign.status, campaign.archived, t),
  });
  const section: SectionBlock = {
    ...mrkdwnSection(text),
    accessory: button({
      text: t.t('campaignList.show'),
      actionId: ACTION_IDS.campaignShow,
      value: encodeCampaignId(campaign.id),
    }),
  };
  return { text: fallback(text), blocks: [section] };
}

// ---------------------------------------------------------------------------------------------------------------
// A campaign created or edited with the form, as posted where it was asked

function summaryFields(c: CampaignDetail, t: Translator): string[] {
  const agentName = cleanLabel(c.agent.name ?? '', 150);
  const agent = agentName ? escapeMrkdwn(agentName) : tmd(t, 'campaignDetail.agentId', { id: c.agent.id });
  const field = (label: MessageKey, value: string | RawMrkdwn) =>
    tmd(t, 'campaignDetail.field', { label: t.t(label), value });
  const fields = [
    field('campaignForm.status', campaignStateLabel(c.status, c.archived, t)),
    field('campaignForm.channel', channelLabel(c.integration?.type, t)),
    field('campaignDetail.agent', raw(agent)),
    field('campaignDetail.integration', c.integration ? c.integration.id : t.t('campaignDetail.none')),
    field('campaignForm.schedule', scheduleInWords(c.scheduling, t)),
    field('campaignDetail.timezone', c.timezone ?? DEFAULT_TIMEZONE),
  ];
  if (c.retries !== null && c.retries !== undefined) fields.push(field('campaignDetail.retries', t.number(c.retries)));
  if (c.message_limit !== null && c.message_limit !== undefined) {
    fields.push(field('campaignDetail.messageLimit', t.number(c.message_limit)));
  }
  if (c.integration?.type !== 'whatsapp') fields.push(field('campaignDetail.cycles', cyclesInWords(c.cycles, {}, t)));
  else if (c.template) fields.push(field('campaignDetail.template', truncate(c.template, 200)));
  return fields.slice(0, 10);
}

/** Posted where the command was typed (in that conversation's language): the new campaign, and what to do next. */
export function campaignCreatedMessage(c: CampaignDetail, userId: string, t: Translator = ENGLISH): SlackMessage {
  const name = cleanLabel(c.name, 200);
  const id = String(c.id);
  const value = encodeCampaignId(c.id);
  const blocks: KnownBlock[] = [
    mrkdwnSection(tmd(t, 'campaignForm.created', { who: raw(mentionUser(userId)), name, id })),
    ...fieldSections(summaryFields(c, t)),
    actions([
      ...lifecycleButtons(c, ['activate'], t),
      button({ text: t.t('campaignDetail.button.upload'), actionId: ACTION_IDS.campaignUploadOpen, value }),
      button({
        text: t.t('campaignDetail.button.watchHere'),
        actionId: ACTION_IDS.campaignWatchHere,
        value,
        confirm: confirmDialog({
          title: t.t('campaignForm.watchConfirm.title'),
          text: tmd(t, 'campaignForm.watchConfirm.text', { name: cleanLabel(c.name, 80), id }),
          confirm: t.t('campaignForm.watchConfirm.confirm'),
          deny: t.t('common.cancel'),
        }),
      }),
    ]),
    context(t.t('campaignForm.next')),
  ];
  return { text: fallback(tmd(t, 'campaignForm.created.fallback', { name, id })), blocks };
}

/** Posted after an edit: who changed which fields (their API names), in the conversation's language. */
export function campaignUpdatedMessage(
  c: CampaignDetail,
  userId: string,
  changed: string[],
  t: Translator = ENGLISH,
): SlackMessage {
  const name = cleanLabel(c.name, 200);
  const id = String(c.id);
  const fields = changed.length
    ? truncate(changed.map((f) => `\`${f}\``).join(', '), 1500)
    : t.t('campaignForm.nothing');
  const blocks: KnownBlock[] = [
    mrkdwnSection(tmd(t, 'campaignForm.updated', { who: raw(mentionUser(userId)), name, id, fields: raw(fields) })),
    ...fieldSections(summaryFields(c, t)),
    actions([
      button({ text: t.t('campaignList.show'), actionId: ACTION_IDS.campaignShow, value: encodeCampaignId(c.id) }),
    ]),
  ];
  return { text: fallback(tmd(t, 'campaignForm.updated.fallback', { name, id })), blocks };
}

/** One line of the `/campaign` usage: its syntax and what it does, both our own mrkdwn in the person's language. */
export interface UsageLine {
  syntax: string;
  meaning: string;
}

/**
 * The `/campaign` usage from its lines (src/slack/grammar.ts), after "⚠️ <problem>" when a command could not be read
 * (`problem`: mrkdwn already worded and escaped, see `problemText`).
 */
export function commandUsageMessage(usage: readonly UsageLine[], t: Translator, problem?: string): SlackMessage {
  const lines = usage.map((l) => tmd(t, 'usage.line', { syntax: raw(l.syntax), meaning: raw(l.meaning) }));
  const blocks: KnownBlock[] = [];
  if (problem) blocks.push(mrkdwnSection(tmd(t, 'usage.problem', { problem: raw(problem) })));
  blocks.push(mrkdwnSection(t.t('usage.title')));
  blocks.push(mrkdwnSection(lines.join('\n')));
  blocks.push(context(t.t('usage.idHint'), t.t('usage.otherLanguage')));
  const text = problem ? tmd(t, 'usage.problemFallback', { problem: raw(problem) }) : t.t('usage.fallback');
  return { text: fallback(text), blocks };
}
