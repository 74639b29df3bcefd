'use client';
/**
 * The timeline area: the clients' timeline, or — when the run took a lock by
 * several nodes' votes (Redlock) — who voted for whom, node by node. Which one
 * is the store's (the view's `timelineMode`); both follow the time-travel cursor.
 */
import { useTranslations } from 'next-intl';
import { useMemo } from 'react';
import { isMultiNodeLock } from '@/lib/votes';
import { useLabStore } from '@/components/lab/lab-provider';
import { useShownRun } from '@/components/workspace/use-shown-run';
import { Timeline } from './timeline';
import { VoteView } from './votes-view';
import styles from './votes.module.css';

/** `dense`: the clients' timeline with shorter lanes (the instrument panel with many clients). */
export function TimelineArea({ defaultClients, dense = false }: { defaultClients: number; dense?: boolean }) {
  const shown = useShownRun(defaultClients);
  const mode = useLabStore((s) => s.view.timelineMode);
  const setMode = useLabStore((s) => s.actions.setTimelineMode);
  const voted = useMemo(() => isMultiNodeLock(shown.all), [shown.all]);
  const votes = voted && mode === 'votes';
  const t = useTranslations('timeline.mode');

  return (
    <>
      {voted && (
        <div className={styles.modeBar} role="group" aria-label={t('label')} data-dense={dense || undefined}>
          <span>{t('show')}</span>
          <button type="button" aria-pressed={!votes} onClick={() => setMode('clients')}>
            {t('clients')}
          </button>
          <button type="button" aria-pressed={votes} onClick={() => setMode('votes')}>
            {t('votes')}
          </button>
        </div>
      )}
      {votes ? <VoteView defaultClients={defaultClients} /> : <Timeline defaultClients={defaultClients} dense={dense} />}
    </>
  );
}
