/**
 * A fault space in a learner's words, so "no violation found" can say what
 * was tried: "pauses of a client, 50–400 ms; client crashes; …".
 */
import type { FaultKind, FaultSpace, Range } from './space';

const ms = (n: number): string => (n >= 1000 && n % 100 === 0 ? `${n / 1000} s` : `${n} ms`);
const span = (r: Range): string => (r.min === r.max ? ms(r.min) : `${ms(r.min)}–${ms(r.max)}`);

function kindWords(kind: FaultKind): string {
  switch (kind.kind) {
    case 'client-pause':
      return `pauses of a client, ${span({ min: kind.minMs, max: kind.maxMs })}`;
    case 'client-crash':
      return 'client crashes';
    case 'client-skew':
      return `a client's clock set off by up to ${ms(kind.maxOffsetMs)}`;
    case 'node-kill':
      return `node kills (at most ${kind.maxDown} down at once), restarted after ${span(kind.downMs)}`;
    case 'node-pause':
      return `paused nodes, ${span({ min: kind.minMs, max: kind.maxMs })}`;
    case 'link-cut':
      return `cut links between a client and a node, healed after ${span(kind.healAfterMs)}`;
    case 'partition':
      return `a client cut off from several nodes, healed after ${span(kind.healAfterMs)}`;
    case 'link-delay':
      return `slow links (up to ${ms(kind.maxDelayMs)}), for ${span(kind.healAfterMs)}`;
    case 'replication-hold':
      return `replication held back for ${span(kind.releaseAfterMs)}`;
    case 'failover':
      return 'a failover to the replica';
  }
}

export function describeSpace(space: FaultSpace): string[] {
  return [
    `${space.clients.min === space.clients.max ? space.clients.min : `${space.clients.min}–${space.clients.max}`} clients starting ${span(space.staggerMs)} apart`,
    `up to ${space.maxFaults} fault${space.maxFaults === 1 ? '' : 's'} per schedule, within ${ms(space.horizonMs)} of the start or of a moment of the run`,
    ...space.faults.map(kindWords),
  ];
}
