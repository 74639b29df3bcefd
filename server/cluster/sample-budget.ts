/**
 * The node monitors of every lab in this process share one budget of key
 * samples per second. A sample is a script written to a node, run, read back
 * and published, all on the web server's one event loop; with twenty labs
 * looping on their locks, a fixed 40 ms gap per node meant about 2,500
 * samples a second and a sixth of the loop's time. So the gap a node leaves
 * after its last sample widens with the number of nodes sampling: one quiet
 * lab still sees its keys within MIN_SAMPLE_GAP_MS, a hundred busy nodes
 * share the budget (about 200 ms each). Viewers count TTLs down between
 * samples, so a wider gap shows as later values, never wrong ones.
 */

/** How long after its last sample a node still counts as sampling. */
const ACTIVE_WINDOW_MS = 1_000;
/** The count of sampling nodes is refreshed at most this often (it is asked on every key change). */
const RECOUNT_MS = 100;

export class SampleBudget {
  private readonly lastSampled = new Map<object, number>();
  private active = 0;
  private countedAt = -Infinity;

  constructor(
    /** Samples per second for all nodes together. */
    readonly perSecond: number,
    /** The gap no node goes below, however quiet the server. */
    readonly floorMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The gap, ms, a node should leave after its last sample. */
  gapMs(): number {
    const now = this.now();
    if (now - this.countedAt >= RECOUNT_MS) {
      this.countedAt = now;
      this.active = 0;
      for (const [sampler, at] of this.lastSampled) {
        if (now - at > ACTIVE_WINDOW_MS) this.lastSampled.delete(sampler);
        else this.active += 1;
      }
    }
    return Math.max(this.floorMs, (1_000 * this.active) / this.perSecond);
  }

  /** A node (any object standing for it) starts a sample now. */
  sampled(sampler: object): void {
    this.lastSampled.set(sampler, this.now());
  }

  /** The node stopped (paused, down, its lab gone): it no longer takes a share. */
  forget(sampler: object): void {
    this.lastSampled.delete(sampler);
  }
}
