/**
 * The faults a schedule has so far, and whether one more fits: no two faults
 * hold one target at once (the nemesis would refuse the second — "Node 3 is
 * already down" — and a refused step teaches nothing), and never more than
 * maxDown nodes down at once.
 *
 * A triggered fault's time is unknown until the run (it counts from an event),
 * so the plan is conservative about it: it shares its targets with no other
 * fault, and with a triggered kill in the schedule the kills are counted, not
 * overlapped (at most maxDown kills in all).
 */
import type { DrawnFault, Occupation } from './draw-fault';

interface Held extends Occupation {
  triggered: boolean;
}

interface Down {
  from: number;
  to: number;
  triggered: boolean;
}

const overlaps = (a: { from: number; to: number }, b: { from: number; to: number }): boolean => a.from <= b.to && b.from <= a.to;

/** The most intervals that hold one moment; closed intervals, so a restart and a kill at one time count as both down. */
function mostAtOnce(downs: readonly Down[]): number {
  let most = 0;
  for (const d of downs) most = Math.max(most, downs.filter((o) => o.from <= d.from && d.from <= o.to).length);
  return most;
}

const timingKey = (f: DrawnFault): string => `${f.timing.at}|${JSON.stringify(f.timing.when ?? null)}`;

export class Plan {
  private readonly held: Held[] = [];
  private readonly downs: Down[] = [];
  /** Clients' cuts by timing: cuts of one client with one timing read as one fault (a partition) when shrunk. */
  private readonly cutTimings = new Set<string>();

  /** maxDown: the space's bound on nodes down at once, or undefined when it has no kills. */
  constructor(private readonly maxDown: number | undefined) {}

  admits(fault: DrawnFault): boolean {
    const triggered = fault.timing.when !== undefined;
    for (const o of fault.occupations) {
      for (const h of this.held) {
        if (h.target === o.target && (triggered || h.triggered || overlaps(h, o))) return false;
      }
    }
    if (fault.cutsOf !== undefined && this.cutTimings.has(`${fault.cutsOf}|${timingKey(fault)}`)) return false;
    if (fault.down && this.maxDown !== undefined) {
      const downs = [...this.downs, { ...fault.down, triggered }];
      const bound = downs.some((d) => d.triggered) ? downs.length : mostAtOnce(downs);
      if (bound > this.maxDown) return false;
    }
    return true;
  }

  add(fault: DrawnFault): void {
    const triggered = fault.timing.when !== undefined;
    for (const o of fault.occupations) this.held.push({ ...o, triggered });
    if (fault.down) this.downs.push({ ...fault.down, triggered });
    if (fault.cutsOf !== undefined) this.cutTimings.add(`${fault.cutsOf}|${timingKey(fault)}`);
  }
}
