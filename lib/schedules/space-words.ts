/**
 * A fault space in a learner's words, so "no violation found" can say what
 * was tried: "pauses of a client, 50–400 ms; client crashes; …". Said once, as
 * words; the English is `english()` of them.
 */
import { english } from '../checker/said';
import { words, type WordValue, type Words } from '../words';
import type { FaultKind, FaultSpace, Range } from './space';

/** A length ("400 ms", "1.5 s"), as words: whole tenths of a second as seconds, through the language's decimal mark. */
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

/** A fault space's lines, as words: its clients, its schedules' size, and each kind of fault it draws. */
export function describeSpaceWords(space: FaultSpace): Words[] {
  const { min, max } = space.clients;
  return [
    words('runNotes.space.clients', { clients: min === max ? String(min) : `${min}–${max}`, stagger: spanWords(space.staggerMs) }),
    words('runNotes.space.perSchedule', { max: space.maxFaults, horizon: msWords(space.horizonMs) }),
    ...space.faults.map(kindSaid),
  ];
}

/** A fault space's lines in English (Explore's answer, its logs). */
export function describeSpace(space: FaultSpace): string[] {
  return describeSpaceWords(space).map(english);
}
