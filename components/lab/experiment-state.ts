/**
 * The browser's picture of lesson 8's experiment: which variant plays, the
 * rows filled so far, and the answer. Pure reducers, free of React and
 * socket.io (tests/unit/experiment-state.test.ts).
 */
import { variantById, type ExperimentProgress, type ExperimentResult, type ExperimentRow, type ExperimentVariantId } from '@/lib/experiment/design';
import { EXPERIMENT_CHECKER, experimentProgram, experimentScenario } from '@/lib/experiment/program';
import type { RunRequest } from './run-state';
import type { Words } from '@/lib/words';

/**
 * - `idle`: not run in this tab yet.
 * - `running`: experiment:run sent; the variants play one after another in the lab.
 * - `done`: it answered (every variant, or `cancelled` with those done).
 * - `error`: it could not be done (refused, the lab went away).
 */
export type ExperimentPhase = 'idle' | 'running' | 'done' | 'error';

export interface ExperimentData {
  phase: ExperimentPhase;
  /** The variant playing now. */
  playing: ExperimentVariantId | null;
  rows: ExperimentRow[];
  result: ExperimentResult | null;
  error: string | null;
  /** The error as data, when the server worded it: the page writes it in its language. */
  errorWords?: Words | undefined;
  /** Said while it runs: the answer was lost, the table fills from the progress still arriving. */
  note: string | null;
}

export const emptyExperimentData = (): ExperimentData => ({ phase: 'idle', playing: null, rows: [], result: null, error: null, note: null });

export function reduceExperimentRequested(): ExperimentData {
  return { ...emptyExperimentData(), phase: 'running' };
}

/** Progress arriving after the answer (or from another tab's experiment on this lab) changes nothing. */
export function reduceExperimentProgress(experiment: ExperimentData, progress: ExperimentProgress): ExperimentData {
  if (experiment.phase !== 'running') return experiment;
  // The last progress carries the result: the table ends even if the answer itself was lost.
  if (progress.result) return reduceExperimentResult(experiment, progress.result);
  return { ...experiment, playing: progress.playing, rows: progress.rows };
}

/** The connection dropped and the answer with it; the experiment goes on in the lab, and its progress still comes. */
export function reduceExperimentAnswerLost(experiment: ExperimentData): ExperimentData {
  if (experiment.phase !== 'running') return experiment;
  return { ...experiment, note: 'The connection to the lab server dropped for a moment: the table goes on filling as the runs end.' };
}

export function reduceExperimentResult(experiment: ExperimentData, result: ExperimentResult): ExperimentData {
  return { ...experiment, phase: 'done', playing: null, rows: result.rows, result, error: null, note: null };
}

/** A failure keeps the rows already filled: they were measured. */
export function reduceExperimentFailed(experiment: ExperimentData, message: string, words?: Words): ExperimentData {
  return { ...experiment, phase: 'error', playing: null, error: message, errorWords: words };
}

/** Whose program the verdict names while a variant plays. */
export const EXPERIMENT_PROGRAM = "the experiment's program";

/**
 * The run a variant is, as if this tab had asked for it: the verdict then names the experiment's program and the
 * variant's scenario, never the code or scenario of the tab's last own run.
 */
export function experimentRunRequest(variant: ExperimentVariantId, seed: number): RunRequest {
  const v = variantById(variant);
  return { code: experimentProgram(v), program: EXPERIMENT_PROGRAM, scenario: experimentScenario(v, seed), checker: EXPERIMENT_CHECKER };
}
