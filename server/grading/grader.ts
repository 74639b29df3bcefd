/**
 * "Check my solution": the learner's program runs under each of the
 * exercise's scenarios with each of its seeds, in the learner's own lab (so
 * they watch it happen), and passes when every verdict holds and enough work
 * got done (liveness). It stops at the first failure, whose counter-example
 * is what the learner needs to see next.
 */
import type { Verdict } from '@/lib/checker';
import type { GradeProgress, GradeResult, GradedRun } from '@/lib/grading';
import type { Lesson } from '@/lib/lessons/load';
import { LabOperationError } from '@/lib/result';
import type { RunEnded } from '@/lib/run';
import type { LabRuns } from '../runs/lab-runs';

/** Why a graded run failed, or null when it passed. */
export function failureReason(ended: RunEnded, minCompleted: number): string | null {
  const { outcome, verdict } = ended;
  if (outcome.status === 'syntax-error') return `the program does not compile: ${outcome.error ?? 'syntax error'}`;
  const crashedByCode = outcome.clients.find((c) => c.status === 'error' || c.status === 'limit' || c.status === 'timeout');
  if (crashedByCode) return `Client ${crashedByCode.client} ended with ${crashedByCode.status}: ${crashedByCode.error ?? ''}`.trim();
  if (verdict.valid !== 'held') return verdict.counterExample?.message ?? `the checker's verdict is ${verdict.valid}`;
  const completed = completedExecutions(verdict);
  if (completed < minCompleted) return `only ${completed} of the ${minCompleted} job execution(s) this exercise needs completed: the lock must also let work happen`;
  return null;
}

function completedExecutions(verdict: Verdict): number {
  return verdict.stats.jobs.reduce((sum, job) => sum + job.completed, 0);
}

export async function gradeExercise(
  lesson: Lesson,
  code: string,
  runs: LabRuns,
  onProgress: (progress: GradeProgress) => void = () => undefined,
): Promise<GradeResult> {
  const { exercise } = lesson;
  const plan = exercise.scenarios.flatMap((id) => {
    const entry = lesson.lessonScenarios.find((s) => s.id === id);
    if (!entry) throw new Error(`lesson ${lesson.slug}: exercise scenario "${id}" is missing`);
    return exercise.seeds.map((seed) => ({ entry, seed }));
  });
  const graded: GradedRun[] = [];
  for (const [index, { entry, seed }] of plan.entries()) {
    onProgress({ slug: lesson.slug, done: index, total: plan.length, current: { scenarioId: entry.id, seed } });
    const info = await runs.start({
      code,
      scenario: { ...entry.scenario, seed },
      topology: lesson.topology,
      fresh: true,
      checker: { ...lesson.checker, ...entry.checker, livenessBoundMs: exercise.liveness.boundMs },
    });
    const result = await runs.whenEnded(info.runId);
    if (result.outcome.status === 'stopped') throw new LabOperationError('conflict', 'A graded run was stopped (another run started?), so checking stopped. Press "Check my solution" again.');
    const reason = failureReason(result, exercise.liveness.minCompletedExecutions);
    graded.push({ scenarioId: entry.id, scenarioTitle: entry.scenario.title, seed, runId: info.runId, passed: reason === null, ...(reason ? { reason } : {}) });
    if (reason) {
      onProgress({ slug: lesson.slug, done: index + 1, total: plan.length, current: null });
      return {
        slug: lesson.slug,
        passed: false,
        total: plan.length,
        runs: graded,
        failure: { runId: info.runId, counterExample: result.verdict.counterExample, message: reason, hint: lesson.hints[0] ?? null },
      };
    }
  }
  onProgress({ slug: lesson.slug, done: plan.length, total: plan.length, current: null });
  return { slug: lesson.slug, passed: true, total: plan.length, runs: graded, failure: null };
}
