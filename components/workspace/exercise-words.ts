/** The grader's progress in words: "Checking 2 of 6: Fix it: release only your own token — random seed 17". */
import type { GradeProgress } from '@/lib/grading';
import type { Scenario } from '@/lib/scenario';

export function checkingWords(progress: GradeProgress | null, scenarios: readonly Pick<Scenario, 'id' | 'title'>[], plannedRuns: number): string {
  if (!progress) return `Checking your solution: ${plannedRuns} graded ${plannedRuns === 1 ? 'run' : 'runs'}…`;
  if (!progress.current) return progress.done >= progress.total ? `Checked ${progress.total} of ${progress.total}; finishing…` : 'Finishing…';
  const known = scenarios.find((s) => s.id === progress.current?.scenarioId);
  if (!known && progress.current.title) return `Checking ${progress.done + 1} of ${progress.total}: ${progress.current.title}`;
  const title = known?.title ?? progress.current.title ?? progress.current.scenarioId;
  return `Checking ${progress.done + 1} of ${progress.total}: ${title} — random seed ${progress.current.seed}`;
}
