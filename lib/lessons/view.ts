/** Turns a loaded lesson into the serialisable view its page renders. */
import type { Lesson } from './load';
import type { LessonView } from './workspace';

export function toLessonView(lesson: Lesson): LessonView {
  return {
    slug: lesson.slug,
    title: lesson.title,
    order: lesson.order,
    summary: lesson.summary,
    quiz: lesson.quiz,
    hints: lesson.hints,
    exercise: lesson.exercise,
    scenarios: lesson.lessonScenarios.map((s) => ({
      id: s.id,
      role: s.role,
      title: s.scenario.title,
      description: s.scenario.description,
      expect: [s.expect.verdict, [s.expect.check, s.expect.diagnosis].filter(Boolean).join(', ')].filter(Boolean).join(' — '),
    })),
    workspace: {
      slug: lesson.slug,
      title: lesson.title,
      starter: lesson.starter,
      solution: lesson.solution,
      scenarios: lesson.lessonScenarios.map((s) => s.scenario),
      defaultClients: lesson.defaultClients,
      topology: lesson.topology,
      checker: lesson.checker,
    },
  };
}
