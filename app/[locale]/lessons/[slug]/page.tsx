/**
 * A lesson: its text (MDX rendered at build time), hints and quick check on
 * one side, the lab workspace on the other (editor, scenarios "Break it" /
 * "Fix it", cluster, timeline, verdict, "Check my solution"). Static: one
 * page per lesson folder, generated from the loader, which fails the build
 * on a malformed lesson.
 */
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import { LessonText } from '@/components/lesson/lesson-text';
import styles from '@/components/lesson/lesson.module.css';
import { ReadMarker } from '@/components/lesson/read-marker';
import { VisitMarker } from '@/components/progress/visit-marker';
import { QuickCheck } from '@/components/quiz/quick-check';
import type { WorkspaceLesson } from '@/components/workspace/types';
import { Workspace } from '@/components/workspace/workspace';
import { Link } from '@/i18n/navigation';
import { routing, type Locale } from '@/i18n/routing';
import type { Lesson } from '@/lib/lessons/load';
import { loadAllLessonsIn } from '@/lib/lessons/localize';
import page from './page.module.css';

export const dynamicParams = false;

export function generateStaticParams(): { locale: Locale; slug: string }[] {
  return routing.locales.flatMap((locale) => loadAllLessonsIn(locale).map(({ lesson }) => ({ locale, slug: lesson.slug })));
}

/** Lessons are read once per language per build; what a translation lacks is said once, in the build's output. */
const told = new Set<Locale>();

function find(locale: Locale, slug: string) {
  const localized = loadAllLessonsIn(locale);
  if (!told.has(locale)) {
    told.add(locale);
    for (const { lesson, missing } of localized) {
      if (missing.length > 0) console.warn(`[locklab] lesson ${lesson.folder} in ${locale}: shown in English where the translation lacks ${missing.join(', ')}`);
    }
  }
  const lessons = localized.map((l) => l.lesson);
  const index = lessons.findIndex((l) => l.slug === slug);
  return index === -1 ? null : { lesson: lessons[index]!, previous: lessons[index - 1] ?? null, next: lessons[index + 1] ?? null };
}

/** What the workspace needs from a lesson: plain data, serialised into the page. */
function toWorkspaceLesson(lesson: Lesson): WorkspaceLesson {
  const scenarioPrograms: NonNullable<WorkspaceLesson['scenarioPrograms']> = {};
  for (const s of lesson.lessonScenarios) {
    scenarioPrograms[s.scenario.id] = s.program === 'starter' || s.program === 'solution' ? { kind: s.program } : { kind: 'program', name: s.program, code: s.code };
  }
  const diy = lesson.doItYourself;
  const diyDiagnosis = diy ? lesson.scenarios.find((s) => s.id === diy.scenario)?.expect.diagnosis : undefined;
  return {
    ...(diy && diyDiagnosis ? { doItYourself: { ...diy, diagnosis: diyDiagnosis } } : {}),
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

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale; slug: string }> }): Promise<Metadata> {
  const { locale, slug } = await params;
  const found = find(locale, slug);
  return found ? { title: found.lesson.title, description: found.lesson.summary } : {};
}

export default async function LessonPage({ params }: { params: Promise<{ locale: Locale; slug: string }> }) {
  const { locale, slug } = await params;
  setRequestLocale(locale);
  const found = find(locale, slug);
  if (!found) notFound();
  const t = await getTranslations('lesson');
  const { lesson, previous, next } = found;
  const { exercise } = lesson;
  const seeds = new Intl.ListFormat(locale, { type: 'unit', style: 'short' }).format(exercise.seeds.map(String));
  return (
    <main id="main" className={page.page}>
      <header className={page.header}>
        <nav aria-label={t('course')} className={page.crumbs}>
          <Link href="/">{t('course')}</Link> <span aria-hidden="true">›</span> {t('crumb', { order: lesson.order, minutes: lesson.minutes })}
        </nav>
        <h1 className={page.title}>{lesson.title}</h1>
      </header>
      <Workspace lesson={toWorkspaceLesson(lesson)}>
        <div className={page.text}>
          {/* The summary opens the text column, so the lab starts high enough to show a verdict on a laptop screen. */}
          <p className={page.summary}>{lesson.summary}</p>
          <LessonText body={lesson.body} slug={lesson.slug} diagrams={lesson.diagrams} />
          <ReadMarker slug={lesson.slug} />
          <VisitMarker slug={lesson.slug} />
          <section aria-labelledby="grading-title" className={page.card}>
            <h2 id="grading-title">{t('grading.title')}</h2>
            <p className={page.muted}>
              {t.rich('grading.text', {
                fn: exercise.function,
                scenarios: exercise.scenarios.length,
                seeds,
                boundMs: exercise.liveness.boundMs,
                executions: exercise.liveness.minCompletedExecutions,
                code: (chunks) => <code>{chunks}</code>,
                em: (chunks) => <em>{chunks}</em>,
              })}
            </p>
            <div className={styles.hints}>
              <h3>{t('hints')}</h3>
              {lesson.hints.map((hint, i) => (
                <details key={i}>
                  <summary>{t('hint', { n: i + 1 })}</summary>
                  <LessonText body={hint} slug={lesson.slug} diagrams={lesson.diagrams} />
                </details>
              ))}
            </div>
          </section>
          <QuickCheck slug={lesson.slug} quiz={lesson.quiz} />
          <nav aria-label={t('lessons')} className={page.pager}>
            {previous ? <Link href={`/lessons/${previous.slug}`}>{t('previous', { title: previous.title })}</Link> : <span />}
            {next ? <Link href={`/lessons/${next.slug}`}>{t('next', { title: next.title })}</Link> : <Link href="/">{t('backToCourse')}</Link>}
          </nav>
        </div>
      </Workspace>
    </main>
  );
}
