/**
 * The verdict of a run: a headline naming the property that failed and its
 * root cause (headline.ts), the facts worth seeing without opening the checks,
 * the first counter-example with "Show on timeline", the other diagnoses, the
 * checks. Pure: rendered from props (tests/unit/verdict-view.test.tsx).
 */
import { useTranslations } from 'next-intl';
import type { TimeWindow, Verdict } from '@/lib/checker';
import { CHECK_NAMES } from '@/lib/checker';
import type { RunOutcome } from '@/lib/run';
import { useFormatDuration } from '@/components/lab/use-duration';
import { CheckerText, noteSaids, useCheckerText } from './checker-text';
import { verdictHeadline } from './headline';
import { failedWords, VALIDITY_ICONS } from './verdict-words';
import { ForeignWords } from './foreign-words';
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

export function VerdictView({ verdict, running, outcome, recordedVerdict, onShow, timeOrigin = 0, empty }: VerdictViewProps) {
  const t = useTranslations('verdict');
  const formatDuration = useFormatDuration();
  // The run's end reason in the page's language when it is the lab's own sentence (errorWords).
  const checkerText = useCheckerText();
  const endError = outcome?.error ? checkerText({ message: outcome.error, words: outcome.errorWords }) : '';
  // A program that did not compile never ran: there is no history to judge, so no verdict — not even "unknown".
  const syntaxError = outcome ? notCompiled(outcome) : null;
  if (syntaxError !== null) {
    return (
      <div className={styles.verdict} data-testid="verdict" data-valid="none">
        <p className={styles.headline} data-valid="violated">
          <span className={styles.icon} aria-hidden="true">
            ✕
          </span>
          <strong className={styles.word}>{t('notRun.title')}</strong>
        </p>
        <p className={styles.line} data-testid="run-outcome">
          {t('notRun.text', { error: syntaxError })}
        </p>
      </div>
    );
  }
  if (!verdict) {
    return (
      <p className={styles.empty} data-testid="verdict" data-valid="none">
        {running ? t('checking') : (empty ?? t('empty'))}
      </p>
    );
  }
  const word = t(`validity.${verdict.valid}.word`);
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
          {VALIDITY_ICONS[verdict.valid]}
        </span>
        <span>
          <strong className={headline.title ? styles.property : styles.word}>{headline.title ? failedWords(t, headline.title) : word}</strong>
          {!verdict.final && <span className={styles.soFar}>{` ${t('soFar')}`}</span>}
        </span>
      </p>
      {!headline.title && <p className={styles.line}>{verdict.valid === 'held' && checks.length > 1 ? t('everyCheckHeld') : verdict.final && checks.length === 0 ? t('nothingChecked') : t(`validity.${verdict.valid}.line`)}</p>}
      {cause && (
        <div className={styles.cause} data-testid="root-cause" data-kind={cause.kind}>
          <p>
            <strong>{`${verdict.valid === 'violated' ? t('rootCause') : t('diagnosisLabel')} `}</strong>
            <ForeignWords><CheckerText said={cause} /></ForeignWords>
            {cause.occurrences > 1 && <span className={styles.meta}>{` ${t('seen', { n: cause.occurrences })}`}</span>}
          </p>
          {onShow && (
            <button type="button" className={styles.linkButton} onClick={() => onShow(cause.window)} aria-label={t('showCauseLabel')}>
              {t('showOnTimeline')}
            </button>
          )}
        </div>
      )}
      {headline.also.map((p) => failedWords(t, p)).map((line) => (
        <p key={line} className={styles.line}>
          {t('also', { line })}
        </p>
      ))}
      {headline.facts.length > 0 && (
        <ul className={styles.facts} data-testid="verdict-facts" aria-label={t('factsLabel')}>
          {headline.facts.map((fact) => (
            <li key={fact}>
              <ForeignWords><CheckerText said={notes.get(fact) ?? { message: fact }} /></ForeignWords>
            </li>
          ))}
        </ul>
      )}

      {example && (
        <div className={styles.example}>
          <h3 className={styles.subTitle}>{verdict.valid === 'violated' ? t('counterExample') : t('whyNotDecided')}</h3>
          <p data-testid="counter-example">
            <ForeignWords><CheckerText said={example} /></ForeignWords>
          </p>
          <p className={styles.meta}>
            {t(`check.${example.check}`)} · {example.clients.map((c) => t('client', { n: c })).join(t('listSeparator')) || t('noClient')} ·{' '}
            {t('window', { from: formatDuration(example.window.from - timeOrigin), to: formatDuration(example.window.to - timeOrigin) })}
          </p>
          {onShow && (
            <button type="button" className={styles.show} onClick={() => onShow(example.window)}>
              {t('showOnTimeline')}
            </button>
          )}
        </div>
      )}

      {others.length > 0 && (
        <div>
          <h3 className={styles.subTitle}>{cause ? t('alsoDiagnosed') : t('diagnosis')}</h3>
          <ul className={styles.diagnoses}>
            {others.map((d, i) => (
              <li key={`${d.kind}-${i}`} data-kind={d.kind}>
                <p>
                  <ForeignWords><CheckerText said={d} /></ForeignWords>
                  {d.occurrences > 1 && <span className={styles.meta}>{` ${t('seen', { n: d.occurrences })}`}</span>}
                </p>
                {onShow && (
                  <button type="button" className={styles.linkButton} onClick={() => onShow(d.window)} aria-label={t('showDiagnosisLabel', { n: i + 1 })}>
                    {t('showOnTimeline')}
                  </button>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}

      <details className={styles.checks}>
        <summary>{t('checks', { n: checks.length })}</summary>
        <ul>
          {checks.map((c) => (
            <li key={c.check} data-check={c.check} data-valid={c.valid}>
              <strong>{t(`check.${c.check}`)}</strong>
              {t('checkLine', { word: t(`validity.${c.valid}.word`) })}
              <ForeignWords><CheckerText said={{ message: c.summary, words: c.summaryWords }} /></ForeignWords>
            </li>
          ))}
          {checks.length === 0 && <li>{t('nothingYet')}</li>}
        </ul>
      </details>

      {verdict.savedByFencing.count > 0 && (
        <p className={styles.meta}>
          {t('savedByFencing', { n: verdict.savedByFencing.count })}
        </p>
      )}
      {outcome && outcome.status === 'decided' && (
        <p className={styles.meta} data-testid="run-outcome">
          {t('endedEarly', { duration: formatDuration(outcome.durationMs), error: endError })}
        </p>
      )}
      {outcome && outcome.status !== 'decided' && (
        <p className={styles.meta} data-testid="run-outcome">
          {outcome.error
            ? t('runEndedError', { status: statusKey(outcome.status), duration: formatDuration(outcome.durationMs), error: endError })
            : t('runEnded', { status: statusKey(outcome.status), duration: formatDuration(outcome.durationMs) })}
        </p>
      )}
      {recordedVerdict && recordedVerdict.valid !== verdict.valid && (
        <p className={styles.meta}>
          {t('recordedDiffers', { then: t(`validity.${recordedVerdict.valid}.word`), now: word })}
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

/** An ICU select's keys are identifiers: "syntax-error" is asked for as "syntaxError". */
function statusKey(status: RunOutcome['status']): string {
  return status === 'syntax-error' ? 'syntaxError' : status;
}
