/**
 * Who gets which language (and timezone):
 *
 * - A person: their `/campaign lang es|en` choice when they made one (kept in the store, shared by every replica),
 *   else their Slack locale (`users.info` with `include_locale`: `es-*` → Spanish, anything else → English). Their
 *   timezone is their Slack `tz`. What Slack says is cached in memory for `ttlMs` (a person rarely changes it, and
 *   users.info is a Tier 4 method shared with the rest of the app); a failed lookup reads as English for a minute.
 * - A channel: its `/campaign lang es|en` choice (set by someone who may change campaigns), else DEFAULT_LOCALE.
 */
import type { WebClient } from '@slack/web-api';
import { isLocale, localeFromSlack, type LanguageSetting, type Locale } from '../i18n/locale.js';
import { translator, type Translator } from '../i18n/translator.js';
import type { Logger } from '../log.js';
import type { Collection, Store } from '../store/store.js';

/** A choice made with `/campaign lang`: who made it and when (for an operator reading the store). */
interface LanguageChoice {
  locale: Locale;
  by: string;
  at: string;
}

const COLLECTIONS = {
  /** Key Slack user id. */
  people: { name: 'language_people' },
  /** Key channel id. */
  channels: { name: 'language_channels' },
} as const;

export interface PersonLanguage {
  locale: Locale;
  /** `choice`: set with `/campaign lang`; `slack`: the person's Slack locale. */
  source: 'choice' | 'slack';
  /** The person's Slack timezone (IANA), when Slack told it. */
  timeZone?: string;
}

export interface ChannelLanguage {
  locale: Locale;
  /** `channel`: chosen for this channel; `default`: DEFAULT_LOCALE. */
  source: 'channel' | 'default';
}

export interface LanguagesOptions {
  store: Store;
  defaultLocale: Locale;
  logger: Logger;
  /** How long what users.info said is trusted (default 1 hour). */
  ttlMs?: number;
  /** People remembered at most (the oldest are forgotten first). */
  maxPeople?: number;
  now?: () => number;
}

interface SlackProfile {
  locale: Locale;
  timeZone?: string;
  until: number;
}

const FAILED_LOOKUP_TTL_MS = 60_000;

export class Languages {
  readonly defaultLocale: Locale;
  private readonly people: Collection<LanguageChoice>;
  private readonly channels: Collection<LanguageChoice>;
  private readonly profiles = new Map<string, SlackProfile>();
  private readonly inFlight = new Map<string, Promise<SlackProfile>>();
  private readonly ttlMs: number;
  private readonly maxPeople: number;
  private readonly now: () => number;
  private readonly logger: Logger;

  constructor(opts: LanguagesOptions) {
    this.defaultLocale = opts.defaultLocale;
    this.people = opts.store.collection<LanguageChoice>(COLLECTIONS.people);
    this.channels = opts.store.collection<LanguageChoice>(COLLECTIONS.channels);
    this.ttlMs = opts.ttlMs ?? 60 * 60_000;
    this.maxPeople = opts.maxPeople ?? 5_000;
    this.now = opts.now ?? Date.now;
    this.logger = opts.logger;
  }

  /** The person's language and timezone (see the top of the file). */
  async person(userId: string, client: WebClient): Promise<PersonLanguage> {
    const [choice, profile] = await Promise.all([
      // The store unreadable: the person still gets an answer, in their Slack language.
      this.people.get(userId).catch((err: unknown) => {
        this.logger.warn({ user: userId, err: String(err) }, 'could not read a person’s language choice');
        return undefined;
      }),
      this.slackProfile(userId, client),
    ]);
    const timeZone = profile.timeZone ? { timeZone: profile.timeZone } : {};
    if (choice && isLocale(choice.locale)) return { locale: choice.locale, source: 'choice', ...timeZone };
    return { locale: profile.locale, source: 'slack', ...timeZone };
  }

  /** The translator for what is said to this person only. */
  async translatorFor(userId: string, client: WebClient): Promise<Translator> {
    return translator((await this.person(userId, client)).locale);
  }

  /** The language of what the app posts in this channel. */
  async channel(channelId: string): Promise<ChannelLanguage> {
    const choice = await this.channels.get(channelId);
    if (choice && isLocale(choice.locale)) return { locale: choice.locale, source: 'channel' };
    return { locale: this.defaultLocale, source: 'default' };
  }

  /** `/campaign lang es|en|auto` for a person (`auto`: their Slack locale again). */
  async setPerson(userId: string, setting: LanguageSetting): Promise<void> {
    if (setting === 'auto') await this.people.delete(userId);
    else await this.people.put(userId, { locale: setting, by: userId, at: new Date(this.now()).toISOString() });
  }

  /** `/campaign lang es|en|auto` in a channel (`auto`: DEFAULT_LOCALE again); `by` checked by the caller. */
  async setChannel(channelId: string, setting: LanguageSetting, by: string): Promise<void> {
    if (setting === 'auto') await this.channels.delete(channelId);
    else await this.channels.put(channelId, { locale: setting, by, at: new Date(this.now()).toISOString() });
  }

  private async slackProfile(userId: string, client: WebClient): Promise<SlackProfile> {
    const cached = this.profiles.get(userId);
    if (cached && cached.until > this.now()) return cached;
    let pending = this.inFlight.get(userId);
    if (!pending) {
      pending = this.lookUp(userId, client).finally(() => this.inFlight.delete(userId));
      this.inFlight.set(userId, pending);
    }
    return pending;
  }

  private async lookUp(userId: string, client: WebClient): Promise<SlackProfile> {
    let profile: SlackProfile;
    try {
      const res = await client.users.info({ user: userId, include_locale: true });
      const tz = res.user?.tz;
      profile = {
        locale: localeFromSlack(res.user?.locale),
        ...(tz ? { timeZone: tz } : {}),
        until: this.now() + this.ttlMs,
      };
    } catch (err) {
      this.logger.warn({ user: userId, err: String(err) }, 'could not read a person’s Slack locale; using English');
      profile = { locale: 'en', until: this.now() + FAILED_LOOKUP_TTL_MS };
    }
    this.profiles.delete(userId);
    this.profiles.set(userId, profile);
    while (this.profiles.size > this.maxPeople) {
      const oldest = this.profiles.keys().next().value;
      if (oldest === undefined) break;
      this.profiles.delete(oldest);
    }
    return profile;
  }
}
