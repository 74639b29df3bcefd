'use client';
/**
 * "Share this run", beside time travel's Export: the same recorded run (the file Export would save, or the saved run
 * being shown) is kept by the server, and the page shows its link to copy. The browser that shared it may delete it.
 */
import { useTranslations } from 'next-intl';
import { useEffect, useId, useRef, useState } from 'react';
import { useLabStore, useLabStoreApi } from '@/components/lab/lab-provider';
import { hasExportableRun } from '@/components/lab/run-state';
import { recordRun } from '@/components/workspace/run-file';
import { deleteSharedRun, shareRun } from './shared-runs-client';
import { useSharedRunFailureWords } from './use-shared-run-words';
import styles from './share.module.css';
import bar from '@/components/timeline/time-travel.module.css';

type ShareState = { kind: 'idle' } | { kind: 'sharing' } | { kind: 'shared'; id: string; link: string; copied: boolean } | { kind: 'deleted' };

export function ShareRun({ slug }: { slug: string }) {
  const t = useTranslations('workspace.share');
  const store = useLabStoreApi();
  const replay = useLabStore((s) => s.view.replay);
  const hasRun = useLabStore((s) => hasExportableRun(s.run));
  const failureWords = useSharedRunFailureWords();
  const [state, setState] = useState<ShareState>({ kind: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const linkInput = useRef<HTMLInputElement>(null);
  const id = useId();
  // A link is for the run it was made from: another run, or another saved run opened, starts without one.
  const runId = useLabStore((s) => s.run.info?.runId ?? null);
  useEffect(() => {
    setState((s) => (s.kind === 'sharing' ? s : { kind: 'idle' }));
    setError(null);
  }, [runId, replay]);

  const share = async () => {
    const lab = store.getState();
    const recorded = replay ?? recordRun({ lesson: slug, run: lab.run, history: lab.history });
    setState({ kind: 'sharing' });
    setError(null);
    const answer = await shareRun(recorded);
    if (!answer.ok) {
      setState({ kind: 'idle' });
      setError(failureWords(answer));
      return;
    }
    setState({ kind: 'shared', id: answer.value.id, link: new URL(answer.value.path, window.location.origin).href, copied: false });
  };

  const copy = async (link: string) => {
    try {
      await navigator.clipboard.writeText(link);
      setState((s) => (s.kind === 'shared' ? { ...s, copied: true } : s));
    } catch {
      // No clipboard here (a page served over plain HTTP from another machine): the link is selected to copy by hand.
      linkInput.current?.select();
    }
  };

  const remove = async (runId: string) => {
    setError(null);
    const answer = await deleteSharedRun(runId);
    if (!answer.ok) {
      setError(failureWords(answer));
      return;
    }
    setState({ kind: 'deleted' });
  };

  return (
    <section className={bar.bar} aria-label={t('button')}>
      <div className={bar.row}>
        <button type="button" onClick={() => void share()} disabled={(!hasRun && !replay) || state.kind === 'sharing'}>
          {state.kind === 'sharing' ? t('sharing') : t('button')}
        </button>
        {state.kind === 'shared' && (
          <>
            <label htmlFor={`${id}-link`} className="visually-hidden">
              {t('link')}
            </label>
            <input id={`${id}-link`} ref={linkInput} className={styles.link} readOnly value={state.link} onFocus={(e) => e.target.select()} />
            <button type="button" onClick={() => void copy(state.link)}>
              {t('copy')}
            </button>
            <button type="button" onClick={() => void remove(state.id)}>
              {t('delete')}
            </button>
          </>
        )}
      </div>
      {state.kind === 'shared' && (
        <p className={styles.note} role="status">
          {state.copied ? t('copied') : t('note')}
        </p>
      )}
      {state.kind === 'deleted' && (
        <p className={styles.note} role="status">
          {t('deleted')}
        </p>
      )}
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
