/**
 * What a lesson page hands to the browser: plain, serialisable data derived
 * from a loaded lesson (no Node imports here, so client components may use it).
 */
import type { Scenario } from '../scenario';
import type { FrontMatter, Quiz } from './schema';

export interface LessonScenarioView {
  id: string;
  role: 'break' | 'fix' | 'explore';
  title: string;
  description: string;
  /** "violated (mutual-exclusion, check-then-set-race)" — for people, not for the grader. */
  expect: string;
}

/** The shape the workspace expects (components/workspace/types.ts `WorkspaceLesson`), built from a lesson. */
export interface WorkspaceLessonInput {
  slug: string;
  title: string;
  starter: string;
  solution: string;
  scenarios: Scenario[];
  defaultClients: number;
  topology: FrontMatter['topology'];
  checker: FrontMatter['checker'];
}

export interface LessonView {
  slug: string;
  title: string;
  order: number;
  summary: string;
  quiz: Quiz;
  hints: string[];
  exercise: FrontMatter['exercise'];
  scenarios: LessonScenarioView[];
  workspace: WorkspaceLessonInput;
}
