'use client';
/** "Show as table": the numbers a chart draws, as a table a screen reader (or a careful reader) can go through. */
import { useTranslations } from 'next-intl';
import { useId, useState, type ReactNode } from 'react';
import styles from './measurements.module.css';

export interface ChartTableProps {
  caption: string;
  head: readonly string[];
  rows: ReadonlyArray<readonly ReactNode[]>;
}

export function ChartTable({ caption, head, rows }: ChartTableProps) {
  const t = useTranslations('measurements');
  const [shown, setShown] = useState(false);
  const id = useId();
  return (
    <div className={styles.tableToggle}>
      <button type="button" aria-pressed={shown} aria-controls={id} onClick={() => setShown((s) => !s)}>
        {t('showTable')}
      </button>
      <div id={id} hidden={!shown} className={styles.tableWrap}>
        {shown && (
          <table className={styles.table}>
            <caption>{caption}</caption>
            <thead>
              <tr>
                {head.map((h) => (
                  <th key={h} scope="col">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, i) => (
                <tr key={i}>
                  {row.map((cell, j) =>
                    j === 0 ? (
                      <th key={j} scope="row">
                        {cell}
                      </th>
                    ) : (
                      <td key={j}>{cell}</td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}
