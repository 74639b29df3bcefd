import type { Metadata } from 'next';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import { Link } from '@/i18n/navigation';
import type { Locale } from '@/i18n/routing';
import { Playground } from '@/components/playground/playground';
import styles from './page.module.css';

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }): Promise<Metadata> {
  const t = await getTranslations({ locale: (await params).locale, namespace: 'pages' });
  return { title: t('playground.title') };
}

export default async function PlaygroundPage({ params }: { params: Promise<{ locale: Locale }> }) {
  setRequestLocale((await params).locale);
  const t = await getTranslations('pages');
  const common = await getTranslations('common');
  return (
    <main id="main" className={styles.page}>
      <header className={styles.header}>
        <nav className={styles.crumbs} aria-label={common('breadcrumb')}>
          <Link href="/">{common('home')}</Link>
        </nav>
        <h1 className={styles.title}>{t('playground.title')}</h1>
        <p className={styles.intro}>{t('playground.intro')}</p>
      </header>
      <Playground />
    </main>
  );
}
