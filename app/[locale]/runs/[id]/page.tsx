/**
 * A shared run's page (`/runs/<id>`, lib/shared-runs.ts): read-only, for anyone with the link, with no lab. The id is
 * checked in the browser's request to the server (components/share/shared-run-view.tsx), which refuses a malformed one.
 */
import type { Metadata } from 'next';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import { Link } from '@/i18n/navigation';
import type { Locale } from '@/i18n/routing';
import { SharedRunView } from '@/components/share/shared-run-view';
import { PageHeader } from '../../playground/page-header';
import styles from '../../playground/page.module.css';

// Any id: the page is rendered per request, and only the server knows which runs exist.
export const dynamicParams = true;

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }): Promise<Metadata> {
  const t = await getTranslations({ locale: (await params).locale, namespace: 'pages' });
  return { title: t('sharedRun.title'), robots: { index: false } };
}

export default async function SharedRunPage({ params }: { params: Promise<{ locale: Locale; id: string }> }) {
  const { locale, id } = await params;
  setRequestLocale(locale);
  const t = await getTranslations('pages');
  return (
    <main id="main" className={styles.page}>
      <PageHeader title={t('sharedRun.title')} intro={t('sharedRun.intro')} />
      <SharedRunView id={id} />
      <p>
        <Link href="/playground">{t('sharedRun.lab')}</Link>
      </p>
    </main>
  );
}
