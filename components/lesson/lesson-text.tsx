/**
 * Renders a lesson's MDX body on the server, at build time (the lesson pages
 * are static): `@mdx-js/mdx` evaluates it with React's JSX runtime. No
 * client-side MDX, no network.
 */
import { evaluate } from '@mdx-js/mdx';
import * as runtime from 'react/jsx-runtime';
import { Callout, Diagram } from './mdx-components';
import styles from './lesson.module.css';

export async function LessonText({ body, slug }: { body: string; slug: string }) {
  const { default: Content } = await evaluate(body, { ...runtime, baseUrl: import.meta.url });
  const components = {
    Diagram: (props: { src: string; alt: string; caption?: string }) => <Diagram {...props} slug={slug} />,
    Callout,
  };
  return (
    <div className={styles.prose}>
      <Content components={components} />
    </div>
  );
}
