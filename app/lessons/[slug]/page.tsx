/**
 * A lesson: its text (MDX rendered at build time), hints and quick check on
 * one side, the lab workspace on the other (editor, scenarios "Break it" /
 * "Fix it", cluster, timeline, verdict, "Check my solution"). Static: one
 * page per lesson folder, generated from the loader, which fails the build
 * on a malformed lesson.
 */
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { LessonText } from '@/components/lesson/lesson-text';
import styles from '@/components/lesson/lesson.module.css';
import { ReadMarker } from '@/components/lesson/read-marker';
import { VisitMarker } from '@/components/progress/visit-marker';
import { QuickCheck } from '@/components/quiz/quick-check';
import type { WorkspaceLesson } from '@/components/workspace/types';
import { Workspace } from '@/components/workspace/workspace';
import { loadAllLessons, type Lesson } from '@/lib/lessons/load';
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

/** What the workspace needs from a lesson: plain data, serialised into the page. */
function toWorkspaceLesson(lesson: Lesson): WorkspaceLesson {
  const scenarioPrograms: NonNullable<WorkspaceLesson['scenarioPrograms']> = {};
  for (const s of lesson.lessonScenarios) {
    scenarioPrograms[s.scenario.id] = s.program === 'starter' || s.program === 'solution' ? { kind: s.program } : { kind: 'program', name: s.program, code: s.code };
  }
  return {
    slug: lesson.slug,
    title: lesson.title,
    starter: lesson.starter,
    solution: lesson.solution,
    scenarios: lesson.lessonScenarios.map((s) => s.scenario),
    defaultClients: lesson.defaultClients,
    topology: lesson.topology,
    checker: lesson.checker,
    scenarioPrograms,
    experiment: lesson.experiment,
    exercise: {
      function: lesson.exercise.function,
      description: lesson.exercise.description,
      // Hidden adversaries are counted, never described: the page's bundle must not reveal them.
      runs: lesson.adversaries.length + lesson.exercise.scenarios.length * lesson.exercise.seeds.length + lesson.exercise.randomSchedules.length,
    },
  };
}

export async function generateMetadata({ params }: { params: Promise<{ slug: string }> }): Promise<Metadata> {
  const found = find((await params).slug);
  return found ? { title: found.lesson.title, description: found.lesson.summary } : {};
}

export default async function LessonPage({ params }: { params: Promise<{ slug: string }> }) {
  const found = find((await params).slug);
  if (!found) notFound();
  const { lesson, previous, next } = found;
  const { exercise } = lesson;
  return (
    <main id="main" className={page.page}>
      <header className={page.header}>
        <nav aria-label="Course" className={page.crumbs}>
          <Link href="/">Course</Link> <span aria-hidden="true">›</span> Lesson {lesson.order} · about {lesson.minutes} min
        </nav>
        <h1 className={page.title}>{lesson.title}</h1>
      </header>
      <Workspace lesson={toWorkspaceLesson(lesson)}>
        <div className={page.text}>
          {/* The summary opens the text column, so the lab starts high enough to show a verdict on a laptop screen. */}
          <p className={page.summary}>{lesson.summary}</p>
          <LessonText body={lesson.body} slug={lesson.slug} />
          <ReadMarker slug={lesson.slug} />
          <VisitMarker slug={lesson.slug} />
          <section aria-labelledby="grading-title" className={page.card}>
            <h2 id="grading-title">How the exercise is graded</h2>
            <p className={page.muted}>
              “Check my solution” runs your <code>{exercise.function}()</code> under {exercise.scenarios.length === 1 ? 'one scenario' : `${exercise.scenarios.length} scenarios`}{' '}
              with random seeds {exercise.seeds.join(', ')} (each fixes every random choice of its run, so the run can be replayed): every verdict must be <em>held</em>, nobody may wait over {exercise.liveness.boundMs} ms for a free lock, and
              at least {exercise.liveness.minCompletedExecutions} execution(s) of the job must complete.
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
          <QuickCheck slug={lesson.slug} quiz={lesson.quiz} />
          <nav aria-label="Lessons" className={page.pager}>
            {previous ? <Link href={`/lessons/${previous.slug}`}>← {previous.title}</Link> : <span />}
            {next ? <Link href={`/lessons/${next.slug}`}>{next.title} →</Link> : <Link href="/">Back to the course</Link>}
          </nav>
        </div>
      </Workspace>
    </main>
  );
}
