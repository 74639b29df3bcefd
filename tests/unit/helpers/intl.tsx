/** Renders a component as a page would: inside next-intl's provider, with a language's catalogue (English by default). */
import { NextIntlClientProvider } from 'next-intl';
import type { ReactNode } from 'react';
import type { Locale } from '@/i18n/routing';
import { catalogueOf } from '@/messages/read-catalogue';

export { catalogueOf };

export function withIntl(node: ReactNode, locale: Locale = 'en'): ReactNode {
  return (
    <NextIntlClientProvider locale={locale} messages={catalogueOf(locale)} timeZone="UTC">
      {node}
    </NextIntlClientProvider>
  );
}
