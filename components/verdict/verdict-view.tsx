/**
 * The verdict of a run: held / violated / unknown in words and an icon, the
 * checks, the first counter-example with "Show on timeline", the diagnoses.
 * Pure: rendered from props (tests/unit/verdict-view.test.tsx).
 */
import type { TimeWindow, Verdict } from '@/lib/checker';
import { CHECK_NAMES } from '@/lib/checker';
import type { RunOutcome } from '@/lib/run';
import { formatDuration } from '@/lib/durations';
import { CHECK_WORDS, RUN_STATUS_WORDS, VALIDITY_WORDS } from './verdict-words';
import styles from './verdict.module.css';

export interface VerdictViewProps {
  verdict: Verdict | null;
  /** The run is still going: the verdict is "so far". */
  running: boolean;
  outcome?: RunOutcome | null;
  /** For a run opened from a file: the verdict the server had given, to compare. */
  recordedVerdict?: Verdict | null;
  onShow?: (window: TimeWindow) => void;
  /** The lab-clock time shown as 0 (the run's start), as on the timeline's axis. */
  timeOrigin?: number;
  /** Said before any verdict: how this page gets one. */
  empty?: string;
}

export function VerdictView({ verdict, running, outcome, recordedVerdict, onShow, timeOrigin = 0, empty = 'Run your program to get a verdict.' }: VerdictViewProps) {
  if (!verdict) {
    return (
      <p className={styles.empty} data-testid="verdict" data-valid="none">
        {running ? 'Checking as the run goes…' : empty}
      </p>
    );
  }
  const words = VALIDITY_WORDS[verdict.valid];
  const example = verdict.counterExample;
  const checks = CHECK_NAMES.map((name) => verdict.checks[name]).filter((c) => c.applicable);
  return (
    <div className={styles.verdict} data-testid="verdict" data-valid={verdict.valid} data-final={verdict.final || undefined}>
      <p className={styles.headline} data-valid={verdict.valid}>
        <span className={styles.icon} aria-hidden="true">
          {words.icon}
        </span>
        <span>
          <strong className={styles.word}>{words.word}</strong>
          {!verdict.final && <span className={styles.soFar}> (so far — the run is still going)</span>}
        </span>
      </p>
      <p className={styles.line}>{verdict.valid === 'held' && checks.length > 1 ? 'Every check held.' : words.line}</p>

      {example && (
        <div className={styles.example}>
          <h3 className={styles.subTitle}>{verdict.valid === 'violated' ? 'Counter-example' : 'Why not decided'}</h3>
          <p data-testid="counter-example">{example.message}</p>
          <p className={styles.meta}>
            {CHECK_WORDS[example.check]} · {example.clients.map((c) => `Client ${c}`).join(', ') || 'no client'} · from{' '}
            {formatDuration(example.window.from - timeOrigin)} to {formatDuration(example.window.to - timeOrigin)}
          </p>
          {onShow && (
            <button type="button" className={styles.show} onClick={() => onShow(example.window)}>
              Show on timeline
            </button>
          )}
        </div>
      )}

      {verdict.diagnoses.length > 0 && (
        <div>
          <h3 className={styles.subTitle}>Diagnosis</h3>
          <ul className={styles.diagnoses}>
            {verdict.diagnoses.map((d, i) => (
              <li key={`${d.kind}-${i}`} data-kind={d.kind}>
                <p>
                  {d.message}
                  {d.occurrences > 1 && <span className={styles.meta}> (seen {d.occurrences} times)</span>}
                </p>
                {onShow && (
                  <button type="button" className={styles.linkButton} onClick={() => onShow(d.window)} aria-label={`Show diagnosis ${i + 1} on timeline`}>
                    Show on timeline
                  </button>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}

      <details className={styles.checks}>
        <summary>Checks ({checks.length})</summary>
        <ul>
          {checks.map((c) => (
            <li key={c.check} data-check={c.check} data-valid={c.valid}>
              <strong>{CHECK_WORDS[c.check]}</strong>: {VALIDITY_WORDS[c.valid].word} — {c.summary}
              {c.notes.map((note) => (
                <p key={note} className={styles.meta}>
                  {note}
                </p>
              ))}
            </li>
          ))}
          {checks.length === 0 && <li>Nothing to check yet: no job, lock or store write in the history.</li>}
        </ul>
      </details>

      {verdict.savedByFencing.count > 0 && (
        <p className={styles.meta}>
          Fencing saved the store: {verdict.savedByFencing.count} stale {verdict.savedByFencing.count === 1 ? 'write was' : 'writes were'} rejected.
        </p>
      )}
      {outcome && (
        <p className={styles.meta} data-testid="run-outcome">
          The run {RUN_STATUS_WORDS[outcome.status]} after {formatDuration(outcome.durationMs)}
          {outcome.error ? `: ${outcome.error}` : '.'}
        </p>
      )}
      {recordedVerdict && recordedVerdict.valid !== verdict.valid && (
        <p className={styles.meta}>
          When it was recorded, the server said {VALIDITY_WORDS[recordedVerdict.valid].word}; checked again here, it is {words.word}.
        </p>
      )}
    </div>
  );
}
