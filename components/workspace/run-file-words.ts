'use client';
/** Why a file could not be opened as a run, in the page's language (run-file.ts gives the reason as data). */
import { useTranslations } from 'next-intl';
import { useCallback } from 'react';
import type { RunFileProblem } from './run-file';

export function useRunFileProblemWords(): (problem: RunFileProblem) => string {
  const t = useTranslations('workspace.runFile');
  return useCallback(
    (problem: RunFileProblem) => {
      switch (problem.kind) {
        case 'version':
          return t('version', { version: problem.version });
        case 'unknown-events':
          return t('unknown-events', { count: problem.count });
        default:
          return t(problem.kind);
      }
    },
    [t],
  );
}
