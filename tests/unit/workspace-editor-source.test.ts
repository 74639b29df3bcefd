import { describe, expect, it } from 'vitest';
import { MY_CODE_LABEL, runnable, sameProgram, scenarioProgram, shownForScenario } from '@/components/workspace/editor-source';
import type { WorkspaceLesson } from '@/components/workspace/types';

const lesson: Pick<WorkspaceLesson, 'starter' | 'solution' | 'scenarioPrograms'> = {
  starter: 'starter();\n',
  solution: 'solution();\n',
  scenarioPrograms: {
    race: { kind: 'starter' },
    'race-fixed': { kind: 'solution' },
    crash: { kind: 'program', name: 'programs/nx-without-ttl.ts', code: 'crash();\n' },
  },
};

describe('what a scenario puts in the editor', () => {
  it('names each scenario program by what it is; a scenario without one runs the learner’s code', () => {
    expect(scenarioProgram(lesson, 'race')).toMatchObject({ label: "the lesson's starter", code: 'starter();\n' });
    expect(scenarioProgram(lesson, 'race-fixed')).toMatchObject({ label: 'the reference solution', code: 'solution();\n' });
    expect(scenarioProgram(lesson, 'crash')).toMatchObject({ label: 'programs/nx-without-ttl.ts', code: 'crash();\n' });
    expect(scenarioProgram(lesson, 'playground-scenario')).toBeNull();
  });

  it('a break shows the program whose bug it demonstrates, even after the learner fixed theirs', () => {
    const mine = 'my fix();\n';
    expect(shownForScenario(scenarioProgram(lesson, 'race'), mine, lesson.starter)?.code).toBe('starter();\n');
    expect(shownForScenario(scenarioProgram(lesson, 'crash'), mine, lesson.starter)?.code).toBe('crash();\n');
    // A fresh learner's code is the starter: nothing to show instead, they edit it in place.
    expect(shownForScenario(scenarioProgram(lesson, 'race'), 'starter();', lesson.starter)).toBeNull();
  });

  it('a fix runs the learner’s own attempt, and shows the reference solution only while their code is the starter', () => {
    expect(shownForScenario(scenarioProgram(lesson, 'race-fixed'), 'my fix();\n', lesson.starter)).toBeNull();
    expect(shownForScenario(scenarioProgram(lesson, 'race-fixed'), 'starter();\n', lesson.starter)?.code).toBe('solution();\n');
  });

  it('Run runs what the editor shows and names it for the verdict', () => {
    expect(runnable('mine', null)).toEqual({ code: 'mine', program: MY_CODE_LABEL });
    expect(runnable('mine', { kind: 'solution', label: 'the reference solution', code: 'sol' })).toEqual({ code: 'sol', program: 'the reference solution' });
  });

  it('programs that differ only in trailing whitespace are the same program', () => {
    expect(sameProgram('a\n\n', 'a')).toBe(true);
    expect(sameProgram(' a', 'a')).toBe(false);
  });
});
