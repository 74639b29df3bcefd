'use client';
/**
 * Time travel: pause the live view, scrub, step event by event, play a run
 * back at ¼×–4×; export the run as a file and open one again, even with no
 * lab on the server (it is re-checked here: the checker is pure). On a
 * read-only page (a shared run) there is no live lab to go back to.
 */
import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { useFormatDuration } from '@/components/lab/use-duration';
import { useLabReadOnly, useLabStore, useLabStoreApi } from '@/components/lab/lab-provider';
import { PLAYBACK_SPEEDS, hasExportableRun, upperBoundT } from '@/components/lab/run-state';
import { parseRunFile, recheck, recordRun, runFileName } from '@/components/workspace/run-file';
import { useRunFileProblemWords } from '@/components/workspace/run-file-words';
import { useShownRun } from '@/components/workspace/use-shown-run';
import styles from './time-travel.module.css';

const SPEED_WORDS: Record<number, string> = { 0.25: '¼×', 0.5: '½×', 1: '1×', 2: '2×', 4: '4×' };

export interface TimeTravelProps {
  slug: string;
  defaultClients: number;
  /** Puts a saved run's code in the editor. */
  onLoadCode?: (code: string) => void;
}

export function TimeTravel({ slug, defaultClients, onLoadCode }: TimeTravelProps) {
  const shown = useShownRun(defaultClients);
  const t = useTranslations('timeline.travel');
  const locale = useLocale();
  const formatDuration = useFormatDuration();
  const store = useLabStoreApi();
  const actions = useLabStore((s) => s.actions);
  const playing = useLabStore((s) => s.view.playing);
  const speed = useLabStore((s) => s.view.speed);
  const replay = useLabStore((s) => s.view.replay);
  // A read-only page (a shared run) has no live lab: "Back to the live lab" would only reopen the run it shows.
  const readOnly = useLabReadOnly();
  const id = useId();
  const [fileError, setFileError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const all = shown.all;
  const t0 = all[0]?.t ?? shown.origin;
  const t1 = all[all.length - 1]?.t ?? t0;
  const cursor = shown.cursorT;
  const at = cursor ?? t1;
  const shownCount = cursor === null ? all.length : upperBoundT(all, cursor);
  const empty = all.length === 0;

  // Playback: move the cursor with the animation frames, at the chosen speed, until the end.
  const cursorRef = useRef(at);
  cursorRef.current = at;
  useEffect(() => {
    if (!playing) return;
    let last = performance.now();
    let frame = requestAnimationFrame(function tick(now) {
      const next = cursorRef.current + (now - last) * speed;
      last = now;
      if (next >= t1) {
        actions.setCursor(t1);
        actions.setPlaying(false);
        return;
      }
      actions.setCursor(next);
      frame = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(frame);
  }, [playing, speed, t1, actions]);

  const step = (direction: 1 | -1) => {
    if (empty) return;
    actions.setPlaying(false);
    if (direction === 1) {
      const next = all[upperBoundT(all, at)];
      actions.setCursor(next ? next.t : t1);
    } else {
      // The last event strictly before the cursor.
      let i = upperBoundT(all, at) - 1;
      while (i >= 0 && (all[i]?.t ?? 0) >= at) i--;
      actions.setCursor(all[i]?.t ?? t0);
    }
  };

  const play = () => {
    if (empty) return;
    if (cursor === null || cursor >= t1) actions.setCursor(t0);
    actions.setPlaying(true);
  };

  const exportRun = () => {
    const state = store.getState();
    const recorded = replay ?? recordRun({ lesson: slug, run: state.run, history: state.history });
    const blob = new Blob([JSON.stringify(recorded)], { type: 'application/json' });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = runFileName(recorded);
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1_000);
  };

  const problemWords = useRunFileProblemWords();
  const openFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const parsed = parseRunFile(await file.text());
    if (!parsed.ok) {
      setFileError(problemWords(parsed.problem));
      return;
    }
    setFileError(null);
    actions.openReplay(parsed.run, recheck(parsed.run));
  };

  const hasRun = useLabStore((s) => hasExportableRun(s.run));

  return (
    <section className={styles.bar} aria-label={t('label')}>
      {replay && (
        <p className={styles.replay} role="status">
          {t('savedRun', { lesson: replay.lesson, when: new Date(replay.exportedAt).toLocaleString(locale), events: replay.history.length })}{' '}
          {!readOnly && (
            <button type="button" onClick={() => actions.openReplay(null, null)}>
              {t('backToLive')}
            </button>
          )}
          {onLoadCode && replay.code && (
            <button type="button" onClick={() => onLoadCode(replay.code)}>
              {t('loadCode')}
            </button>
          )}
        </p>
      )}
      <div className={styles.row}>
        {cursor === null ? (
          <button type="button" onClick={() => actions.setCursor(t1)} disabled={empty}>
            {shown.live ? t('pauseLive') : t('freeze')}
          </button>
        ) : (
          <button type="button" onClick={() => actions.setCursor(null)}>
            {shown.live ? t('goLive') : t('showAll')}
          </button>
        )}
        <button type="button" onClick={() => step(-1)} disabled={empty} aria-label={t('stepBackLabel')}>
          {t('stepBack')}
        </button>
        <input
          type="range"
          dir="ltr"
          className={styles.scrub}
          min={Math.floor(t0)}
          max={Math.ceil(Math.max(t1, t0 + 1))}
          step={1}
          value={Math.round(at)}
          disabled={empty}
          aria-label={t('scrub')}
          aria-valuetext={t('scrubValue', { at: formatDuration(at - shown.origin), n: shownCount, total: all.length })}
          onChange={(e) => {
            actions.setPlaying(false);
            actions.setCursor(Number(e.target.value));
          }}
        />
        <button type="button" onClick={() => step(1)} disabled={empty} aria-label={t('stepForwardLabel')}>
          {t('stepForward')}
        </button>
        {playing ? (
          <button type="button" onClick={() => actions.setPlaying(false)}>
            {t('pausePlayback')}
          </button>
        ) : (
          <button type="button" onClick={play} disabled={empty || shown.live}>
            {t('play')}
          </button>
        )}
        <label htmlFor={`${id}-speed`} className="visually-hidden">
          {t('speed')}
        </label>
        <select id={`${id}-speed`} value={speed} onChange={(e) => actions.setSpeed(Number(e.target.value))}>
          {PLAYBACK_SPEEDS.map((s) => (
            <option key={s} value={s}>
              {SPEED_WORDS[s]}
            </option>
          ))}
        </select>
        <span className={styles.readout} data-testid="time-readout" aria-live="off">
          {t('readout', { at: cursor === null ? (shown.live ? t('live') : t('all')) : formatDuration(cursor - shown.origin), n: shownCount, total: all.length })}
        </span>
        <span className={styles.files}>
          <button type="button" onClick={exportRun} disabled={!hasRun && !replay}>
            {t('export')}
          </button>
          <button type="button" onClick={() => fileInput.current?.click()}>
            {t('open')}
          </button>
          <input ref={fileInput} type="file" accept="application/json,.json" className="visually-hidden" tabIndex={-1}  aria-label={t('runFile')} onChange={(e) => void openFile(e)} />
        </span>
      </div>
      {fileError && (
        <p role="alert" className={styles.error}>
          {fileError}
        </p>
      )}
    </section>
  );
}
