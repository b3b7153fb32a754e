/** What `/campaign lang` answers: which language is in use and why, and the confirmations of a change. */
import type { Locale } from '../i18n/locale.js';
import type { MessageKey, Translator } from '../i18n/translator.js';
import { mentionUser } from './feedback.js';
import { context, fallback, mrkdwnSection, raw } from './mrkdwn.js';
import { tmd } from './text.js';
import type { SlackMessage } from './types.js';

const LANGUAGE_NAMES: Record<Locale, MessageKey> = { en: 'lang.name.en', es: 'lang.name.es' };

/** "English" / "inglés": a language named in the words of `t`. */
function languageName(t: Translator, locale: Locale): string {
  return t.t(LANGUAGE_NAMES[locale]);
}

function message(sections: string[], note?: string): SlackMessage {
  return {
    text: fallback(sections.join(' ')),
    blocks: [...sections.map((s) => mrkdwnSection(s)), ...(note ? [context(note)] : [])],
  };
}

export interface LanguageStatusInput {
  person: { locale: Locale; source: 'choice' | 'slack' };
  /** Where the command was typed, when it was a channel. */
  channel?: { locale: Locale; source: 'channel' | 'default' };
}

/** `/campaign lang` alone: the person's language and why; the channel's, typed in a channel. */
export function languageStatusMessage(t: Translator, input: LanguageStatusInput): SlackMessage {
  const lines = [
    t.t('lang.statusPerson', {
      language: languageName(t, input.person.locale),
      source: input.person.source === 'choice' ? 'override' : 'slack',
    }),
  ];
  if (input.channel) {
    lines.push(
      t.t('lang.statusChannel', { language: languageName(t, input.channel.locale), source: input.channel.source }),
    );
  }
  return message(lines, t.t('lang.statusHow'));
}

/**
 * The person's language was set (`auto`: back to their Slack language, now `locale`); worded in the new language.
 * `channelRefused`: typed in a channel by someone who may not set the channel's language.
 */
export function personLanguageSetMessage(
  t: Translator,
  input: { auto: boolean; locale: Locale; channelRefused?: boolean },
): SlackMessage {
  const language = languageName(t, input.locale);
  const done = input.auto ? t.t('lang.personAuto', { language }) : t.t('lang.personSet', { language });
  return message([done], input.channelRefused ? t.t('lang.channelNotPermitted') : undefined);
}

/** For the channel (who did what), in the channel's new language: "@ana set this channel's language to Spanish". */
export function channelLanguageSetMessage(
  t: Translator,
  input: { userId: string; auto: boolean; locale: Locale },
): SlackMessage {
  const values = { who: raw(mentionUser(input.userId)), language: languageName(t, input.locale) };
  return message([input.auto ? tmd(t, 'lang.channelAuto', values) : tmd(t, 'lang.channelSet', values)]);
}

/** For the person who set a channel's language: their own did not change. */
export function ownLanguageUnchangedMessage(t: Translator): SlackMessage {
  return message([t.t('lang.channelOwnUnchanged', { language: languageName(t, t.locale) })]);
}
