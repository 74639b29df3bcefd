'use client';
/** The page's `measurements` translator and language, as lib/measurements/words takes them. */
import { useLocale, useTranslations } from 'next-intl';
import { useMemo } from 'react';
import type { MeasureSay } from '@/lib/measurements/words';

export function useMeasureSay(): MeasureSay {
  const t = useTranslations('measurements');
  const locale = useLocale();
  return useMemo(() => ({ t: (key, values) => (t as unknown as MeasureSay['t'])(key, values), locale }), [t, locale]);
}
