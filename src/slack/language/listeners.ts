/**
 * `/campaign lang [en|es|auto]` (`idioma`): without a choice, which language is in use and why. With one: in a
 * direct message (or from anyone who may not change campaigns) it sets the person's own language; typed in a channel
 * by someone who may change campaigns, it sets that channel's language (announced there, in it, and audited).
 */
import { translator } from '../../i18n/translator.js';
import {
  channelLanguageSetMessage,
  languageStatusMessage,
  ownLanguageUnchangedMessage,
  personLanguageSetMessage,
} from '../../render/language.js';
import type { CommandHandler } from '../deps.js';

/** Channels and private channels (`C…`, `G…`); a DM with the app is `D…`. */
const isChannel = (channelId: string) => /^[CG]/.test(channelId);

export const lang: CommandHandler<'lang'> = async ({ command, deps, userId, channelId, client, reply, t, person }) => {
  const { languages } = deps;
  const inChannel = isChannel(channelId);
  if (command.setting === undefined) {
    const channel = inChannel ? await languages.channel(channelId) : undefined;
    await reply.ephemeral(languageStatusMessage(t, { person, ...(channel ? { channel } : {}) }));
    return;
  }
  const setting = command.setting;
  const auto = setting === 'auto';
  const mayChange = inChannel && (await deps.permissions.canChange(userId, client));
  if (mayChange) {
    await languages.setChannel(channelId, setting, userId);
    const now = await languages.channel(channelId);
    await deps.audit.record(
      { userId, action: `set the language of ${channelId} to ${setting}`, result: 'ok', detail: now.locale },
      client,
    );
    await reply.inChannel(channelLanguageSetMessage(translator(now.locale), { userId, auto, locale: now.locale }));
    await reply.ephemeral(ownLanguageUnchangedMessage(t));
    return;
  }
  await languages.setPerson(userId, setting);
  const now = await languages.person(userId, client);
  await reply.ephemeral(
    personLanguageSetMessage(translator(now.locale), { auto, locale: now.locale, channelRefused: inChannel }),
  );
};
