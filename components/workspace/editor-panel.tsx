'use client';
/**
 * The editor and the run's diagnostics in words. Monaco is loaded only in
 * the browser and in its own chunk, so a lesson page's first paint does not
 * wait for it.
 */
import dynamic from 'next/dynamic';
import { useState } from 'react';
import type { RunDiagnostic } from '@/components/lab/run-state';
import styles from './workspace.module.css';

const CodeEditor = dynamic(() => import('@/components/editor/code-editor'), {
  ssr: false,
  loading: () => <p className={styles.editorLoading}>Loading the editor…</p>,
});

export interface EditorPanelProps {
  slug: string;
  value: string;
  ready: boolean;
  onChange: (code: string) => void;
  onRun: () => void;
  diagnostics: readonly RunDiagnostic[];
}

const KIND_WORDS = { syntax: 'Syntax error', runtime: 'Runtime error', limit: 'Lab limit' } as const;

export function EditorPanel({ slug, value, ready, onChange, onRun, diagnostics }: EditorPanelProps) {
  const [reveal, setReveal] = useState<{ line: number; column: number; nonce: number } | null>(null);
  return (
    <div className={styles.editorPanel}>
      <div className={styles.editorBox}>
        {ready ? (
          <CodeEditor path={`${slug}.ts`} label={`Code editor for ${slug}. Ctrl+Enter runs. Ctrl+M then Tab leaves the editor.`} value={value} onChange={onChange} onRun={onRun} diagnostics={diagnostics} reveal={reveal} />
        ) : (
          <p className={styles.editorLoading}>Loading your code…</p>
        )}
      </div>
      <p className={styles.editorHint}>
        <kbd>Ctrl</kbd>+<kbd>Enter</kbd> runs · <kbd>Tab</kbd> indents; <kbd>Ctrl</kbd>+<kbd>M</kbd> then <kbd>Tab</kbd> moves focus out of the editor ·{' '}
        {/* A new tab, so the program being written stays open next to the reference. */}
        <a href="/reference" target="_blank" rel="noopener">
          What your code can use<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      </p>
      {diagnostics.length > 0 && (
        <ul className={styles.diagnostics} aria-label="Problems in your code" data-testid="diagnostics">
          {diagnostics.map((d, i) => (
            <li key={`${d.line}:${d.column}:${i}`} data-kind={d.kind}>
              <span aria-hidden="true">✕ </span>
              <strong>
                {KIND_WORDS[d.kind]} at line {d.line}, column {d.column}
              </strong>
              {d.client ? ` (Client ${d.client})` : ''}: {d.message}{' '}
              <button type="button" className={styles.linkButton} onClick={() => setReveal({ line: d.line, column: d.column, nonce: Date.now() })}>
                Go to line {d.line}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
