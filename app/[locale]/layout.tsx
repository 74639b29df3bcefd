import type { Metadata, Viewport } from 'next';
import { notFound } from 'next/navigation';
import { hasLocale, NextIntlClientProvider } from 'next-intl';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import type { ReactNode } from 'react';
import { LanguageSwitcher } from '@/components/i18n/language-switcher';
import { ProgressProvider } from '@/components/progress/progress-provider';
import { directionOf, routing } from '@/i18n/routing';
import '../globals.css';

export const dynamicParams = false;

export function generateStaticParams(): { locale: string }[] {
  return routing.locales.map((locale) => ({ locale }));
}

export async function generateMetadata({ params }: { params: Promise<{ locale: string }> }): Promise<Metadata> {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) return {};
  const t = await getTranslations({ locale, namespace: 'common' });
  return { title: { default: 'Lock Lab', template: '%s · Lock Lab' }, description: t('tagline') };
}

export const viewport: Viewport = {
  colorScheme: 'light dark',
};

export default async function LocaleLayout({ children, params }: { children: ReactNode; params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) notFound();
  // Static rendering: the pages are built once per language, not per request.
  setRequestLocale(locale);
  const t = await getTranslations({ locale, namespace: 'common' });
  return (
    <html lang={locale} dir={directionOf(locale)}>
      <body>
        <a className="skip-link" href="#main">
          {t('skipToContent')}
        </a>
        <NextIntlClientProvider>
          <LanguageSwitcher />
          <ProgressProvider>{children}</ProgressProvider>
        </NextIntlClientProvider>
      </body>
    </html>
  );
}
