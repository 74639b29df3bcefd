/**
 * The learner's progress per lesson — read, ran, quiz answers, exercise
 * passed — kept in this browser (localStorage via zustand persist). A store
 * per provider, hydrated after mount (`skipHydration`), so the server's
 * render and the first browser render agree.
 *
 * Lesson pages act through `actions`; the course index reads `lessons` and
 * `lastLesson` ("Continue where you left off").
 */
import { createStore } from 'zustand/vanilla';
import { createJSONStorage, persist, type PersistOptions } from 'zustand/middleware';

export const PROGRESS_STORAGE_KEY = 'lock-lab:progress';

export type QuizAnswer = string | string[];

/**
 * One quick-check question's record. `correct` is the first answer's: the
 * score the index and a class see, so trying again after reading why cannot
 * turn a wrong first answer into a right one. `answer` is the latest.
 */
export interface QuizRecord {
  answer: QuizAnswer;
  correct: boolean;
  /** Answers given (absent: one). */
  tries?: number;
  /** The latest answer is right (absent: as `correct`). */
  solved?: boolean;
}

/** The latest answer to a question is the right one. */
export const quizSolved = (record: QuizRecord): boolean => record.solved ?? record.correct;

export interface LessonProgress {
  read: boolean;
  /** Runs started from this lesson's workspace. */
  runs: number;
  /** Answers by question id, with whether each was right. */
  quiz: Record<string, QuizRecord>;
  /** The graded exercise passed (all its scenarios held). */
  passed: boolean;
  /** "Do it yourself": the learner's own faults made the lesson's break (absent: not yet). */
  didItYourself?: boolean;
  /** ISO time of the last change. */
  updatedAt: string | null;
}

export const emptyLessonProgress = (): LessonProgress => ({ read: false, runs: 0, quiz: {}, passed: false, updatedAt: null });

export interface ProgressActions {
  /** The learner opened the lesson: it becomes the one to continue. */
  markVisited(slug: string): void;
  markRead(slug: string): void;
  markRan(slug: string): void;
  /** Records an answer; a second one (after "Try again") keeps the first one's `correct`. */
  answerQuiz(slug: string, questionId: string, answer: QuizAnswer, correct: boolean): void;
  markPassed(slug: string, passed?: boolean): void;
  /** The learner's own faults made the lesson's break (components/workspace/do-it-yourself-panel.tsx). */
  markDidItYourself(slug: string): void;
  /** Forgets one lesson's progress, or all of it. */
  reset(slug?: string): void;
}

export interface ProgressState {
  lessons: Record<string, LessonProgress>;
  /** The lesson the learner was last in (opened or worked in), for "Continue where you left off". */
  lastLesson: { slug: string; at: string } | null;
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

/** Pure: a quick-check record after one more answer. */
export function nextQuizRecord(before: QuizRecord | undefined, answer: QuizAnswer, correct: boolean): QuizRecord {
  if (before === undefined) return { answer, correct };
  return { answer, correct: before.correct, tries: (before.tries ?? 1) + 1, solved: correct };
}

type Persisted = Pick<ProgressState, 'lessons' | 'lastLesson'>;

/** A change to one lesson, which also makes it the lesson to continue. */
const worked =
  (slug: string, change: (lesson: LessonProgress) => Partial<LessonProgress>) =>
  (s: ProgressState): Pick<ProgressState, 'lessons' | 'lastLesson'> => {
    const now = new Date();
    return { lessons: updateLesson(s.lessons, slug, change, now), lastLesson: { slug, at: now.toISOString() } };
  };

export function createProgressStore(storage: PersistOptions<ProgressState, Persisted>['storage'] = defaultStorage()) {
  return createStore<ProgressState>()(
    persist(
      (set) => ({
        lessons: {},
        lastLesson: null,
        hydrated: false,
        actions: {
          markVisited: (slug) => set({ lastLesson: { slug, at: new Date().toISOString() } }),
          markRead: (slug) => set(worked(slug, () => ({ read: true }))),
          markRan: (slug) => set(worked(slug, (l) => ({ runs: l.runs + 1 }))),
          answerQuiz: (slug, questionId, answer, correct) =>
            set(worked(slug, (l) => ({ quiz: { ...l.quiz, [questionId]: nextQuizRecord(l.quiz[questionId], answer, correct) } }))),
          markPassed: (slug, passed = true) => set(worked(slug, () => ({ passed }))),
          markDidItYourself: (slug) => set(worked(slug, () => ({ didItYourself: true }))),
          reset: (slug) =>
            set((s) => {
              if (slug === undefined) return { lessons: {}, lastLesson: null };
              const lessons = { ...s.lessons };
              delete lessons[slug];
              return { lessons, lastLesson: s.lastLesson?.slug === slug ? null : s.lastLesson };
            }),
        },
      }),
      {
        name: PROGRESS_STORAGE_KEY,
        version: 1,
        storage,
        skipHydration: true,
        partialize: (s) => ({ lessons: s.lessons, lastLesson: s.lastLesson }),
        merge: (persisted, current) => ({ ...current, ...(persisted as Persisted | undefined), hydrated: true }),
      },
    ),
  );
}

function defaultStorage(): PersistOptions<ProgressState, Persisted>['storage'] {
  return createJSONStorage<Persisted>(() => localStorage);
}
