/**
 * Drawing is checked on a recording context: what is culled, that the band
 * and cursor are drawn, and the axis' tick steps.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_GEOMETRY, DENSE_GEOMETRY, LIGHT_THEME, drawTimeline, formatTick, laneRows, laneTop, tickStep, timeToX, timelineHeight, xToTime, type Ctx } from '@/components/timeline/draw';
import { hitTest } from '@/components/timeline/hit-test';
import { layoutTimeline } from '@/components/timeline/layout';
import { history } from './helpers/history-builder';

interface Recorded {
  rects: number;
  fillRects: { x: number; w: number; style: string }[];
  strokeRects: number;
  texts: string[];
}

function recordingContext(): { ctx: Ctx; rec: Recorded } {
  const rec: Recorded = { rects: 0, fillRects: [], strokeRects: 0, texts: [] };
  const state = { fillStyle: '' as string | CanvasGradient | CanvasPattern };
  const ctx = {
    get fillStyle() {
      return state.fillStyle;
    },
    set fillStyle(v) {
      state.fillStyle = v;
    },
    strokeStyle: '',
    lineWidth: 1,
    font: '',
    textBaseline: 'middle',
    textAlign: 'start',
    globalAlpha: 1,
    fillRect: (x: number, _y: number, w: number) => rec.fillRects.push({ x, w, style: String(state.fillStyle) }),
    strokeRect: () => rec.strokeRects++,
    clearRect: () => undefined,
    beginPath: () => undefined,
    rect: () => rec.rects++,
    moveTo: () => undefined,
    lineTo: () => undefined,
    fill: () => undefined,
    stroke: () => undefined,
    fillText: (text: string) => rec.texts.push(text),
    save: () => undefined,
    restore: () => undefined,
    setLineDash: () => undefined,
    closePath: () => undefined,
  } as unknown as Ctx;
  return { ctx, rec };
}

const geometry = { ...DEFAULT_GEOMETRY, width: 876 };

describe('drawTimeline', () => {
  const events = history().at(0).enter(1).at(100).exit(1).at(900).enter(2).at(1_000).exit(2).build();
  const layout = layoutTimeline(events);

  it('draws the lanes, and only the intervals inside the view', () => {
    const all = recordingContext();
    drawTimeline(all.ctx, { layout, geometry, height: 200, view: { from: 0, to: 1_000 }, theme: LIGHT_THEME });
    expect(all.rec.texts).toEqual(expect.arrayContaining(['Client 1', 'Client 2']));
    const part = recordingContext();
    const stats = drawTimeline(part.ctx, { layout, geometry, height: 200, view: { from: 0, to: 500 }, theme: LIGHT_THEME });
    expect(stats.intervalsDrawn).toBe(1);
  });

  it('draws the violation band, emphasised when highlighted, and labels it in words', () => {
    const { ctx, rec } = recordingContext();
    drawTimeline(ctx, { layout, geometry, height: 200, view: { from: 0, to: 1_000 }, theme: LIGHT_THEME, band: { from: 900, to: 950 }, bandHighlighted: true });
    expect(rec.fillRects.some((r) => r.style === LIGHT_THEME.band)).toBe(true);
    expect(rec.strokeRects).toBe(1);
    expect(rec.texts).toContain('✕ violation');
  });

  it("labels the axis in run time: a run that started at 10.3 s on the lab clock reads from 0", () => {
    const late = history().at(10_300).enter(1).at(10_900).exit(1).build();
    const { ctx, rec } = recordingContext();
    drawTimeline(ctx, { layout: layoutTimeline(late), geometry, height: 200, view: { from: 10_300, to: 11_300 }, theme: LIGHT_THEME, timeOrigin: 10_300 });
    const ticks = rec.texts.filter((t) => / (m?s)$/.test(t));
    expect(ticks[0]).toBe('0 ms');
    expect(ticks).toContain('600 ms');
    expect(ticks.some((t) => /^1\d\.\d+ s$/.test(t))).toBe(false);
    expect(ticks.at(-1)).toBe('1.0 s');
  });

  it('leaves out a band outside the view', () => {
    const { ctx, rec } = recordingContext();
    drawTimeline(ctx, { layout, geometry, height: 200, view: { from: 0, to: 500 }, theme: LIGHT_THEME, band: { from: 900, to: 950 } });
    expect(rec.texts).not.toContain('✕ violation');
  });

  it('draws a stop at the breakpoint in its own colour and words, and a pause in its own, on one client', () => {
    const h = history()
      .at(0).start(1).enter(1)
      .at(200).push({ type: 'client', client: 1, event: 'pause', breakpoint: true })
      .push({ type: 'client', client: 1, event: 'pause', durationMs: 300 })
      .at(900).push({ type: 'client', client: 1, event: 'resume', breakpoint: true })
      .build();
    const { ctx, rec } = recordingContext();
    drawTimeline(ctx, { layout: layoutTimeline(h), geometry, height: 200, view: { from: 0, to: 1_000 }, theme: LIGHT_THEME });
    expect(rec.texts).toContain('at breakpoint');
    expect(rec.texts).toContain('paused');
    // The word's chip is drawn where the stop starts, in the background's colour; the words in the stop's colour.
    expect(rec.fillRects.some((r) => r.style === LIGHT_THEME.background && Math.abs(r.x - (timeToX(200, { from: 0, to: 1_000 }, geometry) + 3)) < 1)).toBe(true);
  });

  it('merges intervals narrower than a pixel', () => {
    const h = history();
    for (let i = 0; i < 1_000; i++) h.at(i).enter(1).at(i + 0.5).exit(1);
    const dense = layoutTimeline(h.build());
    const { ctx } = recordingContext();
    const stats = drawTimeline(ctx, { layout: dense, geometry, height: 200, view: { from: 0, to: 1_000 }, theme: LIGHT_THEME });
    // 1,000 sections 0.8 px apart become one run…
    expect(stats.intervalsDrawn).toBe(1);
    // …while sections 8 px apart each get their own rect.
    const sparse = history();
    for (let i = 0; i < 100; i++) sparse.at(i * 10).enter(1).at(i * 10 + 0.5).exit(1);
    const again = recordingContext();
    const spread = drawTimeline(again.ctx, { layout: layoutTimeline(sparse.build()), geometry, height: 200, view: { from: 0, to: 1_000 }, theme: LIGHT_THEME });
    expect(spread.intervalsDrawn).toBe(100);
  });
});

describe('timeline geometry', () => {
  it('maps time to x and back', () => {
    const view = { from: 1_000, to: 2_000 };
    expect(timeToX(1_000, view, geometry)).toBe(geometry.labelWidth);
    expect(timeToX(2_000, view, geometry)).toBe(876);
    expect(xToTime(timeToX(1_234, view, geometry), view, geometry)).toBeCloseTo(1_234);
  });

  it('chooses round tick steps', () => {
    expect(tickStep({ from: 0, to: 1_000 }, 800)).toBe(100);
    expect(tickStep({ from: 0, to: 10_000 }, 800)).toBe(1_000);
    expect(formatTick(1_500, 500)).toBe('1.5 s');
    expect(formatTick(250, 50)).toBe('250 ms');
  });

  it('finds what is under the pointer', () => {
    const events = history().at(0).enter(1).at(100).exit(1).build();
    const layout = layoutTimeline(events);
    const view = { from: 0, to: 200 };
    const x = timeToX(50, view, geometry);
    const sectionY = DEFAULT_GEOMETRY.axisHeight + DEFAULT_GEOMETRY.markerHeight + 24;
    expect(hitTest(layout, geometry, view, x, sectionY)?.label).toBe("Client 1: inside job 'job' (execution 1)");
    expect(hitTest(layout, geometry, view, 10, sectionY)).toBeNull();
  });
});

describe('dense lanes (the instrument panel with five clients)', () => {
  /** Every rect the frame adds to a path, as drawn. */
  function rectContext(): { ctx: Ctx; rects: { y: number; h: number }[] } {
    const { ctx } = recordingContext();
    const rects: { y: number; h: number }[] = [];
    (ctx as unknown as { rect: (x: number, y: number, w: number, h: number) => void }).rect = (_x, y, _w, h) => void rects.push({ y, h });
    return { ctx, rects };
  }

  it('are shorter, keep every bar inside its own lane, and the pointer finds the row it is on', () => {
    const h = history();
    for (let c = 1; c <= 5; c++) h.at(c * 10).attempt(c).at(c * 10 + 5).acquired(c).at(c * 10 + 6).enter(c).at(c * 10 + 80).exit(c).at(c * 10 + 90).released(c);
    const layout = layoutTimeline(h.build());
    expect(timelineHeight(DENSE_GEOMETRY, 5)).toBeLessThan(timelineHeight(DEFAULT_GEOMETRY, 5));
    const g = { ...DENSE_GEOMETRY, width: 400 };
    const view = { from: 0, to: 200 };
    const { ctx, rects } = rectContext();
    drawTimeline(ctx, { layout, geometry: g, height: timelineHeight(DENSE_GEOMETRY, 5), view, theme: LIGHT_THEME });
    const lanesTop = laneTop(0, g);
    const bars = rects.filter((r) => r.y >= lanesTop && r.h < g.laneHeight - 3);
    expect(bars.length).toBeGreaterThanOrEqual(10);
    for (const bar of bars) {
      const lane = Math.floor((bar.y - lanesTop) / g.laneHeight);
      expect(bar.y + bar.h, `a bar of lane ${lane + 1}`).toBeLessThanOrEqual(laneTop(lane, g) + g.laneHeight);
    }
    // Client 3's hold and its section, each under the pointer on its own row.
    const x = timeToX(50, view, g);
    const rows = laneRows(g.laneHeight);
    const top = laneTop(2, g);
    expect(hitTest(layout, g, view, x, top + rows.lock.top + rows.lock.height / 2)?.label).toMatch(/^Client 3: holding/);
    expect(hitTest(layout, g, view, x, top + rows.section.top + rows.section.height / 2)?.label).toMatch(/^Client 3: inside job/);
  });
});
