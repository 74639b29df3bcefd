/**
 * A class that opens its labs together: twenty labs, a hundred redis-servers,
 * asked for in the same moment. Every lab comes up, because node starts take
 * turns server-wide (start-gate.ts): at most NODE_STARTS_AT_ONCE start at a
 * time, so none waits past its start timeout for a CPU. Without the gate, 2
 * of 40 labs failed with "did not answer PING within 10000 ms".
 */
import { describe, expect, it } from 'vitest';
import { NODE_STARTS_AT_ONCE, nodeStarts } from '@/server/cluster/start-gate';
import { startLab } from '../lab-fixture';

describe('a storm of lab starts', () => {
  it('brings every lab up, with node starts taking turns server-wide', { timeout: 120_000 }, async () => {
    const labs = await Promise.all(Array.from({ length: 20 }, () => startLab()));
    for (const lab of labs) expect(lab.nodes.map((n) => lab.nodeView(n.id).state)).toEqual(['up', 'up', 'up', 'up', 'up']);
    // The gate was full and held the rest back, never more at once.
    expect(nodeStarts.peak).toBe(NODE_STARTS_AT_ONCE);
    expect(nodeStarts.queued).toBe(0);
    // Every node answers, as the lab's own control connection sees it.
    const pongs = await Promise.all(labs.flatMap((lab) => lab.nodes.map((n) => n.controlClient!.ping())));
    expect(pongs.every((p) => p === 'PONG')).toBe(true);
  });
});
