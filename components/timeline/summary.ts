/**
 * The timeline in words: per lane counts and the lab events, for the text
 * alternative of the canvas (screen readers, and anyone who prefers a table).
 */
import { createTranslator, type useTranslations } from 'next-intl';
import timelineWords from '@/messages/en/timeline.json' with { type: 'json' };
import type { GlobalMarker, Lane, TimelineLayout } from './layout';

export type TimelineT = ReturnType<typeof useTranslations<'timeline'>>;

/** The English words, where no page's translator is given (tests, and code that runs outside a page). */
const ENGLISH: TimelineT = createTranslator({ locale: 'en', messages: { timeline: timelineWords }, namespace: 'timeline' }) as unknown as TimelineT;

export interface LaneSummary {
  client: number;
  label: string;
  sections: number;
  holds: number;
  failedAcquires: number;
  pauses: number;
  /** Times it stood frozen at the learner's breakpoint (the run's stop, not a pause the learner injected). */
  breakpointStops: number;
  /** Holds kept past their validity (the holder may have lost the lock). */
  heldPastValidity: number;
  crashed: boolean;
  /** One line: "3 critical sections, 2 lock holds, paused once, stopped at the breakpoint once, crashed". */
  words: string;
}

export function summarizeLane(lane: Lane, t: TimelineT = ENGLISH): LaneSummary {
  let sections = 0;
  let holds = 0;
  let failedAcquires = 0;
  let pauses = 0;
  let breakpointStops = 0;
  let heldPastValidity = 0;
  for (const it of lane.intervals) {
    if (it.kind === 'section') sections++;
    else if (it.kind === 'hold') {
      holds++;
      if (it.validUntil != null && it.to > it.validUntil) heldPastValidity++;
    } else if (it.kind === 'attempt' && it.end === 'failed') failedAcquires++;
    else if (it.kind === 'pause') pauses++;
    else if (it.kind === 'breakpoint') breakpointStops++;
  }
  const crashed = lane.markers.some((m) => m.kind === 'crash');
  const parts = [t('laneWords.sections', { n: sections }), t('laneWords.holds', { n: holds })];
  if (failedAcquires > 0) parts.push(t('laneWords.failedAcquires', { n: failedAcquires }));
  if (pauses > 0) parts.push(t('laneWords.pauses', { n: pauses }));
  if (breakpointStops > 0) parts.push(t('laneWords.breakpointStops', { n: breakpointStops }));
  if (heldPastValidity > 0) parts.push(t('laneWords.pastValidity', { n: heldPastValidity }));
  if (crashed) parts.push(t('laneWords.crashed'));
  return { client: lane.client, label: t('client', { n: lane.client }), sections, holds, failedAcquires, pauses, breakpointStops, heldPastValidity, crashed, words: parts.join(t('listSeparator')) };
}

export function summarizeLayout(layout: TimelineLayout, t: TimelineT = ENGLISH): { lanes: LaneSummary[]; labEvents: GlobalMarker[] } {
  return {
    lanes: layout.lanes.map((lane) => summarizeLane(lane, t)),
    labEvents: layout.markers.filter((m) => m.kind !== 'nemesis-refused'),
  };
}
