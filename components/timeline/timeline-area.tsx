'use client';
/**
 * The timeline area: the clients' timeline, or — when the run took a lock by
 * several nodes' votes (Redlock) — who voted for whom, node by node. Which one
 * is the store's (the view's `timelineMode`); both follow the time-travel cursor.
 */
import { useMemo } from 'react';
import { isMultiNodeLock } from '@/lib/votes';
import { useLabStore } from '@/components/lab/lab-provider';
import { useShownRun } from '@/components/workspace/use-shown-run';
import { Timeline } from './timeline';
import { VoteView } from './votes-view';
import styles from './votes.module.css';

export function TimelineArea({ defaultClients }: { defaultClients: number }) {
  const shown = useShownRun(defaultClients);
  const mode = useLabStore((s) => s.view.timelineMode);
  const setMode = useLabStore((s) => s.actions.setTimelineMode);
  const voted = useMemo(() => isMultiNodeLock(shown.all), [shown.all]);
  const votes = voted && mode === 'votes';

  return (
    <>
      {voted && (
        <div className={styles.modeBar} role="group" aria-label="Timeline view">
          <span>Show:</span>
          <button type="button" aria-pressed={!votes} onClick={() => setMode('clients')}>
            Clients
          </button>
          <button type="button" aria-pressed={votes} onClick={() => setMode('votes')}>
            Votes per node
          </button>
        </div>
      )}
      {votes ? <VoteView defaultClients={defaultClients} /> : <Timeline defaultClients={defaultClients} />}
    </>
  );
}
