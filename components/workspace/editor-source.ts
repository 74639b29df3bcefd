/**
 * What the editor shows, what Run runs, and how the verdict names it.
 *
 * The learner's own code is never overwritten by the page: a scenario's
 * program, the reference solution or a saved run's program is *shown*
 * instead (read-only), with the learner's code one click away. Run runs
 * what the editor shows, so a scenario's text and the program it ran can
 * never disagree without the page saying so.
 */
import type { WorkspaceLesson, WorkspaceScenarioProgram } from './types';

export type ShownKind = 'scenario' | 'solution' | 'saved-run';

/** A program shown in place of the learner's code. */
export interface ShownProgram {
  kind: ShownKind;
  /** For a scenario's program: which program of the lesson it is. */
  source?: WorkspaceScenarioProgram['kind'];
  /** For people, in a sentence: "the lesson's starter", "programs/nx-without-ttl.ts". */
  label: string;
  code: string;
}

/** The programs' names for people, in the page's language (the workspace reads them from the `workspace` catalogue). */
export interface ProgramLabels {
  myCode: string;
  solution: string;
  savedRun: string;
  starter: string;
}

/** The English names (messages/en/workspace.json, `programs`): what a caller without a page's language gets. */
export const ENGLISH_PROGRAM_LABELS: ProgramLabels = {
  myCode: 'your code',
  solution: 'the reference solution',
  savedRun: "the opened run's program",
  starter: "the lesson's starter",
};
export const MY_CODE_LABEL = ENGLISH_PROGRAM_LABELS.myCode;

/** A scenario's program by what it is, or null when the scenario runs whatever the learner wrote (the playground). */
export function scenarioProgram(
  lesson: Pick<WorkspaceLesson, 'starter' | 'solution' | 'scenarioPrograms'>,
  scenarioId: string,
  labels: ProgramLabels = ENGLISH_PROGRAM_LABELS,
): ShownProgram | null {
  const program: WorkspaceScenarioProgram | undefined = lesson.scenarioPrograms?.[scenarioId];
  if (!program) return null;
  switch (program.kind) {
    case 'starter':
      return { kind: 'scenario', source: 'starter', label: labels.starter, code: lesson.starter };
    case 'solution':
      return lesson.solution === undefined ? null : { kind: 'scenario', source: 'solution', label: labels.solution, code: lesson.solution };
    case 'program':
      return { kind: 'scenario', source: 'program', label: program.name, code: program.code };
  }
}

/** Two programs are the same if they differ only in trailing whitespace (an editor adds a final newline). */
export const sameProgram = (a: string, b: string): boolean => a.trimEnd() === b.trimEnd();

/**
 * What picking a scenario puts in the editor.
 *
 * - A "Break it" scenario (the starter, or a program of its own) shows the
 *   program whose bug it demonstrates: a learner who already fixed their code
 *   still sees the break the text describes, and their code is one click away.
 * - A "Fix it" scenario (the reference solution) runs the learner's own
 *   attempt once they have one — seeing *their* fix hold is the point — and
 *   shows the reference solution while their code is still the starter.
 * - Nothing is shown when the learner's code already is the program.
 */
export function shownForScenario(program: ShownProgram | null, mine: string, starter: string): ShownProgram | null {
  if (!program || sameProgram(program.code, mine)) return null;
  if (program.source === 'solution' && !sameProgram(mine, starter)) return null;
  return program;
}

/** What Run sends, and the words the verdict uses for it. */
export function runnable(mine: string, shown: ShownProgram | null, labels: ProgramLabels = ENGLISH_PROGRAM_LABELS): { code: string; program: string } {
  return shown ? { code: shown.code, program: shown.label } : { code: mine, program: labels.myCode };
}
