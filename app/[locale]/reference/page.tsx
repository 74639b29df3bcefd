/**
 * "What your code can use": the learner half of server/sandbox/README.md,
 * rendered at build time. The README stays the one place that says what the
 * sandbox offers, so this page cannot drift from it; its translations sit
 * beside it (server/sandbox/reference.<locale>.md) and change with it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ComponentProps } from 'react';
import type { Metadata } from 'next';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import { Link } from '@/i18n/navigation';
import type { Locale } from '@/i18n/routing';
import { evaluate } from '@mdx-js/mdx';
import * as runtime from 'react/jsx-runtime';
import remarkGfm from 'remark-gfm';
import lessonStyles from '@/components/lesson/lesson.module.css';
import styles from './page.module.css';

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }): Promise<Metadata> {
  const t = await getTranslations({ locale: (await params).locale, namespace: 'pages' });
  return { title: t('reference.title') };
}

/** Everything from this heading on is for people working on the sandbox itself. */
const DEVELOPER_PART = '\n## For developers';

/** The learner part in `locale`: the README's own in English, its translation otherwise. */
function learnerPart(locale: Locale): string {
  if (locale !== 'en') return fs.readFileSync(path.join(process.cwd(), `server/sandbox/reference.${locale}.md`), 'utf8');
  const readme = fs.readFileSync(path.join(process.cwd(), 'server/sandbox/README.md'), 'utf8');
  const end = readme.indexOf(DEVELOPER_PART);
  if (end < 0) throw new Error(`server/sandbox/README.md: the heading "${DEVELOPER_PART.trim()}" that ends the learner part is missing`);
  return readme.slice(0, end);
}

const components = {
  // Wide tables scroll inside their own box on a phone instead of widening the page.
  table: (props: ComponentProps<'table'>) => (
    <div className={styles.tableBox}>
      <table {...props} />
    </div>
  ),
};

export default async function ReferencePage({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const common = await getTranslations('common');
  // Plain Markdown, not MDX: the text has `<host>` and braces that are prose, not JSX.
  const { default: Content } = await evaluate(learnerPart(locale), { ...runtime, format: 'md', remarkPlugins: [remarkGfm], baseUrl: import.meta.url });
  return (
    <main id="main" className={styles.page}>
      <nav className={styles.crumbs} aria-label={common('breadcrumb')}>
        <Link href="/">{common('home')}</Link> · <Link href="/playground">{common('playground')}</Link>
      </nav>
      <article className={`${lessonStyles.prose} ${styles.reference}`}>
        <Content components={components} />
      </article>
    </main>
  );
}
