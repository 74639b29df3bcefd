import Link from 'next/link';
import styles from './page.module.css';

export default function HomePage() {
  return (
    <main id="main" className={styles.page}>
      <h1 className={styles.title}>Lock Lab</h1>
      <p className={styles.lead}>Learn distributed locking with Redis by breaking it for real.</p>

      <section className={styles.card} aria-labelledby="playground-title">
        <h2 id="playground-title">Playground</h2>
        <p>
          Your browser tab gets its own lab: five real <code>redis-server</code> processes running on this machine. The
          playground shows each node live and lets you break it:
        </p>
        <ul className={styles.list}>
          <li>
            <strong>Kill</strong> a node (SIGKILL) and <strong>restart</strong> it, keeping or losing its data according
            to its persistence mode, at once or after a delay.
          </li>
          <li>
            <strong>Pause</strong> a node (SIGSTOP), so it stops answering without going away, and{' '}
            <strong>resume</strong> it.
          </li>
          <li>Watch each node&apos;s keys with the holder&apos;s token and the time left on their TTL.</li>
        </ul>
        <Link className={styles.cta} href="/playground">
          Open the playground
        </Link>
      </section>
    </main>
  );
}
