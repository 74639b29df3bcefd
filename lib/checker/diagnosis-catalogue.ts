/**
 * Every diagnosis the checker can name, from the files that name them (one
 * diagnosis-*.ts observer each; the duplicates check names two). The kind
 * list, its type and the root-cause order are all read from here: adding a
 * diagnosis is its file, its entry below, and its words (messages/<lang>/checker.json).
 *
 * In root-cause order (root-cause.ts): a lock taken or released wrongly
 * explains what the infrastructure then did, which explains what timing did.
 */
import { ACQUIRED_WITHOUT_QUORUM } from './diagnosis-acquired-without-quorum';
import { CHECK_THEN_SET_RACE } from './diagnosis-check-then-set-race';
import { CLOCK_JUMP_EXPIRED_LOCK } from './diagnosis-clock-jump-expired-lock';
import { FAILOVER_LOST_LOCK } from './diagnosis-failover-lost-lock';
import { LOCK_WITHOUT_TTL_NEVER_FREES } from './diagnosis-lock-without-ttl-never-frees';
import { PAUSE_BEYOND_VALIDITY } from './diagnosis-pause-beyond-validity';
import { QUORUM_NOT_MAJORITY } from './diagnosis-quorum-not-majority';
import { RELEASE_DELETED_FOREIGN_LOCK } from './diagnosis-release-deleted-foreign-lock';
import { RENEWAL_FAILED_MID_JOB } from './diagnosis-renewal-failed-mid-job';
import { RESTART_WITHOUT_PERSISTENCE } from './diagnosis-restart-without-persistence';
import { SECTION_OUTLIVED_LOCK } from './diagnosis-section-outlived-lock';
import { TTL_SHORTER_THAN_JOB } from './diagnosis-ttl-shorter-than-job';
import { JOB_WITHOUT_LOCK, RECORD_AFTER_LOCK } from './duplicates';

export const DIAGNOSES = [
  // The lock is wrong whatever the timing.
  CHECK_THEN_SET_RACE,
  QUORUM_NOT_MAJORITY,
  ACQUIRED_WITHOUT_QUORUM,
  LOCK_WITHOUT_TTL_NEVER_FREES,
  JOB_WITHOUT_LOCK,
  RECORD_AFTER_LOCK,
  RELEASE_DELETED_FOREIGN_LOCK,
  // A node lost a lock the code took correctly.
  FAILOVER_LOST_LOCK,
  RESTART_WITHOUT_PERSISTENCE,
  CLOCK_JUMP_EXPIRED_LOCK,
  // Timing: the lock ran out under its holder.
  RENEWAL_FAILED_MID_JOB,
  TTL_SHORTER_THAN_JOB,
  PAUSE_BEYOND_VALIDITY,
  SECTION_OUTLIVED_LOCK,
] as const;

export type DiagnosisKind = (typeof DIAGNOSES)[number]['kind'];

type KindsOf<T extends readonly { kind: string }[]> = { readonly [I in keyof T]: T[I]['kind'] };

/** The kinds, in root-cause order, as a tuple of literals (a lesson's front matter is validated with it: z.enum). */
export const DIAGNOSIS_KINDS = DIAGNOSES.map((d) => d.kind) as unknown as KindsOf<typeof DIAGNOSES>;

const graded = (how: (typeof DIAGNOSES)[number]['grades']): readonly DiagnosisKind[] => DIAGNOSES.filter((d) => d.grades === how).map((d) => d.kind);

/** Diagnoses that fail a graded run whatever else it showed (diagnosis-spec.ts). */
export const FATAL_DIAGNOSES = graded('fatal');
/** Diagnoses whose sentence is a violated check's failure sentence (diagnosis-spec.ts). */
export const MECHANISM_DIAGNOSES = graded('mechanism');
