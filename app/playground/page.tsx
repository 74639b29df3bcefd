import type { Metadata } from 'next';
import Link from 'next/link';
import { Playground } from '@/components/playground/playground';
import styles from './page.module.css';

export const metadata: Metadata = { title: 'Playground' };

export default function PlaygroundPage() {
  return (
    <main id="main" className={styles.page}>
      <header className={styles.header}>
        <nav className={styles.crumbs} aria-label="Breadcrumb">
          <Link href="/">Lock Lab</Link>
        </nav>
        <h1 className={styles.title}>Playground</h1>
        <p className={styles.intro}>
          Five real Redis nodes run for this tab. Run a program as several clients, break things, and watch the timeline
          and the verdict.
        </p>
      </header>
      <Playground />
    </main>
  );
}
