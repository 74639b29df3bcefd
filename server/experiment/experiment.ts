/**
 * Lesson 8's experiment on the server: each variant (lib/experiment) played
 * as a real run in the learner's lab, one after another — a fresh lab, the
 * links delayed by the scenario's setup steps, five workers over the
 * compressed days — and its row computed from the run's history and the
 * checker's verdict as soon as it ends. Bounded: four runs, each with a wall
 * clock. Cancellable: Stop, Run, or another experiment on the same lab ends
 * it after the run in progress is stopped, with the rows done so far.
 */
import { VARIANTS, type ExperimentProgress, type ExperimentResult, type ExperimentRow } from '@/lib/experiment/design';
import { experimentRow } from '@/lib/experiment/measure';
import { EXPERIMENT_CHECKER, experimentProgram, experimentScenario } from '@/lib/experiment/program';
import { LabOperationError } from '@/lib/result';
import type { LabRuns } from '../runs/lab-runs';
import { refusal } from '@/lib/refusal-words';

/** Each variant's run may take this long (47 compressed days take about 2.4 s; a busy machine gets room, not forever). */
export const VARIANT_WALL_MS = 20_000;
const TOPOLOGY = { kind: 'masters', nodes: 5, persistence: 'none' } as const;

/** The experiment going on in each lab, so Stop or Run there can end it. */
const going = new WeakMap<LabRuns, AbortController>();

/** Ends the experiment going on in this lab, if any (its current run is stopped; it answers with what it has). */
export function cancelExperiment(runs: LabRuns | null): void {
  if (!runs) return;
  going.get(runs)?.abort();
}

export interface ExperimentOptions {
  seed: number;
  now?: () => number;
}

export async function runExperiment(runs: LabRuns, options: ExperimentOptions, onProgress: (progress: ExperimentProgress) => void = () => undefined): Promise<ExperimentResult> {
  const now = options.now ?? Date.now;
  const started = now();
  cancelExperiment(runs);
  const controller = new AbortController();
  going.set(runs, controller);
  const { signal } = controller;
  const stopRun = () => void runs.stop();
  signal.addEventListener('abort', stopRun);
  const rows: ExperimentRow[] = [];
  try {
    for (const [index, variant] of VARIANTS.entries()) {
      if (signal.aborted) break;
      onProgress({ playing: variant.id, seed: options.seed, rows: [...rows], elapsedMs: now() - started });
      const info = await runs.start({
        code: experimentProgram(variant),
        clients: experimentScenario(variant, options.seed).clients,
        scenario: experimentScenario(variant, options.seed),
        topology: TOPOLOGY,
        // A clean lab for the first (every node up and empty, every link healed); the others find it as the last
        // left it (their keys are their own, and each sets every link's delay), which saves restarting five nodes.
        fresh: index === 0,
        seed: options.seed,
        limits: { wallClockMs: VARIANT_WALL_MS },
        checker: EXPERIMENT_CHECKER,
      });
      // Stopped while this run was being set up: it started anyway, so stop it now.
      if (signal.aborted) void runs.stop();
      const ended = await runs.whenEnded(info.runId);
      if (ended.outcome.status === 'syntax-error') throw new LabOperationError('internal', refusal('run.experimentDoesNotCompile', { error: ended.outcome.error ?? '' }));
      if (ended.outcome.status === 'stopped') {
        // Stopped by the learner (Stop, Run, another experiment): a row of a cut run would compare nothing.
        break;
      }
      rows.push(experimentRow(variant, runs.historyOf(info.runId), ended));
    }
  } finally {
    signal.removeEventListener('abort', stopRun);
    if (going.get(runs) === controller) going.delete(runs);
  }
  const result: ExperimentResult = { rows, cancelled: rows.length < VARIANTS.length, seconds: Math.round((now() - started) / 100) / 10, seed: options.seed };
  onProgress({ playing: null, seed: options.seed, rows: [...rows], elapsedMs: now() - started, result });
  return result;
}
