/**
 * The browser's picture of a classroom (who I am in it, the roster, the
 * demo, "follow me"), the queue that holds a lab's pushes until the join's
 * acknowledgement says which lab is ours, and the progress report a
 * learner's browser sends. Pure and zod-free (the page bundle stays small),
 * unit-tested in tests/unit/classroom-state.test.ts.
 */
import type {
  ClassroomDemoStarted,
  ClassroomFollow,
  ClassroomJoined,
  ClassroomProgress,
  ClassroomRole,
  DemoSummary,
  InstructorAway,
  RosterEntry,
} from '@/lib/classroom';

/**
 * - `idle`: nothing asked yet (a learner who has not given a name).
 * - `connecting` / `joining`: on the way in.
 * - `joined`: in the class; the shared lab is live.
 * - `reconnecting`: the connection dropped; the tab re-joins as itself.
 * - `ended`: the class is over.
 * - `removed`: the instructor removed this learner from the class.
 * - `failed`: joining was refused (see `message`, `errorCode`).
 */
export type ClassroomStatus = 'idle' | 'connecting' | 'joining' | 'joined' | 'reconnecting' | 'ended' | 'removed' | 'failed';

/**
 * What the tab itself has to say about its status, as a kind the page words in its language: the connection
 * was lost, the server refused it or closed the class's lab, or did not answer. `message` is then the server's
 * own detail (its words, not translated), or null.
 */
export type ClassroomNote = 'lost' | 'refused' | 'closed' | 'timeout';

export type ClassroomInfo = Omit<ClassroomJoined, 'lab' | 'roster' | 'follow' | 'demo' | 'instructorAway' | 'instructorTicket'>;

/**
 * Whether the instructor is in the class: `here`; `away` until `endsAt` (this tab's clock, epoch ms), when the
 * class ends unless they come back; `back` after being away (so the page can say so once).
 */
export type InstructorPresence = { kind: 'here' } | { kind: 'back' } | { kind: 'away'; endsAt: number };

export interface ClassroomData {
  status: ClassroomStatus;
  message: string | null;
  /** `message` as data, when the server worded it: the page writes it in its language. */
  messageWords?: Words | null | undefined;
  note: ClassroomNote | null;
  errorCode: string | null;
  info: ClassroomInfo | null;
  /** The instructor's roster, in joining order. */
  roster: RosterEntry[];
  follow: ClassroomFollow | null;
  /** Counts "follow me" pushes received live, so the same target sent twice still moves the view. */
  followCount: number;
  demo: ClassroomDemoStarted | null;
  demos: DemoSummary[] | null;
  instructor: InstructorPresence;
}

export const emptyClassroomData = (): ClassroomData => ({
  status: 'idle',
  message: null,
  note: null,
  errorCode: null,
  info: null,
  roster: [],
  follow: null,
  followCount: 0,
  demo: null,
  demos: null,
  instructor: { kind: 'here' },
});

/** What the server said of the instructor, on this tab's clock (`now`: Date.now()). */
export function presenceOf(away: InstructorAway | null, before: InstructorPresence, now: number): InstructorPresence {
  if (away) return { kind: 'away', endsAt: now + away.endsInMs };
  return before.kind === 'away' ? { kind: 'back' } : before;
}

export function reduceInstructor(data: ClassroomData, away: InstructorAway | null, now: number): ClassroomData {
  return { ...data, instructor: presenceOf(away, data.instructor, now) };
}

export function reduceRemoved(data: ClassroomData, reason: string, words: Words | null): ClassroomData {
  return { ...data, status: 'removed', message: reason, messageWords: words, note: null };
}

const byJoining = (a: RosterEntry, b: RosterEntry) => a.joinedAt - b.joinedAt || a.name.localeCompare(b.name);

export function reduceJoined(data: ClassroomData, joined: ClassroomJoined, now: number = Date.now()): ClassroomData {
  const { lab: _lab, roster, follow, demo, instructorAway, instructorTicket: _ticket, ...info } = joined;
  return {
    ...data,
    status: 'joined',
    message: null,
    note: null,
    errorCode: null,
    info,
    roster: roster ? [...roster].sort(byJoining) : [],
    follow,
    demo,
    instructor: presenceOf(instructorAway ?? null, data.instructor, now),
  };
}

/** A learner joined, reported progress or left: replaces their entry. */
export function reduceRosterEntry(data: ClassroomData, entry: RosterEntry): ClassroomData {
  const rest = data.roster.filter((e) => e.learnerId !== entry.learnerId);
  return { ...data, roster: [...rest, entry].sort(byJoining) };
}

export function reduceFollow(data: ClassroomData, follow: ClassroomFollow): ClassroomData {
  return { ...data, follow: { lesson: follow.lesson, scenario: follow.scenario }, followCount: data.followCount + 1 };
}

export function reduceDemo(data: ClassroomData, demo: ClassroomDemoStarted): ClassroomData {
  return { ...data, demo: { ref: demo.ref, title: demo.title, seed: demo.seed, run: demo.run } };
}

export function reduceEnded(data: ClassroomData, reason: string, note: ClassroomNote | null = null, words: Words | null = null): ClassroomData {
  return { ...data, status: 'ended', message: reason, messageWords: words, note };
}

// ---------------------------------------------------------------------------
// The shared lab's pushes.

export type { LabPush } from '@/components/lab/lab-connection';
import type { LabPush } from '@/components/lab/lab-connection';
import type { Words } from '@/lib/words';

/** Pushes kept per lab before the ack; beyond this the oldest go (a snapshot follows anyway). */
const MAX_PENDING_PER_LAB = 5_000;
/** Labs whose pushes are kept at once: a socket sees few labs, but a server must not make the tab hoard. */
const MAX_PENDING_LABS = 8;

/**
 * Routes each push of a lab to the store once the tab knows which lab is the
 * classroom's. The history of a join can arrive before the join's
 * acknowledgement, so until then pushes wait here, per labId, in arrival
 * order; pushes of any other lab are dropped.
 */
export class LabPushRouter {
  private labId: string | null = null;
  private waiting = true;
  private readonly pending = new Map<string, LabPush[]>();

  constructor(private readonly apply: (push: LabPush) => void) {}

  /** A (re-)join was sent: hold pushes until its acknowledgement. */
  expectJoin(): void {
    this.waiting = true;
  }

  /** The join's ack named the lab: returns nothing, applies what waited for it (after the caller applied the ack's snapshot). */
  joined(labId: string): void {
    this.labId = labId;
    this.waiting = false;
    const held = this.pending.get(labId) ?? [];
    this.pending.clear();
    for (const push of held) this.apply(push);
  }

  /** Left or ended: nothing more is ours. */
  reset(): void {
    this.labId = null;
    this.waiting = false;
    this.pending.clear();
  }

  get current(): string | null {
    return this.labId;
  }

  push(labId: string, push: LabPush): void {
    if (this.waiting) {
      let queue = this.pending.get(labId);
      if (!queue) {
        if (this.pending.size >= MAX_PENDING_LABS) return;
        this.pending.set(labId, (queue = []));
      }
      queue.push(push);
      if (queue.length > MAX_PENDING_PER_LAB) queue.shift();
      return;
    }
    if (labId === this.labId) this.apply(push);
  }
}

// ---------------------------------------------------------------------------
// Join codes and instructor commands: lib/classroom-names (no zod in the page bundle).

export {
  CLASSROOM_LAB_COMMANDS as CLASSROOM_LAB_COMMAND_NAMES,
  isClassroomLabCommand,
  normalizeJoinCode as normalizeCode,
} from '@/lib/classroom-names';

// ---------------------------------------------------------------------------
// Who this tab is in a class, kept in sessionStorage to re-join after a reload.

/** An instructor without a token in this tab joins on the browser's instructor cookie, if the server set one. */
export type Credentials =
  | { role: Extract<ClassroomRole, 'instructor'>; code: string; token: string | null }
  | { role: Extract<ClassroomRole, 'learner'>; code: string; name: string; learnerId: string | null };

export type CredentialStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export const INSTRUCTOR_TOKEN_KEY = 'lock-lab:classroom:instructor-token';
export const learnerKey = (code: string) => `lock-lab:classroom:${code}:learner`;
export const AUTO_FOLLOW_KEY = 'lock-lab:classroom:auto-follow';

/** This tab's sessionStorage, or null where storage is blocked (the tab then cannot re-join as itself after a reload). */
export function tabStorage(): CredentialStorage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** The token this tab was given, else none: the console first tries the browser's instructor cookie. */
export function savedInstructor(storage: CredentialStorage | null, code: string): Credentials {
  const token = storage?.getItem(INSTRUCTOR_TOKEN_KEY);
  return { role: 'instructor', code, token: token || null };
}

export function savedLearner(storage: CredentialStorage | null, code: string): Credentials | null {
  const raw = storage?.getItem(learnerKey(code));
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { name, learnerId } = parsed as { name?: unknown; learnerId?: unknown };
    if (typeof name !== 'string' || name.trim() === '') return null;
    return { role: 'learner', code, name, learnerId: typeof learnerId === 'string' ? learnerId : null };
  } catch {
    return null;
  }
}

export function saveCredentials(storage: CredentialStorage | null, credentials: Credentials): void {
  if (credentials.role === 'instructor') {
    if (credentials.token !== null) storage?.setItem(INSTRUCTOR_TOKEN_KEY, credentials.token);
  }
  else storage?.setItem(learnerKey(credentials.code), JSON.stringify({ name: credentials.name, learnerId: credentials.learnerId }));
}

// ---------------------------------------------------------------------------
// A learner's progress, as the room sees it.

/** What the report needs from the saved progress (components/progress LessonProgress). */
export interface SavedLessonProgress {
  read: boolean;
  quiz: Record<string, { correct: boolean }>;
  passed: boolean;
}

/** What the report needs to know about the course. */
export interface CourseLesson {
  slug: string;
  title: string;
  quizQuestionIds: string[];
  hasExercise: boolean;
  /** `description`: what the scenario shows, in the page's language (the classroom's demo list). */
  scenarios: { id: string; title: string; role: 'break' | 'fix' | 'explore'; description?: string }[];
}

/**
 * The report a learner's browser sends: lessons read, quick-check scores
 * (only lessons with an answer; only questions the quiz still has count) and
 * exercises passed, for the course's lessons only, in course order.
 */
export function progressReport(lessons: Record<string, SavedLessonProgress | undefined>, course: readonly CourseLesson[]): ClassroomProgress {
  const report: ClassroomProgress = { lessonsRead: [], quizScores: {}, exercisesPassed: [] };
  for (const lesson of course.slice(0, 100)) {
    const saved = lessons[lesson.slug];
    if (!saved) continue;
    if (saved.read) report.lessonsRead.push(lesson.slug);
    if (saved.passed) report.exercisesPassed.push(lesson.slug);
    let answered = 0;
    let correct = 0;
    for (const id of lesson.quizQuestionIds) {
      const answer = saved.quiz[id];
      if (!answer) continue;
      answered++;
      if (answer.correct) correct++;
    }
    if (answered > 0) report.quizScores[lesson.slug] = { correct, total: lesson.quizQuestionIds.length };
  }
  return report;
}

/** Same report (to send only changes): the arrays are in course order, so JSON compares them. */
export const sameReport = (a: ClassroomProgress | null, b: ClassroomProgress): boolean => a !== null && JSON.stringify(a) === JSON.stringify(b);

/** Where "follow me" points: the lesson's page, with its scenario picked. */
export function followHref(follow: ClassroomFollow): string {
  const base = `/lessons/${encodeURIComponent(follow.lesson)}`;
  return follow.scenario ? `${base}?scenario=${encodeURIComponent(follow.scenario)}` : base;
}
