'use client';
/** The cards' moment: each node as it was at the time-travel cursor, or null while the view is live. */
import { useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useLabStore } from '@/components/lab/lab-provider';
import { useShownOrigin } from '@/components/workspace/use-shown-run';
import { NodesAt, type NodeMoment } from './nodes-at';

export interface CardsMoment {
  /** Lab time of the cursor. */
  t: number;
  /** The lab time shown as 0 (the run's start), for words. */
  origin: number;
  moments: Record<number, NodeMoment>;
}

export function useNodesAtCursor(): CardsMoment | null {
  const cursorT = useLabStore((s) => s.view.cursorT);
  const replay = useLabStore((s) => s.view.replay);
  const history = useLabStore((s) => s.history);
  const nodes = useLabStore(useShallow((s) => s.nodeIds.map((id) => s.nodes[id]).filter((n) => n !== undefined)));
  const origin = useShownOrigin();
  const [engine] = useState(() => new NodesAt());
  return useMemo(() => {
    if (cursorT === null) return null;
    // A saved run's own history when one is open; else everything this page saw (keys set before the run count).
    return { t: cursorT, origin, moments: engine.at(replay ? replay.history : history, cursorT, nodes) };
  }, [cursorT, origin, engine, replay, history, nodes]);
}
