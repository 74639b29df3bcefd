/**
 * The timeline in words: per lane counts and the lab events, for the text
 * alternative of the canvas (screen readers, and anyone who prefers a table).
 */
import type { GlobalMarker, Lane, TimelineLayout } from './layout';

export interface LaneSummary {
  client: number;
  label: string;
  sections: number;
  holds: number;
  failedAcquires: number;
  pauses: number;
  /** Holds kept past their validity (the holder may have lost the lock). */
  heldPastValidity: number;
  crashed: boolean;
  /** One line: "3 critical sections, 2 lock holds, paused once, crashed". */
  words: string;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function summarizeLane(lane: Lane): LaneSummary {
  let sections = 0;
  let holds = 0;
  let failedAcquires = 0;
  let pauses = 0;
  let heldPastValidity = 0;
  for (const it of lane.intervals) {
    if (it.kind === 'section') sections++;
    else if (it.kind === 'hold') {
      holds++;
      if (it.validUntil != null && it.to > it.validUntil) heldPastValidity++;
    } else if (it.kind === 'attempt' && it.end === 'failed') failedAcquires++;
    else if (it.kind === 'pause') pauses++;
  }
  const crashed = lane.markers.some((m) => m.kind === 'crash');
  const parts = [plural(sections, 'critical section'), plural(holds, 'lock hold')];
  if (failedAcquires > 0) parts.push(plural(failedAcquires, 'failed acquire'));
  if (pauses > 0) parts.push(pauses === 1 ? 'paused once' : `paused ${pauses} times`);
  if (heldPastValidity > 0) parts.push(`${plural(heldPastValidity, 'hold')} kept past validity`);
  if (crashed) parts.push('crashed');
  return { client: lane.client, label: lane.label, sections, holds, failedAcquires, pauses, heldPastValidity, crashed, words: parts.join(', ') };
}

export function summarizeLayout(layout: TimelineLayout): { lanes: LaneSummary[]; labEvents: GlobalMarker[] } {
  return {
    lanes: layout.lanes.map(summarizeLane),
    labEvents: layout.markers.filter((m) => m.kind !== 'nemesis-refused'),
  };
}
