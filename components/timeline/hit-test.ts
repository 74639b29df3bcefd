/** Which interval or marker is under the pointer, for the timeline's tooltip. */
import type { TimeWindow } from '@/lib/checker';
import { laneRows, laneTop, xToTime, type Geometry } from './draw';
import type { TimelineLayout } from './layout';

export interface Hit {
  label: string;
  t: number;
}

/** `stillGoing`: what an interval still open says, in the page's language (" (still going)"). */
export function hitTest(layout: TimelineLayout, g: Geometry, view: TimeWindow, x: number, y: number, stillGoing = ' (still going)'): Hit | null {
  if (x < g.labelWidth) return null;
  const t = xToTime(x, view, g);
  const slack = ((view.to - view.from) / Math.max(1, g.width - g.labelWidth)) * 4;
  const markerTop = g.axisHeight;
  if (y >= markerTop && y < markerTop + g.markerHeight) {
    let best: Hit | null = null;
    let bestD = slack;
    for (const m of layout.markers) {
      const d = Math.abs(m.t - t);
      if (d <= bestD) {
        best = { label: m.label, t: m.t };
        bestD = d;
      }
    }
    return best;
  }
  const index = Math.floor((y - laneTop(0, g)) / g.laneHeight);
  const lane = layout.lanes[index];
  if (!lane) return null;
  let bestMarker: Hit | null = null;
  let bestD = slack;
  for (const m of lane.markers) {
    const d = Math.abs(m.t - t);
    if (d <= bestD) {
      bestMarker = { label: `${lane.label}: ${m.label}`, t: m.t };
      bestD = d;
    }
  }
  if (bestMarker) return bestMarker;
  const inLane = y - laneTop(index, g);
  const wanted = inLane < laneRows(g.laneHeight).split ? ['attempt', 'hold'] : ['section'];
  const labels: string[] = [];
  let at = t;
  for (const it of lane.intervals) {
    if (it.from - slack <= t && t <= it.to + slack && (wanted.includes(it.kind) || it.kind === 'pause' || it.kind === 'breakpoint')) {
      labels.push(it.label + (it.open ? stillGoing : ''));
      at = it.from;
    }
  }
  return labels.length ? { label: `${lane.label}: ${labels.join('; ')}`, t: at } : null;
}
