/**
 * A learner's run may ask for tighter limits than the server's, never looser:
 * each asked limit is clamped to the server's maximum, and the clamp is said
 * (in the run's console and the log), not hidden.
 */
import { say } from '@/lib/checker/said';
import type { RunStartInput } from '@/lib/run';
import type { Words } from '@/lib/words';
import type { SandboxLimits } from '../sandbox';

type AskedLimits = NonNullable<RunStartInput['limits']>;

export interface ClampedLimits {
  limits: Partial<SandboxLimits>;
  /** One sentence per limit that was lowered to the server's maximum. */
  notes: string[];
  /** `notes` as data, one for one, for the run's console in the page's language. */
  noteWords: Words[];
}

export function clampLimits(asked: AskedLimits | undefined, max: Readonly<SandboxLimits>): ClampedLimits {
  const limits: Partial<SandboxLimits> = {};
  const notes: string[] = [];
  const noteWords: Words[] = [];
  for (const key of Object.keys(asked ?? {}) as (keyof AskedLimits)[]) {
    const value = asked?.[key];
    if (value === undefined) continue;
    if (value > max[key]) {
      limits[key] = max[key];
      // The figures as the learner wrote them (no grouping): strings, not ICU numbers.
      const said = say('runNotes.limitClamped', { value: String(value), limit: key, max: String(max[key]) });
      notes.push(said.message);
      noteWords.push(said.words);
    } else limits[key] = value;
  }
  return { limits, notes, noteWords };
}
