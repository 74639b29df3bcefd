/** Where a lesson stands on the course index, from the learner's saved progress. */
import { describe, expect, it } from 'vitest';
import { emptyLessonProgress } from '@/components/progress/progress-store';
import { lessonStanding } from '@/components/progress/standing';
import { quizScore } from '@/components/quiz/quiz-score';

const ids = ['a', 'b', 'c'];

describe('lesson standing', () => {
  it('is "not started" with nothing recorded', () => {
    expect(lessonStanding(undefined, ids)).toMatchObject({ standing: 'not-started', read: false, runs: 0, passed: false, quiz: { answered: 0, correct: 0, total: 3 } });
    expect(lessonStanding(emptyLessonProgress(), ids).standing).toBe('not-started');
  });

  it('is "in progress" once read, run, answered or passed, until all is done', () => {
    expect(lessonStanding({ ...emptyLessonProgress(), read: true }, ids).standing).toBe('in-progress');
    expect(lessonStanding({ ...emptyLessonProgress(), runs: 1 }, ids).standing).toBe('in-progress');
    expect(lessonStanding({ ...emptyLessonProgress(), passed: true }, ids).standing).toBe('in-progress');
    const twoAnswered = { a: { answer: '0', correct: true }, b: { answer: '1', correct: false } };
    expect(lessonStanding({ ...emptyLessonProgress(), passed: true, quiz: twoAnswered }, ids).standing).toBe('in-progress');
  });

  it('is "done" with the exercise passed and every question answered, right or wrong', () => {
    const quiz = { a: { answer: '0', correct: true }, b: { answer: '1', correct: false }, c: { answer: '2', correct: true } };
    const s = lessonStanding({ ...emptyLessonProgress(), passed: true, quiz }, ids);
    expect(s).toMatchObject({ standing: 'done', quiz: { answered: 3, correct: 2, total: 3 } });
  });

  it('counts only the questions the quiz still has', () => {
    const saved = { a: { correct: true }, gone: { correct: true } };
    expect(quizScore(saved, [{ id: 'a' }, { id: 'b' }])).toEqual({ answered: 1, correct: 1, rightOnRetry: 0, total: 2 });
  });
});
