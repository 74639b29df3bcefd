/**
 * The timeline's pure layout: hand-written histories in, lanes, intervals
 * and markers out.
 */
import { describe, expect, it } from 'vitest';
import { layoutTimeline, type Lane } from '@/components/timeline/layout';
import { summarizeLane } from '@/components/timeline/summary';
import { history } from './helpers/history-builder';

const lane = (lanes: Lane[], client: number): Lane => {
  const found = lanes.find((l) => l.client === client);
  if (!found) throw new Error(`no lane for client ${client}`);
  return found;
};

describe('layoutTimeline', () => {
  it('gives every client a lane, in order, even before it acts', () => {
    const layout = layoutTimeline(history().at(5).start(2).build(), { clients: 3 });
    expect(layout.lanes.map((l) => l.label)).toEqual(['Client 1', 'Client 2', 'Client 3']);
    expect(lane(layout.lanes, 2).markers.map((m) => m.kind)).toEqual(['start']);
  });

  it('gives the lab’s own console lines (client 0: a limit, a run ended early) no lane', () => {
    const layout = layoutTimeline(history().at(5).start(1).log(1).at(900).log(0, 'The run was ended early').build(), { clients: 2 });
    expect(layout.lanes.map((l) => l.label)).toEqual(['Client 1', 'Client 2']);
  });

  it('turns an attempt, its votes, the hold and the critical section into intervals', () => {
    const h = history()
      .at(0).attempt(1)
      .at(4).acquired(1, 'lock', { votes: [1, 2, 4], of: 5, quorum: 3, validityMs: 980 })
      .at(10).enter(1)
      .at(200).exit(1)
      .at(210).released(1)
      .build();
    const { lanes } = layoutTimeline(h);
    const intervals = lane(lanes, 1).intervals;
    const attempt = intervals.find((i) => i.kind === 'attempt');
    expect(attempt).toMatchObject({ from: 0, to: 4, end: 'acquired', open: false, quorum: 3 });
    expect(attempt?.votes?.map((v) => v.ok)).toEqual([true, true, false, true, false]);
    expect(attempt?.label).toBe('acquired lock (3 of 5 votes, quorum 3)');
    expect(intervals.find((i) => i.kind === 'hold')).toMatchObject({ from: 4, to: 210, end: 'released', validUntil: 984 });
    expect(intervals.find((i) => i.kind === 'section')).toMatchObject({ from: 10, to: 200, end: 'exited' });
    expect(lane(lanes, 1).markers.map((m) => m.kind)).toEqual(['released']);
  });

  it('moves the validity with each extension and shows a hold kept past it', () => {
    const h = history()
      .at(0).acquired(1, 'lock', { validityMs: 100 })
      .at(80).extended(1, 'lock', { validityMs: 100, ttlMs: 100 })
      .at(400).released(1)
      .build();
    const { lanes } = layoutTimeline(h);
    const hold = lane(lanes, 1).intervals.find((i) => i.kind === 'hold');
    expect(hold?.validUntil).toBe(180);
    expect(summarizeLane(lane(lanes, 1))).toMatchObject({ holds: 1, heldPastValidity: 1 });
    expect(lane(lanes, 1).markers.map((m) => m.kind)).toEqual(['extended', 'released']);
  });

  it('draws a pause from pause to resume, and keeps an unfinished one open to the end time', () => {
    const h = history().at(100).pause(1).at(600).resume(1).at(700).pause(2).build();
    const layout = layoutTimeline(h, { endT: 900 });
    expect(lane(layout.lanes, 1).intervals).toEqual([expect.objectContaining({ kind: 'pause', from: 100, to: 600, open: false, end: 'resumed' })]);
    expect(lane(layout.lanes, 2).intervals).toEqual([expect.objectContaining({ kind: 'pause', from: 700, to: 900, open: true })]);
    expect(summarizeLane(lane(layout.lanes, 1)).words).toContain('paused once');
  });

  it('cuts everything a crashed client had open at the crash', () => {
    const h = history().at(0).acquired(1).at(5).enter(1).at(50).crash(1).at(500).enter(2).build();
    const { lanes } = layoutTimeline(h, { endT: 800 });
    const c1 = lane(lanes, 1);
    const cut = c1.intervals.filter((i) => i.kind === 'hold' || i.kind === 'section');
    expect(cut).toHaveLength(2);
    expect(cut.every((i) => i.to === 50 && !i.open && i.end === 'crashed')).toBe(true);
    expect(c1.markers.at(-1)?.kind).toBe('crash');
    expect(summarizeLane(c1).crashed).toBe(true);
    // Another client's section is still open and runs to the end time.
    expect(lane(lanes, 2).intervals[0]).toMatchObject({ kind: 'section', to: 800, open: true });
  });

  it('puts nemesis operations and node changes on markers across every lane, refusals apart', () => {
    const h = history()
      .push({ type: 'nemesis', op: 'node-kill', phase: 'invoke', target: 'Node 3', node: 3, args: {} })
      .at(10).push({ type: 'nemesis', op: 'node-kill', phase: 'ok', target: 'Node 3', node: 3, args: {}, detail: 'Node 3 killed' })
      .node(3, 'down')
      .at(20).push({ type: 'nemesis', op: 'node-restart', phase: 'fail', target: 'Node 1', node: 1, args: {}, detail: 'Node 1 is up' })
      .at(30).push({ type: 'nemesis', op: 'node-restart', phase: 'ok', target: 'Node 3', node: 3, args: {} })
      .build();
    const { markers, lanes } = layoutTimeline(h);
    expect(lanes).toEqual([]);
    expect(markers.map((m) => [m.kind, m.tone, m.label])).toEqual([
      ['nemesis', 'fault', 'Node 3 killed'],
      ['node', 'fault', 'Node 3 down (killed (SIGKILL))'],
      ['nemesis-refused', 'info', 'refused: node-restart Node 1 (Node 1 is up)'],
      ['nemesis', 'recovery', 'node-restart Node 3'],
    ]);
  });

  it('reads a single-node lock written with raw SET NX PX and a DEL', () => {
    const h = history()
      .at(0).redis(1, 1, 'set', ['lock:a', 'tok-1', 'NX', 'PX', '300'], 'OK')
      .at(5).redis(2, 1, 'set', ['lock:a', 'tok-2', 'NX', 'PX', '300'], null)
      .at(100).redis(1, 1, 'del', ['lock:a'], 1)
      .build();
    const { lanes } = layoutTimeline(h);
    expect(lane(lanes, 1).intervals).toEqual([expect.objectContaining({ kind: 'hold', from: 1, to: 101, end: 'released', validUntil: 301 })]);
    // Client 2's SET NX got nil: no hold.
    expect(lane(lanes, 2).intervals).toEqual([]);
  });

  it('marks store writes, accepted and rejected', () => {
    const h = history().write(1, 'invoice', 33, { accepted: true, highest: 32 }).write(2, 'invoice', 32, { accepted: false, highest: 33 }).build();
    const { lanes } = layoutTimeline(h);
    expect(lane(lanes, 1).markers[0]).toMatchObject({ kind: 'write-accepted', label: 'wrote invoice with token 33' });
    expect(lane(lanes, 2).markers[0]?.kind).toBe('write-rejected');
  });

  it('lays out 10,000 events, closing every interval', () => {
    const h = history();
    for (let i = 0; i < 2_000; i++) {
      const c = (i % 5) + 1;
      h.at(i * 10).attempt(c).at(i * 10 + 1).acquired(c, 'lock', { validityMs: 50 }).at(i * 10 + 2).enter(c).at(i * 10 + 8).exit(c).at(i * 10 + 9).released(c);
    }
    const events = h.build();
    expect(events).toHaveLength(10_000);
    const layout = layoutTimeline(events);
    expect(layout.lanes).toHaveLength(5);
    // 2,000 attempts, holds and sections (timing is measured by bench/timeline.bench.ts, not here).
    expect(layout.lanes.reduce((n, l) => n + l.intervals.length, 0)).toBe(6_000);
    expect(layout.lanes.every((l) => l.intervals.every((i) => !i.open))).toBe(true);
  });
});
