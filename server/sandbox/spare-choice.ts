/**
 * Which warm spare a new run takes (pool.ts), if any.
 *
 * Booting a worker (QuickJS instantiated and warmed up, at nice 10 beside
 * every other lab's clients) is what a run waits for when it gets no booted
 * worker: with five busy labs on this machine's two cores a run's first line
 * came 2–3.5 s after its start on a worker still booting, 0.4–0.9 s on a
 * booted one. Runs used to take the spare in the host running fewest runs,
 * booted or not, and a new worker there when the spares' host ran more: a
 * booted spare was left waiting while the run booted another. So a booted
 * spare comes first, even in a host running up to HOST_SLACK runs more than
 * the least loaded one: hosts stay near even (what one host's crash ends,
 * its share of the connections), and refills go to the least loaded host
 * anyway. Failing that, a spare still booting in a host running fewest runs
 * (it is further along than a new one); else none, and the pool boots a new
 * worker in the host running fewest runs.
 */

/** How many more runs than the least loaded host a host may run and still have its booted spare taken. */
export const HOST_SLACK = 2;

/** What the choice needs to know of a spare. */
export interface SpareState {
  /** It has booted: a run it takes starts at once. */
  booted: boolean;
  /** Runs going in its host now. */
  hostRunning: number;
}

/** The spare a new run should take, or null to boot a new worker in the host running `fewestRunning` runs. */
export function chooseSpare<S>(spares: readonly S[], state: (spare: S) => SpareState, fewestRunning: number): S | null {
  let booted: S | null = null;
  let bootedRunning = Infinity;
  let booting: S | null = null;
  let bootingRunning = Infinity;
  for (const spare of spares) {
    const { booted: ready, hostRunning } = state(spare);
    if (ready && hostRunning <= fewestRunning + HOST_SLACK && hostRunning < bootedRunning) {
      booted = spare;
      bootedRunning = hostRunning;
    }
    if (!ready && hostRunning <= fewestRunning && hostRunning < bootingRunning) {
      booting = spare;
      bootingRunning = hostRunning;
    }
  }
  return booted ?? booting;
}
