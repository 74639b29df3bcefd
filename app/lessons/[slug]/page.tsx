/**
 * A lesson: its text (MDX rendered at build time), the lab (for now the
 * starter code and scenarios, read-only — see LessonLabPreview's integration
 * note), the exercise, hints and the quick check. Static: one page per
 * lesson folder, generated from the loader, which fails the build on a
 * malformed lesson.
 */
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { LessonLabPreview } from '@/components/lesson/lesson-lab-preview';
import { LessonText } from '@/components/lesson/lesson-text';
import styles from '@/components/lesson/lesson.module.css';
import { QuickCheck } from '@/components/quiz/quick-check';
import { loadAllLessons } from '@/lib/lessons/load';
import { toLessonView } from '@/lib/lessons/view';
import page from './page.module.css';

export const dynamicParams = false;

export function generateStaticParams(): { slug: string }[] {
  return loadAllLessons().map((l) => ({ slug: l.slug }));
}

function find(slug: string) {
  const lessons = loadAllLessons();
  const index = lessons.findIndex((l) => l.slug === slug);
  return index === -1 ? null : { lesson: lessons[index]!, previous: lessons[index - 1] ?? null, next: lessons[index + 1] ?? null };
}

export async function generateMetadata({ params }: { params: Promise<{ slug: string }> }): Promise<Metadata> {
  const found = find((await params).slug);
  return found ? { title: found.lesson.title, description: found.lesson.summary } : {};
}

export default async function LessonPage({ params }: { params: Promise<{ slug: string }> }) {
  const found = find((await params).slug);
  if (!found) notFound();
  const { lesson, previous, next } = found;
  const view = toLessonView(lesson);
  return (
    <main id="main" className={page.page}>
      <nav aria-label="Course" className={page.crumbs}>
        <Link href="/">Course</Link> <span aria-hidden="true">›</span> Lesson {lesson.order}
      </nav>
      <header>
        <p className={page.kicker}>Lesson {lesson.order} · about {lesson.minutes} min</p>
        <h1>{lesson.title}</h1>
        <p className={page.summary}>{lesson.summary}</p>
      </header>
      <div className={page.columns}>
        <article className={page.text}>
          <LessonText body={lesson.body} slug={lesson.slug} />
        </article>
        <div className={page.side}>
          <LessonLabPreview starter={lesson.starter} scenarios={view.scenarios} />
        </div>
      </div>
      <section aria-labelledby="exercise-title" className={page.card}>
        <h2 id="exercise-title">
          Exercise: <code>{lesson.exercise.function}()</code>
        </h2>
        <p>{lesson.exercise.description}</p>
        <p className={page.muted}>
          Graded under {lesson.exercise.scenarios.join(', ')} with seeds {lesson.exercise.seeds.join(', ')}: every verdict must be <em>held</em>, nobody may wait
          over {lesson.exercise.liveness.boundMs} ms for a free lock, and at least {lesson.exercise.liveness.minCompletedExecutions} execution(s) of the job must
          complete.
        </p>
        <div className={styles.hints}>
          <h3>Hints</h3>
          {lesson.hints.map((hint, i) => (
            <details key={i}>
              <summary>Hint {i + 1}</summary>
              <LessonText body={hint} slug={lesson.slug} />
            </details>
          ))}
        </div>
      </section>
      <QuickCheck quiz={lesson.quiz} />
      <nav aria-label="Lessons" className={page.pager}>
        {previous ? <Link href={`/lessons/${previous.slug}`}>← {previous.title}</Link> : <span />}
        {next ? <Link href={`/lessons/${next.slug}`}>{next.title} →</Link> : <Link href="/">Back to the course</Link>}
      </nav>
    </main>
  );
}
