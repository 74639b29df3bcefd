'use client';
/**
 * The shown run's measurements (the live run, or a run opened from a file), computed from its history with
 * lib/measurements. The whole run is measured, not the part before the time-travel cursor: a figure that changed
 * while scrubbing would not be the run's.
 */
import { useLocale, useTranslations } from 'next-intl';
import { useDeferredValue, useMemo } from 'react';
import { measureRun, type RunMeasurements } from '@/lib/measurements';
import { useLabStore } from '@/components/lab/lab-provider';
import { useShownRun } from '@/components/workspace/use-shown-run';

export interface ShownMeasurements {
  measurements: RunMeasurements;
  /** Which run, in words, for pinning: "Run 2: your code in “Kill three nodes”". */
  label: string;
  runId: string | null;
  /** A run to measure exists (live or from a file). */
  hasRun: boolean;
  live: boolean;
  /** The time-travel cursor, ms from the run's start; null when not set. */
  cursorMs: number | null;
}

export function useRunMeasurements(): ShownMeasurements {
  const t = useTranslations('measurements');
  const locale = useLocale();
  const shown = useShownRun(0);
  const replay = useLabStore((s) => s.view.replay);
  const info = useLabStore((s) => s.run.info);
  const expected = useLabStore((s) => (s.view.replay ? s.view.replay.checker?.expectedExecutions : s.run.checker?.expectedExecutions));
  const started = useLabStore((s) => s.run.started);
  const program = useLabStore((s) => s.run.program);
  const scenario = useLabStore((s) => s.run.scenario?.title ?? null);
  // While a run goes on its history grows every few milliseconds: measuring may lag a frame behind it.
  const events = useDeferredValue(shown.all);
  const hasRun = replay !== null || info !== null;
  const measurements = useMemo(
    () => measureRun(hasRun ? events : [], { origin: shown.origin, ...(expected !== undefined ? { expectedExecutions: expected } : {}) }),
    [events, hasRun, shown.origin, expected],
  );
  const label = replay
    ? t('savedRun', { lesson: replay.lesson, date: new Date(replay.exportedAt).toLocaleString(locale) })
    : t('runLabel', { n: started, program: program ?? t('yourCode'), scenario: scenario ?? 'none' });
  const cursorMs = shown.cursorT === null ? null : shown.cursorT - shown.origin;
  return { measurements, label, runId: replay ? (replay.info?.runId ?? null) : (info?.runId ?? null), hasRun, live: shown.live, cursorMs };
}
