/**
 * Renders a lesson's MDX body on the server, at build time (the lesson pages
 * are static): `@mdx-js/mdx` evaluates it with React's JSX runtime. No
 * client-side MDX, no network.
 */
import { evaluate } from '@mdx-js/mdx';
import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import * as runtime from 'react/jsx-runtime';
import { Callout, Diagram, TextLink } from './mdx-components';
import styles from './lesson.module.css';

/** `diagrams`: the lesson's drawings as URLs in the page's language (from the loader); a `<Diagram src>` names one by its file. */
export async function LessonText({ body, slug, diagrams }: { body: string; slug: string; diagrams: readonly string[] }) {
  const { default: Content } = await evaluate(body, { ...runtime, baseUrl: import.meta.url });
  const t = await getTranslations('lesson');
  const components = {
    Diagram: ({ src, ...props }: { src: string; alt: string; caption?: string }) => (
      <Diagram {...props} url={diagrams.find((url) => url.endsWith(`/${src}`)) ?? `/lessons/${slug}/${src}`} />
    ),
    Callout: ({ kind = 'note', children }: { kind?: 'note' | 'warning'; children: ReactNode }) => (
      <Callout kind={kind} label={kind === 'warning' ? t('callout.warning') : t('callout.note')}>
        {children}
      </Callout>
    ),
    a: TextLink,
  };
  return (
    // Marked as the lesson's own prose: a translation may quote an English term in it, which is not the interface speaking English.
    <div className={styles.prose} data-lesson-text="">
      <Content components={components} />
    </div>
  );
}
