/**
 * Diagnosis: two clients inside the same job at once, each with a live hold
 * of the same lock on a set of nodes the other's does not touch: the code
 * counted a minority of the nodes as the lock (lesson 5's ⌊n/2⌋), so both
 * sides of a split could lock. Only for code that collects votes itself (a
 * hold on more than one node): two single-node holds are a lost lock
 * (failover, restart), not a quorum.
 */
import type { DiagnosisLog } from './diagnoses';
import type { Hold } from './holds';
import type { HoldObserver, HoldsView } from './hold-observer';
import { client as clientValue, code, node as nodeValue } from './format';
import { words } from '../words';
import type { DiagnosisSpec } from './diagnosis-spec';

/** Two clients counted the lock as theirs on disjoint sets of nodes: the quorum the code asked for is not a majority. */
export const QUORUM_NOT_MAJORITY = { kind: 'quorum-not-majority', grades: 'fatal' } as const satisfies DiagnosisSpec;

export class QuorumNotMajority implements HoldObserver {
  constructor(
    private readonly log: DiagnosisLog,
    private readonly holds: Pick<HoldsView, 'nodesOf' | 'labNodes'>,
  ) {}

  bothInside(first: Hold, second: Hold, t: number, seq: number): void {
    if (first.client === second.client || first.resource !== second.resource) return;
    if (first.released || second.released || first.expiresAt <= t || second.expiresAt <= t) return;
    if (Math.max(first.nodes.size, second.nodes.size) < 2 || [...first.nodes].some((n) => second.nodes.has(n))) return;
    const total = Math.max(this.holds.labNodes, this.holds.nodesOf(first.resource).size, first.nodes.size + second.nodes.size);
    const [minority, other] = first.nodes.size <= second.nodes.size ? [first, second] : [second, first];
    if (minority.nodes.size > total / 2) return;
    const names = (hold: Hold) => ({ list: [...hold.nodes].sort((a, b) => a - b).map(nodeValue) });
    this.log.add({
      kind: QUORUM_NOT_MAJORITY.kind,
      check: 'mutual-exclusion',
      subject: `${first.resource}|${minority.nodes.size}`,
      words: words('checker.diagnosis.quorumNotMajority', {
        client: clientValue(minority.client),
        resource: code(minority.resource),
        size: minority.nodes.size,
        total,
        nodes: names(minority),
        other: clientValue(other.client),
        otherNodes: names(other),
        majority: Math.floor(total / 2) + 1,
      }),
      seqs: [first.startSeq, second.startSeq, seq],
      window: { from: Math.max(first.startT, second.startT), to: t },
      clients: [first.client, second.client],
    });
  }
}
