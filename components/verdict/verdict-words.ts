/** The checker's answers in words (never colour alone). */
import type { CheckName, Validity } from '@/lib/checker';

export const VALIDITY_WORDS: Record<Validity, { word: string; icon: string; line: string }> = {
  held: { word: 'held', icon: '✓', line: 'Mutual exclusion held: no two clients were inside at once.' },
  violated: { word: 'violated', icon: '✕', line: 'A check failed: the lock did not keep its promise.' },
  unknown: { word: 'unknown', icon: '?', line: 'Not decided: the history does not prove it either way (yet).' },
};

/** The headline of a failed property, in the words of the course: safety, liveness, fencing (duplicates are counted: headline.ts). */
export const PROPERTY_FAILED: Record<Exclude<CheckName, 'duplicates'>, string> = {
  'mutual-exclusion': 'Safety failed: two clients were in the critical section at once',
  liveness: 'Liveness failed: the lock could not be taken for too long, so work stopped',
  fencing: 'Fencing failed: the store accepted a stale write',
};

export const CHECK_WORDS: Record<CheckName, string> = {
  'mutual-exclusion': 'Mutual exclusion',
  fencing: 'Fencing',
  liveness: 'Liveness',
  duplicates: 'Duplicate executions',
};

export const RUN_STATUS_WORDS = {
  completed: 'finished',
  stopped: 'was stopped',
  limit: 'hit a lab limit',
  timeout: 'ran out of time',
  'syntax-error': 'did not start: syntax error',
  decided: 'was ended early: its outcome could no longer change',
  killed: 'was killed',
} as const;
