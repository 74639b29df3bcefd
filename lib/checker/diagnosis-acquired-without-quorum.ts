/**
 * Diagnosis: the `redlock` module (or a helper) counted an acquire as a
 * success with fewer votes than the quorum it reported (else a majority of
 * the votes).
 */
import type { LockEvent } from '../history';
import type { DiagnosisLog } from './diagnoses';
import type { HoldObserver } from './hold-observer';
import { client as clientValue, code } from './format';
import { words } from '../words';
import type { DiagnosisSpec } from './diagnosis-spec';

/** A Redlock acquire counted as success with fewer votes than the quorum. */
export const ACQUIRED_WITHOUT_QUORUM = { kind: 'acquired-without-quorum', grades: 'fatal' } as const satisfies DiagnosisSpec;

export class AcquiredWithoutQuorum implements HoldObserver {
  constructor(private readonly log: DiagnosisLog) {}

  acquired(event: LockEvent): void {
    const votes = event.votes;
    if (!votes || votes.length === 0) return;
    const ok = votes.filter((v) => v.ok).length;
    const quorum = event.quorum ?? Math.floor(votes.length / 2) + 1;
    if (ok >= quorum) return;
    this.log.add({
      kind: ACQUIRED_WITHOUT_QUORUM.kind,
      check: 'mutual-exclusion',
      subject: `${event.resources.join(',')}|${quorum}`,
      words: words('checker.diagnosis.acquiredWithoutQuorum', {
        client: clientValue(event.client),
        resource: code(event.resources.join(', ')),
        ok,
        votes: votes.length,
        quorum,
      }),
      seqs: [event.seq],
      window: { from: event.t, to: event.t },
      clients: [event.client],
    });
  }
}
