/**
 * The course's languages and how they appear in URLs. English keeps today's
 * paths (`/lessons/redlock`), so every link written before the translations
 * still works; Arabic and Norwegian Bokmål carry a prefix (`/ar/lessons/redlock`).
 * The choice is remembered in a cookie, so `/` takes a returning learner back
 * to the language they chose.
 */
import { defineRouting } from 'next-intl/routing';

export const LOCALES = ['en', 'ar', 'nb'] as const;
export type Locale = (typeof LOCALES)[number];

export const routing = defineRouting({
  locales: LOCALES,
  defaultLocale: 'en',
  localePrefix: 'as-needed',
  // A year: the language is a standing preference, not a session's.
  localeCookie: { name: 'LOCKLAB_LOCALE', maxAge: 60 * 60 * 24 * 365 },
});

/** Right-to-left scripts among our languages. */
const RTL: ReadonlySet<Locale> = new Set(['ar']);

export function directionOf(locale: Locale): 'rtl' | 'ltr' {
  return RTL.has(locale) ? 'rtl' : 'ltr';
}

export function isLocale(value: string): value is Locale {
  return (LOCALES as readonly string[]).includes(value);
}

/** Each language named in itself, as a switcher shows it. */
export const LANGUAGE_NAMES: Record<Locale, string> = { en: 'English', ar: 'العربية', nb: 'Norsk bokmål' };
