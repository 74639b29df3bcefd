'use client';
/**
 * A shared run, opened from its link in any browser — one with no lab, never signed in: the run is fetched by id,
 * read as a run file (parseRunFile, as "Open a run" reads one) and re-checked here, then shown read-only with the
 * components a lab page uses for a saved run: the verdict, time travel, the timeline and the measurements. No socket
 * is opened. The browser that shared it may delete it here.
 */
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { createLabStore } from '@/components/lab/lab-store';
import { LabViewProvider, useLabStore } from '@/components/lab/lab-provider';
import { LabSocketClient } from '@/components/lab/socket-client';
import type { RecordedRun } from '@/components/lab/run-state';
import { MeasurementsTab } from '@/components/measurements/measurements-tab';
import { TimelineArea } from '@/components/timeline/timeline-area';
import { TimeTravel } from '@/components/timeline/time-travel';
import { VerdictPanel } from '@/components/verdict/verdict-panel';
import { parseRunFile, recheck } from '@/components/workspace/run-file';
import { useRunFileProblemWords } from '@/components/workspace/run-file-words';
import { useCheckerText } from '@/components/verdict/checker-text';
import type { Verdict } from '@/lib/checker';
import { refusal } from '@/lib/refusal-words';
import { deleteSharedRun, fetchSharedRun } from './shared-runs-client';
import { useSharedRunFailureWords } from './use-shared-run-words';
import styles from './share.module.css';
import bar from '@/components/timeline/time-travel.module.css';

type Loaded = { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'open'; run: RecordedRun; verdict: Verdict; yours: boolean } | { kind: 'deleted' };

export function SharedRunView({ id }: { id: string }) {
  // A store of its own and a socket client that is never started: the components read the store, nothing connects.
  const [lab] = useState(() => {
    const store = createLabStore();
    return { store, client: new LabSocketClient({ store, storage: null }) };
  });
  const t = useTranslations('pages.sharedRun');
  const workspace = useTranslations('workspace');
  const text = useCheckerText();
  const problemWords = useRunFileProblemWords();
  const failureWords = useSharedRunFailureWords();
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const [deleteError, setDeleteError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    void fetchSharedRun(id).then((answer) => {
      if (!current) return;
      if (!answer.ok) return setLoaded({ kind: 'failed', message: failureWords(answer) });
      const parsed = parseRunFile(JSON.stringify(answer.value.run));
      if (!parsed.ok) return setLoaded({ kind: 'failed', message: problemWords(parsed.problem) });
      const verdict = recheck(parsed.run);
      lab.store.getState().actions.openReplay(parsed.run, verdict);
      setLoaded({ kind: 'open', run: parsed.run, verdict, yours: answer.value.yours });
    });
    return () => {
      current = false;
    };
  }, [id, lab, failureWords, problemWords]);

  const remove = async () => {
    setDeleteError(null);
    const answer = await deleteSharedRun(id);
    if (!answer.ok) return setDeleteError(failureWords(answer));
    lab.store.getState().actions.openReplay(null, null);
    setLoaded({ kind: 'deleted' });
  };

  if (loaded.kind === 'loading') return <p role="status">{t('loading')}</p>;
  if (loaded.kind === 'failed')
    return (
      <p role="alert" className={styles.error} data-testid="shared-run-problem">
        {loaded.message}
      </p>
    );
  if (loaded.kind === 'deleted')
    return (
      <p role="status" data-testid="shared-run-problem">
        {text(refusal('sharedRuns.gone'))}
      </p>
    );
  const clients = loaded.run.info?.clients ?? Math.max(1, loaded.run.ended?.outcome.clients.length ?? 1);
  return (
    <LabViewProvider store={lab.store} client={lab.client} readOnly>
      <StayOnRun run={loaded.run} verdict={loaded.verdict} />
      <div className={styles.view}>
        <VerdictPanel />
        <TimeTravel slug={loaded.run.lesson} defaultClients={clients} />
        <div className={styles.timeline}>
          <TimelineArea defaultClients={clients} />
        </div>
        <section aria-label={workspace('tabs.measurements')}>
          <MeasurementsTab />
        </section>
        {loaded.yours && (
          <div className={bar.row}>
            <button type="button" onClick={() => void remove()}>
              {workspace('share.delete')}
            </button>
          </div>
        )}
        {deleteError && (
          <p role="alert" className={styles.error}>
            {deleteError}
          </p>
        )}
      </div>
    </LabViewProvider>
  );
}

/** This page shows one run and has no live lab (time travel offers no "Back to the live lab" here): the store opens the run as its saved run, and keeps it open. */
function StayOnRun({ run, verdict }: { run: RecordedRun; verdict: Verdict }) {
  const replay = useLabStore((s) => s.view.replay);
  const openReplay = useLabStore((s) => s.actions.openReplay);
  useEffect(() => {
    if (replay === null) openReplay(run, verdict);
  }, [replay, run, verdict, openReplay]);
  return null;
}
