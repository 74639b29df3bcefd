/** The server-wide bound on node starts: never more at once than its limit, first come first served, a place given back however a start ends. */
import { describe, expect, it } from 'vitest';
import { StartGate } from '@/server/cluster/start-gate';

function deferred(): { promise: Promise<void>; resolve(): void; reject(e: Error): void } {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('the node start gate', () => {
  it('runs at most its limit at once, in the order asked, and passes on the place of a start that failed', async () => {
    const gate = new StartGate(3);
    const starts = Array.from({ length: 8 }, () => deferred());
    const began: number[] = [];
    let running = 0;
    let most = 0;
    const all = starts.map((d, i) =>
      gate
        .run(async () => {
          began.push(i);
          running++;
          most = Math.max(most, running);
          try {
            await d.promise;
          } finally {
            running--;
          }
        })
        .catch(() => 'failed'),
    );
    await tick();
    expect(began).toEqual([0, 1, 2]);
    expect(gate.queued).toBe(5);
    starts[1]!.reject(new Error('did not answer PING'));
    await tick();
    expect(began).toEqual([0, 1, 2, 3]);
    for (const d of starts) d.resolve();
    const results = await Promise.all(all);
    expect(results[1]).toBe('failed');
    expect(began).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
    expect(gate.peak).toBe(3);
    expect(gate.queued).toBe(0);
    // Every place came back: a new start runs at once.
    let ranAtOnce = false;
    const next = gate.run(async () => {
      ranAtOnce = true;
    });
    expect(ranAtOnce).toBe(true);
    await next;
  });
});
