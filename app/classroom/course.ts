/**
 * The course as the classroom pages need it (titles, quick-check question
 * ids, exercises, scenarios), read from the lessons on the server and handed
 * to the browser as plain data.
 */
import { loadAllLessons } from '@/lib/lessons/load';
import type { CourseLesson } from '@/components/classroom/classroom-state';

let cached: CourseLesson[] | null = null;

export function classroomCourse(): CourseLesson[] {
  cached ??= loadAllLessons().map((lesson) => ({
    slug: lesson.slug,
    title: lesson.title,
    quizQuestionIds: lesson.quiz.questions.map((q) => q.id),
    hasExercise: Boolean(lesson.exercise),
    scenarios: lesson.lessonScenarios.map((s) => ({ id: s.id, title: s.scenario.title, role: s.role })),
  }));
  return cached;
}
