'use client';
/**
 * Lesson 8's experiment: asks the server to play the Arabic production
 * write-up's experiment in this tab's lab (lib/experiment), and fills its
 * table as each variant's run ends — this lab's figures next to the
 * write-up's, and why they differ.
 */
import { useLabClient, useLabStore } from '@/components/lab/lab-provider';
import { CALENDAR, COMPRESSION, LINK_DELAY, VARIANTS, WRITE_UP, duplicatesPerDay, type ExperimentRow, type ExperimentVariant } from '@/lib/experiment/design';
import styles from './experiment-panel.module.css';
import workspace from './workspace.module.css';

/** A latency as people read it: two decimals below 10 ms, one above. */
export function ms(value: number): string {
  return `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;
}

/** The table's columns; on a narrow screen each cell is labelled with its column instead. */
const COLUMNS = ['Variant', 'P50 acquire', 'P95 acquire', 'P99 acquire', 'Duplicate executions', 'The write-up'] as const;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function Duplicates({ row }: { row: ExperimentRow }) {
  const perDay = duplicatesPerDay(row);
  return (
    <>
      {perDay === null ? '—' : row.duplicates === 0 ? `0 in ${plural(row.days, 'day')}` : `${perDay.toFixed(2)} a day`}
      {row.duplicates > 0 && <span className={styles.detail}>{row.duplicates} in {plural(row.days, 'day')}</span>}
      {row.daysRun < row.days && (
        <span className={styles.detail}>
          the job did not run on {plural(row.days - row.daysRun, 'day')}
          {row.acquire ? ' (no worker won the lock)' : ''}
        </span>
      )}
      {row.status === 'incomplete' && <span className={styles.detail}>incomplete: {row.note}</span>}
    </>
  );
}

function Row({ variant, row, playing }: { variant: ExperimentVariant; row: ExperimentRow | undefined; playing: boolean }) {
  const empty = playing ? 'playing…' : '';
  const figure = (pick: (r: NonNullable<ExperimentRow['acquire']>) => number) => {
    if (!row) return empty;
    if (!row.acquire) return <span aria-label="no lock, nothing to acquire">—</span>;
    return ms(pick(row.acquire));
  };
  return (
    <tr role="row" data-variant={variant.id} data-state={row ? 'done' : playing ? 'playing' : 'waiting'}>
      <th scope="row" role="rowheader">
        {variant.label}
        <span className={styles.detail}>{variant.description}</span>
        {row?.acquire && (
          <span className={styles.detail}>
            {plural(row.acquire.count, 'acquire attempt')}, {row.refused} refused
          </span>
        )}
      </th>
      {/* Each cell's content in one box: on a narrow screen it sits beside the cell's label. */}
      <td role="cell" data-label={COLUMNS[1]}>
        <div>{figure((a) => a.p50)}</div>
      </td>
      <td role="cell" data-label={COLUMNS[2]}>
        <div>{figure((a) => a.p95)}</div>
      </td>
      <td role="cell" data-label={COLUMNS[3]}>
        <div>{figure((a) => a.p99)}</div>
      </td>
      <td role="cell" data-label={COLUMNS[4]}>
        <div>{row ? <Duplicates row={row} /> : empty}</div>
      </td>
      <td role="cell" data-label={COLUMNS[5]} className={styles.writeUp}>
        <div>{variant.writeUp ?? <span aria-label="not measured in the write-up">—</span>}</div>
      </td>
    </tr>
  );
}

export function ExperimentPanel() {
  const lab = useLabClient();
  const state = useLabStore((s) => s.experiment);
  const connected = useLabStore((s) => s.connection === 'ready');
  const actions = useLabStore((s) => s.actions);
  const running = state.phase === 'running';
  const rows = new Map(state.rows.map((r) => [r.variant, r]));
  const playingIndex = VARIANTS.findIndex((v) => v.id === state.playing);
  const cpuWait = Math.max(0, ...state.rows.map((r) => r.cpuWaitMs ?? 0));

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
          Experiment: the write-up&apos;s table
        </h2>
        {running ? (
          <button type="button" className={styles.stopButton} onClick={() => void lab.stopRun()}>
            Stop the experiment
          </button>
        ) : (
          <button type="button" className={workspace.checkButton} onClick={() => void start()} aria-disabled={!connected ? true : undefined}>
            Run the experiment
          </button>
        )}
      </div>
      <p className={workspace.muted}>
        {CALENDAR.workers} workers run the same cron job at 06:00 every day for {CALENDAR.days} days, against five real nodes whose links hold every message{' '}
        {LINK_DELAY.delayMs}–{LINK_DELAY.delayMs + LINK_DELAY.jitterMs} ms each way. <strong>The days are compressed:</strong> a day lasts {CALENDAR.dayMs} ms here,{' '}
        {COMPRESSION.toLocaleString('en-US')} times faster than a real one; the job takes {CALENDAR.jobMs} ms, and the worker that wins the lock keeps it{' '}
        {CALENDAR.holdMs} ms from its wake-up, then releases it with its token. A worker that finds the lock taken skips the day. Each row is a real run in your lab, one
        after another (the timeline shows each as it plays).
      </p>
      <div aria-live="polite" className={workspace.exerciseStatus}>
        {running && (
          <p className={workspace.exerciseProgress} data-testid="experiment-progress">
            <span className={workspace.spinner} aria-hidden="true" />
            {playingIndex >= 0 ? `Playing ${VARIANTS[playingIndex]!.label} (${playingIndex + 1} of ${VARIANTS.length})…` : 'Starting…'}
          </p>
        )}
        {running && state.note && <p className={workspace.muted}>{state.note}</p>}
        {state.phase === 'done' && state.result?.cancelled && <p>Stopped after {plural(state.rows.length, 'variant')}: the rows below are the ones that finished.</p>}
        {state.phase === 'done' && state.result && !state.result.cancelled && (
          <p>
            Done in {state.result.seconds} s (random seed {state.result.seed}).
          </p>
        )}
        {state.phase === 'error' && (
          <p className={workspace.exerciseFailed} role="alert">
            The experiment could not finish: {state.error}
          </p>
        )}
      </div>
      <div className={styles.scroll} role="region" aria-label="The experiment's table" tabIndex={0}>
        {/* Roles spelled out: on a narrow screen the rows are laid out as cards, and the table must stay a table. */}
        <table className={styles.table} role="table">
          <caption>Acquire latency and duplicate executions per simulated day: this lab, next to the Arabic production write-up</caption>
          <thead role="rowgroup">
            <tr role="row">
              {COLUMNS.map((column) => (
                <th key={column} scope="col" role="columnheader">
                  {column}
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
        <summary>Why this lab&apos;s numbers differ from the write-up&apos;s</summary>
        <ul>
          <li>
            <strong>Loopback, not a data centre.</strong> The write-up&apos;s five nodes were Hetzner CCX13 servers in one region, {WRITE_UP.linkMs.min}–
            {WRITE_UP.linkMs.max} ms apart. Here the nodes, the link proxies and all five workers share one machine with other labs, so a figure moves with how busy it is
            {cpuWait > 0 ? ` (during these runs the lab's processes waited up to ${Math.round(cpuWait)} ms in one second for a CPU)` : ''}.
          </li>
          <li>
            <strong>The delay is a timer.</strong> A link proxy holds a message on a timer that counts whole milliseconds, so a {LINK_DELAY.delayMs}–
            {LINK_DELAY.delayMs + LINK_DELAY.jitterMs} ms hold lasts about 1 ms or more each way: compare the last row, the same lock with no delay.
          </li>
          <li>
            <strong>A compressed day.</strong> {CALENDAR.days} days here take {((CALENDAR.days * CALENDAR.dayMs) / 1000).toFixed(1)} s: no deploys, failovers or long pauses
            happen in them, so &ldquo;0 in {CALENDAR.days} days&rdquo; is {CALENDAR.days} mornings of one lab, not {WRITE_UP.redlockDays} days of production. The machine&apos;s
            hiccups are not compressed: a worker held back longer than the lock is kept ({CALENDAR.holdMs} ms) finds it free again and runs the job twice — the late
            worker the done-record of this lesson&apos;s exercise stops. A P99 above {CALENDAR.holdMs} ms says it can happen.
          </li>
        </ul>
      </details>
    </section>
  );
}
