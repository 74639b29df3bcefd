/**
 * The contract between a page and the lab workspace. A lesson page (or the
 * playground) describes its lab with a `WorkspaceLesson` and renders
 * `<Workspace lesson={lesson}>{lessonText}</Workspace>`; the workspace owns
 * the editor, toolbar, cluster, timeline, console, verdict and time travel.
 */
import type { ReactNode } from 'react';
import type { CheckerSettings } from '@/components/lab/run-state';
import type { TopologyInput } from '@/lib/schemas';
import type { DiagnosisKind } from '@/lib/checker/types';
import type { HandFault } from '@/lib/do-it-yourself/task';
import type { Scenario, Trigger } from '@/lib/scenario';

export interface WorkspaceLesson {
  /** Stable id: keys the learner's saved code and progress ("redlock", "playground"). */
  slug: string;
  title: string;
  /** The program the editor starts with (TypeScript or JavaScript). */
  starter: string;
  /** The reference solution, offered by "Show solution" once the learner has run their code. */
  solution?: string;
  /** Offered by the scenario picker, in this order ("Break it", "Fix it", …). */
  scenarios: Scenario[];
  /** The scenario picked when the page opens: an id from `scenarios`, or null for none. Default: the first scenario. */
  defaultScenario?: string | null;
  /** How many clients run the program when no scenario says otherwise. */
  defaultClients: number;
  /** The lab the lesson needs; a lab of another shape is reset to it when the workspace opens. */
  topology: TopologyInput;
  /** Sent with every run so the verdict checks what the lesson is about (e.g. `expectedExecutions`). */
  checker?: CheckerSettings;
  /**
   * The program each scenario was written for, by scenario id: picking the
   * scenario shows that program in the editor (the learner's code is kept),
   * so what runs is what the scenario's text describes. A scenario without
   * an entry (the playground's) runs the learner's code.
   */
  scenarioPrograms?: Record<string, WorkspaceScenarioProgram>;
  /** The graded exercise: offers "Check my solution" with the editor's code. */
  exercise?: WorkspaceExercise;
  /** "Do it yourself": the break of one of `scenarios`, done by hand at a breakpoint (lib/do-it-yourself). */
  doItYourself?: WorkspaceDoItYourself;
  /** Offers the Arabic production write-up's experiment (lesson 8, the playground): its table filled from real runs. */
  experiment?: boolean;
}

/** The starter and the solution are named, not copied: the page already carries them. */
export type WorkspaceScenarioProgram =
  | { kind: 'starter' }
  | { kind: 'solution' }
  | {
      kind: 'program';
      /** Where it comes from, for people: "programs/nx-without-ttl.ts". */
      name: string;
      code: string;
    };

export interface WorkspaceDoItYourself {
  /** The break scenario (an id of `scenarios`): its program and set-up run, without the steps in `byHand`. */
  scenario: string;
  breakpoint: Trigger;
  byHand: HandFault[];
  /** The violation the break teaches: the scenario's expected diagnosis. */
  diagnosis: DiagnosisKind;
}

export interface WorkspaceExercise {
  /** The function the learner completes: "release". */
  function: string;
  description: string;
  /** Graded runs (scenarios × seeds), for the progress words before the first one starts. */
  runs: number;
}

export interface WorkspaceProps {
  lesson: WorkspaceLesson;
  /** The lesson's prose, shown beside the lab. Without it the lab takes the whole width. */
  children?: ReactNode;
  /** Called with each final verdict of a run (e.g. to mark an exercise passed). */
  onRunEnded?: (ended: import('@/lib/run').RunEnded) => void;
}
