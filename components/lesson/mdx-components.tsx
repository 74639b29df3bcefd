/** The components a lesson's MDX may use (the loader rejects any other). */
import type { ReactNode } from 'react';
import styles from './lesson.module.css';

export function Diagram({ src, alt, caption, slug }: { src: string; alt: string; caption?: string; slug: string }) {
  return (
    <figure className={styles.figure}>
      {/* Plain <img>: a static SVG from public/, no optimiser, no network. */}
      {/* eslint-disable-next-line @next/next/no-img-element */}
      <img src={`/lessons/${slug}/${src}`} alt={alt} className={styles.diagram} />
      {caption ? <figcaption>{caption}</figcaption> : null}
    </figure>
  );
}

export function Callout({ kind = 'note', children }: { kind?: 'note' | 'warning'; children: ReactNode }) {
  return (
    <aside className={kind === 'warning' ? `${styles.callout} ${styles.warning}` : styles.callout} role="note">
      <strong>{kind === 'warning' ? 'Careful: ' : 'Note: '}</strong>
      {children}
    </aside>
  );
}
