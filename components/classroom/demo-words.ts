/**
 * A demo's title, description and group in the page's language: a built-in demo's from the catalogue by its key
 * (lib/classroom BUILTIN_DEMO_KEYS), a lesson's scenario from the course as the page loaded it in its language.
 * What neither knows (a newer server's demo) keeps the server's English.
 */
import { useTranslations } from 'next-intl';
import { builtinDemoKey, type DemoRef, type DemoSummary } from '@/lib/classroom';
import type { CourseLesson } from './classroom-state';

export interface DemoWords {
  title(demo: { ref: DemoRef; title: string }): string;
  description(demo: Pick<DemoSummary, 'ref' | 'description'>): string;
  /** A lesson's group heading. */
  lesson(lesson: { slug: string; title: string }): string;
  /** A demo started on the class's lab, named as the server names it: "Lesson: scenario" for a lesson's. */
  started(demo: { ref: DemoRef; title: string }): string;
}

export function useDemoWords(course: readonly CourseLesson[]): DemoWords {
  const t = useTranslations('demos');
  const builtin = (ref: DemoRef) => ('builtin' in ref ? builtinDemoKey(ref.builtin) : null);
  const scenarioOf = (ref: DemoRef) => ('lesson' in ref ? course.find((l) => l.slug === ref.lesson)?.scenarios.find((s) => s.id === ref.scenario) : undefined);
  const lessonOf = (ref: DemoRef) => ('lesson' in ref ? course.find((l) => l.slug === ref.lesson) : undefined);
  return {
    title(demo) {
      const key = builtin(demo.ref);
      return key ? t(`builtin.${key}.title`) : (scenarioOf(demo.ref)?.title ?? demo.title);
    },
    description(demo) {
      const key = builtin(demo.ref);
      return key ? t(`builtin.${key}.description`) : (scenarioOf(demo.ref)?.description ?? demo.description);
    },
    lesson(lesson) {
      return course.find((l) => l.slug === lesson.slug)?.title ?? lesson.title;
    },
    started(demo) {
      const key = builtin(demo.ref);
      if (key) return t(`builtin.${key}.title`);
      const lesson = lessonOf(demo.ref);
      const scenario = scenarioOf(demo.ref);
      return lesson && scenario ? t('lessonScenario', { lesson: lesson.title, scenario: scenario.title }) : demo.title;
    },
  };
}
