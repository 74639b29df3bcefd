import type { Metadata } from 'next';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import { Link } from '@/i18n/navigation';
import type { Locale } from '@/i18n/routing';
import { CreateClassroom } from '@/components/classroom/create-classroom';
import styles from '@/components/classroom/classroom.module.css';

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }): Promise<Metadata> {
  const t = await getTranslations({ locale: (await params).locale, namespace: 'pages' });
  return { title: t('classroom.title') };
}

export default async function CreateClassroomPage({ params }: { params: Promise<{ locale: Locale }> }) {
  setRequestLocale((await params).locale);
  const t = await getTranslations('pages');
  const common = await getTranslations('common');
  return (
    <main id="main" className={styles.narrowPage}>
      <nav className={styles.crumbs} aria-label={common('breadcrumb')}>
        <Link href="/">{common('home')}</Link>
      </nav>
      <h1 className={styles.pageTitle}>{t('classroom.title')}</h1>
      <p className={styles.lead}>{t('classroom.lead')}</p>
      <CreateClassroom />
    </main>
  );
}
