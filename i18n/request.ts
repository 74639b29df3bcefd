/**
 * The messages of a request's language. Every locale's catalogue is laid over
 * the English one, so a key a translation lacks shows in English rather than
 * as a key name, and the server (or `next build`) says which keys those are.
 * `tests/unit/i18n-catalogues.test.ts` fails `npm test` on any such gap.
 */
import { hasLocale } from 'next-intl';
import { getRequestConfig } from 'next-intl/server';
import { english, missingKeys, NAMESPACES, type Messages } from '@/messages/catalogue';
import { routing, type Locale } from './routing';

const loaded = new Map<Locale, Promise<Messages>>();

async function load(locale: Locale): Promise<Messages> {
  if (locale === 'en') return english;
  const own: Record<string, unknown> = {};
  for (const ns of NAMESPACES) {
    own[ns] = await import(`../messages/${locale}/${ns}.json`).then(
      (m: { default: unknown }) => m.default,
      () => ({}),
    );
  }
  const missing = missingKeys(english, own);
  if (missing.length > 0) console.warn(`[locklab] ${locale}: ${missing.length} message(s) not translated, shown in English: ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''}`);
  return overlay(english, own) as Messages;
}

/** `base` with every string `over` has at the same path replaced by it. */
function overlay(base: unknown, over: unknown): unknown {
  if (typeof base === 'string') return typeof over === 'string' ? over : base;
  if (base === null || typeof base !== 'object') return base;
  const o = over !== null && typeof over === 'object' ? (over as Record<string, unknown>) : {};
  return Object.fromEntries(Object.entries(base as Record<string, unknown>).map(([k, v]) => [k, overlay(v, o[k])]));
}

export function messagesFor(locale: Locale): Promise<Messages> {
  let messages = loaded.get(locale);
  if (!messages) loaded.set(locale, (messages = load(locale)));
  return messages;
}

export default getRequestConfig(async ({ requestLocale }) => {
  const requested = await requestLocale;
  const locale = hasLocale(routing.locales, requested) ? requested : routing.defaultLocale;
  // The lab shows durations and clock readings relative to a run, never wall-clock dates; UTC keeps server and browser rendering the same.
  return { locale, messages: await messagesFor(locale), timeZone: 'UTC' };
});
