/**
 * The course index: where to continue (the lesson last worked in), classes
 * to join or start, and the eight lessons in order with where each one stands
 * (read, ran, quiz score, exercise passed). Lessons come from the loader at
 * build time (static page); the progress is this browser's, read after mount.
 */
import Link from 'next/link';
import { ContinueLesson } from '@/components/progress/continue-lesson';
import { LessonProgress } from '@/components/progress/lesson-progress';
import { loadAllLessons, summarize } from '@/lib/lessons/load';
import styles from './page.module.css';

const TOPOLOGY_WORDS = { masters: (n: number) => (n === 1 ? '1 node' : `${n} independent masters`), replicated: () => 'master + replica' } as const;

export default function HomePage() {
  const lessons = loadAllLessons().map((l) => ({ ...summarize(l), quizQuestionIds: l.quiz.questions.map((q) => q.id) }));
  return (
    <main id="main" className={styles.page}>
      <h1 className={styles.title}>Lock Lab</h1>
      <p className={styles.lead}>
        Learn distributed locking with Redis by breaking it for real: real <code>redis-server</code> nodes, real kills, pauses and partitions, and a checker that
        says whether mutual exclusion held.
      </p>

      <div className={styles.start}>
        <ContinueLesson className={`${styles.card} ${styles.continue}`} lessons={lessons} />
        <section className={styles.card} aria-labelledby="classes-title">
          <h2 id="classes-title">Classes</h2>
          <p>In a class? Your instructor gives you a join code: you all watch one shared lab fail, live.</p>
          <Link className={styles.cta} href="/classroom#join">
            Join a class
          </Link>
          <p className={styles.aside}>
            Teaching? <Link href="/classroom">Start a class</Link> with your server&apos;s instructor token and break its lab for everyone at once.
          </p>
        </section>
      </div>

      <section aria-labelledby="course-title" className={styles.course}>
        <h2 id="course-title">The course</h2>
        {/* Each lesson's progress comes from this browser's saved progress (components/progress), read after mount. */}
        <ol className={styles.lessons}>
          {lessons.map((l) => (
            <li key={l.slug} className={styles.lesson}>
              <span className={styles.order} aria-hidden="true">
                {l.order}
              </span>
              <div>
                <h3>
                  <Link href={`/lessons/${l.slug}`}>{l.title}</Link>
                </h3>
                <p>{l.summary}</p>
                <p className={styles.meta}>
                  About {l.minutes} min · {TOPOLOGY_WORDS[l.topology.kind](l.topology.nodes)}
                  {l.topology.persistence !== 'none' ? ` · ${l.topology.persistence}` : ''}
                </p>
              </div>
              <LessonProgress slug={l.slug} title={l.title} quizQuestionIds={l.quizQuestionIds} />
            </li>
          ))}
        </ol>
      </section>

      <section className={styles.card} aria-labelledby="playground-title">
        <h2 id="playground-title">Playground</h2>
        <p>Five real Redis nodes of your own: kill, restart, pause and resume them and watch each node&apos;s keys and TTLs live.</p>
        <Link className={styles.cta} href="/playground">
          Open the playground
        </Link>
        <p>
          Your programs run as real clients: <Link href="/reference">what your code can use</Link> (modules, host names,
          limits).
        </p>
      </section>
    </main>
  );
}
