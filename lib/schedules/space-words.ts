/**
 * A fault space in a learner's words, so "no violation found" can say what
 * was tried: "pauses of a client, 50–400 ms; client crashes; …".
 */
import { words, type WordValue, type Words } from '../words';
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

/** A length as `ms` writes it ("400 ms", "1.5 s"), as words: seconds through the language's decimal mark. */
function msWords(n: number): WordValue {
  return { words: n >= 1000 && n % 100 === 0 ? words('runNotes.space.s', { n: n / 1000 }) : words('runNotes.space.ms', { n: String(n) }) };
}

function spanWords(r: Range): WordValue {
  return r.min === r.max ? msWords(r.min) : { words: words('runNotes.space.span', { min: msWords(r.min), max: msWords(r.max) }) };
}

function kindSaid(kind: FaultKind): Words {
  switch (kind.kind) {
    case 'client-pause':
      return words('runNotes.space.clientPause', { span: spanWords({ min: kind.minMs, max: kind.maxMs }) });
    case 'client-crash':
      return words('runNotes.space.clientCrash');
    case 'client-skew':
      return words('runNotes.space.clientSkew', { max: msWords(kind.maxOffsetMs) });
    case 'node-kill':
      return words('runNotes.space.nodeKill', { down: String(kind.maxDown), span: spanWords(kind.downMs) });
    case 'node-pause':
      return words('runNotes.space.nodePause', { span: spanWords({ min: kind.minMs, max: kind.maxMs }) });
    case 'link-cut':
      return words('runNotes.space.linkCut', { span: spanWords(kind.healAfterMs) });
    case 'partition':
      return words('runNotes.space.partition', { span: spanWords(kind.healAfterMs) });
    case 'link-delay':
      return words('runNotes.space.linkDelay', { max: msWords(kind.maxDelayMs), span: spanWords(kind.healAfterMs) });
    case 'replication-hold':
      return words('runNotes.space.replicationHold', { span: spanWords(kind.releaseAfterMs) });
    case 'failover':
      return words('runNotes.space.failover');
  }
}

/** `describeSpace`, as words (the same English: a test holds them together). */
export function describeSpaceWords(space: FaultSpace): Words[] {
  const { min, max } = space.clients;
  return [
    words('runNotes.space.clients', { clients: min === max ? String(min) : `${min}–${max}`, stagger: spanWords(space.staggerMs) }),
    words('runNotes.space.perSchedule', { max: space.maxFaults, horizon: msWords(space.horizonMs) }),
    ...space.faults.map(kindSaid),
  ];
}
