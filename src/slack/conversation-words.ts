/**
 * The words for what is posted in a conversation for everyone there (who did what, a campaign's summary): a channel
 * (`C…`, `G…`) reads its own language (`/campaign lang` there, else DEFAULT_LOCALE); a DM with the app reads the
 * language of the person in it.
 */
import { translator, type Translator } from '../i18n/translator.js';
import type { AppDeps } from './deps.js';

/** Channels and private channels; a DM with the app is `D…`. */
function isChannelId(id: string | undefined): id is string {
  return id !== undefined && /^[CG]/.test(id);
}

/** `personT` (the person's words) unless `conversationId` is a channel, whose own language then applies. */
export async function conversationWords(
  deps: Pick<AppDeps, 'languages'>,
  personT: Translator,
  conversationId: string | undefined,
): Promise<Translator> {
  if (!isChannelId(conversationId)) return personT;
  return translator((await deps.languages.channel(conversationId)).locale);
}
