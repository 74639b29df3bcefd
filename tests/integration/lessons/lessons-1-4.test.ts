import { expect, it } from 'vitest';
import { allLessons, checkLessons } from './lesson-checks';

it('the course has its eight lessons, in order', () => {
  expect(allLessons.map((l) => l.order)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
});

checkLessons(allLessons.filter((l) => l.order <= 4));
