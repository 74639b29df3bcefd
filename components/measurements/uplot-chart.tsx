'use client';
/**
 * One uPlot chart, sized to its container and drawn again when its data or width changes. The canvas is an image to
 * assistive technology, named by its figures; each chart has a table beside it (ChartTable).
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { colorsOf, type Chart, type ChartColors } from './chart-options';
import styles from './measurements.module.css';

export interface UPlotChartProps {
  /** Builds the chart for the page's colours and the container's width (memoize it: a new function draws anew). */
  build: (colors: ChartColors, size: { width: number; height: number }) => Chart;
  /** What the chart shows, in words (its accessible name). */
  label: string;
  height: number;
}

export function UPlotChart({ build, label, height }: UPlotChartProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(Math.floor(element.clientWidth));
    const observer = new ResizeObserver((entries) => {
      const next = Math.floor(entries[0]?.contentRect.width ?? 0);
      setWidth((w) => (Math.abs(w - next) >= 1 ? next : w));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || width <= 0) return;
    const chart = build(colorsOf(element), { width, height });
    const plot = new uPlot(chart.options, chart.data, element);
    return () => plot.destroy();
  }, [build, width, height]);

  // Time and latency run left to right in every language: the chart does not mirror in a right-to-left page.
  return <div ref={ref} role="img" aria-label={label} dir="ltr" className={styles.chart} style={{ blockSize: height }} />;
}
