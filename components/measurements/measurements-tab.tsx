'use client';
/** The Measurements tab's content, fetched when the tab is first opened: uPlot and the HdrHistogram stay out of the page's first load. */
import dynamic from 'next/dynamic';
import { useTranslations } from 'next-intl';
import styles from './measurements.module.css';

export const MeasurementsTab = dynamic(() => import('./measurements-view').then((m) => m.MeasurementsView), {
  ssr: false,
  loading: () => <Loading />,
});

function Loading() {
  const t = useTranslations('measurements');
  return <p className={styles.muted}>{t('loading')}</p>;
}
