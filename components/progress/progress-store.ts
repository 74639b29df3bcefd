/**
 * The learner's progress per lesson — read, ran, quiz answers, exercise
 * passed — kept in this browser (localStorage via zustand persist). A store
 * per provider, hydrated after mount (`skipHydration`), so the server's
 * render and the first browser render agree.
 *
 * Lesson pages act through `actions`; the course index reads `lessons`.
 */
import { createStore } from 'zustand/vanilla';
import { createJSONStorage, persist, type PersistOptions } from 'zustand/middleware';

export const PROGRESS_STORAGE_KEY = 'lock-lab:progress';

export type QuizAnswer = string | string[];

export interface LessonProgress {
  read: boolean;
  /** Runs started from this lesson's workspace. */
  runs: number;
  /** Answers by question id, with whether each was right. */
  quiz: Record<string, { answer: QuizAnswer; correct: boolean }>;
  /** The graded exercise passed (all its scenarios held). */
  passed: boolean;
  /** ISO time of the last change. */
  updatedAt: string | null;
}

export const emptyLessonProgress = (): LessonProgress => ({ read: false, runs: 0, quiz: {}, passed: false, updatedAt: null });

export interface ProgressActions {
  markRead(slug: string): void;
  markRan(slug: string): void;
  answerQuiz(slug: string, questionId: string, answer: QuizAnswer, correct: boolean): void;
  markPassed(slug: string, passed?: boolean): void;
  /** Forgets one lesson's progress, or all of it. */
  reset(slug?: string): void;
}

export interface ProgressState {
  lessons: Record<string, LessonProgress>;
  /** True once the saved progress was read from storage (before that, `lessons` is empty). */
  hydrated: boolean;
  actions: ProgressActions;
}

export type ProgressStore = ReturnType<typeof createProgressStore>;

/** Pure: one lesson's progress after a change. */
export function updateLesson(
  lessons: Record<string, LessonProgress>,
  slug: string,
  change: (lesson: LessonProgress) => Partial<LessonProgress>,
  now: Date = new Date(),
): Record<string, LessonProgress> {
  const before = lessons[slug] ?? emptyLessonProgress();
  return { ...lessons, [slug]: { ...before, ...change(before), updatedAt: now.toISOString() } };
}

type Persisted = Pick<ProgressState, 'lessons'>;

export function createProgressStore(storage: PersistOptions<ProgressState, Persisted>['storage'] = defaultStorage()) {
  return createStore<ProgressState>()(
    persist(
      (set) => ({
        lessons: {},
        hydrated: false,
        actions: {
          markRead: (slug) => set((s) => ({ lessons: updateLesson(s.lessons, slug, () => ({ read: true })) })),
          markRan: (slug) => set((s) => ({ lessons: updateLesson(s.lessons, slug, (l) => ({ runs: l.runs + 1 })) })),
          answerQuiz: (slug, questionId, answer, correct) =>
            set((s) => ({
              lessons: updateLesson(s.lessons, slug, (l) => ({ quiz: { ...l.quiz, [questionId]: { answer, correct } } })),
            })),
          markPassed: (slug, passed = true) => set((s) => ({ lessons: updateLesson(s.lessons, slug, () => ({ passed })) })),
          reset: (slug) =>
            set((s) => {
              if (slug === undefined) return { lessons: {} };
              const lessons = { ...s.lessons };
              delete lessons[slug];
              return { lessons };
            }),
        },
      }),
      {
        name: PROGRESS_STORAGE_KEY,
        version: 1,
        storage,
        skipHydration: true,
        partialize: (s) => ({ lessons: s.lessons }),
        merge: (persisted, current) => ({ ...current, ...(persisted as Persisted | undefined), hydrated: true }),
      },
    ),
  );
}

function defaultStorage(): PersistOptions<ProgressState, Persisted>['storage'] {
  return createJSONStorage<Persisted>(() => localStorage);
}
