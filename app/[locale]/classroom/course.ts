/**
 * The course as the classroom pages need it (titles, quick-check question
 * ids, exercises, scenarios), read from the lessons on the server in the
 * page's language and handed to the browser as plain data.
 */
import type { CourseLesson } from '@/components/classroom/classroom-state';
import type { Locale } from '@/i18n/routing';
import { loadAllLessonsIn } from '@/lib/lessons/localize';

const cached = new Map<Locale, CourseLesson[]>();

export function classroomCourse(locale: Locale): CourseLesson[] {
  let course = cached.get(locale);
  if (!course) {
    course = loadAllLessonsIn(locale).map(({ lesson }) => ({
      slug: lesson.slug,
      title: lesson.title,
      quizQuestionIds: lesson.quiz.questions.map((q) => q.id),
      hasExercise: Boolean(lesson.exercise),
      scenarios: lesson.lessonScenarios.map((s) => ({ id: s.id, title: s.scenario.title, role: s.role, description: s.note ?? s.scenario.description })),
    }));
    cached.set(locale, course);
  }
  return course;
}
