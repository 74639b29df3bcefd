import { expect, it } from 'vitest';
import { allLessons, checkLessons, LESSON_FILES } from './lesson-checks';

it('the course has its eight lessons, in order, each checked by one of the two lesson files', () => {
  expect(allLessons.map((l) => l.order)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  expect([...LESSON_FILES.a, ...LESSON_FILES.b].sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
});

checkLessons(allLessons.filter((l) => LESSON_FILES.a.includes(l.order)));
