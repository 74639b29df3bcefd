/**
 * When the machine, not the learner, may have decided how a run came out.
 *
 * Every run reports how long its processes waited for a CPU (`cpuWaitMs`,
 * runs/cpu-wait.ts). A lesson's margins are five hundred milliseconds and up
 * (a 1 s command timeout, a 700 ms TTL around a 300 ms job). The limit comes
 * from what this 2-core machine showed: three labs grading side by side on
 * an otherwise idle machine wait up to ~0.9 s per second (many short waits
 * that hold no reply up for long; every reference solution passes), while
 * the overloaded machine that failed correct locks (load average 40–60)
 * waited a second and more. So a run that waited CPU_WAIT_LIMIT_MS or more
 * within one second is disturbed; below it, a failure is the learner's.
 *
 * A disturbed run says nothing of the answer, either way. A failure in it
 * is never counted against the learner, and a pass is never counted for
 * them: a targeted adversary waits for events of the run, but what it sets
 * up between them takes time (a 600 ms lock that must still be held when the
 * release it interrupts begins), and a client starved of a CPU lets that
 * moment slip by, so a wrong lock could pass. The run is played again, and if
 * the machine stays that busy the answer is "too busy to tell", never
 * "failed" and never "passed".
 *
 * The clients' worker thread is among what is measured, with the nodes and
 * the link process: all run below the server (ops/priority.ts), so they are
 * the first to wait when the machine is busy.
 */
import { say } from '@/lib/checker/said';
import { DISTURBED_CPU_WAIT_MS, type RunEnded } from '@/lib/run';

/** Waiting for a CPU this long within one second disturbs a run. On an idle machine it is ~0. */
export const CPU_WAIT_LIMIT_MS = positive(process.env.LOCKLAB_GRADING_CPU_WAIT_MS) ?? DISTURBED_CPU_WAIT_MS;
/** How many times an item whose run was disturbed is played (the first included) before "too busy to tell". */
export const DISTURBED_PLAYS = positive(process.env.LOCKLAB_GRADING_DISTURBED_PLAYS) ?? 3;

export const disturbed = (ended: Pick<RunEnded, 'cpuWaitMs'> | null): boolean => (ended?.cpuWaitMs ?? 0) >= CPU_WAIT_LIMIT_MS;

/**
 * Plays an item again while its last play was disturbed, up to DISTURBED_PLAYS plays in all (the
 * grader's deferred replays and `npm run fidelity` follow this one rule). Answers the last play and how many
 * there were, or null when a play was stopped; the last play may still be disturbed (then nothing can be said
 * of the item).
 */
export async function playWhileDisturbed<T>(
  first: T,
  isDisturbed: (play: T) => boolean,
  again: () => Promise<T | null>,
): Promise<{ last: T; plays: number } | null> {
  let last = first;
  let plays = 1;
  while (isDisturbed(last) && plays < DISTURBED_PLAYS) {
    const next = await again();
    if (next === null) return null;
    last = next;
    plays++;
  }
  return { last, plays };
}

/**
 * How many undisturbed plays of an item a failure in a disturbed run must survive before the item passes. That
 * failure is evidence: a bug that shows only when timing is tight (a watchdog renewing at 0.9 × TTL) is exactly
 * one a busy machine brings out, and a single quiet replay that happens to pass would let it through.
 */
export const HUNT_PLAYS = positive(process.env.LOCKLAB_GRADING_HUNT_PLAYS) ?? 2;

/** What the plays of an item whose first run was disturbed came to. */
export type Settled = 'failed' | 'passed' | 'undecided';

/**
 * Plays an item again after a disturbed first play, alone and with the same schedule (same seed), until it is
 * settled: an undisturbed failure is the answer at once ("failed"); a disturbed first play that *passed* is settled by
 * one undisturbed pass; one that *failed* — evidence, not noise — only by HUNT_PLAYS undisturbed passes
 * (the hunt). Disturbed replays count for nothing either way; a machine that keeps disturbing them leaves the item
 * "undecided" after DISTURBED_PLAYS plays in all (a disturbed pass) or 1 + HUNT_PLAYS + DISTURBED_PLAYS - 1 (a hunt).
 * Answers null when a play was stopped.
 */
export async function settleDisturbed<T>(
  first: T,
  isDisturbed: (play: T) => boolean,
  failed: (play: T) => boolean,
  again: () => Promise<T | null>,
): Promise<{ last: T; plays: number; settled: Settled } | null> {
  if (!isDisturbed(first)) return { last: first, plays: 1, settled: failed(first) ? 'failed' : 'passed' };
  const evidence = failed(first);
  const passesNeeded = evidence ? HUNT_PLAYS : 1;
  // A disturbed pass gets the replays it always had; a hunt gets as many more as it needs passes, so that on a busy
  // machine a right answer is about as likely to be decided as before (each replay is disturbed or not alike).
  const maxPlays = evidence ? 1 + HUNT_PLAYS + DISTURBED_PLAYS - 1 : DISTURBED_PLAYS;
  let last = first;
  let plays = 1;
  let quietPasses = 0;
  while (plays < maxPlays) {
    const next = await again();
    if (next === null) return null;
    last = next;
    plays++;
    if (isDisturbed(next)) continue;
    if (failed(next)) return { last, plays, settled: 'failed' };
    if (++quietPasses >= passesNeeded) return { last, plays, settled: 'passed' };
  }
  return { last, plays, settled: 'undecided' };
}

/** "Not decided", as data for the page and in English for the answer's `busy` (what older pages read). */
export const BUSY_SAID = say('judging.busy');
export const BUSY_MESSAGE = BUSY_SAID.message;

function positive(text: string | undefined): number | undefined {
  const n = Number(text);
  return text !== undefined && Number.isFinite(n) && n > 0 ? n : undefined;
}
