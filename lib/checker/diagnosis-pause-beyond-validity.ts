/**
 * Diagnosis: a client paused longer than what was left of its lock's
 * validity. The advice is lesson 6's answer first (check what is left of the
 * lock before the side effect); fencing is the next step, and no advice to a
 * program that fences: a client's first fenced write rewords it. A client
 * that stood frozen at the learner's breakpoint is said as that, never as a
 * pause the learner injected (the nodes' clock ran on under the stop).
 */
import type { DiagnosisLog } from './diagnoses';
import type { Hold } from './holds';
import type { HoldObserver, ResumeSignal } from './hold-observer';
import { client as clientValue, code, duration } from './format';
import { words, type Words } from '../words';
import type { DiagnosisSpec } from './diagnosis-spec';

/** A client was paused longer than what was left of its lock's validity. */
export const PAUSE_BEYOND_VALIDITY = { kind: 'pause-beyond-validity', grades: 'explains' } as const satisfies DiagnosisSpec;

export class PauseBeyondValidity implements HoldObserver {
  /** Clients seen writing the store with a fencing token. */
  private readonly fencingClients = new Set<number>();
  /** Per client, its pause diagnosis in the words for a client that fences, until one of its writes shows it does. */
  private readonly pauseWords = new Map<number, { subject: string; fenced: Words }>();

  constructor(private readonly log: DiagnosisLog) {}

  resumed(signal: ResumeSignal, holds: readonly Hold[]): void {
    const pausedMs = signal.t - signal.pausedAt;
    for (const hold of holds) {
      if (hold.released || hold.startT > signal.pausedAt || !Number.isFinite(hold.validUntil)) continue;
      const left = hold.validUntil - signal.pausedAt;
      if (left <= 0 || pausedMs <= left) continue;
      hold.pausedPastValidity = true;
      const validity = hold.validityMs ?? (typeof hold.ttlMs === 'number' ? hold.ttlMs : left);
      const tail =
        left >= validity - 0.5
          ? words('checker.diagnosis.pauseLongerThanValidity', { validity: duration(validity) })
          : words('checker.diagnosis.pauseLongerThanLeft', { left: duration(left), validity: duration(validity) });
      const said = { client: clientValue(signal.client), paused: duration(pausedMs), tail: { words: tail }, resource: code(hold.resource) };
      const subject = `${signal.client}|${hold.resource}`;
      const stood = signal.atBreakpoint;
      const fenced = words(stood ? 'checker.diagnosis.stoodAtBreakpointFenced' : 'checker.diagnosis.pausedFenced', said);
      this.pauseWords.set(signal.client, { subject, fenced });
      this.log.add({
        kind: PAUSE_BEYOND_VALIDITY.kind,
        check: 'mutual-exclusion',
        subject,
        words: this.fencingClients.has(signal.client) ? fenced : words(stood ? 'checker.diagnosis.stoodAtBreakpoint' : 'checker.diagnosis.paused', said),
        seqs: [hold.startSeq, signal.pausedSeq, signal.seq],
        window: { from: hold.validUntil, to: signal.t },
        clients: [signal.client],
      });
    }
  }

  fencedWrite(client: number): void {
    this.fencingClients.add(client);
    const said = this.pauseWords.get(client);
    if (!said) return;
    this.log.reword(PAUSE_BEYOND_VALIDITY.kind, said.subject, said.fenced);
    this.pauseWords.delete(client);
  }
}
