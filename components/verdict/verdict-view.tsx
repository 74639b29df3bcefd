/**
 * The verdict of a run: a headline naming the property that failed and its
 * root cause (headline.ts), the facts worth seeing without opening the checks,
 * the first counter-example with "Show on timeline", the other diagnoses, the
 * checks. Pure: rendered from props (tests/unit/verdict-view.test.tsx).
 */
import type { TimeWindow, Verdict } from '@/lib/checker';
import { CHECK_NAMES } from '@/lib/checker';
import type { RunOutcome } from '@/lib/run';
import { formatDuration } from '@/lib/durations';
import { CheckerText, noteSaids } from './checker-text';
import { verdictHeadline } from './headline';
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

/** An ended run that left nothing to check is not "not decided (yet)": nothing more will come. */
const NOTHING_CHECKED = 'Nothing to check: the run ended before any client took a lock, entered a job or wrote to the store.';

export function VerdictView({ verdict, running, outcome, recordedVerdict, onShow, timeOrigin = 0, empty = 'Run your program to get a verdict.' }: VerdictViewProps) {
  // A program that did not compile never ran: there is no history to judge, so no verdict — not even "unknown".
  const syntaxError = outcome ? notCompiled(outcome) : null;
  if (syntaxError !== null) {
    return (
      <div className={styles.verdict} data-testid="verdict" data-valid="none">
        <p className={styles.headline} data-valid="violated">
          <span className={styles.icon} aria-hidden="true">
            ✕
          </span>
          <strong className={styles.word}>Your program did not run</strong>
        </p>
        <p className={styles.line} data-testid="run-outcome">
          It has a syntax error, so none of its clients ran and there is nothing to check. {syntaxError} Fix the line marked in the editor and run it again.
        </p>
      </div>
    );
  }
  if (!verdict) {
    return (
      <p className={styles.empty} data-testid="verdict" data-valid="none">
        {running ? 'Checking as the run goes…' : empty}
      </p>
    );
  }
  const words = VALIDITY_WORDS[verdict.valid];
  const checks = CHECK_NAMES.map((name) => verdict.checks[name]).filter((c) => c.applicable);
  const headline = verdictHeadline(verdict);
  // The counter-example of the property the headline names, so the two never talk about different failures.
  const example = (headline.property ? verdict.checks[headline.property].counterExample : null) ?? verdict.counterExample;
  const { cause } = headline;
  const others = verdict.diagnoses.filter((d) => d !== cause);
  const notes = noteSaids(checks);
  return (
    <div className={styles.verdict} data-testid="verdict" data-valid={verdict.valid} data-final={verdict.final || undefined} data-property={headline.property ?? undefined}>
      <p className={styles.headline} data-valid={verdict.valid} data-testid="verdict-headline">
        <span className={styles.icon} aria-hidden="true">
          {words.icon}
        </span>
        <span>
          <strong className={headline.title ? styles.property : styles.word}>{headline.title ?? words.word}</strong>
          {!verdict.final && <span className={styles.soFar}> (so far — the run is still going)</span>}
        </span>
      </p>
      {!headline.title && <p className={styles.line}>{verdict.valid === 'held' && checks.length > 1 ? 'Every check held.' : verdict.final && checks.length === 0 ? NOTHING_CHECKED : words.line}</p>}
      {cause && (
        <div className={styles.cause} data-testid="root-cause" data-kind={cause.kind}>
          <p>
            <strong>{verdict.valid === 'violated' ? 'Root cause: ' : 'Diagnosis: '}</strong>
            <CheckerText said={cause} />
            {cause.occurrences > 1 && <span className={styles.meta}> (seen {cause.occurrences} times)</span>}
          </p>
          {onShow && (
            <button type="button" className={styles.linkButton} onClick={() => onShow(cause.window)} aria-label="Show the root cause on the timeline">
              Show on timeline
            </button>
          )}
        </div>
      )}
      {headline.also.map((line) => (
        <p key={line} className={styles.line}>
          Also: {line}.
        </p>
      ))}
      {headline.facts.length > 0 && (
        <ul className={styles.facts} data-testid="verdict-facts" aria-label="What else the run showed">
          {headline.facts.map((fact) => (
            <li key={fact}>
              <CheckerText said={notes.get(fact) ?? { message: fact }} />
            </li>
          ))}
        </ul>
      )}

      {example && (
        <div className={styles.example}>
          <h3 className={styles.subTitle}>{verdict.valid === 'violated' ? 'Counter-example' : 'Why not decided'}</h3>
          <p data-testid="counter-example">
            <CheckerText said={example} />
          </p>
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

      {others.length > 0 && (
        <div>
          <h3 className={styles.subTitle}>{cause ? 'Also diagnosed' : 'Diagnosis'}</h3>
          <ul className={styles.diagnoses}>
            {others.map((d, i) => (
              <li key={`${d.kind}-${i}`} data-kind={d.kind}>
                <p>
                  <CheckerText said={d} />
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
              <strong>{CHECK_WORDS[c.check]}</strong>: {VALIDITY_WORDS[c.valid].word} — <CheckerText said={{ message: c.summary, words: c.summaryWords }} />
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
      {outcome && outcome.status === 'decided' && (
        <p className={styles.meta} data-testid="run-outcome">
          The run was ended early, after {formatDuration(outcome.durationMs)}: its outcome could no longer change ({outcome.error}).
        </p>
      )}
      {outcome && outcome.status !== 'decided' && (
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

/**
 * The compiler's words when the program never ran: caught before the run (sucrase), or by the engine as each
 * client started (every client then ends with the same SyntaxError before running a line).
 */
function notCompiled(outcome: RunOutcome): string | null {
  if (outcome.status === 'syntax-error') return sentence(outcome.error ?? 'SyntaxError');
  const errors = outcome.clients.map((c) => c.error ?? '');
  if (errors.length > 0 && errors.every((e) => e.startsWith('SyntaxError'))) return sentence(errors[0] ?? 'SyntaxError');
  return null;
}

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
