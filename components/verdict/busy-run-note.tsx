/**
 * Said beside a verdict when the machine kept the run waiting for a CPU
 * (RunEnded.cpuWaitMs): a busy server can hide a timing-dependent break or
 * make a command time out, and the learner should not take that for the
 * program's doing. Nothing is said for an undisturbed run.
 */
import { useFormatter, useTranslations } from 'next-intl';
import { DISTURBED_CPU_WAIT_MS } from '@/lib/run';
import styles from './verdict.module.css';

export function BusyRunNote({ cpuWaitMs }: { cpuWaitMs: unknown }) {
  const t = useTranslations('verdict');
  const format = useFormatter();
  // An opened run file is the learner's: a figure that is not a finite number says nothing.
  if (typeof cpuWaitMs !== 'number' || !Number.isFinite(cpuWaitMs) || cpuWaitMs < DISTURBED_CPU_WAIT_MS) return null;
  return (
    <p className={styles.busy} data-testid="verdict-busy">
      {t('busy', { seconds: format.number(cpuWaitMs / 1000, { minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false }) })}
    </p>
  );
}
