/**
 * The check's runs are the check's. "Check my solution" plays its runs in the learner's own lab, so the
 * tab sees them start and end like any run; while the check goes the page shows them, named as the
 * check's (RunInfo.check). When the check answers, the page goes back to the learner's own last run —
 * its verdict, its toolbar status, its events only — and a check's run is shown again only when asked
 * ("Show on timeline" of its failure), saying whose it is. Pure reducers (tests/unit/store-check-runs.test.ts).
 */
import type { RunData } from './run-state';
import { emptyRunData } from './run-state';

export interface CheckRunsData {
  /**
   * The learner's own run as it was when the check began (null before any), and the lab time the check
   * began: the events shown with it stop there, so the check's runs do not run on under it.
   */
  own: { run: RunData | null; untilT: number } | null;
  /** The check's runs this tab saw end, by run id, to show one again on request. */
  seen: Record<string, RunData>;
}

export const emptyCheckRunsData = (): CheckRunsData => ({ own: null, seen: {} });

/** The most of a check's runs kept to show again (a check plays a few dozen at most). */
const MAX_SEEN = 100;

/** Whether the run shown is one of a check's. */
export const isCheckRun = (run: Pick<RunData, 'info'>): boolean => run.info?.check !== undefined;

/**
 * A check begins at lab time `labT`: the learner's run shown now is theirs to come back to (if what is shown
 * is a check's run, the one kept from before stays theirs).
 */
export function reduceCheckBegan(checks: CheckRunsData, run: RunData, labT: number): CheckRunsData {
  const own = isCheckRun(run) ? (checks.own?.run ?? null) : run.info === null && run.phase === 'idle' ? null : run;
  return { own: { run: own, untilT: checks.own && isCheckRun(run) ? checks.own.untilT : labT }, seen: {} };
}

/** A run ended: one of the check's is kept to show again. */
export function reduceCheckRunEnded(checks: CheckRunsData, run: RunData): CheckRunsData {
  if (!isCheckRun(run) || run.info === null || run.ended?.runId !== run.info.runId) return checks;
  const seen = { ...checks.seen, [run.info.runId]: run };
  const ids = Object.keys(seen);
  if (ids.length > MAX_SEEN) delete seen[ids[0] as string];
  return { ...checks, seen };
}

/**
 * The learner's own run, to show again after the check (or on "Back to my run"): what `run` becomes. Null
 * when what is shown is not a check's run (the learner ran something since), which stays.
 */
export function ownRunAgain(checks: CheckRunsData, run: RunData): RunData | null {
  if (!isCheckRun(run) || checks.own === null) return null;
  const own = checks.own.run;
  const base = own ?? { ...emptyRunData(), started: run.started };
  return { ...base, started: run.started, shownUntilT: checks.own.untilT };
}

/** One of the check's runs, to show again: its events stop where the check's next run in this lab began. */
export function checkRunAgain(checks: CheckRunsData, runId: string, run: RunData): RunData | null {
  const wanted = checks.seen[runId];
  if (!wanted?.info) return null;
  const from = wanted.info.startedAt;
  let until: number | null = null;
  for (const other of Object.values(checks.seen)) {
    const t = other.info?.startedAt;
    if (t !== undefined && t > from && (until === null || t < until)) until = t;
  }
  return { ...wanted, started: run.started, shownUntilT: until };
}
