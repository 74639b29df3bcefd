/**
 * Classrooms: an instructor drives one shared lab while learners watch it
 * live and report their progress. The browser's messages (zod schemas) and
 * the shapes the server sends back, shared by server/classroom and the
 * instructor console / learner view. Isomorphic: no Node imports.
 */
import { z } from 'zod';
import type { LabSnapshot } from './cluster';
import { CLASSROOM_LAB_COMMANDS, normalizeJoinCode } from './classroom-names';
import type { RunInfo } from './run';

export * from './classroom-names';

const joinCode = z
  .string()
  .max(40)
  .transform((value, ctx) => {
    const code = normalizeJoinCode(value);
    if (code === null) {
      ctx.addIssue({ code: 'custom', message: 'not a join code (15 letters and digits, like K7M2Q-9XR4T-HB3WZ)' });
      return z.NEVER;
    }
    return code;
  });

/** A display name: printable, trimmed, 1–40 characters, no control or bidi-override characters. */
export const displayNameSchema = z
  .string()
  .transform((s) => s.normalize('NFC').trim().replace(/\s+/g, ' '))
  .pipe(
    z
      .string()
      .min(1, 'a name is needed')
      .max(40, 'at most 40 characters')
      // eslint-disable-next-line no-control-regex
      .refine((s) => !/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/.test(s), 'only printable characters'),
  );

const slug = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'lower-case letters, digits and dashes');
const seed = z.number().int().min(0).max(2 ** 32 - 1);
/** Learner ids are 128-bit random strings the server hands out; a tab keeps its id to rejoin as itself. */
const learnerId = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'not a learner id');

export const classroomCreateSchema = z
  .object({
    /**
     * The instructor token (LOCKLAB_INSTRUCTOR_TOKEN, or the one the server generated at start, in the file its log
     * names). Absent: this browser's instructor cookie must prove the instructor instead.
     */
    token: z.string().min(1).max(200).optional(),
    name: z.string().trim().min(1).max(80).default('Classroom'),
  })
  .strict();

export const classroomJoinSchema = z
  .object({
    code: joinCode,
    /** A learner's display name (required unless `instructorToken` is given). */
    name: displayNameSchema.optional(),
    /**
     * Older pages send the id they were given; the server no longer needs it: a learner's seat belongs to their
     * browser (its identity cookie), so a reload or a second tab of that browser is the same learner anyway.
     */
    learnerId: learnerId.optional(),
    /** Join as the classroom's instructor. */
    instructorToken: z.string().min(1).max(200).optional(),
    /** Join as the classroom's instructor on this browser's instructor cookie (set after the token was given once). */
    asInstructor: z.literal(true).optional(),
  })
  .strict()
  .refine((j) => j.name !== undefined || j.instructorToken !== undefined || j.asInstructor !== undefined, { message: 'a name is needed', path: ['name'] });

/** Instructor: which learner to remove from the class, or to allow back. */
export const classroomLearnerSchema = z.object({ learnerId }).strict();



export const classroomCommandSchema = z
  .object({
    command: z.enum(CLASSROOM_LAB_COMMANDS),
    /** Validated by the command itself, exactly as on a learner's own lab. */
    input: z.unknown().optional(),
  })
  .strict();

/** Which failure demo: a built-in one by id, or a lesson's scenario. */
export const demoRefSchema = z.union([
  z.object({ builtin: slug }).strict(),
  z.object({ lesson: slug, scenario: slug }).strict(),
]);
export type DemoRef = z.infer<typeof demoRefSchema>;

export const classroomDemoSchema = z
  .object({
    demo: demoRefSchema,
    /** Same seed, same schedule: a demo can be replayed exactly. Defaults to the scenario's own seed. */
    seed: seed.optional(),
  })
  .strict();

export const classroomFollowSchema = z
  .object({
    lesson: slug,
    /** A scenario of that lesson, or none (just the lesson's page). */
    scenario: slug.nullable().default(null),
  })
  .strict();

/** What a learner's browser reports; replaces the learner's previous report. */
export const classroomProgressSchema = z
  .object({
    lessonsRead: z.array(slug).max(100),
    /** Quick-check score per lesson. */
    quizScores: z.record(slug, z.object({ correct: z.number().int().min(0).max(1_000), total: z.number().int().min(0).max(1_000) }).strict()),
    exercisesPassed: z.array(slug).max(100),
  })
  .strict()
  .refine((p) => Object.keys(p.quizScores).length <= 100, { message: 'at most 100 lessons', path: ['quizScores'] })
  .refine((p) => Object.values(p.quizScores).every((s) => s.correct <= s.total), { message: 'a score above its total', path: ['quizScores'] });

export type ClassroomCreateInput = z.input<typeof classroomCreateSchema>;
export type ClassroomJoinInput = z.input<typeof classroomJoinSchema>;
export type ClassroomCommandInput = z.input<typeof classroomCommandSchema>;
export type ClassroomDemoInput = z.input<typeof classroomDemoSchema>;
export type ClassroomFollowInput = z.input<typeof classroomFollowSchema>;
export type ClassroomLearnerInput = z.input<typeof classroomLearnerSchema>;
export type ClassroomProgress = z.output<typeof classroomProgressSchema>;

export type ClassroomRole = 'instructor' | 'learner';

export const EMPTY_PROGRESS: ClassroomProgress = { lessonsRead: [], quizScores: {}, exercisesPassed: [] };

export interface RosterEntry {
  learnerId: string;
  name: string;
  /** A tab of this learner is connected now (on any server). */
  connected: boolean;
  /**
   * The instructor removed this learner: their browser holds no seat and may not join this class again until the
   * instructor allows it back (then the row stays, away, until they join). Absent in entries of older servers.
   */
  removed?: boolean;
  joinedAt: number;
  /** Epoch ms of the last report (or the join). */
  updatedAt: number;
  progress: ClassroomProgress;
}

/** Where "follow me" points every learner's view. */
export interface ClassroomFollow {
  lesson: string;
  scenario: string | null;
}

/** A demo the instructor can start. */
/**
 * The catalogue key of each built-in demo (messages/<locale>/demos.json `builtin.<key>`): the server's English
 * title and description come from it, and a page writes them in its own language by the same key.
 */
export const BUILTIN_DEMO_KEYS = {
  'gc-pause-breaks-redlock': 'gcPause',
  'failover-loses-the-lock': 'failover',
  'fencing-saves-the-day': 'fencing',
} as const;
export type BuiltinDemoKey = (typeof BUILTIN_DEMO_KEYS)[keyof typeof BUILTIN_DEMO_KEYS];

/** A built-in demo's key, or null for an id this page does not know (a newer server's demo: its English stays). */
export function builtinDemoKey(id: string): BuiltinDemoKey | null {
  return Object.hasOwn(BUILTIN_DEMO_KEYS, id) ? BUILTIN_DEMO_KEYS[id as keyof typeof BUILTIN_DEMO_KEYS] : null;
}

export interface DemoSummary {
  ref: DemoRef;
  title: string;
  description: string;
  /** For a lesson's scenario: "break", "fix" or "explore". */
  role: 'break' | 'fix' | 'explore';
  lesson: { slug: string; title: string } | null;
  seed: number;
}

/** A demo that started on the classroom's lab (its run events follow on the lab's room). */
export interface ClassroomDemoStarted {
  ref: DemoRef;
  title: string;
  seed: number;
  run: RunInfo;
}

export interface ClassroomJoined {
  code: string;
  name: string;
  /** The learners' page, e.g. `/classroom/K7M2Q-9XR4T-HB3WZ`. */
  link: string;
  role: ClassroomRole;
  /** Your roster id (learners): send it back as `learnerId` to rejoin as yourself. */
  learnerId: string | null;
  labId: string;
  /** The shared lab; its history follows as `history:append` batches for this labId. */
  lab: LabSnapshot;
  follow: ClassroomFollow | null;
  demo: ClassroomDemoStarted | null;
  /** The instructor's view of the roster (null for learners). */
  roster: RosterEntry[] | null;
  maxLearners: number;
  /** Null while an instructor is in the class; else when the class ends unless one comes back. */
  instructorAway: InstructorAway | null;
  /**
   * Instructors only: a short-lived, signed ticket the page trades (POST INSTRUCTOR_SESSION_PATH) for this browser's
   * HttpOnly instructor cookie, so reopening the console does not ask for the token again.
   */
  instructorTicket?: string;
}

/** The instructor's last tab left: the class ends `endsInMs` from when this was sent unless an instructor comes back. */
export interface InstructorAway {
  endsInMs: number;
}
