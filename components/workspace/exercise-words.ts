/** The grader's progress in words: "Checking 2 of 6: Fix it: release only your own token — random seed 17". */
import type { useTranslations } from 'next-intl';
import type { GradeProgress } from '@/lib/grading';
import type { Scenario } from '@/lib/scenario';

/** The `exercise` catalogue's translator (useTranslations('exercise') in a component, createTranslator in a test). */
export type ExerciseTranslator = ReturnType<typeof useTranslations<'exercise'>>;

export function checkingWords(t: ExerciseTranslator, progress: GradeProgress | null, scenarios: readonly Pick<Scenario, 'id' | 'title'>[], plannedRuns: number): string {
  if (!progress) return t('checking.planned', { runs: plannedRuns });
  if (!progress.current) return progress.done >= progress.total ? t('checking.finishingAll', { total: progress.total }) : t('checking.finishing');
  const hidden = progress.current.hidden;
  if (hidden) return t('checking.hidden', { n: progress.done + 1, total: progress.total, hiddenN: hidden.n, hiddenTotal: hidden.total });
  const known = scenarios.find((s) => s.id === progress.current?.scenarioId);
  if (!known && progress.current.title) return t('checking.probe', { n: progress.done + 1, total: progress.total, title: progress.current.title });
  const title = known?.title ?? progress.current.title ?? progress.current.scenarioId;
  return t('checking.seeded', { n: progress.done + 1, total: progress.total, title, seed: progress.current.seed });
}
