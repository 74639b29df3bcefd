import type { Locale } from '@/i18n/routing';
import type { Messages } from '@/messages/catalogue';

// Typed message keys and locales for next-intl: a key that is not in the English catalogue fails the type check.
declare module 'next-intl' {
  interface AppConfig {
    Locale: Locale;
    Messages: Messages;
  }
}
