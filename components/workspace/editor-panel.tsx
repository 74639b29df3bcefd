'use client';
/**
 * The editor and the run's diagnostics in words. Monaco is loaded only in
 * the browser and in its own chunk, so a lesson page's first paint does not
 * wait for it.
 */
import dynamic from 'next/dynamic';
import { useState } from 'react';
import type { RunDiagnostic } from '@/components/lab/run-state';
import type { ShownKind } from './editor-source';
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
  /** Set while the editor shows a program other than the learner's (read-only), with the way back. */
  shown?: { label: string; kind: ShownKind; onBack: () => void } | null;
}

const KIND_WORDS = { syntax: 'Syntax error', runtime: 'Runtime error', limit: 'Lab limit' } as const;

const SHOWN_WORDS: Record<ShownKind, string> = {
  scenario: 'the program this scenario was written for',
  solution: 'the reference solution',
  'saved-run': 'the program of the run you opened',
};

export function EditorPanel({ slug, value, ready, onChange, onRun, diagnostics, shown = null }: EditorPanelProps) {
  const [reveal, setReveal] = useState<{ line: number; column: number; nonce: number } | null>(null);
  return (
    <div className={styles.editorPanel}>
      {shown && (
        <p className={styles.shownBanner} role="status" data-testid="editor-shows">
          <span>
            The editor shows {SHOWN_WORDS[shown.kind]}
            {shown.kind === 'scenario' ? <> (<strong>{shown.label}</strong>)</> : null}, read-only; <strong>Run</strong> runs it. Your code is kept.
          </span>{' '}
          <button type="button" onClick={shown.onBack}>
            Back to my code
          </button>
        </p>
      )}
      <div className={styles.editorBox} data-read-only={shown ? true : undefined}>
        {ready ? (
          <CodeEditor
            // One model for the learner's code and one for what is shown instead: their undo histories never mix.
            path={shown ? `${slug}.shown.ts` : `${slug}.ts`}
            label={
              shown
                ? `Read-only editor showing ${shown.label}. Ctrl+Enter runs it. Ctrl+M then Tab leaves the editor.`
                : `Code editor for ${slug}. Ctrl+Enter runs. Ctrl+M then Tab leaves the editor.`
            }
            value={value}
            onChange={onChange}
            onRun={onRun}
            diagnostics={diagnostics}
            reveal={reveal}
            readOnly={shown ? `This is ${shown.label}, shown read-only. Press “Back to my code” above the editor to edit your own.` : null}
          />
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
