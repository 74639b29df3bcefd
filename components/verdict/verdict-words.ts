/**
 * The checker's answers in words (never colour alone). The words themselves are
 * in the `verdict` catalogue (messages/<locale>/verdict.json); this module maps
 * the checker's data onto its keys.
 */
import type { useTranslations } from 'next-intl';
import type { Validity } from '@/lib/checker';
import type { FailedProperty } from './headline';

export type VerdictT = ReturnType<typeof useTranslations<'verdict'>>;

export const VALIDITY_ICONS: Record<Validity, string> = { held: '✓', violated: '✕', unknown: '?' };

/** The headline of a failed property, in the words of the course: safety, liveness, fencing, and duplicates counted. */
export function failedWords(t: VerdictT, p: FailedProperty): string {
  switch (p.check) {
    case 'duplicates':
      return p.job
        ? t('failed.duplicatesJob', { job: p.job.name, completed: p.job.completed, expected: p.job.expected, extra: p.extra })
        : t('failed.duplicates', { extra: p.extra });
    case 'mutual-exclusion':
      return t('failed.mutualExclusion');
    case 'liveness':
      return t('failed.liveness');
    case 'fencing':
      return t('failed.fencing');
  }
}
