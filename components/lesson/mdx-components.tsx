/** The components a lesson's MDX may use (the loader rejects any other). */
import type { ComponentProps, ReactNode } from 'react';
import { Link } from '@/i18n/navigation';
import styles from './lesson.module.css';

/** `url`: the drawing in the page's language (`/lessons/<slug>/<locale>/<file>.svg`) where it has one, else the English one. */
export function Diagram({ url, alt, caption }: { url: string; alt: string; caption?: string }) {
  return (
    <figure className={styles.figure}>
      {/* Plain <img>: a static SVG from public/, no optimiser, no network. */}
      {/* eslint-disable-next-line @next/next/no-img-element */}
      <img src={url} alt={alt} className={styles.diagram} />
      {caption ? <figcaption>{caption}</figcaption> : null}
    </figure>
  );
}

export function Callout({ kind = 'note', label, children }: { kind?: 'note' | 'warning'; label: string; children: ReactNode }) {
  return (
    <aside className={kind === 'warning' ? `${styles.callout} ${styles.warning}` : styles.callout} role="note">
      <strong>{label} </strong>
      {children}
    </aside>
  );
}

/** A link in a lesson's text: a page of the lab stays in the reader's language; anything else is a plain link. */
export function TextLink({ href = '', ...rest }: ComponentProps<'a'>) {
  return href.startsWith('/') ? <Link href={href} {...rest} /> : <a href={href} {...rest} />;
}
