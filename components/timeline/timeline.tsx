'use client';
/**
 * The run's timeline on a canvas: one lane per client, lab events across
 * every lane, the violation as a band. Redrawn in one animation frame from
 * the pure layout; zoom with the buttons, the wheel or + / −, pan by
 * dragging or with the arrow keys, click to put the time-travel cursor.
 * Below it, the same timeline as text.
 */
import { useFormatter, useLocale, useTranslations } from 'next-intl';
import { directionOf } from '@/i18n/routing';
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { TimeWindow } from '@/lib/checker';
import { useFormatDuration } from '@/components/lab/use-duration';
import { useLabStore } from '@/components/lab/lab-provider';
import { useLabClock } from '@/components/lab/use-lab-clock';
import { useShownRun, useShownVerdict } from '@/components/workspace/use-shown-run';
import { DEFAULT_GEOMETRY, DENSE_GEOMETRY, LIGHT_THEME, drawTimeline, timelineHeight, xToTime, type CanvasWords, type Geometry, type TimelineTheme } from './draw';
import { hitTest, type Hit } from './hit-test';
import { IncrementalLayout, type TimelineLayout } from './layout';
import { layoutWords } from './layout-words';
import { useCheckerText } from '@/components/verdict/checker-text';
import { summarizeLayout } from './summary';
import styles from './timeline.module.css';
import { usePanelWidth } from './use-panel-width';

/** The smallest span the view zooms to, and shows before a run has lasted that long. */
const MIN_SPAN_MS = 20;
const INITIAL_SPAN_MS = 2_000;

function readTheme(element: HTMLElement): TimelineTheme {
  const css = getComputedStyle(element);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    background: v('--tl-background', LIGHT_THEME.background),
    text: v('--tl-text', LIGHT_THEME.text),
    muted: v('--tl-muted', LIGHT_THEME.muted),
    grid: v('--tl-grid', LIGHT_THEME.grid),
    attempt: v('--tl-attempt', LIGHT_THEME.attempt),
    hold: v('--tl-hold', LIGHT_THEME.hold),
    expired: v('--tl-expired', LIGHT_THEME.expired),
    section: v('--tl-section', LIGHT_THEME.section),
    pause: v('--tl-pause', LIGHT_THEME.pause),
    breakpoint: v('--tl-breakpoint', LIGHT_THEME.breakpoint),
    fault: v('--tl-fault', LIGHT_THEME.fault),
    recovery: v('--tl-recovery', LIGHT_THEME.recovery),
    info: v('--tl-info', LIGHT_THEME.info),
    band: v('--tl-band', LIGHT_THEME.band),
    bandEdge: v('--tl-band-edge', LIGHT_THEME.bandEdge),
    cursor: v('--tl-cursor', LIGHT_THEME.cursor),
    font: `11px ${css.fontFamily || 'system-ui'}`,
  };
}

function prefersReducedMotion(): boolean {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** `dense`: shorter lanes, for the instrument panel with many clients (draw.ts). */
export function Timeline({ defaultClients, dense = false }: { defaultClients: number; dense?: boolean }) {
  const shown = useShownRun(defaultClients);
  const verdict = useShownVerdict();
  const focus = useLabStore((s) => s.view.focus);
  const setCursor = useLabStore((s) => s.actions.setCursor);
  const now = useLabClock(shown.live && shown.cursorT === null, 100);

  // With no event yet (or none at all: a program that did not compile) the frame starts at the run's own
  // start, which the axis shows as 0 — never at the lab's 0, which would read as a negative time.
  const first = shown.all[0]?.t ?? shown.origin;
  const lastT = shown.all[shown.all.length - 1]?.t ?? first;
  const liveEnd = shown.live && now !== null ? Math.max(now, lastT) : lastT;
  const endT = shown.cursorT ?? liveEnd;

  const t = useTranslations('timeline');
  const locale = useLocale();
  const checkerText = useCheckerText();
  const shapeWords = useMemo(() => layoutWords(t, checkerText), [t, checkerText]);
  // Folded as the history grows: a live run re-lays its timeline for each batch and each tick of the clock.
  const layouter = useRef<IncrementalLayout | null>(null);
  const layout = useMemo(
    () => (layouter.current ??= new IncrementalLayout()).layout(shown.visible, { clients: shown.clients, endT, words: shapeWords }),
    [shown.visible, shown.clients, endT, shapeWords],
  );
  const format = useFormatter();
  const formatDuration = useFormatDuration();
  const summary = useMemo(() => summarizeLayout(layout, t), [layout, t]);
  const words = useMemo<CanvasWords>(
    () => ({
      lane: (client) => t('client', { n: client }),
      paused: t('canvas.paused'),
      pausedOpen: t('canvas.pausedOpen'),
      atBreakpoint: t('canvas.atBreakpoint'),
      atBreakpointOpen: t('canvas.atBreakpointOpen'),
      violation: t('canvas.violation'),
      crashed: t('canvas.crashed'),
      decimal: (value, digits) => format.number(value, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false }),
    }),
    [t, format],
  );

  /** The whole run: the frame the view fits to (the cursor moves inside it). */
  const extent: TimeWindow = useMemo(
    () => ({ from: first, to: Math.max(liveEnd, first + (shown.all.length > 0 ? MIN_SPAN_MS : INITIAL_SPAN_MS)) }),
    [first, liveEnd, shown.all.length],
  );
  const [zoom, setZoom] = useState<TimeWindow | null>(null);
  const view = zoom ?? extent;

  const wrapper = useRef<HTMLDivElement>(null);
  const width = usePanelWidth(wrapper);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [theme, setTheme] = useState<TimelineTheme>(LIGHT_THEME);
  const [highlighted, setHighlighted] = useState(false);
  const [hover, setHover] = useState<(Hit & { x: number; y: number }) | null>(null);
  const lanes = dense ? DENSE_GEOMETRY : DEFAULT_GEOMETRY;
  const geometry: Geometry = useMemo(() => ({ ...lanes, width }), [lanes, width]);
  const height = timelineHeight(lanes, layout.lanes.length);
  const band = verdict?.counterExample?.window ?? null;

  // Colours follow the light/dark scheme.
  useEffect(() => {
    const el = wrapper.current;
    if (!el) return;
    setTheme(readTheme(el));
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    const onScheme = () => setTheme(readTheme(el));
    media.addEventListener('change', onScheme);
    return () => media.removeEventListener('change', onScheme);
  }, []);

  // One draw per animation frame, whatever changed.
  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const frame = requestAnimationFrame(() => {
      const dpr = window.devicePixelRatio || 1;
      if (el.width !== Math.round(width * dpr) || el.height !== Math.round(height * dpr)) {
        el.width = Math.round(width * dpr);
        el.height = Math.round(height * dpr);
      }
      const ctx = el.getContext('2d');
      if (!ctx) return;
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      drawTimeline(ctx, { layout, geometry, height, view, theme, band, bandHighlighted: highlighted, cursorT: shown.cursorT, timeOrigin: shown.origin, words });
    });
    return () => cancelAnimationFrame(frame);
  }, [layout, geometry, height, view, theme, band, highlighted, shown.cursorT, shown.origin, width, words]);

  // A new run: fit to it again. Declared before the focus below: "Show on timeline" of a check's failure shows
  // that run and its moment in one change, and effects run in order, so the focus must come last.
  const runStart = shown.all[0]?.seq;
  useEffect(() => {
    setZoom(null);
    setHighlighted(false);
  }, [runStart]);

  // "Show on timeline": zoom to the band with some context, scroll to it, highlight it.
  useEffect(() => {
    if (!focus) return;
    const span = Math.max(MIN_SPAN_MS * 5, focus.window.to - focus.window.from);
    setZoom({ from: focus.window.from - span * 0.6, to: focus.window.to + span * 0.6 });
    setHighlighted(true);
    wrapper.current?.scrollIntoView({ block: 'center', behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
    canvas.current?.focus({ preventScroll: true });
  }, [focus]);

  const zoomBy = useCallback(
    (factor: number, centre?: number) => {
      const c = centre ?? (view.from + view.to) / 2;
      const span = Math.max(MIN_SPAN_MS, (view.to - view.from) * factor);
      const ratio = (c - view.from) / Math.max(1e-6, view.to - view.from);
      setZoom({ from: c - span * ratio, to: c - span * ratio + span });
    },
    [view],
  );
  const panBy = useCallback((fraction: number) => {
    const span = view.to - view.from;
    setZoom({ from: view.from + span * fraction, to: view.to + span * fraction });
  }, [view]);

  // Wheel zoom needs a non-passive listener to keep the page from scrolling.
  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      if (!e.ctrlKey && !e.metaKey && Math.abs(e.deltaX) <= Math.abs(e.deltaY) && !e.shiftKey) {
        e.preventDefault();
        const rect = el.getBoundingClientRect();
        zoomBy(e.deltaY > 0 ? 1.25 : 0.8, xToTime(e.clientX - rect.left, view, geometry));
      } else if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
        e.preventDefault();
        panBy((e.deltaX || e.deltaY) / 800);
      }
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [zoomBy, panBy, view, geometry]);

  const drag = useRef<{ x: number; view: TimeWindow; moved: boolean } | null>(null);
  const onPointerDown = (e: PointerEvent<HTMLCanvasElement>) => {
    drag.current = { x: e.clientX, view, moved: false };
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLCanvasElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    const d = drag.current;
    if (d) {
      const dx = e.clientX - d.x;
      if (Math.abs(dx) > 3) d.moved = true;
      if (d.moved) {
        const dt = (dx / Math.max(1, width - geometry.labelWidth)) * (d.view.to - d.view.from);
        setZoom({ from: d.view.from - dt, to: d.view.to - dt });
      }
      return;
    }
    const hit = hitTest(layout, geometry, view, e.clientX - rect.left, e.clientY - rect.top, shapeWords.stillGoing());
    setHover(hit ? { ...hit, x: e.clientX - rect.left, y: e.clientY - rect.top } : null);
  };
  const onPointerUp = (e: PointerEvent<HTMLCanvasElement>) => {
    const d = drag.current;
    drag.current = null;
    if (d && !d.moved && shown.all.length > 0) {
      const rect = e.currentTarget.getBoundingClientRect();
      const x = e.clientX - rect.left;
      if (x >= geometry.labelWidth) setCursor(Math.round(xToTime(x, view, geometry)));
    }
  };
  const onKeyDown = (e: KeyboardEvent<HTMLCanvasElement>) => {
    const keys: Record<string, () => void> = {
      ArrowLeft: () => panBy(-0.1),
      ArrowRight: () => panBy(0.1),
      '+': () => zoomBy(0.8),
      '=': () => zoomBy(0.8),
      '-': () => zoomBy(1.25),
      '0': () => setZoom(null),
    };
    const action = keys[e.key];
    if (action) {
      e.preventDefault();
      action();
    }
  };

  const sections = summary.lanes.reduce((n, l) => n + l.sections, 0);
  /** Times in words count from the run's start, like the axis. */
  const at = (t: number) => formatDuration(t - shown.origin);
  // The run standing at the breakpoint now: said in the canvas's name, as the lane bands draw it.
  const stoppedAt = useMemo(() => openStop(layout), [layout]);
  const hasStops = useMemo(() => layout.lanes.some((lane) => lane.intervals.some((it) => it.kind === 'breakpoint')), [layout]);
  const ariaLabel = t('canvasLabel', {
    clients: layout.lanes.length,
    from: at(view.from),
    to: at(view.to),
    sections,
    events: summary.labEvents.length,
    band: band ? t('canvasLabelBand', { from: at(band.from), to: at(band.to) }) : '',
    stop: stoppedAt !== null ? t('canvasLabelStopped', { at: at(stoppedAt) }) : '',
  });

  return (
    <section className={styles.timeline} aria-labelledby="timeline-title" data-testid="timeline" data-events={layout.events} data-lanes={layout.lanes.length} data-highlighted={highlighted || undefined}>
      <header className={styles.header}>
        <h2 id="timeline-title" className={styles.title}>
          {t('title')}
        </h2>
        <Legend stops={hasStops} />
        <div className={styles.zoom} role="group" aria-label={t('zoom.label')}>
          <button type="button" onClick={() => zoomBy(0.5)}>
            {t('zoom.in')}
          </button>
          <button type="button" onClick={() => zoomBy(2)}>
            {t('zoom.out')}
          </button>
          <button type="button" onClick={() => setZoom(null)} aria-pressed={zoom === null}>
            {t('zoom.fit')}
          </button>
        </div>
      </header>
      {/* Time runs left to right in every language: the canvas, its tooltip and its drag are not mirrored. */}
      <div ref={wrapper} className={styles.canvasWrap} dir="ltr">
        <canvas
          ref={canvas}
          className={styles.canvas}
          style={{ inlineSize: `${width}px`, blockSize: `${height}px` }}
          tabIndex={0}
          role="img"
          aria-label={ariaLabel}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerLeave={() => setHover(null)}
          onKeyDown={onKeyDown}
        />
        {hover && (
          // Placed by the canvas's own (physical, left-to-right) x; its words read in the page's direction, the time
          // isolated (dir="auto" would take "13.7 s" for the direction and garble an Arabic label after it).
          <div className={styles.tooltip} style={{ left: Math.min(hover.x + 12, width - 260), top: hover.y + 14 }} role="tooltip" dir={directionOf(locale)}>
            <strong>
              <bdi>{at(hover.t)}</bdi>
            </strong>{' '}
            {hover.label}
          </div>
        )}
      </div>
      <details className={styles.asText}>
        <summary>{t('asText')}</summary>
        <div className={styles.tableScroll}>
          <table className={styles.laneTable} data-testid="timeline-lanes">
            <caption className="visually-hidden">{t('table.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('table.client')}</th>
                <th scope="col">{t('table.sections')}</th>
                <th scope="col">{t('table.holds')}</th>
                <th scope="col">{t('table.failedAcquires')}</th>
                <th scope="col">{t('table.pauses')}</th>
                <th scope="col">{t('table.breakpointStops')}</th>
                <th scope="col">{t('table.summary')}</th>
              </tr>
            </thead>
            <tbody>
              {summary.lanes.map((lane) => (
                <tr key={lane.client} data-client={lane.client} data-sections={lane.sections} data-pauses={lane.pauses} data-breakpoint-stops={lane.breakpointStops}>
                  <th scope="row">{lane.label}</th>
                  <td>{lane.sections}</td>
                  <td>{lane.holds}</td>
                  <td>{lane.failedAcquires}</td>
                  <td>{lane.pauses}</td>
                  <td>{lane.breakpointStops}</td>
                  <td>{lane.words}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <h3 className={styles.subTitle}>{t('labEvents')}</h3>
        {summary.labEvents.length === 0 ? (
          <p className={styles.muted}>{t('noLabEvents')}</p>
        ) : (
          <ol className={styles.events} data-testid="timeline-lab-events">
            {summary.labEvents.slice(-50).map((m) => (
              <li key={m.seq}>
                <time>{at(m.t)}</time> {m.label}
              </li>
            ))}
          </ol>
        )}
        {band && (
          <p data-testid="timeline-band">
            {t('band', { from: at(band.from), to: at(band.to) })}
          </p>
        )}
      </details>
    </section>
  );
}

/** When the run stopped at the breakpoint it still stands at (null: it runs); the latest intervals are at each lane's end. */
function openStop(layout: TimelineLayout): number | null {
  for (const lane of layout.lanes) {
    for (let i = lane.intervals.length - 1; i >= 0; i--) {
      const it = lane.intervals[i]!;
      if (it.kind === 'breakpoint') {
        if (it.open) return it.from;
        break;
      }
    }
  }
  return null;
}

/**
 * What the lanes' marks mean. The breakpoint's band is listed only when a lane shows one: the panel's legend must
 * stay within two lines beside five nodes at 1280×800, and a stop is drawn only in a run the learner stopped.
 */
function Legend({ stops }: { stops: boolean }) {
  const t = useTranslations('timeline.legend');
  return (
    <ul className={styles.legend} aria-label={t('label')}>
      <li>
        <span className={styles.swatch} data-kind="attempt" aria-hidden="true" /> {t('attempt')}
      </li>
      <li>
        <span className={styles.swatch} data-kind="hold" aria-hidden="true" /> {t('hold')}
      </li>
      <li>
        <span className={styles.swatch} data-kind="expired" aria-hidden="true" /> {t('expired')}
      </li>
      <li>
        <span className={styles.swatch} data-kind="section" aria-hidden="true" /> {t('section')}
      </li>
      <li>
        <span className={styles.swatch} data-kind="pause" aria-hidden="true" /> {t('pause')}
      </li>
      {stops && (
        <li>
          <span className={styles.swatch} data-kind="breakpoint" aria-hidden="true" /> {t('breakpoint')}
        </li>
      )}
      <li>
        <span aria-hidden="true" className={styles.glyph} data-kind="fault">▼</span> {t('fault')}
      </li>
      <li>
        <span aria-hidden="true" className={styles.glyph} data-kind="recovery">△</span> {t('recovery')}
      </li>
      <li>
        <span className={styles.swatch} data-kind="band" aria-hidden="true" /> {t('band')}
      </li>
    </ul>
  );
}
