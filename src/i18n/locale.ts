/** The languages the app speaks, and how a Slack locale maps onto them. */

export const LOCALES = ['en', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

export function isLocale(v: unknown): v is Locale {
  return typeof v === 'string' && (LOCALES as readonly string[]).includes(v);
}

/**
 * A Slack user's `locale` (`es-MX`, `es-ES`, `en-US`, …) as one of ours: any Spanish (`es`, `es-*`) is Spanish,
 * anything else (including none) English.
 */
export function localeFromSlack(slackLocale: string | null | undefined): Locale {
  return /^es(?:[-_]|$)/i.test(slackLocale?.trim() ?? '') ? 'es' : 'en';
}

/** What `/campaign lang` sets: a language, or `auto` (a person's Slack locale; a channel's DEFAULT_LOCALE). */
export type LanguageSetting = Locale | 'auto';
