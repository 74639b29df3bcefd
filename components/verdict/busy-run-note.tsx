/**
 * Said beside a verdict when the machine kept the run waiting for a CPU
 * (RunEnded.cpuWaitMs): a busy server can hide a timing-dependent break or
 * make a command time out, and the learner should not take that for the
 * program's doing. Nothing is said for an undisturbed run.
 */
import { DISTURBED_CPU_WAIT_MS } from '@/lib/run';
import styles from './verdict.module.css';

export function BusyRunNote({ cpuWaitMs }: { cpuWaitMs: unknown }) {
  // An opened run file is the learner's: a figure that is not a finite number says nothing.
  if (typeof cpuWaitMs !== 'number' || !Number.isFinite(cpuWaitMs) || cpuWaitMs < DISTURBED_CPU_WAIT_MS) return null;
  return (
    <p className={styles.busy} data-testid="verdict-busy">
      The server was busy during this run: its Redis nodes or the lab waited up to {(cpuWaitMs / 1000).toFixed(1)} s for a CPU. What depends on timing here — a
      break that did not show, a command that timed out — may be the machine&apos;s doing, not the program&apos;s. Run it again to see.
    </p>
  );
}
