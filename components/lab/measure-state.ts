/**
 * The browser's picture of run comparison: a run the learner pinned, kept (with its measurements, computed once) while
 * they run another beside it. Pure reducers, free of React (tests/unit/measure-state.test.ts).
 */
import type { RunMeasurements } from '@/lib/measurements';

export interface PinnedRun {
  /** Which run this was, in words: "Run 2: your code in “Kill three nodes”". */
  label: string;
  /** The run's id, so the same run is not compared with itself; null for a file without one. */
  runId: string | null;
  measurements: RunMeasurements;
}

export interface MeasureData {
  pinned: PinnedRun | null;
}

export const emptyMeasureData = (): MeasureData => ({ pinned: null });

export function reducePin(_: MeasureData, pinned: PinnedRun | null): MeasureData {
  return { pinned };
}
