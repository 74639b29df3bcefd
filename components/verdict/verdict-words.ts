/** The checker's answers in words (never colour alone). */
import type { CheckName, Validity } from '@/lib/checker';

export const VALIDITY_WORDS: Record<Validity, { word: string; icon: string; line: string }> = {
  held: { word: 'held', icon: '✓', line: 'Mutual exclusion held: no two clients were inside at once.' },
  violated: { word: 'violated', icon: '✕', line: 'Safety was violated: the lock did not protect the job.' },
  unknown: { word: 'unknown', icon: '?', line: 'Not decided: the history does not prove it either way (yet).' },
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
