/**
 * What the holds (holds.ts) tell the diagnoses that read bugs off them, one
 * diagnosis-*.ts file each, as the keyspace tells its observers (keyspace.ts).
 * Each call is made once the hold's own state is updated; observers read a
 * hold and may mark on it only what they named (`noTtlNamed`,
 * `pausedPastValidity`), which the others read.
 */
import type { LockEvent } from '../history';
import type { DiagnosisLog } from './diagnoses';
import type { TimeWords } from './format';
import type { ClientSignal } from './clients';
import type { Hold, SectionAtExit } from './holds';
import type { RawLockSignal } from './lock-signals';

export type ResumeSignal = Extract<ClientSignal, { kind: 'resume' }>;
export type EndSignal = Extract<ClientSignal, { kind: 'end' }>;
export type PersistSignal = Extract<RawLockSignal, { kind: 'persist' }>;

/** What an observer may ask the holds. */
export interface HoldsView {
  /** Another client was granted `hold`'s resource after `hold` began, up to `t`. */
  grantedToAnother(hold: Hold, t: number): boolean;
  /** Nodes the lock on `resource` lives on, as far as the history shows. */
  nodesOf(resource: string): ReadonlySet<number>;
  /** The lab's node count, when known (0 when not): what a quorum must be a majority of. */
  readonly labNodes: number;
}

export interface HoldObserver {
  /** The `redlock` module (or a helper) said it acquired: its votes and quorum are in the event. */
  acquired?(event: LockEvent): void;
  /** A paused client resumed; `holds`: its recent holds (released or not). */
  resumed?(signal: ResumeSignal, holds: readonly Hold[]): void;
  /** A client's program ended while `hold` was live and unreleased (already marked crashed). */
  holderEnded?(hold: Hold, signal: EndSignal): void;
  /** A PERSIST took a live hold's TTL away (the hold has none now). */
  persisted?(hold: Hold, signal: PersistSignal): void;
  /** A section exited under `hold`: true when this observer named why it outlived its lock (the next ones are not asked). */
  sectionExited?(hold: Hold, section: SectionAtExit): boolean;
  /** Two clients inside the same job at once, each under its hold. */
  bothInside?(first: Hold, second: Hold, t: number, seq: number): void;
  /** A store write carrying a fencing token: its client fences. */
  fencedWrite?(client: number): void;
}

/** A diagnosis that says what it saw: the log it adds to and the run's clock in words, as every hold diagnosis is built. */
export abstract class SayingObserver {
  constructor(
    protected readonly log: DiagnosisLog,
    protected readonly at: TimeWords,
  ) {}
}
