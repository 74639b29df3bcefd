/** The node cards at the time-travel cursor: state and keys as they were, from the history alone. */
import { describe, expect, it } from 'vitest';
import type { NodeView } from '@/lib/cluster';
import { NodesAt } from '@/components/cluster/nodes-at';
import { history } from './helpers/history-builder';

const live = (id: number): NodeView => ({
  id,
  label: `Node ${id}`,
  port: 40_000 + id,
  state: 'up',
  role: 'master',
  replicaOf: null,
  persistence: 'none',
  restartDueAt: null,
  keys: [],
  keysTruncated: false,
  clockJumpMs: 0,
  intervention: null,
});

// Client 1 takes the lock on Node 1 with a 2 s TTL at 100 ms; Node 2 is killed at 500 ms and restarted at 1.5 s.
const events = history()
  .at(100).redis(1, 1, 'SET', ['lock:x', 'tok-1', 'NX', 'PX', '2000'], 'OK')
  .at(500).node(2, 'down')
  .at(1_500).node(2, 'up')
  .build();
const nodes = [live(1), live(2)];

describe('nodes at a moment', () => {
  it('shows each node as it was: keys with their TTL left then, a killed node down', () => {
    const at = new NodesAt();
    const before = at.at(events, 50, nodes);
    expect(before[1]!.node.keys).toEqual([]);
    const during = at.at(events, 600, nodes);
    expect(during[2]!.node.state).toBe('down');
    expect(during[1]!.node.keys).toEqual([{ key: 'lock:x', value: 'tok-1', pttl: expect.closeTo(1_500, -1) as number, sampledAt: 600 }]);
    expect(during[1]!.peaks['lock:x']?.peakMs).toBeCloseTo(2_000, -1);
    const later = at.at(events, 2_500, nodes);
    expect(later[2]!.node.state).toBe('up');
    // The lock expired by then.
    expect(later[1]!.node.keys).toEqual([]);
  });

  it('goes back in time as well as forward', () => {
    const at = new NodesAt();
    expect(at.at(events, 2_500, nodes)[2]!.node.state).toBe('up');
    expect(at.at(events, 600, nodes)[2]!.node.state).toBe('down');
    expect(at.at(events, 600, nodes)[1]!.node.keys).toHaveLength(1);
  });
});
