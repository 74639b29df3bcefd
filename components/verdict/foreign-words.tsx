'use client';
/**
 * Words that come from elsewhere in their own language (a sentence that fell
 * back to English, a compiler's error, what a program printed), isolated in a
 * right-to-left page so an English sentence keeps its punctuation at its end. In a left-to-right page
 * they are left as they are, so the English page renders exactly as before.
 */
import { useLocale } from 'next-intl';
import type { ReactNode } from 'react';
import { directionOf } from '@/i18n/routing';

export function ForeignWords({ children }: { children: ReactNode }) {
  const locale = useLocale();
  return directionOf(locale) === 'rtl' ? <bdi>{children}</bdi> : <>{children}</>;
}
