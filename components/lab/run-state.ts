/**
 * The browser's picture of the learner's program run (lib/run.ts), and of
 * how the lab is being viewed (live, paused, scrubbed, or a run opened from
 * a file). Pure reducers, free of React and socket.io, unit-tested in
 * tests/unit/store-run-state.test.ts.
 */
import type { TimeWindow, Verdict } from '@/lib/checker';
import type { HistoryEvent } from '@/lib/history';
import type { Diagnostic, RunEnded, RunInfo, RunStartInput, RunVerdict } from '@/lib/run';
import type { Scenario } from '@/lib/scenario';
import type { Words } from '@/lib/words';

export type CheckerSettings = NonNullable<RunStartInput['checker']>;

/** A diagnostic with the run it belongs to (for editor markers). */
export type RunDiagnostic = Diagnostic & { runId?: string };

/**
 * - `idle`: nothing ran yet in this tab.
 * - `starting`: run:start sent, not yet acknowledged (the lab may be warming a sandbox).
 * - `running`: the clients run; verdicts arrive live.
 * - `stopping`: run:stop sent.
 * - `ended`: run:ended arrived with the final verdict (or starting failed: see `startError`).
 */
export type RunPhase = 'idle' | 'starting' | 'running' | 'stopping' | 'ended';

export interface RunData {
  phase: RunPhase;
  info: RunInfo | null;
  /** The latest verdict: live while running, final after run:ended. */
  verdict: Verdict | null;
  diagnostics: RunDiagnostic[];
  ended: RunEnded | null;
  /** Why the last run:start was refused, in words. */
  startError: string | null;
  /** `startError` as data, when the server worded it: the page writes it in its language. */
  startErrorWords?: Words | undefined;
  /** What was sent with the run, kept for export. */
  code: string | null;
  /** Whose program ran, in words ("your code", "the reference solution"), when the page said. */
  program: string | null;
  scenario: Scenario | null;
  checker: CheckerSettings | null;
  /** Runs started in this tab (any outcome). */
  started: number;
  /** While starting: the server is busy and this many programs are ahead of this one; null when not waiting. */
  waitingAhead: number | null;
  /**
   * Where the events shown with this run stop (lab clock, exclusive); null: they go on to now. Set when a run
   * is shown again after others played in the lab (the learner's own run after a check: check-runs.ts).
   */
  shownUntilT: number | null;
}

/**
 * A run worth a file: one that started and whose program ran. A program that did not compile left no
 * history of its own, so its file would replay nothing (and re-check to "unknown").
 */
export function hasExportableRun(run: RunData): boolean {
  if (run.info === null) return false;
  return run.ended?.outcome.status !== 'syntax-error';
}

export const emptyRunData = (): RunData => ({
  phase: 'idle',
  info: null,
  verdict: null,
  diagnostics: [],
  ended: null,
  startError: null,
  code: null,
  program: null,
  scenario: null,
  checker: null,
  started: 0,
  waitingAhead: null,
  shownUntilT: null,
});

export interface RunRequest {
  code: string;
  /** Whose program this is, in words, for the verdict ("your code"). */
  program?: string;
  scenario: Scenario | null;
  checker: CheckerSettings | null;
}

/** A run was asked for: forget the last run's verdict and markers. */
export function reduceRunRequested(run: RunData, request: RunRequest): RunData {
  return {
    ...emptyRunData(),
    phase: 'starting',
    code: request.code,
    program: request.program ?? null,
    scenario: request.scenario,
    checker: request.checker,
    started: run.started + 1,
  };
}

/** From the acknowledgement or the run:started push, whichever comes first. */
export function reduceRunStarted(run: RunData, info: RunInfo): RunData {
  if (run.info?.runId === info.runId) return run;
  // A diagnostic (syntax error) or even the end can arrive before the ack; keep them.
  const sameRun = run.ended?.runId === info.runId;
  // A run this tab did not ask for (a graded run of "Check my solution", another viewer's) follows
  // an earlier one: that run's verdict and end must not be shown as this one's.
  const followsAnother = run.info !== null && run.info.runId !== info.runId;
  return {
    ...run,
    phase: sameRun ? 'ended' : run.phase === 'stopping' ? 'stopping' : 'running',
    info,
    waitingAhead: null,
    shownUntilT: null,
    ...(followsAnother && !sameRun ? { verdict: null, ended: null, startError: null } : {}),
    // A check's run played the check's program (a probe is the learner's functions with the probe's driver): not theirs.
    ...(info.check ? { code: null, program: null } : {}),
    diagnostics: run.diagnostics.filter((d) => d.runId === undefined || d.runId === info.runId),
  };
}

export function reduceRunFailed(run: RunData, message: string, words?: Words): RunData {
  return { ...run, phase: 'ended', startError: message, startErrorWords: words, waitingAhead: null };
}

/** The server queued the run asked for: only meaningful while it is starting. */
export function reduceRunWaiting(run: RunData, ahead: number): RunData {
  return run.phase === 'starting' ? { ...run, waitingAhead: ahead } : run;
}

function isOtherRun(run: RunData, runId: string): boolean {
  return run.info !== null && run.info.runId !== runId;
}

export function reduceRunVerdict(run: RunData, verdict: RunVerdict): RunData {
  // A late live verdict must not replace the final one.
  if (isOtherRun(run, verdict.runId) || run.ended?.runId === verdict.runId) return run;
  return { ...run, verdict: verdict.verdict };
}

export function reduceRunDiagnostic(run: RunData, diagnostic: Diagnostic & { runId: string }): RunData {
  if (isOtherRun(run, diagnostic.runId)) return run;
  const { runId, ...rest } = diagnostic;
  const entry: RunDiagnostic = { ...rest, runId };
  // Every client reports the same syntax error: keep one per place and message.
  const duplicate = run.diagnostics.some(
    (d) => d.line === entry.line && d.column === entry.column && d.message === entry.message,
  );
  if (duplicate || run.diagnostics.length >= 50) return run;
  return { ...run, diagnostics: [...run.diagnostics, entry] };
}

/**
 * A run's end, with the server's final verdict (the browser never works one out itself). With
 * `info` (a catch-up: the tab joined after the run ended, or while it showed an older one) the
 * view moves to that run first.
 */
export function reduceRunEnded(run: RunData, ended: RunEnded, info?: RunInfo): RunData {
  const shown = info && info.runId === ended.runId && run.info?.runId !== info.runId ? reduceRunStarted({ ...run, ended }, info) : run;
  if (isOtherRun(shown, ended.runId)) return shown;
  // A program that did not compile never ran: the server's verdict of its empty history ("unknown") is no verdict.
  return { ...shown, phase: 'ended', ended, verdict: ended.outcome.status === 'syntax-error' ? null : ended.verdict };
}

export function reduceRunStopping(run: RunData): RunData {
  return run.phase === 'running' || run.phase === 'starting' ? { ...run, phase: 'stopping' } : run;
}

/** Busy = the toolbar shows progress: the lab starts the run, or the run is being checked. */
export const runBusy = (run: Pick<RunData, 'phase'>): boolean =>
  run.phase === 'starting' || run.phase === 'running' || run.phase === 'stopping';

// ---------------------------------------------------------------------------
// Viewing: live, paused, scrubbed, or a recorded run opened from a file.

/** A run saved to a file: enough to show it again and re-check it without a lab. */
export interface RecordedRun {
  format: 'lock-lab-run';
  version: 1;
  exportedAt: string;
  lesson: string;
  code: string;
  scenario: Scenario | null;
  checker: CheckerSettings | null;
  info: RunInfo | null;
  history: HistoryEvent[];
  /** The verdict the server gave (a re-check in the browser is shown beside it). */
  verdict: Verdict | null;
  ended: RunEnded | null;
}

export interface ViewData {
  /** A run opened from a file; while set, the timeline, console and verdict show it instead of the live lab. */
  replay: RecordedRun | null;
  /** The verdict re-computed in the browser for `replay`. */
  replayVerdict: Verdict | null;
  /** Time-travel cursor on the lab clock: events after it are hidden. Null = show everything (live). */
  cursorT: number | null;
  /** Playing the run back from the cursor. */
  playing: boolean;
  /** Playback speed, ¼×–4×. */
  speed: number;
  /** Asked by "Show on timeline": zoom to this window and highlight it. The nonce makes a second click count. */
  focus: { window: TimeWindow; nonce: number } | null;
  /** What the timeline area shows: a lane per client, or (for a lock voted on by several nodes) who voted for whom. */
  timelineMode: TimelineMode;
}

export type TimelineMode = 'clients' | 'votes';

export const PLAYBACK_SPEEDS = [0.25, 0.5, 1, 2, 4] as const;

export const emptyViewData = (): ViewData => ({
  replay: null,
  replayVerdict: null,
  cursorT: null,
  playing: false,
  speed: 1,
  focus: null,
  timelineMode: 'clients',
});

export function reduceCursor(view: ViewData, cursorT: number | null): ViewData {
  return { ...view, cursorT, playing: cursorT === null ? false : view.playing };
}

export function reduceFocus(view: ViewData, window: TimeWindow): ViewData {
  return { ...view, focus: { window, nonce: (view.focus?.nonce ?? 0) + 1 } };
}

export function reduceReplay(view: ViewData, replay: RecordedRun | null, verdict: Verdict | null): ViewData {
  return { ...emptyViewData(), speed: view.speed, timelineMode: view.timelineMode, replay, replayVerdict: verdict, cursorT: null };
}

/**
 * The seq-ordered events a view shows: a run's events (and lab events during
 * it) from its start, cut at the cursor. `history` is sorted by seq and so by t.
 */
export function visibleHistory(history: readonly HistoryEvent[], fromT: number | null, cursorT: number | null): HistoryEvent[] {
  let start = 0;
  if (fromT !== null) start = lowerBoundT(history, fromT);
  let end = history.length;
  if (cursorT !== null) end = upperBoundT(history, cursorT);
  return start === 0 && end === history.length ? (history as HistoryEvent[]) : history.slice(start, Math.max(start, end));
}

/** First index whose t ≥ value. */
export function lowerBoundT(history: readonly HistoryEvent[], value: number): number {
  let lo = 0;
  let hi = history.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((history[mid]?.t ?? Infinity) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index whose t > value. */
export function upperBoundT(history: readonly HistoryEvent[], value: number): number {
  let lo = 0;
  let hi = history.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((history[mid]?.t ?? Infinity) <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
