/** Renders a component as a page would: inside next-intl's provider, with a language's catalogue (English by default). */
import fs from 'node:fs';
import path from 'node:path';
import { NextIntlClientProvider } from 'next-intl';
import type { ReactNode } from 'react';
import type { Locale } from '@/i18n/routing';
import { english, NAMESPACES, type Messages } from '@/messages/catalogue';

/** A language's catalogue as it is on disk (no English fallback: a test of a translation should see its gaps). */
export function catalogueOf(locale: Locale): Messages {
  if (locale === 'en') return english;
  const dir = path.join(process.cwd(), 'messages', locale);
  return Object.fromEntries(NAMESPACES.map((ns) => [ns, JSON.parse(fs.readFileSync(path.join(dir, `${ns}.json`), 'utf8')) as unknown])) as Messages;
}

export function withIntl(node: ReactNode, locale: Locale = 'en'): ReactNode {
  return (
    <NextIntlClientProvider locale={locale} messages={catalogueOf(locale)} timeZone="UTC">
      {node}
    </NextIntlClientProvider>
  );
}
