import type { Metadata } from 'next';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import type { Locale } from '@/i18n/routing';
import { Playground } from '@/components/playground/playground';
import { PageHeader } from './page-header';
import styles from './page.module.css';

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }): Promise<Metadata> {
  const t = await getTranslations({ locale: (await params).locale, namespace: 'pages' });
  return { title: t('playground.title') };
}

export default async function PlaygroundPage({ params }: { params: Promise<{ locale: Locale }> }) {
  setRequestLocale((await params).locale);
  const t = await getTranslations('pages');
  return (
    <main id="main" className={styles.page}>
      <PageHeader title={t('playground.title')} intro={t('playground.intro')} />
      <Playground />
    </main>
  );
}
