/**
 * Every scenario that expects a violation names the diagnosis it teaches, so `npm run fidelity` and the lesson
 * tests confirm a break only when that diagnosis is the verdict's root cause (the one its headline names).
 */
import { describe, expect, it } from 'vitest';
import { ROOT_CAUSE_ORDER } from '@/lib/checker';
import { loadAllLessons } from '@/lib/lessons/load';
import { DIAGNOSIS_KINDS } from '@/lib/lessons/schema';

const violations = loadAllLessons().flatMap((lesson) => lesson.lessonScenarios.filter((s) => s.expect.verdict === 'violated').map((s) => [`${lesson.slug}/${s.id}`, s.expect.diagnosis] as const));

describe('lessons: every break names its root cause', () => {
  it.each(violations)('%s expects a diagnosis', (_id, diagnosis) => {
    expect(diagnosis).toBeDefined();
  });

  it('every diagnosis kind has a place in the root-cause order', () => {
    expect([...ROOT_CAUSE_ORDER].sort()).toEqual([...DIAGNOSIS_KINDS].sort());
  });
});
