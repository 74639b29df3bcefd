'use client';
/**
 * What the timeline, console and verdict show: the live run (from its start,
 * cut at the time-travel cursor), or a run opened from a file.
 */
import { useMemo } from 'react';
import type { Verdict } from '@/lib/checker';
import type { HistoryEvent } from '@/lib/history';
import { useLabStore } from '@/components/lab/lab-provider';
import { viewOrigin } from '@/components/lab/lab-state';
import { lowerBoundT, upperBoundT } from '@/components/lab/run-state';
import { runOrigin } from './run-file';

export interface ShownRun {
  /** Every event of the run (or of the lab, before any run). */
  all: readonly HistoryEvent[];
  /** The events up to the cursor. */
  visible: readonly HistoryEvent[];
  /** Lanes to show even before clients act. */
  clients: number;
  /** A recorded run, not the live lab. */
  recorded: boolean;
  cursorT: number | null;
  /** The run is still going (live). */
  live: boolean;
  /** The lab-clock time shown as 0: the run's start, or before any run when this page's view began. */
  origin: number;
}

export function useShownRun(defaultClients: number): ShownRun {
  const history = useLabStore((s) => s.history);
  const startedAt = useLabStore((s) => s.run.info?.startedAt ?? null);
  const runClients = useLabStore((s) => s.run.info?.clients ?? null);
  const phase = useLabStore((s) => s.run.phase);
  const replay = useLabStore((s) => s.view.replay);
  const cursorT = useLabStore((s) => s.view.cursorT);
  const pageOrigin = useLabStore(viewOrigin);

  const shownUntilT = useLabStore((s) => s.run.shownUntilT);

  const all = useMemo(() => {
    if (replay) return replay.history;
    const from = startedAt === null ? 0 : lowerBoundT(history, startedAt);
    // A run shown again after others played in the lab (the learner's own after a check): its events only.
    const to = shownUntilT === null ? history.length : lowerBoundT(history, shownUntilT);
    return from === 0 && to === history.length ? history : history.slice(from, Math.max(from, to));
  }, [replay, history, startedAt, shownUntilT]);

  const visible = useMemo(() => (cursorT === null ? all : all.slice(0, upperBoundT(all, cursorT))), [all, cursorT]);

  return {
    all,
    visible,
    clients: replay ? (replay.info?.clients ?? defaultClients) : (runClients ?? defaultClients),
    recorded: replay !== null,
    cursorT,
    live: !replay && (phase === 'running' || phase === 'starting' || phase === 'stopping'),
    origin: replay ? runOrigin(replay) : (startedAt ?? pageOrigin),
  };
}

/** The lab-clock time the shown run counts from (what ShownRun calls `origin`), without the history work. */
export function useShownOrigin(): number {
  const replay = useLabStore((s) => s.view.replay);
  const startedAt = useLabStore((s) => s.run.info?.startedAt ?? null);
  const pageOrigin = useLabStore(viewOrigin);
  return replay ? runOrigin(replay) : (startedAt ?? pageOrigin);
}

export function useShownVerdict(): Verdict | null {
  const replay = useLabStore((s) => s.view.replayVerdict);
  const hasReplay = useLabStore((s) => s.view.replay !== null);
  const live = useLabStore((s) => s.run.verdict);
  return hasReplay ? replay : live;
}
