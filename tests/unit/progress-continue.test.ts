/** The progress behind "Continue where you left off" and the quick check's "Try again". */
import { describe, expect, it } from 'vitest';
import { createJSONStorage } from 'zustand/middleware';
import { createProgressStore, nextQuizRecord, PROGRESS_STORAGE_KEY, quizSolved } from '@/components/progress/progress-store';
import { createTranslator } from 'next-intl';
import { quizScore } from '@/components/quiz/quiz-score';
import { english } from '@/messages/catalogue';

function memoryStore(initial?: string) {
  const map = new Map<string, string>(initial ? [[PROGRESS_STORAGE_KEY, initial]] : []);
  const storage = { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k) };
  return { map, store: createProgressStore(createJSONStorage(() => storage)) };
}

describe('the lesson to continue', () => {
  it('is none for a first-time visitor, then the lesson last opened or worked in, kept across reloads', async () => {
    const { map, store } = memoryStore();
    await store.persist.rehydrate();
    expect(store.getState().lastLesson).toBeNull();
    const { actions } = store.getState();
    actions.markVisited('safe-release');
    expect(store.getState().lastLesson?.slug).toBe('safe-release');
    // Opening a lesson alone records nothing about the lesson itself.
    expect(store.getState().lessons['safe-release']).toBeUndefined();
    actions.markRan('redlock');
    expect(store.getState().lastLesson?.slug).toBe('redlock');

    const reloaded = createProgressStore(createJSONStorage(() => ({ getItem: (k) => map.get(k) ?? null, setItem: () => undefined, removeItem: () => undefined })));
    await reloaded.persist.rehydrate();
    expect(reloaded.getState().lastLesson?.slug).toBe('redlock');
    reloaded.getState().actions.reset('redlock');
    expect(reloaded.getState().lastLesson).toBeNull();
  });

  it('is none when the saved progress predates it', async () => {
    const { store } = memoryStore(JSON.stringify({ state: { lessons: { redlock: { read: true, runs: 0, quiz: {}, passed: false, updatedAt: null } } }, version: 1 }));
    await store.persist.rehydrate();
    expect(store.getState().lessons.redlock?.read).toBe(true);
    expect(store.getState().lastLesson).toBeNull();
  });
});

describe('trying a quick-check question again', () => {
  it('records the right answer after a wrong one, and the score still counts the wrong first answer', async () => {
    const { store } = memoryStore();
    await store.persist.rehydrate();
    const { actions } = store.getState();
    actions.answerQuiz('redlock', 'q1', '2', false);
    actions.answerQuiz('redlock', 'q1', '0', true);
    actions.answerQuiz('redlock', 'q2', '1', true);
    const quiz = store.getState().lessons.redlock!.quiz;
    expect(quiz.q1).toEqual({ answer: '0', correct: false, tries: 2, solved: true });
    expect(quizSolved(quiz.q1!)).toBe(true);
    expect(quiz.q2).toEqual({ answer: '1', correct: true });
    const score = quizScore(quiz, [{ id: 'q1' }, { id: 'q2' }]);
    expect(score).toEqual({ answered: 2, correct: 1, rightOnRetry: 1, total: 2 });
    const t = createTranslator({ locale: 'en', messages: english, namespace: 'quiz' });
    expect(t('scoreAll', { correct: score.correct, total: score.total, retry: score.rightOnRetry })).toBe('Your score: 1 of 2 correct (1 more right after trying again).');
    expect(t('scoreAll', { correct: 2, total: 2, retry: 0 })).toBe('Your score: 2 of 2 correct.');
  });

  it('never turns a wrong first answer into a right one, however many tries', () => {
    let record = nextQuizRecord(undefined, '1', false);
    for (const [answer, ok] of [['2', false], ['0', true]] as const) record = nextQuizRecord(record, answer, ok);
    expect(record).toEqual({ answer: '0', correct: false, tries: 3, solved: true });
    expect(nextQuizRecord(undefined, '0', true)).toEqual({ answer: '0', correct: true });
  });
});
