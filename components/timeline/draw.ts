/**
 * Draws a timeline layout on a 2D canvas. No React, no DOM reads: the
 * caller passes the size, the visible time window and the colours, so the
 * same function runs in the page, in the benchmark (headless Chromium) and
 * could run in a worker. Shapes are batched per style (one fill per kind)
 * and anything narrower than a pixel is merged, so 10,000 events draw in a
 * few milliseconds.
 */
import type { TimeWindow } from '@/lib/checker';
import type { GlobalMarker, LaneInterval, LaneMarker, TimelineLayout } from './layout';

export interface TimelineTheme {
  background: string;
  text: string;
  muted: string;
  grid: string;
  attempt: string;
  hold: string;
  expired: string;
  section: string;
  pause: string;
  /** A stop at the breakpoint: its own colour and pattern, never a pause's. */
  breakpoint: string;
  fault: string;
  recovery: string;
  info: string;
  band: string;
  bandEdge: string;
  cursor: string;
  font: string;
}

export const LIGHT_THEME: TimelineTheme = {
  background: '#ffffff',
  text: '#1b1b1f',
  muted: '#55555f',
  grid: '#e4e4ea',
  attempt: '#8a94b8',
  hold: '#1f4fd1',
  expired: '#9db2ee',
  section: '#17733a',
  pause: '#8a5a00',
  breakpoint: '#6d3fb5',
  fault: '#b42318',
  recovery: '#17733a',
  info: '#3b4a6b',
  band: 'rgba(180, 35, 24, 0.16)',
  bandEdge: '#b42318',
  cursor: '#1b1b1f',
  font: '11px system-ui, sans-serif',
};

export interface Geometry {
  width: number;
  /** Left gutter for lane names. */
  labelWidth: number;
  axisHeight: number;
  markerHeight: number;
  laneHeight: number;
}

export const DEFAULT_GEOMETRY: Omit<Geometry, 'width'> = {
  labelWidth: 76,
  axisHeight: 20,
  markerHeight: 18,
  laneHeight: 34,
};

/** Many lanes in the instrument panel (five clients): shorter lanes, so the timeline stays on a laptop's screen. */
export const DENSE_GEOMETRY: Omit<Geometry, 'width'> = { ...DEFAULT_GEOMETRY, laneHeight: 24 };

export const timelineHeight = (g: Omit<Geometry, 'width'>, lanes: number): number =>
  g.axisHeight + g.markerHeight + Math.max(1, lanes) * g.laneHeight + 4;

export interface DrawInput {
  layout: TimelineLayout;
  geometry: Geometry;
  height: number;
  view: TimeWindow;
  theme: TimelineTheme;
  /** The violation, drawn as a band over every lane. */
  band?: TimeWindow | null;
  /** Draw the band emphasised (after "Show on timeline"). */
  bandHighlighted?: boolean;
  /** Time-travel cursor. */
  cursorT?: number | null;
  /** The lab-clock time the axis calls 0: the run's start, so the axis reads like the lesson's "at 600 ms". */
  timeOrigin?: number;
  /** The words drawn on the canvas, in the page's language (English when left out). */
  words?: CanvasWords;
}

/** What the canvas writes: lane names, the pause, breakpoint and crash tags, the band's tag, and the axis' numbers. */
export interface CanvasWords {
  lane(client: number): string;
  paused: string;
  pausedOpen: string;
  atBreakpoint: string;
  atBreakpointOpen: string;
  violation: string;
  crashed: string;
  /** A decimal figure as the page writes it ("1.5" / "1,5"). */
  decimal(value: number, fractionDigits: number): string;
}

export const ENGLISH_CANVAS_WORDS: CanvasWords = {
  lane: (client) => `Client ${client}`,
  paused: 'paused',
  pausedOpen: 'paused…',
  atBreakpoint: 'at breakpoint',
  atBreakpointOpen: 'at breakpoint…',
  violation: '✕ violation',
  crashed: 'crashed',
  decimal: (value, digits) => value.toFixed(digits),
};

/** The small part of CanvasRenderingContext2D the drawing uses (so tests can record calls). */
export type Ctx = Pick<
  CanvasRenderingContext2D,
  | 'fillStyle'
  | 'strokeStyle'
  | 'lineWidth'
  | 'font'
  | 'textBaseline'
  | 'textAlign'
  | 'globalAlpha'
  | 'fillRect'
  | 'strokeRect'
  | 'clearRect'
  | 'beginPath'
  | 'rect'
  | 'moveTo'
  | 'lineTo'
  | 'fill'
  | 'stroke'
  | 'fillText'
  | 'save'
  | 'restore'
  | 'setLineDash'
  | 'closePath'
>;

export const timeToX = (t: number, view: TimeWindow, g: Geometry): number =>
  g.labelWidth + ((t - view.from) / Math.max(1e-6, view.to - view.from)) * (g.width - g.labelWidth);

export const xToTime = (x: number, view: TimeWindow, g: Geometry): number =>
  view.from + ((x - g.labelWidth) / Math.max(1, g.width - g.labelWidth)) * (view.to - view.from);

export const laneTop = (index: number, g: Omit<Geometry, 'width'>): number => g.axisHeight + g.markerHeight + index * g.laneHeight;

/** Rows inside a lane: locks (attempts and holds) above, critical sections below; laid out for 34 px, scaled to the lane. */
export interface LaneRows {
  lock: { top: number; height: number };
  section: { top: number; height: number };
  /** Above this (from the lane's top) a pointer is on the lock row, below it on the section row. */
  split: number;
}

export function laneRows(laneHeight: number): LaneRows {
  const k = laneHeight / 34;
  return {
    lock: { top: Math.round(5 * k), height: Math.round(11 * k) },
    section: { top: Math.round(19 * k), height: Math.round(10 * k) },
    split: Math.round(17 * k),
  };
}

/** A "nice" tick step for the axis: 1, 2 or 5 × 10^n ms giving ≥ 70 px between ticks. */
export function tickStep(view: TimeWindow, pixels: number): number {
  const span = Math.max(1, view.to - view.from);
  const raw = (span * 70) / Math.max(1, pixels);
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * power >= raw) return m * power;
  return 10 * power;
}

export function formatTick(ms: number, step: number, decimal: CanvasWords['decimal'] = ENGLISH_CANVAS_WORDS.decimal): string {
  if (step >= 1000) return `${decimal(ms / 1000, step >= 10_000 ? 0 : 1)} s`;
  if (Math.abs(ms) >= 1000) return `${decimal(ms / 1000, step >= 100 ? 1 : step >= 10 ? 2 : 3)} s`;
  return `${Math.round(ms)} ms`;
}

export interface DrawStats {
  intervalsDrawn: number;
  markersDrawn: number;
}

/** What every part of one frame draws with. */
interface Frame {
  ctx: Ctx;
  input: DrawInput;
  layout: DrawInput['layout'];
  g: Geometry;
  view: TimeWindow;
  theme: TimelineTheme;
  words: CanvasWords;
  stats: DrawStats;
  rows: LaneRows;
  /** The right edge, and the bottom of the last lane. */
  right: number;
  lanesBottom: number;
  x: (t: number) => number;
}

/** One frame, back to front: axis, lanes, pauses, bars, votes, markers, the violation band, the cursor. */
export function drawTimeline(ctx: Ctx, input: DrawInput): DrawStats {
  const { layout, geometry: g, view, theme } = input;
  const f: Frame = {
    ctx, input, layout, g, view, theme,
    words: input.words ?? ENGLISH_CANVAS_WORDS,
    stats: { intervalsDrawn: 0, markersDrawn: 0 },
    rows: laneRows(g.laneHeight),
    right: g.width,
    lanesBottom: laneTop(layout.lanes.length, g),
    x: (t: number) => timeToX(t, view, g),
  };
  ctx.fillStyle = theme.background;
  ctx.fillRect(0, 0, g.width, input.height);
  ctx.font = theme.font;
  ctx.textBaseline = 'middle';
  drawAxis(f);
  drawLaneNames(f);
  drawBreakpointStops(f);
  drawPauses(f);
  drawBars(f, 'attempt', { top: f.rows.lock.top + 2, height: f.rows.lock.height - 4 }, theme.attempt, true);
  drawBars(f, 'hold', f.rows.lock, theme.hold, false);
  drawBars(f, 'section', f.rows.section, theme.section, false);
  drawPastValidity(f);
  drawVotes(f);
  drawBreakpointWords(f);
  drawLaneMarkers(f);
  drawGlobalMarkers(f);
  drawBand(f);
  drawCursor(f);
  return f.stats;
}

/** Axis and grid: ticks at round numbers of run time. */
function drawAxis({ ctx, input, g, view, theme, words, right, lanesBottom, x }: Frame): void {
  const origin = input.timeOrigin ?? 0;
  const step = tickStep(view, right - g.labelWidth);
  ctx.fillStyle = theme.muted;
  ctx.textAlign = 'center';
  ctx.beginPath();
  for (let t = Math.ceil((view.from - origin) / step) * step + origin; t <= view.to; t += step) {
    const tx = Math.round(x(t)) + 0.5;
    if (tx < g.labelWidth) continue;
    ctx.moveTo(tx, g.axisHeight - 4);
    ctx.lineTo(tx, lanesBottom);
    ctx.fillText(formatTick(t - origin, step, words.decimal), tx, g.axisHeight / 2 - 1);
  }
  ctx.strokeStyle = theme.grid;
  ctx.lineWidth = 1;
  ctx.stroke();
}

/** Lane backgrounds, names and separators. */
function drawLaneNames({ ctx, layout, g, theme, words, right }: Frame): void {
  ctx.textAlign = 'start';
  layout.lanes.forEach((lane, i) => {
    const top = laneTop(i, g);
    if (i % 2 === 1) {
      ctx.globalAlpha = 0.35;
      ctx.fillStyle = theme.grid;
      ctx.fillRect(g.labelWidth, top, right - g.labelWidth, g.laneHeight);
      ctx.globalAlpha = 1;
    }
    ctx.fillStyle = theme.text;
    ctx.fillText(words.lane(lane.client), 6, top + g.laneHeight / 2);
  });
}

/** Pauses first, under everything: a striped lane background, then its edges and the word, so a pause is not told by colour alone. */
function drawPauses(f: Frame): void {
  const { ctx, layout, g, view, theme, words, right, x } = f;
  ctx.save();
  ctx.globalAlpha = 0.28;
  ctx.fillStyle = theme.pause;
  ctx.beginPath();
  layout.lanes.forEach((lane, i) => {
    const top = laneTop(i, g);
    for (const it of lane.intervals) {
      if (it.kind !== 'pause' || it.to < view.from || it.from > view.to) continue;
      const [x1, x2] = clampX(x(it.from), x(it.to), g.labelWidth, right);
      ctx.rect(x1, top + 1, Math.max(2, x2 - x1), g.laneHeight - 2);
      f.stats.intervalsDrawn++;
    }
  });
  ctx.fill();
  ctx.restore();
  ctx.strokeStyle = theme.pause;
  ctx.fillStyle = theme.pause;
  ctx.setLineDash([3, 2]);
  ctx.beginPath();
  layout.lanes.forEach((lane, i) => {
    const top = laneTop(i, g);
    for (const it of lane.intervals) {
      if (it.kind !== 'pause' || it.to < view.from || it.from > view.to) continue;
      const [x1, x2] = clampX(x(it.from), x(it.to), g.labelWidth, right);
      ctx.rect(x1 + 0.5, top + 1.5, Math.max(1, x2 - x1 - 1), g.laneHeight - 3);
      if (x2 - x1 > 46) ctx.fillText(it.open ? words.pausedOpen : words.paused, x1 + 4, top + g.laneHeight - 7);
    }
  });
  ctx.stroke();
  ctx.setLineDash([]);
}

/**
 * Stops at the breakpoint, under everything like pauses but unlike them: a light wash with level lines and a solid
 * edge where the run stopped; the word goes over the bars, at the top of the lane (a pause's is at the bottom), so
 * a client both held and paused shows both.
 */
function drawBreakpointStops(f: Frame): void {
  const { ctx, layout, g, view, theme, right, x } = f;
  const spans: { x1: number; x2: number; top: number; open: boolean }[] = [];
  layout.lanes.forEach((lane, i) => {
    const top = laneTop(i, g);
    for (const it of lane.intervals) {
      if (it.kind !== 'breakpoint' || it.to < view.from || it.from > view.to) continue;
      const [x1, x2] = clampX(x(it.from), x(it.to), g.labelWidth, right);
      spans.push({ x1, x2: Math.max(x1 + 2, x2), top, open: it.open });
      f.stats.intervalsDrawn++;
    }
  });
  if (spans.length === 0) return;
  ctx.save();
  ctx.fillStyle = theme.breakpoint;
  ctx.globalAlpha = 0.12;
  ctx.beginPath();
  for (const s of spans) ctx.rect(s.x1, s.top + 1, s.x2 - s.x1, g.laneHeight - 2);
  ctx.fill();
  ctx.globalAlpha = 0.45;
  ctx.strokeStyle = theme.breakpoint;
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (const s of spans) {
    for (let y = s.top + 4.5; y < s.top + g.laneHeight - 1; y += 4) {
      ctx.moveTo(s.x1, y);
      ctx.lineTo(s.x2, y);
    }
  }
  ctx.stroke();
  ctx.globalAlpha = 1;
  ctx.lineWidth = 2;
  ctx.beginPath();
  for (const s of spans) {
    ctx.moveTo(s.x1 + 1, s.top + 1);
    ctx.lineTo(s.x1 + 1, s.top + g.laneHeight - 1);
    if (!s.open) {
      ctx.moveTo(s.x2 - 1, s.top + 1);
      ctx.lineTo(s.x2 - 1, s.top + g.laneHeight - 1);
    }
  }
  ctx.stroke();
  ctx.restore();
}

/**
 * The stop's word, over the bars (a frozen client is mostly inside its job and holding its lock, whose bars would
 * hide it): on a chip of the background at the stop's start, so the bars still show past it.
 */
function drawBreakpointWords(f: Frame): void {
  const { ctx, layout, g, view, theme, words, right, x } = f;
  ctx.save();
  ctx.textAlign = 'start';
  layout.lanes.forEach((lane, i) => {
    const top = laneTop(i, g);
    for (const it of lane.intervals) {
      if (it.kind !== 'breakpoint' || it.to < view.from || it.from > view.to) continue;
      const [x1, x2] = clampX(x(it.from), x(it.to), g.labelWidth, right);
      if (x2 - x1 <= 90) continue;
      const text = it.open ? words.atBreakpointOpen : words.atBreakpoint;
      // No measureText in the drawing's context: a width by the 11 px font's average glyph, capped by the band.
      const w = Math.min(x2 - x1 - 6, text.length * 6 + 8);
      ctx.globalAlpha = 0.88;
      ctx.fillStyle = theme.background;
      ctx.fillRect(x1 + 3, top + 3, w, 13);
      ctx.globalAlpha = 1;
      ctx.fillStyle = theme.breakpoint;
      ctx.fillText(text, x1 + 6, top + 10);
    }
  });
  ctx.restore();
}

/** Bars of one kind, batched: one path and one fill. */
function drawBars(f: Frame, kind: LaneInterval['kind'], row: { top: number; height: number }, color: string, outline: boolean): void {
  const { ctx, layout, g, view, right, x } = f;
  ctx.beginPath();
  layout.lanes.forEach((lane, i) => {
    const y = laneTop(i, g) + row.top;
    // Intervals less than a pixel apart merge into one run: at most one rect per pixel column.
    let runA = Number.NaN;
    let runB = Number.NaN;
    const flush = () => {
      if (Number.isNaN(runA)) return;
      ctx.rect(runA, y, runB - runA, row.height);
      f.stats.intervalsDrawn++;
    };
    for (const it of lane.intervals) {
      if (it.kind !== kind || it.to < view.from || it.from > view.to) continue;
      const [x1, x2raw] = clampX(x(it.from), x(it.to), g.labelWidth, right);
      const x2 = Math.max(x2raw, x1 + 2);
      if (!Number.isNaN(runA) && x1 <= runB + 1) {
        runB = Math.max(runB, x2);
      } else {
        flush();
        runA = x1;
        runB = x2;
      }
    }
    flush();
  });
  if (outline) {
    ctx.strokeStyle = color;
    ctx.lineWidth = 1;
    ctx.stroke();
  } else {
    ctx.fillStyle = color;
    ctx.fill();
  }
}

/** The part of a hold past its validity: the holder believes it holds a lock it may have lost. */
function drawPastValidity({ ctx, layout, g, view, theme, right, x, rows }: Frame): void {
  ctx.beginPath();
  layout.lanes.forEach((lane, i) => {
    const y = laneTop(i, g) + rows.lock.top;
    for (const it of lane.intervals) {
      if (it.kind !== 'hold' || it.validUntil == null || it.validUntil >= it.to) continue;
      if (it.to < view.from || it.validUntil > view.to) continue;
      const [x1, x2] = clampX(x(it.validUntil), x(it.to), g.labelWidth, right);
      if (x2 - x1 < 1) continue;
      ctx.rect(x1, y + 3, x2 - x1, rows.lock.height - 6);
    }
  });
  ctx.fillStyle = theme.expired;
  ctx.fill();
}

/** Votes of each attempt: one square per node after the attempt, filled = granted, hollow = refused. */
function drawVotes({ ctx, layout, g, view, theme, x }: Frame): void {
  const granted: [number, number][] = [];
  const refused: [number, number][] = [];
  layout.lanes.forEach((lane, i) => {
    const y = laneTop(i, g) + 1;
    for (const it of lane.intervals) {
      if (it.kind !== 'attempt' || !it.votes || it.votes.length === 0) continue;
      if (it.to < view.from || it.to > view.to) continue;
      const x0 = x(it.to);
      it.votes.forEach((v, k) => (v.ok ? granted : refused).push([x0 + k * 4, y]));
    }
  });
  if (granted.length + refused.length >= 4000) return;
  ctx.beginPath();
  for (const [vx, vy] of granted) ctx.rect(vx, vy, 3, 3);
  ctx.fillStyle = theme.recovery;
  ctx.fill();
  ctx.beginPath();
  for (const [vx, vy] of refused) ctx.rect(vx + 0.5, vy + 0.5, 2, 2);
  ctx.strokeStyle = theme.fault;
  ctx.stroke();
}

function drawLaneMarkers(f: Frame): void {
  const { ctx, layout, g, view, theme, words, x } = f;
  layout.lanes.forEach((lane, i) => {
    const top = laneTop(i, g);
    let lastX = -Infinity;
    for (const m of lane.markers) {
      if (m.t < view.from || m.t > view.to) continue;
      const mx = x(m.t);
      if (mx - lastX < 2 && m.kind !== 'crash') continue;
      lastX = mx;
      drawLaneMarker(ctx, m, mx, top, g, theme, words.crashed);
      f.stats.markersDrawn++;
    }
  });
}

/**
 * Markers across every lane: nemesis operations, node changes, scenario steps. Notes first,
 * so a fault or recovery at the same moment is drawn on top of its scenario step.
 */
function drawGlobalMarkers(f: Frame): void {
  const { ctx, layout, g, view, theme, lanesBottom, x } = f;
  for (const pass of [0, 1]) {
    let lastGlobal = -Infinity;
    for (const m of layout.markers) {
      if ((m.tone === 'info') !== (pass === 0)) continue;
      if (m.t < view.from || m.t > view.to) continue;
      const mx = Math.round(x(m.t)) + 0.5;
      if (mx - lastGlobal < 1) continue;
      lastGlobal = mx;
      drawGlobalMarker(ctx, m, mx, g, lanesBottom, theme);
      f.stats.markersDrawn++;
    }
  }
}

/** The violation band. */
function drawBand({ ctx, input, g, view, theme, words, right, lanesBottom, x }: Frame): void {
  if (!input.band || input.band.to < view.from || input.band.from > view.to) return;
  const [x1, x2raw] = clampX(x(input.band.from), x(input.band.to), g.labelWidth, right);
  const x2 = Math.max(x2raw, x1 + 3);
  const top = g.axisHeight;
  ctx.fillStyle = theme.band;
  ctx.fillRect(x1, top, x2 - x1, lanesBottom - top);
  ctx.strokeStyle = theme.bandEdge;
  ctx.lineWidth = input.bandHighlighted ? 3 : 1.5;
  ctx.setLineDash(input.bandHighlighted ? [] : [5, 3]);
  ctx.strokeRect(x1, top, x2 - x1, lanesBottom - top);
  ctx.setLineDash([]);
  ctx.lineWidth = 1;
  ctx.fillStyle = theme.bandEdge;
  ctx.textAlign = 'start';
  ctx.fillText(words.violation, Math.min(x1 + 3, right - 70), g.axisHeight + g.markerHeight / 2);
}

function drawCursor({ ctx, input, view, theme, lanesBottom, x }: Frame): void {
  if (input.cursorT == null || input.cursorT < view.from || input.cursorT > view.to) return;
  const cx = Math.round(x(input.cursorT)) + 0.5;
  ctx.strokeStyle = theme.cursor;
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.moveTo(cx, 2);
  ctx.lineTo(cx, lanesBottom);
  ctx.stroke();
  ctx.lineWidth = 1;
}

function clampX(x1: number, x2: number, min: number, max: number): [number, number] {
  return [Math.max(min, x1), Math.min(max, x2)];
}

function drawLaneMarker(ctx: Ctx, m: LaneMarker, mx: number, top: number, g: Omit<Geometry, 'width'>, theme: TimelineTheme, crashed: string): void {
  const mid = top + g.laneHeight / 2;
  switch (m.kind) {
    case 'crash':
    case 'error': {
      ctx.strokeStyle = theme.fault;
      ctx.lineWidth = 2.5;
      ctx.beginPath();
      ctx.moveTo(mx - 5, mid - 5);
      ctx.lineTo(mx + 5, mid + 5);
      ctx.moveTo(mx + 5, mid - 5);
      ctx.lineTo(mx - 5, mid + 5);
      ctx.stroke();
      ctx.lineWidth = 1;
      if (m.kind === 'crash') {
        ctx.fillStyle = theme.fault;
        ctx.fillText(crashed, mx + 7, mid);
      }
      break;
    }
    case 'released':
    case 'release-failed': {
      // A closing bracket at the end of the hold.
      ctx.strokeStyle = m.kind === 'released' ? theme.text : theme.fault;
      ctx.beginPath();
      ctx.moveTo(mx, top + 3);
      ctx.lineTo(mx, top + 18);
      ctx.stroke();
      break;
    }
    case 'extended':
    case 'extend-failed': {
      // A small up-triangle (extended) or a hollow one (failed) above the hold.
      ctx.beginPath();
      ctx.moveTo(mx, top + 1);
      ctx.lineTo(mx + 4, top + 7);
      ctx.lineTo(mx - 4, top + 7);
      ctx.closePath();
      if (m.kind === 'extended') {
        ctx.fillStyle = theme.hold;
        ctx.fill();
      } else {
        ctx.strokeStyle = theme.fault;
        ctx.stroke();
      }
      break;
    }
    case 'write-accepted':
    case 'write-rejected': {
      const y = top + g.laneHeight - 4;
      ctx.beginPath();
      ctx.rect(mx - 2, y - 2, 4, 4);
      if (m.kind === 'write-accepted') {
        ctx.fillStyle = theme.text;
        ctx.fill();
      } else {
        ctx.strokeStyle = theme.fault;
        ctx.stroke();
      }
      break;
    }
    case 'start':
    case 'exit':
    case 'skew': {
      ctx.strokeStyle = theme.muted;
      ctx.beginPath();
      ctx.moveTo(mx, top + 4);
      ctx.lineTo(mx, top + g.laneHeight - 4);
      ctx.stroke();
      break;
    }
  }
}

function drawGlobalMarker(ctx: Ctx, m: GlobalMarker, mx: number, g: Omit<Geometry, 'width'>, bottom: number, theme: TimelineTheme): void {
  const color = m.tone === 'fault' ? theme.fault : m.tone === 'recovery' ? theme.recovery : theme.info;
  const y = g.axisHeight + 2;
  ctx.strokeStyle = color;
  ctx.setLineDash(m.tone === 'fault' ? [4, 3] : [1, 3]);
  ctx.beginPath();
  ctx.moveTo(mx, y + 10);
  ctx.lineTo(mx, bottom);
  ctx.stroke();
  ctx.setLineDash([]);
  // Shape tells the tone too: fault ▼ filled, recovery ▲ hollow, note ◆.
  ctx.beginPath();
  if (m.tone === 'fault') {
    ctx.moveTo(mx - 5, y);
    ctx.lineTo(mx + 5, y);
    ctx.lineTo(mx, y + 9);
  } else if (m.tone === 'recovery') {
    ctx.moveTo(mx, y);
    ctx.lineTo(mx + 5, y + 9);
    ctx.lineTo(mx - 5, y + 9);
  } else {
    ctx.moveTo(mx, y);
    ctx.lineTo(mx + 4, y + 4.5);
    ctx.lineTo(mx, y + 9);
    ctx.lineTo(mx - 4, y + 4.5);
  }
  ctx.closePath();
  if (m.tone === 'recovery') {
    ctx.stroke();
  } else {
    ctx.fillStyle = color;
    ctx.fill();
  }
}
