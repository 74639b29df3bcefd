'use client';
/**
 * Lesson 8's experiment: asks the server to play the Arabic production
 * write-up's experiment in this tab's lab (lib/experiment), and fills its
 * table as each variant's run ends — this lab's figures next to the
 * write-up's, and why they differ.
 */
import type { ReactNode } from 'react';
import { useFormatter, useTranslations } from 'next-intl';
import { useLabClient, useLabStore } from '@/components/lab/lab-provider';
import { CALENDAR, COMPRESSION, LINK_DELAY, VARIANTS, WRITE_UP, duplicatesPerDay, type ExperimentRow, type ExperimentVariant } from '@/lib/experiment/design';
import styles from './experiment-panel.module.css';
import workspace from './workspace.module.css';
import { useCheckerText } from '@/components/verdict/checker-text';

type Format = ReturnType<typeof useFormatter>;

/** A latency's figure as people read it: two decimals below 10 ms, one above (in the page's language: 3,20 in Norwegian). */
export function msFigure(value: number, format: Format): string {
  const digits = value < 10 ? 2 : 1;
  return format.number(value, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false });
}

/** The table's columns (message keys); on a narrow screen each cell is labelled with its column instead. */
const COLUMNS = ['variant', 'p50', 'p95', 'p99', 'duplicates', 'writeUp'] as const;

function Duplicates({ row }: { row: ExperimentRow }) {
  const t = useTranslations('experiment');
  const format = useFormatter();
  const perDay = duplicatesPerDay(row);
  return (
    <>
      {perDay === null
        ? '—'
        : row.duplicates === 0
          ? t('zeroIn', { days: row.days })
          : t('perDay', { value: format.number(perDay, { minimumFractionDigits: 2, maximumFractionDigits: 2 }) })}
      {row.duplicates > 0 && <span className={styles.detail}>{t('inDays', { n: row.duplicates, days: row.days })}</span>}
      {row.daysRun < row.days && (
        <span className={styles.detail}>
          {t('notRunOn', { days: row.days - row.daysRun })}
          {row.acquire ? t('noWinner') : ''}
        </span>
      )}
      {/* The note is the run's own account of why it ended early (a client's status or the server's error): not translated yet. */}
      {row.status === 'incomplete' && <span className={styles.detail}>{t('incomplete', { note: row.note ?? '' })}</span>}
    </>
  );
}

function WriteUp({ kind }: { kind: ExperimentVariant['writeUp'] }) {
  const t = useTranslations('experiment');
  const format = useFormatter();
  if (kind === null) return <span aria-label={t('notMeasured')}>—</span>;
  if (kind === 'duplicates-without-lock') return <>{t('writeUp.duplicates-without-lock', { n: WRITE_UP.duplicatesPerDayWithoutLock })}</>;
  return (
    <>
      {t('writeUp.redlock', {
        p50: format.number(WRITE_UP.p50),
        p95: format.number(WRITE_UP.p95),
        p99: format.number(WRITE_UP.p99),
        duplicates: WRITE_UP.duplicatesWithRedlock,
        days: WRITE_UP.redlockDays,
      })}
    </>
  );
}

function Row({ variant, row, playing }: { variant: ExperimentVariant; row: ExperimentRow | undefined; playing: boolean }) {
  const t = useTranslations('experiment');
  const format = useFormatter();
  const empty = playing ? t('playingCell') : '';
  const figure = (pick: (r: NonNullable<ExperimentRow['acquire']>) => number) => {
    if (!row) return empty;
    if (!row.acquire) return <span aria-label={t('noLock')}>—</span>;
    return t('ms', { value: msFigure(pick(row.acquire), format) });
  };
  return (
    <tr role="row" data-variant={variant.id} data-state={row ? 'done' : playing ? 'playing' : 'waiting'}>
      <th scope="row" role="rowheader">
        {t(`variants.${variant.id}.label`)}
        <span className={styles.detail}>{t(`variants.${variant.id}.description`)}</span>
        {row?.acquire && <span className={styles.detail}>{t('attempts', { n: row.acquire.count, refused: row.refused })}</span>}
      </th>
      {/* Each cell's content in one box: on a narrow screen it sits beside the cell's label. */}
      <td role="cell" data-label={t(`columns.${COLUMNS[1]}`)}>
        <div>{figure((a) => a.p50)}</div>
      </td>
      <td role="cell" data-label={t(`columns.${COLUMNS[2]}`)}>
        <div>{figure((a) => a.p95)}</div>
      </td>
      <td role="cell" data-label={t(`columns.${COLUMNS[3]}`)}>
        <div>{figure((a) => a.p99)}</div>
      </td>
      <td role="cell" data-label={t(`columns.${COLUMNS[4]}`)}>
        <div>{row ? <Duplicates row={row} /> : empty}</div>
      </td>
      <td role="cell" data-label={t(`columns.${COLUMNS[5]}`)} className={styles.writeUp}>
        <div>
          <WriteUp kind={variant.writeUp} />
        </div>
      </td>
    </tr>
  );
}

export function ExperimentPanel() {
  const t = useTranslations('experiment');
  const serverText = useCheckerText();
  const format = useFormatter();
  const lab = useLabClient();
  const state = useLabStore((s) => s.experiment);
  const connected = useLabStore((s) => s.connection === 'ready');
  const actions = useLabStore((s) => s.actions);
  const running = state.phase === 'running';
  const rows = new Map(state.rows.map((r) => [r.variant, r]));
  const playingIndex = VARIANTS.findIndex((v) => v.id === state.playing);
  const cpuWait = Math.max(0, ...state.rows.map((r) => r.cpuWaitMs ?? 0));
  const strong = (chunks: ReactNode) => <strong>{chunks}</strong>;
  const n = (value: number) => format.number(value);

  const start = async () => {
    if (running || !connected) return;
    actions.openReplay(null, null);
    actions.setCursor(null);
    await lab.runExperiment();
  };

  return (
    <section className={`${workspace.exercise} ${styles.panel}`} aria-labelledby="experiment-panel-title" data-testid="experiment">
      <div className={workspace.exerciseHead}>
        <h2 id="experiment-panel-title" className={workspace.panelTitle}>
          {t('title')}
        </h2>
        {running ? (
          <button type="button" className={styles.stopButton} onClick={() => void lab.stopRun()}>
            {t('stop')}
          </button>
        ) : (
          <button type="button" className={workspace.checkButton} onClick={() => void start()} aria-disabled={!connected ? true : undefined}>
            {t('run')}
          </button>
        )}
      </div>
      <p className={workspace.muted}>
        {t.rich('intro', {
          strong,
          workers: CALENDAR.workers,
          days: CALENDAR.days,
          delayFrom: n(LINK_DELAY.delayMs),
          delayTo: n(LINK_DELAY.delayMs + LINK_DELAY.jitterMs),
          dayMs: CALENDAR.dayMs,
          compression: n(COMPRESSION),
          jobMs: CALENDAR.jobMs,
          holdMs: CALENDAR.holdMs,
        })}
      </p>
      <div aria-live="polite" className={workspace.exerciseStatus}>
        {running && (
          <p className={workspace.exerciseProgress} data-testid="experiment-progress">
            <span className={workspace.spinner} aria-hidden="true" />
            {playingIndex >= 0 ? t('playing', { variant: t(`variants.${VARIANTS[playingIndex]!.id}.label`), n: playingIndex + 1, total: VARIANTS.length }) : t('starting')}
          </p>
        )}
        {/* The store's only note says the connection dropped and came back (components/lab/experiment-state.ts). */}
        {running && state.note && <p className={workspace.muted}>{t('connectionNote')}</p>}
        {state.phase === 'done' && state.result?.cancelled && <p>{t('stopped', { n: state.rows.length })}</p>}
        {state.phase === 'done' && state.result && !state.result.cancelled && <p>{t('done', { seconds: n(state.result.seconds), seed: state.result.seed })}</p>}
        {state.phase === 'error' && (
          <p className={workspace.exerciseFailed} role="alert">
            {t('failed', { error: serverText({ message: state.error ?? '', words: state.errorWords }) })}
          </p>
        )}
      </div>
      <div className={styles.scroll} role="region" aria-label={t('tableRegion')} tabIndex={0}>
        {/* Roles spelled out: on a narrow screen the rows are laid out as cards, and the table must stay a table. */}
        <table className={styles.table} role="table">
          <caption>{t('caption')}</caption>
          <thead role="rowgroup">
            <tr role="row">
              {COLUMNS.map((column) => (
                <th key={column} scope="col" role="columnheader">
                  {t(`columns.${column}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody role="rowgroup">
            {VARIANTS.map((variant) => (
              <Row key={variant.id} variant={variant} row={rows.get(variant.id)} playing={running && state.playing === variant.id} />
            ))}
          </tbody>
        </table>
      </div>
      <details className={styles.why} open={state.rows.length > 0 || undefined}>
        <summary>{t('why.summary')}</summary>
        <ul>
          <li>
            {t.rich('why.loopback', {
              strong,
              min: n(WRITE_UP.linkMs.min),
              max: n(WRITE_UP.linkMs.max),
              cpuWait: cpuWait > 0 ? t('why.cpuWait', { ms: Math.round(cpuWait) }) : '',
            })}
          </li>
          <li>{t.rich('why.timer', { strong, from: n(LINK_DELAY.delayMs), to: n(LINK_DELAY.delayMs + LINK_DELAY.jitterMs) })}</li>
          <li>
            {t.rich('why.compressed', {
              strong,
              days: CALENDAR.days,
              seconds: format.number((CALENDAR.days * CALENDAR.dayMs) / 1000, { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
              writeUpDays: WRITE_UP.redlockDays,
              holdMs: CALENDAR.holdMs,
            })}
          </li>
        </ul>
      </details>
    </section>
  );
}
