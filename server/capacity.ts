/**
 * How many labs and runs this machine can hold, from its memory rather than
 * a constant. A lab's worst case is what a learner can make it hold without
 * breaking a bound: each node full to its maxmemory plus redis-server's own
 * footprint, plus its history budget. Labs get 55 % of the machine's memory,
 * runs (QuickJS heaps and worker heaps) a quarter; the last fifth is the
 * server itself (about 1 GB with 20 busy labs), Next.js and the kernel. On a
 * 24 GiB machine that is 66 labs, so a class of 60 each gets one, and runs
 * may reserve 6 GiB.
 */
import os from 'node:os';
import { DEFAULT_TOPOLOGY } from '@/lib/cluster';

/** Data a node may hold (its maxmemory, in redis.conf): locks need kilobytes, experiments a few megabytes. */
export const NODE_MAXMEMORY_MB = 24;
/** A fresh redis-server's resident memory beside its data (measured: 10–12 MB). */
const NODE_BASE_MB = 12;
/** A lab's history budget and the server's own per-lab state (links, monitors, views). */
const LAB_SERVER_MB = 20;

export const LAB_WORST_CASE_MB = DEFAULT_TOPOLOGY.nodes * (NODE_MAXMEMORY_MB + NODE_BASE_MB) + LAB_SERVER_MB;

const totalMb = () => os.totalmem() / 2 ** 20;

/** The default lab cap (LOCKLAB_MAX_LABS overrides it). */
export function defaultMaxLabs(): number {
  return Math.max(4, Math.floor((totalMb() * 0.55) / LAB_WORST_CASE_MB));
}

/** The default memory all runs together may reserve (LOCKLAB_RUN_MEMORY_MB overrides it). */
export function defaultRunMemoryMb(): number {
  return Math.max(512, Math.floor(totalMb() * 0.25));
}

/**
 * Runs at once (LOCKLAB_MAX_RUNS overrides it): a lesson's timing (a pause at 600 ms, a TTL of
 * 300 ms) needs its run's worker and nodes to get a core when they ask; eight runs per core kept
 * every lesson's promise on this machine (npm run fidelity), and the rest queue for seconds.
 */
export function defaultMaxRuns(): number {
  return Math.max(4, os.availableParallelism() * 8);
}

/**
 * Runs at once admitted whatever the cores' load (LOCKLAB_CPU_FLOOR_RUNS overrides it): two per core. Past it a run
 * starts only while CPU pressure is under the limit (run-admission.ts): thirteen five-client Redlock loops fit the
 * memory budget of this 2-core machine, and most then spent their wall clock waiting for a core.
 */
export function defaultCpuFloorRuns(): number {
  return Math.max(2, os.availableParallelism() * 2);
}

/** The CPU pressure (% of time some task waited for a core, over the last second) at which runs past the floor wait. */
export const DEFAULT_CPU_PRESSURE_LIMIT = 80;

/** Past the CPU floor, runs start at least this far apart: the load one adds shows in the pressure before the next. */
export const CPU_SETTLE_MS = 1_000;

/**
 * One browser's share of the runs at once (LOCKLAB_RUNS_PER_BROWSER overrides it): a tenth of them, so
 * ten strangers cannot take every slot; but at least a check's lanes (its own lab and its spare labs), so
 * they play side by side. With a floor of two, a check's third lane waited for one of the other two to end
 * before each of its runs (1–4 s each, measured with five busy labs), and its spare lab sat idle.
 */
export function defaultRunsPerBrowser(maxRuns: number, checkLanes = 2): number {
  return Math.max(2, checkLanes, Math.ceil(maxRuns / 10));
}

/**
 * One browser's share of the run memory (LOCKLAB_RUN_MEMORY_PER_BROWSER_MB overrides it): a tenth of the
 * budget, but never less than one run of the most clients a run may have, or such a run could never start.
 */
export function defaultRunMemoryPerBrowserMb(runMemoryMb: number, largestRunMb: number): number {
  return Math.max(Math.ceil(runMemoryMb / 10), largestRunMb);
}
