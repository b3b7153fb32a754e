/**
 * A watch's settings, as people see them: the "Watch settings" modal (format, filter, reminder delay of one channel's
 * watch of one campaign), the filter and format in words (`/campaign watching`, the answers), and the button that
 * opens the modal. The settings' rules are watch's (src/watch/filter.ts); here they are only shown and read back.
 */
import { z } from 'zod';
import { LOCALES } from '../i18n/locale.js';
import type { MessageKey, Translator } from '../i18n/translator.js';
import { ANSWERED_BY, CALL_LIST_FILTER_STATUSES } from '../outreach/schemas.js';
import { answeredByLabel, callStatusLabel } from './format.js';
import { encodeSettingsValue, WATCH_ACTION_IDS, WATCH_SETTINGS_VIEW_ID } from './ids.js';
import {
  actions,
  button,
  cleanLabel,
  context,
  fallback,
  inputBlock,
  mrkdwnSection,
  plainText,
  raw,
  truncate,
} from './mrkdwn.js';
import { tmd } from './text.js';
import type { Button, KnownBlock, SlackMessage, View } from './types.js';

/** A watch's settings as shown (the shape of src/watch/filter.ts `WatchFilter`, and the subscription's fields). */
export interface SettingsShown {
  format?: 'detailed' | 'compact' | undefined;
  filter?:
    | {
        outcomes?: readonly string[] | undefined;
        answeredBy?: readonly string[] | undefined;
        policyScoreBelow?: number | undefined;
        withData?: boolean | undefined;
        dataKey?: string | undefined;
        tags?: readonly string[] | undefined;
        conversationsOnly?: boolean | undefined;
      }
    | undefined;
  reminderMinutes?: number | undefined;
}

/**
 * Minutes an end user's message waits for a person before its reminder, for a watch without its own
 * (src/watch/state.ts `reminderMinutes`): shown in the settings modal, applied by src/watch/attention.ts.
 */
export const DEFAULT_REMINDER_MINUTES = 15;

/** The modal's input blocks (block id = what it sets; the element's action id is `value`). */
export const SETTINGS_BLOCKS = {
  format: 'ws_format',
  outcomes: 'ws_outcomes',
  answeredBy: 'ws_answered_by',
  score: 'ws_score',
  data: 'ws_data',
  dataKey: 'ws_data_key',
  tags: 'ws_tags',
  conversations: 'ws_conversations',
  reminder: 'ws_reminder',
} as const;
export const SETTINGS_ACTION = 'value';
/** The one option of the "with data" and "conversations only" checkboxes. */
export const SETTINGS_YES = 'yes';

/** The modal's private metadata, as `decodeJson` reads it back: whose watch, and the language it speaks. */
export const SettingsMetadata = z.object({
  campaignId: z.number().int().positive(),
  channelId: z.string().regex(/^[CGD][A-Z0-9]+$/),
  lang: z.enum(LOCALES),
});
export type SettingsMetadata = z.infer<typeof SettingsMetadata>;

const FORMAT_KEYS: Record<'detailed' | 'compact', MessageKey> = {
  detailed: 'watchFormat.detailed',
  compact: 'watchFormat.compact',
};

/** `compact` / `detailed` in the reader's words (a conversations-only filter shows one line per call too). */
function formatWords(s: SettingsShown, t: Translator): string {
  return t.t(FORMAT_KEYS[s.format === 'compact' || s.filter?.conversationsOnly ? 'compact' : 'detailed']);
}

/** "only ended, busy · answered by Human · with extracted data", or "every call". Plain text, outside words cleaned. */
export function filterWords(filter: SettingsShown['filter'], t: Translator): string {
  const parts: string[] = [];
  const list = (xs: readonly string[]) => xs.join(', ');
  if (filter?.outcomes?.length) {
    parts.push(t.t('watchFilter.outcomes', { list: list(filter.outcomes.map((o) => callStatusLabel(o, t))) }));
  }
  if (filter?.answeredBy?.length) {
    parts.push(t.t('watchFilter.answeredBy', { list: list(filter.answeredBy.map((a) => answeredByLabel(a, t))) }));
  }
  if (filter?.policyScoreBelow !== undefined) {
    parts.push(t.t('watchFilter.scoreBelow', { score: t.number(filter.policyScoreBelow) }));
  }
  if (filter?.withData) parts.push(t.t('watchFilter.withData'));
  if (filter?.dataKey) parts.push(t.t('watchFilter.dataKey', { key: cleanLabel(filter.dataKey, 100) }));
  if (filter?.tags?.length) {
    parts.push(t.t('watchFilter.tags', { list: truncate(list(filter.tags.map((x) => cleanLabel(x, 100))), 500) }));
  }
  if (filter?.conversationsOnly) parts.push(t.t('watchFilter.conversationsOnly'));
  return parts.length ? parts.join(' · ') : t.t('watchFilter.everything');
}

/** "compact · only ended · answered by Human", escaped mrkdwn. */
export function settingsWords(s: SettingsShown, t: Translator): string {
  return tmd(t, 'watchSettings.summary', { format: formatWords(s, t), filter: filterWords(s.filter, t) });
}

/** "Watch settings", for a channel's watch of a campaign (no channel: the one it is clicked in). */
export function settingsButton(campaignId: number, channelId: string | undefined, t: Translator): Button {
  return button({
    text: t.t('watchSettings.button'),
    actionId: WATCH_ACTION_IDS.settings,
    value: encodeSettingsValue({ campaignId, ...(channelId ? { channelId } : {}) }),
  });
}

const option = (text: string, value: string) => ({ text: plainText(text, 75), value });
type Option = ReturnType<typeof option>;

/** "Name (#12)", or "#12" for a campaign whose name is not known. */
function campaignWords(input: { campaignId: number; campaignName?: string }): string {
  return input.campaignName ? `${cleanLabel(input.campaignName, 120)} (#${input.campaignId})` : `#${input.campaignId}`;
}

/** The modal's checkboxes, those in `chosen` ticked. */
function checkboxes(opts: Option[], chosen: readonly string[] | undefined) {
  return {
    type: 'checkboxes' as const,
    action_id: SETTINGS_ACTION,
    options: opts,
    ...(chosen?.length ? { initial_options: opts.filter((o) => chosen.includes(o.value)) } : {}),
  };
}

/** The modal's number inputs: a whole or decimal number within `range`. */
function numberInput(range: { min: string; max: string; decimal: boolean }, initial: string | undefined) {
  return {
    type: 'number_input' as const,
    action_id: SETTINGS_ACTION,
    is_decimal_allowed: range.decimal,
    min_value: range.min,
    max_value: range.max,
    ...(initial !== undefined ? { initial_value: initial } : {}),
  };
}

/** An optional text input of the modal, at most `max` characters. */
function textInput(block: string, label: string, initial: string | undefined, hint?: string, max = 500) {
  return inputBlock({
    blockId: block,
    optional: true,
    label,
    ...(hint ? { hint } : {}),
    element: {
      type: 'plain_text_input',
      action_id: SETTINGS_ACTION,
      max_length: max,
      ...(initial ? { initial_value: truncate(initial, max, '') } : {}),
    },
  });
}

/** The filter's inputs (every one optional: nothing chosen lets every call through), filled in with `filter`. */
function filterInputs(filter: NonNullable<SettingsShown['filter']>, t: Translator): KnownBlock[] {
  const ticks = (block: string, label: MessageKey, element: ReturnType<typeof checkboxes>, hint?: MessageKey) =>
    inputBlock({ blockId: block, optional: true, label: t.t(label), ...(hint ? { hint: t.t(hint) } : {}), element });
  const yes = (label: MessageKey) => [option(t.t(label), SETTINGS_YES)];
  const outcomes = CALL_LIST_FILTER_STATUSES.map((o) => option(callStatusLabel(o, t), o));
  const answeredBy = ANSWERED_BY.map((a) => option(answeredByLabel(a, t), a));
  const score = filter.policyScoreBelow !== undefined ? String(filter.policyScoreBelow) : undefined;
  return [
    ticks(
      SETTINGS_BLOCKS.outcomes,
      'watchSettings.outcomes.label',
      checkboxes(outcomes, filter.outcomes),
      'watchSettings.noneTicked',
    ),
    ticks(
      SETTINGS_BLOCKS.answeredBy,
      'watchSettings.answeredBy.label',
      checkboxes(answeredBy, filter.answeredBy),
      'watchSettings.noneTicked',
    ),
    inputBlock({
      blockId: SETTINGS_BLOCKS.score,
      optional: true,
      label: t.t('watchSettings.score.label'),
      hint: t.t('watchSettings.score.hint'),
      element: numberInput({ min: '0', max: '100', decimal: true }, score),
    }),
    ticks(
      SETTINGS_BLOCKS.data,
      'watchSettings.data.label',
      checkboxes(yes('watchSettings.data.with'), filter.withData ? [SETTINGS_YES] : []),
    ),
    textInput(SETTINGS_BLOCKS.dataKey, t.t('watchSettings.dataKey.label'), filter.dataKey, undefined, 100),
    textInput(
      SETTINGS_BLOCKS.tags,
      t.t('watchSettings.tags.label'),
      filter.tags?.join(', '),
      t.t('watchSettings.tags.hint'),
    ),
    ticks(
      SETTINGS_BLOCKS.conversations,
      'watchSettings.conversations.label',
      checkboxes(yes('watchSettings.conversations.only'), filter.conversationsOnly ? [SETTINGS_YES] : []),
    ),
  ];
}

/** The "Watch settings" modal, filled in with the watch's settings (`watching` false: saving starts it). */
export function watchSettingsModal(
  input: {
    campaignId: number;
    campaignName?: string;
    channelId: string;
    watching: boolean;
    settings: SettingsShown;
  },
  t: Translator,
): View {
  const { settings } = input;
  const meta: SettingsMetadata = { campaignId: input.campaignId, channelId: input.channelId, lang: t.locale };
  const formats = (['detailed', 'compact'] as const).map((f) =>
    option(t.t(f === 'compact' ? 'watchSettings.format.compact' : 'watchSettings.format.detailed'), f),
  );
  const intro = tmd(t, 'watchSettings.intro', {
    campaign: campaignWords(input),
    channel: raw(`<#${input.channelId}>`),
    watching: input.watching ? 'yes' : 'no',
  });
  const blocks: KnownBlock[] = [
    mrkdwnSection(intro),
    inputBlock({
      blockId: SETTINGS_BLOCKS.format,
      label: t.t('watchSettings.format.label'),
      element: {
        type: 'radio_buttons',
        action_id: SETTINGS_ACTION,
        options: formats,
        initial_option: formats[settings.format === 'compact' ? 1 : 0]!,
      },
    }),
    ...filterInputs(settings.filter ?? {}, t),
    inputBlock({
      blockId: SETTINGS_BLOCKS.reminder,
      label: t.t('watchSettings.reminder.label'),
      hint: t.t('watchSettings.reminder.hint'),
      element: numberInput(
        { min: '1', max: '1440', decimal: false },
        String(settings.reminderMinutes ?? DEFAULT_REMINDER_MINUTES),
      ),
    }),
    context(t.t('watchSettings.waitingNote')),
  ];
  return {
    type: 'modal',
    callback_id: WATCH_SETTINGS_VIEW_ID,
    private_metadata: JSON.stringify(meta),
    title: plainText(t.t('watchSettings.title'), 24),
    submit: plainText(t.t('watchSettings.save'), 24),
    close: plainText(t.t('common.cancel'), 24),
    blocks,
  };
}

/** The modal replaced by one sentence (a refusal, a stale form; a call card loading or failing to). */
export function settingsNoticeModal(
  text: string,
  t: Translator,
  title: 'watchSettings.title' | 'compactCall.modalTitle' = 'watchSettings.title',
): View {
  return {
    type: 'modal',
    title: plainText(t.t(title), 24),
    close: plainText(t.t('common.close'), 24),
    blocks: [mrkdwnSection(text)],
  };
}

/** Settings saved for a watch: what the channel shows now, and the button to change them again. */
export function settingsSavedMessage(
  input: { campaignId: number; campaignName?: string; channelId: string; settings: SettingsShown },
  t: Translator,
): SlackMessage {
  const text = tmd(t, 'watchSettings.saved', {
    campaign: campaignWords(input),
    channel: raw(`<#${input.channelId}>`),
    summary: raw(settingsWords(input.settings, t)),
  });
  return {
    text: fallback(text),
    blocks: [mrkdwnSection(text), actions([settingsButton(input.campaignId, input.channelId, t)])],
  };
}
