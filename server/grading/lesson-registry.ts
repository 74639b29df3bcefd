/**
 * The course as the server sees it: every lesson folder, loaded and validated
 * once, on first use. A malformed lesson is an error for whoever asks for it
 * (and fails `next build` long before that), never a crash of the server.
 */
import { loadAllLessons, type Lesson } from '@/lib/lessons/load';
import { LabOperationError } from '@/lib/result';
import { refusal } from '@/lib/refusal-words';

let lessons: Map<string, Lesson> | null = null;

function registry(): Map<string, Lesson> {
  if (!lessons) {
    try {
      lessons = new Map(loadAllLessons().map((lesson) => [lesson.slug, lesson]));
    } catch (error) {
      throw new LabOperationError('internal', refusal('lesson.notLoaded', { error: (error as Error).message }));
    }
  }
  return lessons;
}

/** Every lesson, in course order. */
export function allLessons(): Lesson[] {
  return [...registry().values()];
}

export function lessonBySlug(slug: string): Lesson {
  const lesson = registry().get(slug);
  if (!lesson) throw new LabOperationError('not-found', refusal('lesson.none', { slug }));
  return lesson;
}
