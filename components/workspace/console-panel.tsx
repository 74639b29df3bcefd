'use client';
/** What the clients printed (console.*, lab.log) and how they failed, per client. */
import { useFormatter, useTranslations } from 'next-intl';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { consoleLines } from '@/components/clients/client-states';
import { CheckerText } from '@/components/verdict/checker-text';
import { formatDuration } from '@/lib/durations';
import { useShownRun } from './use-shown-run';
import styles from './workspace.module.css';

export function ConsolePanel({ defaultClients }: { defaultClients: number }) {
  const t = useTranslations('workspace.console');
  const format = useFormatter();
  // formatDuration's figures ("1.6 s") in the page's language ("1,6 s" in Norwegian); the units stay symbols.
  const duration = (ms: number): string => {
    if (!Number.isFinite(ms)) return formatDuration(ms);
    if (Math.abs(ms) < 1000) return `${format.number(Math.round(ms), { useGrouping: false })} ms`;
    const digits = Math.abs(ms) >= 100_000 ? 0 : 1;
    return `${format.number(ms / 1000, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false })} s`;
  };
  const shown = useShownRun(defaultClients);
  const [client, setClient] = useState<number | null>(null);
  const id = useId();
  const lines = useMemo(() => consoleLines(shown.visible, 500, client), [shown.visible, client]);
  const list = useRef<HTMLOListElement>(null);
  const stick = useRef(true);

  // Follow new lines unless the reader scrolled up to read older ones.
  useEffect(() => {
    const el = list.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [lines]);

  return (
    <section aria-labelledby="console-title" className={styles.console}>
      <div className={styles.consoleHeader}>
        <h2 id="console-title" className={styles.panelTitle}>
          {t('title')}
        </h2>
        <label htmlFor={`${id}-client`}>{t('show')}</label>
        <select id={`${id}-client`} value={client ?? ''} onChange={(e) => setClient(e.target.value ? Number(e.target.value) : null)}>
          <option value="">{t('allClients')}</option>
          {Array.from({ length: shown.clients }, (_, i) => (
            <option key={i + 1} value={i + 1}>
              {t('client', { n: i + 1 })}
            </option>
          ))}
        </select>
      </div>
      {lines.length === 0 ? (
        <p className={styles.muted}>{t('empty')}</p>
      ) : (
        <ol
          ref={list}
          className={styles.consoleLines}
          role="log"
          aria-label={t('output')}
          tabIndex={0}
          // What the programs printed is code's output: it reads left to right in every language.
          dir="ltr"
          onScroll={(e) => {
            const el = e.currentTarget;
            stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
          }}
        >
          {lines.map((line) => (
            <li key={line.seq} data-level={line.level}>
              {/* Client 0 is the lab itself: a limit, a step that never came, a run ended early. */}
              <span className={styles.consoleClient}>{line.client === 0 ? t('lab') : t('client', { n: line.client })}</span>
              <time className={styles.consoleTime}>{duration(line.t - shown.origin)}</time>
              <span className={styles.consoleText}>
                {line.level === 'warn' || line.level === 'error' ? t(`level.${line.level}`) : null}
                {/* The lab's note in the page's language (its own direction: the list reads left to right);
                    what a program printed is its own words, never translated. */}
                {line.words ? (
                  <bdi dir="auto">
                    <CheckerText said={{ message: line.text, words: line.words }} />
                  </bdi>
                ) : (
                  <span data-server-words>{line.text}</span>
                )}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
