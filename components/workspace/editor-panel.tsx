'use client';
/**
 * The editor and the run's diagnostics in words. Monaco is loaded only in
 * the browser and in its own chunk, so a lesson page's first paint does not
 * wait for it.
 */
import { useTranslations } from 'next-intl';
import dynamic from 'next/dynamic';
import { useState, type ReactNode } from 'react';
import { Link } from '@/i18n/navigation';
import type { RunDiagnostic } from '@/components/lab/run-state';
import { CheckerText } from '@/components/verdict/checker-text';
import type { ShownKind } from './editor-source';
import styles from './workspace.module.css';

const CodeEditor = dynamic(() => import('@/components/editor/code-editor'), {
  ssr: false,
  loading: () => <EditorLoading />,
});

export interface EditorPanelProps {
  slug: string;
  value: string;
  ready: boolean;
  onChange: (code: string) => void;
  onRun: () => void;
  diagnostics: readonly RunDiagnostic[];
  /** Set while the editor shows a program other than the learner's (read-only), with the way back. */
  shown?: { label: string; kind: ShownKind; onBack: () => void } | null;
}

function EditorLoading() {
  const t = useTranslations('workspace.editor');
  return <p className={styles.editorLoading} dir="auto">{t('loading')}</p>;
}

const strong = (chunks: ReactNode) => <strong>{chunks}</strong>;
const kbd = (chunks: ReactNode) => <kbd>{chunks}</kbd>;
// A key combination reads "Ctrl+Enter" in every language, not "Enter+Ctrl" in Arabic.
const keys = (chunks: ReactNode) => <span dir="ltr">{chunks}</span>;

export function EditorPanel({ slug, value, ready, onChange, onRun, diagnostics, shown = null }: EditorPanelProps) {
  const t = useTranslations('workspace.editor');
  const [reveal, setReveal] = useState<{ line: number; column: number; nonce: number } | null>(null);
  return (
    <div className={styles.editorPanel}>
      {shown && (
        <p className={styles.shownBanner} role="status" data-testid="editor-shows">
          <span>{t.rich(`shows.${shown.kind}`, { label: shown.label, strong })}</span>{' '}
          <button type="button" onClick={shown.onBack}>
            {t('backToMyCode')}
          </button>
        </p>
      )}
      {/* Code reads left to right in every language: Monaco is never mirrored. */}
      <div className={styles.editorBox} data-read-only={shown ? true : undefined} dir="ltr">
        {ready ? (
          <CodeEditor
            // One model for the learner's code and one for what is shown instead: their undo histories never mix.
            path={shown ? `${slug}.shown.ts` : `${slug}.ts`}
            label={shown ? t('labelShown', { label: shown.label }) : t('labelMine', { slug })}
            value={value}
            onChange={onChange}
            onRun={onRun}
            diagnostics={diagnostics}
            reveal={reveal}
            readOnly={shown ? t('readOnly', { label: shown.label }) : null}
          />
        ) : (
          <p className={styles.editorLoading} dir="auto">{t('loadingCode')}</p>
        )}
      </div>
      <p className={styles.editorHint}>
        {t.rich('hint', { kbd, keys })}
        {/* A new tab, so the program being written stays open next to the reference. */}
        <Link href="/reference" target="_blank" rel="noopener">
          {t('reference')}
          <span className="visually-hidden">{t('newTab')}</span>
        </Link>
      </p>
      {diagnostics.length > 0 && (
        <ul className={styles.diagnostics} aria-label={t('problems')} data-testid="diagnostics">
          {diagnostics.map((d, i) => (
            <li key={`${d.line}:${d.column}:${i}`} data-kind={d.kind}>
              <span aria-hidden="true">✕ </span>
              <strong>{t('problemAt', { kind: t(`kind.${d.kind}`), line: d.line, column: d.column })}</strong>
              {d.client ? t('problemClient', { client: d.client }) : ''}:{' '}
              {/* A limit is the lab's sentence, in the page's language; the compiler's and the program's errors are their own words. */}
              {d.words ? (
                <bdi>
                  <CheckerText said={{ message: d.message, words: d.words }} />
                </bdi>
              ) : (
                <bdi data-server-words>{d.message}</bdi>
              )}{' '}
              <button type="button" className={styles.linkButton} onClick={() => setReveal({ line: d.line, column: d.column, nonce: Date.now() })}>
                {t('goToLine', { line: d.line })}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
