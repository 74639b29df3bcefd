import { describe, expect, it } from 'vitest';
import type { HistoryEvent, NemesisEvent } from '@/lib/history';
import { describeEvent, recentLines } from '@/components/lab/history-words';
import { formatDuration } from '@/lib/durations';

const nemesis = (patch: Partial<NemesisEvent>): NemesisEvent => ({
  seq: 0,
  t: 1_500,
  type: 'nemesis',
  op: 'node-kill',
  phase: 'ok',
  target: 'Node 2',
  node: 2,
  args: {},
  ...patch,
});

const nodeState = (seq: number, t: number, n: number, state: 'up' | 'down' | 'paused', reason: string): HistoryEvent => ({
  seq,
  t,
  type: 'node',
  node: n,
  state,
  role: 'master',
  persistence: 'none',
  reason,
});

describe('describeEvent', () => {
  it("uses the server's words for a completed operation", () => {
    expect(describeEvent(nemesis({ detail: 'Node 2 killed with SIGKILL' }))?.text).toBe('Node 2 killed with SIGKILL');
  });

  it('falls back to its own words without a detail', () => {
    expect(describeEvent(nemesis({}))?.text).toBe('Node 2 killed');
    expect(describeEvent(nemesis({ op: 'node-pause' }))?.tone).toBe('fault');
    expect(describeEvent(nemesis({ op: 'node-resume' }))?.tone).toBe('recovery');
    expect(describeEvent(nemesis({ op: 'node-clock-jump', args: { jumpMs: 2_000 } }))?.text).toBe(
      'Node 2 clock jumped forward by 2.0 s',
    );
    expect(describeEvent(nemesis({ op: 'node-restart', args: { delayMs: 5_000 } }))?.text).toBe(
      'Node 2 will restart in 5.0 s',
    );
    expect(describeEvent(nemesis({ op: 'node-restart', args: { delayMs: 0 } }))?.text).toBe('Node 2 restarted');
  });

  it('tells a refused operation with its reason', () => {
    const line = describeEvent(nemesis({ phase: 'fail', detail: 'Node 2 is already down' }));
    expect(line).toEqual({ seq: 0, t: 1_500, text: 'Refused to kill Node 2: Node 2 is already down', tone: 'refused' });
  });

  it('leaves out invokes', () => {
    expect(describeEvent(nemesis({ phase: 'invoke' }))).toBeNull();
  });

  it('tells node state changes and leaves client traffic to the timeline', () => {
    expect(describeEvent(nodeState(3, 10, 4, 'paused', 'paused (SIGSTOP)'))?.text).toBe('Node 4 is paused: paused (SIGSTOP)');
    const consoleLine: HistoryEvent = { seq: 4, t: 11, type: 'console', client: 1, level: 'log', text: 'hi' };
    expect(describeEvent(consoleLine)).toBeNull();
  });
});

describe('recentLines', () => {
  it('returns the newest describable events first, up to the limit', () => {
    const history: HistoryEvent[] = [
      nemesis({ seq: 0, target: 'Node 1' }),
      { seq: 1, t: 2, type: 'console', client: 1, level: 'log', text: 'x' },
      nemesis({ seq: 2, target: 'Node 2' }),
      nemesis({ seq: 3, target: 'Node 3' }),
    ];
    expect(recentLines(history, 2).map((l) => l.seq)).toEqual([3, 2]);
    expect(recentLines(history, 10).map((l) => l.seq)).toEqual([3, 2, 0]);
  });

  it('tells a state change caused by an operation once, and one nobody caused on its own', () => {
    const history: HistoryEvent[] = [
      // Started shortly before the kill: not the kill's doing, so it stays.
      nodeState(0, 400, 2, 'up', 'started'),
      nemesis({ seq: 0, t: 1_000, phase: 'invoke' }),
      nodeState(1, 1_002, 2, 'down', 'killed (SIGKILL)'),
      nemesis({ seq: 2, t: 1_003, detail: 'Node 2 killed with SIGKILL' }),
      nodeState(3, 9_000, 3, 'down', 'exited with code 1'),
    ];
    expect(recentLines(history, 10).map((l) => l.text)).toEqual([
      'Node 3 is down: exited with code 1',
      'Node 2 killed with SIGKILL',
      'Node 2 is up: started',
    ]);
  });

  it('shares one line between nodes that changed the same way together', () => {
    const history: HistoryEvent[] = [1, 2, 3].map((n) => nodeState(n - 1, 150 + n, n, 'up', 'started'));
    const lines = recentLines(history, 10);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ text: 'Nodes 1, 2, 3 are up: started', t: 151 });
  });

  it('names each node once, and tells a later fresh lab as another line', () => {
    // Three runs that each started from a fresh lab: the same five nodes came up three times.
    const history: HistoryEvent[] = [0, 1, 2].flatMap((run) => [1, 2, 3, 4, 5].map((n) => nodeState(run * 5 + n - 1, run * 10_000 + n, n, 'up', 'started')));
    const lines = recentLines(history, 10);
    expect(lines.map((l) => l.text)).toEqual(['Nodes 1, 2, 3, 4, 5 are up: started', 'Nodes 1, 2, 3, 4, 5 are up: started', 'Nodes 1, 2, 3, 4, 5 are up: started']);
    expect(lines.map((l) => l.t)).toEqual([20_001, 10_001, 1]);
  });

  it('tells what the node guard did in its own words, and its restart once', () => {
    const history: HistoryEvent[] = [
      { seq: 0, t: 800, type: 'guard', node: 4, action: 'script-killed', cause: 'busy-script', detail: 'Script stopped: it ran over 0.5 s without ending' },
      nodeState(1, 2_000, 2, 'down', 'killed by the lab: used 200 MB, over its 192 MB memory budget'),
      nodeState(2, 2_040, 2, 'up', 'restarted by the lab (used 200 MB, over its 192 MB memory budget)'),
      { seq: 3, t: 2_041, type: 'guard', node: 2, action: 'restarted', cause: 'memory', detail: 'Restarted: used 200 MB, over its 192 MB budget' },
    ];
    expect(recentLines(history, 10).map((l) => l.text)).toEqual([
      'Node 2: Restarted: used 200 MB, over its 192 MB budget',
      'Node 4: Script stopped: it ran over 0.5 s without ending',
    ]);
    expect(describeEvent(history[0]!)?.tone).toBe('info');
  });
});

describe('formatDuration', () => {
  it('reads ms below a second and seconds above', () => {
    expect(formatDuration(250)).toBe('250 ms');
    expect(formatDuration(1_500)).toBe('1.5 s');
    expect(formatDuration(125_000)).toBe('125 s');
  });
});
