/**
 * A learner's run may ask for tighter limits than the server's, never looser:
 * each asked limit is clamped to the server's maximum, and the clamp is said
 * (in the run's console and the log), not hidden.
 */
import type { RunStartInput } from '@/lib/run';
import type { SandboxLimits } from '../sandbox';

type AskedLimits = NonNullable<RunStartInput['limits']>;

export interface ClampedLimits {
  limits: Partial<SandboxLimits>;
  /** One sentence per limit that was lowered to the server's maximum. */
  notes: string[];
}

const WORDS: Record<keyof AskedLimits, string> = {
  wallClockMs: 'wall-clock time per client (ms)',
  cpuSliceMs: 'CPU time per slice (ms)',
  commandsPerSecond: 'Redis commands per second per client',
  commandTimeoutMs: 'Redis command timeout (ms)',
  consoleBytes: 'console output per client (bytes)',
};

export function clampLimits(asked: AskedLimits | undefined, max: Readonly<SandboxLimits>): ClampedLimits {
  const limits: Partial<SandboxLimits> = {};
  const notes: string[] = [];
  for (const key of Object.keys(asked ?? {}) as (keyof AskedLimits)[]) {
    const value = asked?.[key];
    if (value === undefined) continue;
    if (value > max[key]) {
      limits[key] = max[key];
      notes.push(`This run asked for ${value} as its ${WORDS[key]}; the server allows at most ${max[key]}, so it runs with ${max[key]}.`);
    } else limits[key] = value;
  }
  return { limits, notes };
}
