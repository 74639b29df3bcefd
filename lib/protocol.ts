/**
 * The socket.io protocol of Lock Lab, typed once and imported by both the
 * server (server/realtime) and the browser (components' socket client).
 * Event names are `domain:verb`. Every command from a browser carries an
 * acknowledgement that receives a Result.
 */
import type { LabSnapshot, LinkView, NodeView, ReplicationView } from './cluster';
import type { HistoryEvent } from './history';
import type { Result } from './result';
import type { ExerciseCheckInput, GradeProgress, GradeResult } from './grading';
import type { ExploreInput, ExploreProgress, ExploreResult } from './explore';
import type { ExperimentProgress, ExperimentResult } from './experiment/design';
import type { ExperimentInput } from './experiment/input';
import type {
  ClassroomCommandInput,
  ClassroomCreateInput,
  ClassroomDemoInput,
  ClassroomDemoStarted,
  ClassroomFollow,
  ClassroomFollowInput,
  ClassroomJoined,
  ClassroomJoinInput,
  ClassroomLearnerInput,
  ClassroomProgress,
  InstructorAway,
  DemoSummary,
  RosterEntry,
} from './classroom';
import type { Diagnostic, RunBreakInput, RunContinueInput, RunEnded, RunInfo, RunStartInput, RunVerdict } from './run';
import type { LabJoinInput, LabResetInput, LabTakeInput } from './schemas';
import type { Words } from './words';
import type { FAULTS, FaultOp, FaultReply } from './faults/catalogue';
import type { FaultRequest } from './faults/inputs';

export type Ack<T> = (result: Result<T>) => void;

/** A batch of history, in order; `from` is the seq of the first event. */
export interface HistoryBatch {
  labId: string;
  from: number;
  events: HistoryEvent[];
}

/** Node views that changed since the last push (a diff at node granularity). */
export interface NodesDiff {
  labId: string;
  nodes: NodeView[];
  now: number;
}

export interface LinksDiff {
  labId: string;
  links: LinkView[];
  replication: ReplicationView | null;
}

/**
 * `GET /identity`: whether the browser already has an identity, and if not the work that buys one
 * (lib/identity-work.ts); the solution goes back as `POST /identity {challenge, nonce}`.
 */
export type IdentityAnswer = { verified: true } | { verified: false; challenge: string; bits: number };

/** What a refused socket handshake carries beside its message (socket.io's connect_error `data`). */
export interface HandshakeRefusal {
  code: string;
  words?: Words;
  /** The browser has no identity (none, forged, or from a server that forgot its key): get one and connect again. */
  identityRequired?: true;
}

export interface ServerToClientEvents {
  /** Full state: sent on join and re-join, and after a reset. */
  'lab:snapshot': (snapshot: LabSnapshot) => void;
  'nodes:update': (diff: NodesDiff) => void;
  'links:update': (diff: LinksDiff) => void;
  'history:append': (batch: HistoryBatch) => void;
  /** The lab went away (idle timeout, server shutdown). */
  /** `reason` in English; `words`, when the server words it, for the page's language. */
  'lab:closed': (info: { labId: string; reason: string; words?: Words }) => void;
  /**
   * This tab's lab moved to another tab of the same browser ("Use the lab here" there); `to` is that tab in the
   * learner's words (its page's title), when it said. The tab has no lab now, and may take one back the same way.
   */
  'lab:moved': (info: { labId: string; to: string | null }) => void;
  /** The run waits for room on the server (memory budget, runs at once): how many programs are ahead of it. */
  'run:waiting': (info: { labId: string; ahead: number }) => void;
  'run:started': (info: RunInfo & { labId: string }) => void;
  /** The checker's verdict so far (at most every 250 ms while a run goes). */
  'run:verdict': (verdict: RunVerdict & { labId: string }) => void;
  /** A syntax or runtime error at a line of the learner's code. */
  'run:diagnostic': (diagnostic: Diagnostic & { runId: string; labId: string }) => void;
  /** How the run ended, with the final verdict; `info` names the run when the tab may not have seen it start (catch-up). */
  'run:ended': (ended: RunEnded & { labId: string; info?: RunInfo }) => void;
  /** "Check my solution" is running: which graded run is next. */
  'exercise:progress': (progress: GradeProgress & { labId: string }) => void;
  /** "Explore" is searching: how far, and how small the failing schedule is so far. */
  'explore:progress': (progress: ExploreProgress & { labId: string }) => void;
  /** Lesson 8's experiment is playing its variants: which one now, and the rows of those done. */
  'experiment:progress': (progress: ExperimentProgress & { labId: string }) => void;
  /** An error not tied to an acknowledgement (e.g. a message sent without one). */
  'lab:error': (error: { code: string; message: string; words?: Words }) => void;
  /** Classroom (to its instructors only): a learner joined, reported progress, or disconnected. */
  'classroom:roster': (update: { code: string; learner: RosterEntry }) => void;
  /** Classroom (to everyone in it): the instructor started a demo; its run events follow on the lab's labId. */
  'classroom:demo': (demo: ClassroomDemoStarted & { code: string }) => void;
  /** Classroom (to everyone in it): "follow me", move your view to this lesson and scenario. */
  'classroom:follow': (follow: ClassroomFollow & { code: string }) => void;
  /** Classroom (to everyone in it): the class is over (ended by the instructor, idle, or its server stopped). */
  'classroom:ended': (info: { code: string; reason: string; words?: Words }) => void;
  /** Classroom (to one learner's tabs): the instructor removed them; the tab is no longer in the class. */
  'classroom:removed': (info: { code: string; reason: string; words?: Words }) => void;
  /** Classroom (to everyone in it): the instructor's last tab left (`away`, with when the class ends), or one came back (null). */
  'classroom:instructor': (info: { code: string; away: InstructorAway | null }) => void;
}

/** One event per fault of the catalogue: its input, and an ack with what it changed. */
export type FaultEvents = {
  [K in FaultOp as (typeof FAULTS)[K]['event']]: (input: FaultRequest<K>, ack: Ack<FaultReply<K>>) => void;
};

export interface ClientToServerEvents extends FaultEvents {
  'lab:join': (input: LabJoinInput, ack: Ack<LabSnapshot>) => void;
  'lab:reset': (input: LabResetInput, ack: Ack<LabSnapshot>) => void;
  /**
   * "Use the lab here": moves one of this browser's labs from another tab to this one (the one idle longest; never
   * one whose run or check is going), rebuilt for this tab's page; that tab is sent `lab:moved`. A browser with no
   * lab yet gets a new one, as `lab:join` would.
   */
  'lab:take': (input: LabTakeInput, ack: Ack<LabSnapshot>) => void;
  /** Starts the program as N clients (stopping a run in progress first). */
  'run:start': (input: RunStartInput, ack: Ack<RunInfo>) => void;
  /** Stops the run in progress; the value is how it ended, or null if nothing ran. */
  'run:stop': (input: Record<string, never>, ack: Ack<RunEnded | null>) => void;
  /** Sets (or clears) the breakpoint of the run going on; `running`: whether a run took it (the next Run sends its own). */
  'run:break': (input: RunBreakInput, ack: Ack<{ running: boolean }>) => void;
  /** Continues (or steps) from the breakpoint the run stands at. */
  'run:continue': (input: RunContinueInput, ack: Ack<null>) => void;
  /** Runs the learner's code under the lesson's exercise scenarios and seeds; answers when all are graded or one fails. */
  'exercise:check': (input: ExerciseCheckInput, ack: Ack<GradeResult>) => void;
  /** Searches random fault schedules for one that breaks the program, shrinks it, and plays the minimal one last. */
  'explore:run': (input: ExploreInput, ack: Ack<ExploreResult>) => void;
  /** Lesson 8's experiment: plays its variants as runs in the lab, one after another; answers with the table's rows. */
  'experiment:run': (input: ExperimentInput, ack: Ack<ExperimentResult>) => void;

  // Classrooms. A socket belongs to at most one classroom; it keeps its own lab (lab:join) beside it.
  /** Instructor: creates a classroom (with its own lab) and joins it as its instructor. */
  'classroom:create': (input: ClassroomCreateInput, ack: Ack<ClassroomJoined>) => void;
  /** Joins as a learner ({code, name, learnerId?}) or as the instructor ({code, instructorToken}). */
  'classroom:join': (input: ClassroomJoinInput, ack: Ack<ClassroomJoined>) => void;
  'classroom:leave': (input: Record<string, never>, ack: Ack<null>) => void;
  /** Instructor: a lab command on the classroom's lab; the value is that command's own ack value. */
  'classroom:command': (input: ClassroomCommandInput, ack: Ack<unknown>) => void;
  /** Instructor: runs a failure demo (built-in or a lesson's scenario) with a seed. */
  'classroom:demo': (input: ClassroomDemoInput, ack: Ack<ClassroomDemoStarted>) => void;
  /** Instructor: moves every learner's view ("follow me"). */
  'classroom:follow': (input: ClassroomFollowInput, ack: Ack<ClassroomFollow>) => void;
  /** Instructor: ends the class (its lab is destroyed). */
  'classroom:end': (input: Record<string, never>, ack: Ack<null>) => void;
  /** Learner: reports progress (replaces the previous report); the instructor's roster updates live. */
  'classroom:progress': (input: ClassroomProgress, ack: Ack<null>) => void;
  /** Instructor: removes a learner (their tabs leave; their browser may not rejoin until allowed back); the value is their roster entry. */
  'classroom:remove': (input: ClassroomLearnerInput, ack: Ack<RosterEntry>) => void;
  /** Instructor: allows a removed learner back (they join again themselves); the value is their roster entry. */
  'classroom:readmit': (input: ClassroomLearnerInput, ack: Ack<RosterEntry>) => void;
  /** Anyone in a classroom: the demos the instructor can run. */
  'classroom:demos': (input: Record<string, never>, ack: Ack<DemoSummary[]>) => void;
}

export type ClientEventName = keyof ClientToServerEvents;
