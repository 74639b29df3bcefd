'use client';
/** A shared-run failure in the page's language: the server's refusal from its words, or "could not be reached". */
import { useTranslations } from 'next-intl';
import { useCallback } from 'react';
import { useCheckerText } from '@/components/verdict/checker-text';
import type { SharedRunAnswer } from './shared-runs-client';

export function useSharedRunFailureWords(): (failure: Exclude<SharedRunAnswer<unknown>, { ok: true }>) => string {
  const text = useCheckerText();
  const t = useTranslations('workspace.share');
  return useCallback((failure) => ('error' in failure ? text({ message: failure.error.message, words: failure.error.words }) : t('unreachable')), [text, t]);
}
