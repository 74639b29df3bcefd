'use client';
/**
 * The Monaco editor of a lesson: TypeScript with the sandbox's types, the
 * run's diagnostics as markers at the learner's line, Ctrl/Cmd+Enter to run.
 * Loaded only in the browser (see editor-panel.tsx).
 */
import { useTranslations } from 'next-intl';
import { useEffect, useRef } from 'react';
import type { editor as MonacoEditor } from 'monaco-editor';
import type { RunDiagnostic } from '@/components/lab/run-state';
import { setUpMonaco } from './monaco-setup';

export interface CodeEditorProps {
  /** The model's file name, one per lesson, so undo history and markers stay with their lesson. */
  path: string;
  value: string;
  onChange: (value: string) => void;
  onRun: () => void;
  diagnostics: readonly RunDiagnostic[];
  /** Increases to move the caret to a diagnostic's line (from the list below the editor). */
  reveal: { line: number; column: number; nonce: number } | null;
  label: string;
  /** A program shown in place of the learner's code: readable and copyable, not editable. */
  readOnly?: string | null;
}

const MARKER_OWNER = 'lock-lab-run';

function prefersDark(): boolean {
  return typeof window !== 'undefined' && window.matchMedia('(prefers-color-scheme: dark)').matches;
}

export default function CodeEditor({ path, value, onChange, onRun, diagnostics, reveal, label, readOnly = null }: CodeEditorProps) {
  const t = useTranslations('editor');
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<MonacoEditor.IStandaloneCodeEditor | null>(null);
  const onChangeRef = useRef(onChange);
  const onRunRef = useRef(onRun);
  onChangeRef.current = onChange;
  onRunRef.current = onRun;

  useEffect(() => {
    const monaco = setUpMonaco();
    const uri = monaco.Uri.parse(`file:///lab/${path}`);
    const model = monaco.editor.getModel(uri) ?? monaco.editor.createModel(value, 'typescript', uri);
    if (model.getValue() !== value) model.setValue(value);
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    const editor = monaco.editor.create(host.current as HTMLDivElement, {
      model,
      theme: prefersDark() ? 'vs-dark' : 'vs',
      automaticLayout: true,
      minimap: { enabled: false },
      scrollBeyondLastLine: false,
      fontSize: 13,
      lineNumbersMinChars: 3,
      tabSize: 2,
      ariaLabel: label,
      fixedOverflowWidgets: true,
      renderLineHighlightOnlyWhenFocus: true,
      accessibilitySupport: 'auto',
      readOnly: readOnly !== null,
      ...(readOnly !== null ? { readOnlyMessage: { value: readOnly } } : {}),
    });
    editorRef.current = editor;
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => onRunRef.current());
    const changes = model.onDidChangeContent(() => onChangeRef.current(model.getValue()));
    const onScheme = () => monaco.editor.setTheme(media.matches ? 'vs-dark' : 'vs');
    media.addEventListener('change', onScheme);
    return () => {
      media.removeEventListener('change', onScheme);
      changes.dispose();
      editor.dispose();
      editorRef.current = null;
    };
    // The editor is created once per lesson file; value changes are applied below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [path, label]);

  useEffect(() => {
    editorRef.current?.updateOptions({ readOnly: readOnly !== null, readOnlyMessage: { value: readOnly ?? '' } });
  }, [readOnly]);

  // Reset to starter, Show solution, saved code arriving: replace the text as one undoable edit.
  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (!model || model.getValue() === value) return;
    model.pushEditOperations([], [{ range: model.getFullModelRange(), text: value }], () => null);
  }, [value]);

  useEffect(() => {
    const monaco = setUpMonaco();
    const model = editorRef.current?.getModel();
    if (!model) return;
    monaco.editor.setModelMarkers(
      model,
      MARKER_OWNER,
      diagnostics.map((d) => {
        const line = Math.min(Math.max(1, d.line), model.getLineCount());
        return {
          severity: d.severity === 'error' ? monaco.MarkerSeverity.Error : monaco.MarkerSeverity.Warning,
          message: `${d.client ? t('client', { n: d.client }) : ''}${d.message}`,
          startLineNumber: line,
          startColumn: Math.max(1, d.column),
          endLineNumber: line,
          endColumn: Math.max(model.getLineMaxColumn(line), d.column + 1),
          source: t(`source.${d.kind}`),
        };
      }),
    );
  }, [diagnostics, t]);

  useEffect(() => {
    const editor = editorRef.current;
    if (!editor || !reveal) return;
    editor.revealLineInCenter(reveal.line);
    editor.setPosition({ lineNumber: reveal.line, column: reveal.column });
    editor.focus();
  }, [reveal]);

  // Monaco lays code out left to right whatever the page's direction; its own words stay in its language.
  return <div ref={host} dir="ltr" className="code-editor-host" data-testid="code-editor" style={{ blockSize: '100%', inlineSize: '100%' }} />;
}
