/**
 * The zustand store of one lab view. Created per provider (zustand's Next.js
 * pattern), never as a module global: server rendering must not share one
 * store between requests, and two providers must not share a lab.
 *
 * Only the socket client writes lab data; components read it through
 * selectors and act through the client's commands.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { LabSnapshot } from '@/lib/cluster';
import type { TimeWindow, Verdict } from '@/lib/checker';
import type { HistoryBatch, LinksDiff, NodesDiff } from '@/lib/protocol';
import type { ErrorCode } from '@/lib/result';
import type { GradeProgress, GradeResult } from '@/lib/grading';
import type { ExploreProgress, ExploreResult } from '@/lib/explore';
import { emptyMeasureData, reducePin, type MeasureData, type PinnedRun } from './measure-state';
import { emptyExploreData, reduceExploreFailed, reduceExploreProgress, reduceExploreRequested, reduceExploreResult, type ExploreData } from './explore-state';
import type { ExperimentProgress, ExperimentResult } from '@/lib/experiment/design';
import {
  emptyExperimentData,
  reduceExperimentAnswerLost,
  reduceExperimentFailed,
  reduceExperimentProgress,
  reduceExperimentRequested,
  reduceExperimentResult,
  experimentRunRequest,
  type ExperimentData,
} from './experiment-state';
import type { Diagnostic, RunEnded, RunInfo, RunVerdict } from '@/lib/run';
import {
  emptyExerciseData,
  reduceExerciseFailed,
  reduceExerciseProgress,
  reduceExerciseRequested,
  reduceExerciseResult,
  type ExerciseData,
} from './exercise-state';
import {
  emptyLabData,
  reduceHistory,
  reduceLinksDiff,
  reduceNodesDiff,
  reduceSnapshot,
  startsNewView,
  type LabData,
} from './lab-state';
import {
  emptyRunData,
  emptyViewData,
  reduceCursor,
  reduceFocus,
  reduceReplay,
  reduceRunDiagnostic,
  reduceRunEnded,
  reduceRunFailed,
  reduceRunWaiting,
  reduceRunRequested,
  reduceRunStarted,
  reduceRunStopping,
  reduceRunVerdict,
  type RecordedRun,
  type RunData,
  type RunRequest,
  type TimelineMode,
  type ViewData,
} from './run-state';
import type { Words } from '@/lib/words';
import type { Trigger } from '@/lib/scenario';
import { checkRunAgain, emptyCheckRunsData, ownRunAgain, reduceCheckBegan, reduceCheckRunEnded, type CheckRunsData } from './check-runs';
import { labNow } from './lab-state';

/**
 * - `connecting`: the socket is not up yet (first load).
 * - `joining`: connected, waiting for the server to hand over a lab.
 * - `ready`: the lab is live.
 * - `reconnecting`: the connection dropped; socket.io retries and the tab re-joins its lab.
 * - `full`: the server has no room for another lab.
 * - `closed`: the lab went away (idle timeout, server shutdown).
 * - `failed`: joining failed for another reason (see `connectionMessage`).
 * - `moved`: this tab's lab moved to another tab of the browser ("Use the lab here" there); see `labElsewhere`.
 */
export type ConnectionStatus = 'connecting' | 'joining' | 'ready' | 'reconnecting' | 'full' | 'closed' | 'failed' | 'moved';

/**
 * Why this tab has no lab while its browser has some, in other tabs: they hold the browser's whole share
 * (`share`, with status `full`), or this tab's lab moved to another (`moved`, `to` naming that tab in the
 * learner's words when it said). Either way "Use the lab here" moves one of them to this tab.
 */
export type LabElsewhere = { kind: 'share' } | { kind: 'moved'; to: string | null };

/** Server error codes, plus the two the browser itself can see. */
export type CommandErrorCode = ErrorCode | 'timeout' | 'offline';

export interface CommandError {
  /** Increasing id, so a list of errors has stable keys. */
  id: number;
  /** What was attempted, in the words of its button: "Kill Node 2". */
  command: string;
  code: CommandErrorCode;
  message: string;
  /** The server's words for `message`, which the page writes in its language. */
  words?: Words | undefined;
  /** `command` as data (a fault's button name with its node or client), for the page's language. */
  commandWords?: Words | undefined;
  /** When the browser itself says what went wrong (not the server): the page words it (lab.connection.commandNote). */
  note?: CommandNote;
}

export type CommandNote = { kind: 'offline' } | { kind: 'noAnswer'; seconds: number };

/** Errors kept on screen at most; older ones drop off. */
const MAX_ERRORS = 3;

/** What the browser itself says of the connection (the page puts it in words: lab-status.tsx). */
export type ConnectionNote = 'lost' | 'unreachable' | 'refused' | 'reattaching' | 'starting' | 'settingUp' | 'joinTimeout' | 'takingLab';

export interface LabActions {
  /** `message`: the server's own words; `note`: what the browser says of it, a catalogue key the page words (lab.connection.note). */
  setConnection(status: ConnectionStatus, message?: string | null, note?: ConnectionNote | null, words?: Words | null): void;
  /** The tab has no lab, its browser's are in other tabs (see LabElsewhere); `message`: why a "Use the lab here" was refused. */
  labElsewhere(where: LabElsewhere, message?: string | null, words?: Words | null): void;
  receiveSnapshot(snapshot: LabSnapshot, localNow: number): void;
  receiveNodes(diff: NodesDiff, localNow: number): void;
  receiveLinks(diff: LinksDiff): void;
  receiveHistory(batch: HistoryBatch): void;
  reportError(error: Omit<CommandError, 'id'>): void;
  dismissError(id: number): void;
  setPending(key: string, pending: boolean): void;
  // The learner's program (written by the socket client).
  runRequested(request: RunRequest): void;
  runStarted(info: RunInfo): void;
  runWaiting(ahead: number): void;
  runFailed(message: string, words?: Words): void;
  runStopping(): void;
  receiveVerdict(verdict: RunVerdict): void;
  receiveDiagnostic(diagnostic: Diagnostic & { runId: string }): void;
  runEnded(ended: RunEnded, info?: RunInfo): void;
  // "Check my solution" (written by the socket client). `localNow`: performance.now() when it was sent.
  exerciseRequested(slug: string, localNow?: number): void;
  exerciseProgress(progress: GradeProgress): void;
  exerciseResult(result: GradeResult): void;
  exerciseFailed(message: string, words?: Words): void;
  exploreRequested(): void;
  exploreProgress(progress: ExploreProgress): void;
  exploreResult(result: ExploreResult): void;
  exploreFailed(message: string, words?: Words): void;
  experimentRequested(): void;
  experimentProgress(progress: ExperimentProgress): void;
  experimentResult(result: ExperimentResult): void;
  experimentFailed(message: string, words?: Words): void;
  experimentAnswerLost(): void;
  // How the lab is viewed (written by the workspace's controls).
  setCursor(cursorT: number | null): void;
  setPlaying(playing: boolean): void;
  setSpeed(speed: number): void;
  focusWindow(window: TimeWindow): void;
  setTimelineMode(mode: TimelineMode): void;
  openReplay(replay: RecordedRun | null, verdict: Verdict | null): void;
  /** Shows one of the last check's runs again (its failure's "Show on timeline"), named as the check's. */
  showCheckRun(runId: string): void;
  /** Back to the learner's own last run after showing a check's run. */
  showOwnRun(): void;
  // Comparing runs (written by the Measurements view): null unpins.
  pinRun(pinned: PinnedRun | null): void;
  /** The learner's breakpoint for the next runs (written by the socket client, which also tells a run going on). */
  chooseBreakpoint(when: Trigger | null): void;
}

export interface LabState extends LabData {
  connection: ConnectionStatus;
  /** Why the connection is in its state, in words (for `full`, `closed`, `failed`, `reconnecting`). */
  connectionMessage: string | null;
  /** `connectionMessage` as data, when the server worded it. */
  connectionWords: Words | null;
  /** The browser's own note on the connection, when it has one (a `refused` note comes with the server's message). */
  connectionNote: ConnectionNote | null;
  /** Where this tab's browser's labs are when this tab has none (status `full` or `moved`); null otherwise. */
  labElsewhere: LabElsewhere | null;
  errors: CommandError[];
  /** Commands sent and not yet acknowledged, by their pending key: data (a fault's op and target, `faultPendingKey`), never prose. */
  pending: Record<string, true>;
  run: RunData;
  /** The last "Check my solution" of this tab. */
  exercise: ExerciseData;
  /** The learner's own run kept while a check's runs play, and the check's runs to show again (check-runs.ts). */
  checkRuns: CheckRunsData;
  explore: ExploreData;
  /** Lesson 8's experiment, as this tab last ran it. */
  experiment: ExperimentData;
  view: ViewData;
  /** A run pinned for comparison; kept across runs and page views of this tab's lab. */
  measure: MeasureData;
  /** "Pause the run when …": sent with each Run of this tab; null: none. */
  breakpoint: Trigger | null;
  actions: LabActions;
}

export type LabStore = StoreApi<LabState>;

export function createLabStore(initial: Partial<LabData> = {}): LabStore {
  let errorIds = 0;
  return createStore<LabState>()((set) => ({
    ...emptyLabData(),
    ...initial,
    connection: 'connecting',
    connectionMessage: null,
    connectionWords: null,
    connectionNote: null,
    labElsewhere: null,
    errors: [],
    pending: {},
    run: emptyRunData(),
    exercise: emptyExerciseData(),
    checkRuns: emptyCheckRunsData(),
    explore: emptyExploreData(),
    experiment: emptyExperimentData(),
    view: emptyViewData(),
    measure: emptyMeasureData(),
    breakpoint: null,
    actions: {
      setConnection: (connection, message = null, note = null, words = null) =>
        set({ connection, connectionMessage: message, connectionNote: note, connectionWords: words, labElsewhere: null }),
      labElsewhere: (where, message = null, words = null) =>
        set({
          connection: where.kind === 'moved' ? 'moved' : 'full',
          labElsewhere: where,
          connectionMessage: message,
          connectionWords: words,
          connectionNote: null,
          // A lab that moved away is another tab's now: its nodes are no longer shown here (nor offered to kill).
          // The last run's timeline and verdict stay, as with no lab.
          ...(where.kind === 'moved' ? { labId: null, nodeIds: [], nodes: {}, links: [], replication: null } : {}),
        }),
      receiveSnapshot: (snapshot, localNow) =>
        set((s) => {
          const lab = reduceSnapshot(s, snapshot, localNow);
          if (!startsNewView(s, snapshot)) return lab;
          // The lab was rebuilt for this page (or is another lab): the run, verdict, checks and
          // time travel shown so far were the previous page's, and must not sit beside this one's code.
          return {
            ...lab,
            run: { ...emptyRunData(), started: s.run.started },
            exercise: emptyExerciseData(),
            checkRuns: emptyCheckRunsData(),
            explore: emptyExploreData(),
            experiment: emptyExperimentData(),
            view: { ...emptyViewData(), speed: s.view.speed },
          };
        }),
      receiveNodes: (diff, localNow) => set((s) => reduceNodesDiff(s, diff, localNow)),
      receiveLinks: (diff) => set((s) => reduceLinksDiff(s, diff)),
      receiveHistory: (batch) => set((s) => reduceHistory(s, batch)),
      reportError: (error) =>
        set((s) => ({ errors: [...s.errors, { ...error, id: ++errorIds }].slice(-MAX_ERRORS) })),
      dismissError: (id) => set((s) => ({ errors: s.errors.filter((e) => e.id !== id) })),
      setPending: (command, pending) =>
        set((s) => {
          if (pending === command in s.pending) return s;
          const next = { ...s.pending };
          if (pending) next[command] = true;
          else delete next[command];
          return { pending: next };
        }),
      runRequested: (request) => set((s) => ({ run: reduceRunRequested(s.run, request), view: reduceCursor(s.view, null) })),
      runStarted: (info) => set((s) => ({ run: reduceRunStarted(s.run, info) })),
      runWaiting: (ahead) => set((s) => ({ run: reduceRunWaiting(s.run, ahead) })),
      runFailed: (message, words) => set((s) => ({ run: reduceRunFailed(s.run, message, words) })),
      runStopping: () => set((s) => ({ run: reduceRunStopping(s.run) })),
      receiveVerdict: (verdict) => set((s) => ({ run: reduceRunVerdict(s.run, verdict) })),
      receiveDiagnostic: (diagnostic) => set((s) => ({ run: reduceRunDiagnostic(s.run, diagnostic) })),
      runEnded: (ended, info) =>
        set((s) => {
          const run = reduceRunEnded(s.run, ended, info);
          // The learner's own run, stopped by the check that displaced it, still ends as theirs.
          const own = s.checkRuns.own?.run;
          const ownEnded = own?.info?.runId === ended.runId && own.phase !== 'ended' ? reduceRunEnded(own, ended) : null;
          const kept = reduceCheckRunEnded(s.checkRuns, run);
          return { run, checkRuns: ownEnded && kept.own ? { ...kept, own: { ...kept.own, run: ownEnded } } : kept };
        }),
      exerciseRequested: (slug, localNow = performance.now()) =>
        set((s) => ({
          exercise: reduceExerciseRequested(s.exercise, slug),
          checkRuns: reduceCheckBegan(s.checkRuns, s.run, labNow(s, localNow) ?? Number.POSITIVE_INFINITY),
        })),
      exerciseProgress: (progress) => set((s) => ({ exercise: reduceExerciseProgress(s.exercise, progress) })),
      // The check answered: the page shows the learner's own last run again, not the check's last.
      exerciseResult: (result) => set((s) => ({ exercise: reduceExerciseResult(s.exercise, result), run: ownRunAgain(s.checkRuns, s.run) ?? s.run })),
      exerciseFailed: (message, words) => set((s) => ({ exercise: reduceExerciseFailed(s.exercise, message, words), run: ownRunAgain(s.checkRuns, s.run) ?? s.run })),
      exploreRequested: () => set(() => ({ explore: reduceExploreRequested() })),
      exploreProgress: (progress) => set((s) => ({ explore: reduceExploreProgress(s.explore, progress) })),
      exploreResult: (result) => set((s) => ({ explore: reduceExploreResult(s.explore, result) })),
      exploreFailed: (message, words) => set((s) => ({ explore: reduceExploreFailed(s.explore, message, words) })),
      experimentRequested: () => set(() => ({ experiment: reduceExperimentRequested() })),
      experimentProgress: (progress) =>
        set((s) => {
          const experiment = reduceExperimentProgress(s.experiment, progress);
          // The next variant is about to run: the verdict shows it as the run it is, not as this tab's last own run.
          const next = experiment !== s.experiment && progress.playing !== null && progress.playing !== s.experiment.playing;
          return next ? { experiment, run: reduceRunRequested(s.run, experimentRunRequest(progress.playing as NonNullable<typeof progress.playing>, progress.seed)) } : { experiment };
        }),
      experimentResult: (result) => set((s) => ({ experiment: reduceExperimentResult(s.experiment, result) })),
      experimentFailed: (message, words) => set((s) => ({ experiment: reduceExperimentFailed(s.experiment, message, words) })),
      experimentAnswerLost: () => set((s) => ({ experiment: reduceExperimentAnswerLost(s.experiment) })),
      setCursor: (cursorT) => set((s) => ({ view: reduceCursor(s.view, cursorT) })),
      setPlaying: (playing) => set((s) => ({ view: { ...s.view, playing } })),
      setSpeed: (speed) => set((s) => ({ view: { ...s.view, speed } })),
      // "Show on timeline" shows the clients' lanes, where the band is drawn.
      focusWindow: (window) => set((s) => ({ view: { ...reduceFocus(s.view, window), timelineMode: 'clients' } })),
      setTimelineMode: (timelineMode) => set((s) => ({ view: { ...s.view, timelineMode } })),
      openReplay: (replay, verdict) => set((s) => ({ view: reduceReplay(s.view, replay, verdict) })),
      showCheckRun: (runId) => set((s) => {
        const run = checkRunAgain(s.checkRuns, runId, s.run);
        return run ? { run, view: reduceCursor(s.view, null) } : s;
      }),
      showOwnRun: () => set((s) => {
        const run = ownRunAgain(s.checkRuns, s.run);
        return run ? { run, view: reduceCursor(s.view, null) } : s;
      }),
      pinRun: (pinned) => set((s) => ({ measure: reducePin(s.measure, pinned) })),
      chooseBreakpoint: (breakpoint) => set({ breakpoint }),
    },
  }));
}
