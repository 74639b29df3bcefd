/**
 * The header of a page with no lesson around it (the playground, a shared run): a crumb back to the course, the
 * page's title and one line about it, in the playground's page styles.
 */
import { getTranslations } from 'next-intl/server';
import { Link } from '@/i18n/navigation';
import styles from './page.module.css';

export async function PageHeader({ title, intro }: { title: string; intro: string }) {
  const common = await getTranslations('common');
  return (
    <header className={styles.header}>
      <nav className={styles.crumbs} aria-label={common('breadcrumb')}>
        <Link href="/">{common('home')}</Link>
      </nav>
      <h1 className={styles.title}>{title}</h1>
      <p className={styles.intro}>{intro}</p>
    </header>
  );
}
