/**
 * Errors, confirmations, "who did what" lines and the `/campaign` usage. Sentences passed in are escaped here, so
 * they may quote outside text (a service message, a name) safely; `*bold*` and `_italic_` still work, mentions and
 * links do not.
 */
import type { CampaignStatus, LifecycleAction } from '../outreach/schemas.js';
import { ACTION_IDS, encodeCampaignId } from './ids.js';
import { campaignStateLabel, ENGLISH, statusLabel } from './format.js';
import { lifecycleButtons } from './lifecycle.js';
import { actions, button, cleanLabel, context, escapeMrkdwn, fallback, mrkdwnSection, raw } from './mrkdwn.js';
import { tmd } from './text.js';
import type { KnownBlock, SectionBlock, SlackMessage } from './types.js';
import type { Translator } from '../i18n/translator.js';
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
