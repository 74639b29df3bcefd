/**
 * A stop at the learner's breakpoint is not a pause the learner injected: the history marks the freeze
 * (`breakpoint: true`), lib/lock-ops/stops.ts reads it once, and the timeline, its text view and the clients' status
 * show the two as different kinds, with their own times — both, when one client had both.
 */
import { describe, expect, it } from 'vitest';
import { clientStatuses } from '@/components/clients/client-states';
import { layoutTimeline, type Lane, type LaneInterval } from '@/components/timeline/layout';
import { summarizeLane } from '@/components/timeline/summary';
import { readStops } from '@/lib/lock-ops/stops';
import { history } from './helpers/history-builder';

const lane = (lanes: Lane[], client: number): Lane => {
  const found = lanes.find((l) => l.client === client);
  if (!found) throw new Error(`no lane for client ${client}`);
  return found;
};
const stops = (l: Lane): LaneInterval[] => l.intervals.filter((i) => i.kind === 'pause' || i.kind === 'breakpoint');

/**
 * Two clients. Client 2 is paused by a fault for 300 ms at 100 (its own resume at 400); the breakpoint stops the run
 * at 1,000 (its mark, the note, then both clients frozen, as breakpoint.ts emits them); Resume at 3,000 thaws both.
 */
function faultThenBreakpoint() {
  return history()
    .at(0).start(1).start(2)
    .at(100).push({ type: 'nemesis', phase: 'ok', op: 'client-pause', target: 'Client 2', client: 2, args: { durationMs: 300 } })
    .push({ type: 'client', client: 2, event: 'pause', durationMs: 300 })
    .at(400).resume(2)
    .at(1_000).push({ type: 'scenario', step: 'breakpoint', detail: 'breakpoint: Client 1 enters its job' })
    .push({ type: 'console', client: 0, level: 'info', text: 'Stopped at your breakpoint' })
    .push({ type: 'client', client: 1, event: 'pause', breakpoint: true })
    .push({ type: 'client', client: 2, event: 'pause', breakpoint: true })
    .at(3_000).push({ type: 'console', client: 0, level: 'info', text: 'Resumed from the breakpoint.' })
    .push({ type: 'client', client: 1, event: 'resume', breakpoint: true })
    .push({ type: 'client', client: 2, event: 'resume', breakpoint: true });
}

describe('stops at the breakpoint on the timeline', () => {
  it('draws the stop as its own kind, from the stop to Resume on every frozen client, and the fault as a pause', () => {
    const layout = layoutTimeline(faultThenBreakpoint().build(), { clients: 2 });
    expect(stops(lane(layout.lanes, 1))).toEqual([expect.objectContaining({ kind: 'breakpoint', from: 1_000, to: 3_000, open: false, end: 'resumed' })]);
    expect(stops(lane(layout.lanes, 2))).toEqual([
      expect.objectContaining({ kind: 'pause', from: 100, to: 400, open: false, end: 'resumed', label: 'paused for 300 ms' }),
      expect.objectContaining({ kind: 'breakpoint', from: 1_000, to: 3_000, open: false, end: 'resumed' }),
    ]);
    expect(stops(lane(layout.lanes, 1))[0]?.label).toBe("stopped at the breakpoint: every client frozen, the nodes' clock running");
    // Where the run stopped stays marked across every lane.
    expect(layout.markers.filter((m) => m.kind === 'scenario')).toEqual([expect.objectContaining({ t: 1_000, label: 'scenario: breakpoint: Client 1 enters its job' })]);
  });

  it('says the two apart in the timeline as text: a pause is counted as one, the stop as the other', () => {
    const { lanes } = layoutTimeline(faultThenBreakpoint().build(), { clients: 2 });
    expect(summarizeLane(lane(lanes, 1))).toMatchObject({ pauses: 0, breakpointStops: 1 });
    expect(summarizeLane(lane(lanes, 1)).words).not.toContain('paused');
    expect(summarizeLane(lane(lanes, 1)).words).toContain('stopped at the breakpoint once');
    expect(summarizeLane(lane(lanes, 2))).toMatchObject({ pauses: 1, breakpointStops: 1 });
    expect(summarizeLane(lane(lanes, 2)).words).toContain('paused once');
  });

  it('keeps a stop still standing open to the end time, and the clients read as frozen, not paused', () => {
    const h = faultThenBreakpoint().build();
    const standing = h.filter((e) => e.t <= 1_000);
    const layout = layoutTimeline(standing, { clients: 2, endT: 1_800 });
    expect(stops(lane(layout.lanes, 1))).toEqual([expect.objectContaining({ kind: 'breakpoint', from: 1_000, to: 1_800, open: true })]);
    expect(clientStatuses(standing, 2)).toEqual(['held', 'held']);
    expect(clientStatuses(h, 2)).toEqual(['running', 'running']);
  });

  it('shows both on a client held and then paused by a timed fault: the pause ends at its time, the stop at Resume', () => {
    // A scenario's step on the same moment as the breakpoint pauses Client 1 for 300 ms after it was frozen: its
    // time runs out unrecorded (the client stays frozen), and the thaw at Resume is the one resume.
    const h = history()
      .at(0).start(1)
      .at(500).push({ type: 'scenario', step: 'breakpoint', detail: 'breakpoint: Client 1 enters its job' })
      .push({ type: 'client', client: 1, event: 'pause', breakpoint: true })
      .push({ type: 'client', client: 1, event: 'pause', durationMs: 300 })
      .at(2_500).push({ type: 'client', client: 1, event: 'resume', breakpoint: true })
      .build();
    const { lanes } = layoutTimeline(h, { clients: 1 });
    expect(stops(lane(lanes, 1))).toEqual([
      expect.objectContaining({ kind: 'breakpoint', from: 500, to: 2_500, end: 'resumed' }),
      expect.objectContaining({ kind: 'pause', from: 500, to: 800, end: 'elapsed' }),
    ]);
    expect(summarizeLane(lane(lanes, 1))).toMatchObject({ pauses: 1, breakpointStops: 1 });
    expect(clientStatuses(h.slice(0, 4), 1)).toEqual(['paused']);
  });

  it('reads a run from before the mark existed as pauses, as it always did', () => {
    const h = history().at(0).start(1).at(500).pause(1).at(900).resume(1).build();
    expect(readStops(h).map((op) => [op.kind, op.stop, op.t])).toEqual([
      ['stopped', 'pause', 500],
      ['went-on', 'pause', 900],
    ]);
  });
});
