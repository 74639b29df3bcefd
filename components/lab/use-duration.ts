'use client';
/**
 * `formatDuration` (lib/durations) in the page's language: the same rounding
 * ("80 ms", "1.6 s", "120 s"), with the locale's decimal sign (Norwegian
 * "1,6 s"). The unit symbols stay ms / s in every language.
 */
import { useFormatter, useTranslations } from 'next-intl';
import { useCallback } from 'react';

export type DurationFormatter = (ms: number) => string;

export function useFormatDuration(): DurationFormatter {
  const format = useFormatter();
  const t = useTranslations('lab.duration');
  return useCallback(
    (ms: number) => {
      if (!Number.isFinite(ms)) return t('forever');
      // No grouping: "1234 s" reads as it did before the translations, and a thin space would split a figure across lines.
      if (Math.abs(ms) < 1000) return t('ms', { n: format.number(Math.round(ms), { useGrouping: false }) });
      const seconds = ms / 1000;
      const shown = Math.abs(seconds) >= 100 ? format.number(Math.round(seconds), { useGrouping: false }) : format.number(seconds, { minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false });
      return t('s', { n: shown });
    },
    [format, t],
  );
}
