/**
 * When a run's verdict can no longer change (IncrementalChecker.decided): a proven liveness violation on a
 * lock whose holder is gone and whose key has no TTL, once every command sent before the proof is answered.
 * Anything that could still recover is never called decided.
 */
import { describe, expect, it } from 'vitest';
import { IncrementalChecker } from '@/lib/checker';
import type { HistoryEvent } from '@/lib/history';

const KEY = 'lock:send-invoices';

/** A tiny history builder: seq and t grow with each event. */
function history() {
  const events: HistoryEvent[] = [];
  let seq = 0;
  let opId = 0;
  const push = (event: Record<string, unknown>) => events.push({ seq: ++seq, runId: 'r', ...event } as unknown as HistoryEvent);
  return {
    events,
    client(t: number, client: number, event: 'start' | 'crash' | 'exit') {
      push({ t, type: 'client', client, event });
    },
    /** A SET NX (no TTL) sent at t and answered at `answeredAt` (or left unanswered). */
    setNx(t: number, client: number, won: boolean, answeredAt: number | null): number {
      const id = ++opId;
      push({ t, type: 'redis', phase: 'invoke', opId: id, client, node: 1, command: 'SET', args: [KEY, `token-${client}`, 'NX'] });
      if (answeredAt !== null) push({ t: answeredAt, type: 'redis', phase: 'ok', opId: id, client, node: 1, command: 'SET', reply: won ? 'OK' : null });
      return id;
    },
    answer(t: number, id: number, client: number) {
      push({ t, type: 'redis', phase: 'ok', opId: id, client, node: 1, command: 'SET', reply: null });
    },
    job(t: number, client: number, phase: 'enter' | 'exit') {
      push({ t, type: 'job', phase, client, job: 'send-invoices', execution: 1 });
    },
  };
}

const checker = () => new IncrementalChecker({ nodes: 1, livenessBoundMs: 1_000, lockKeys: [KEY] });

describe('a run decided early', () => {
  it('is decided once the crashed holder’s key (no TTL) has kept the others out past the bound', () => {
    const h = history();
    h.client(0, 1, 'start');
    h.client(0, 2, 'start');
    h.setNx(10, 1, true, 12);
    h.job(15, 1, 'enter');
    h.client(100, 1, 'crash');
    for (let t = 200; t <= 1_000; t += 200) h.setNx(t, 2, false, t + 2);
    const c = checker().push(h.events);
    expect(c.decided()).toBeNull(); // 800 ms of waiting: not past the 1 s bound yet
    h.setNx(1_300, 2, false, 1_302);
    c.push(h.events.slice(-2));
    expect(c.verdict().checks.liveness.valid).toBe('violated');
    expect(c.decided()).toMatch(/Client 1 crashed holding 'lock:send-invoices', whose key has no TTL/);
  });

  it('is not decided while a command sent before the proof is unanswered (a timeout could still explain the wait)', () => {
    const h = history();
    h.client(0, 1, 'start');
    h.client(0, 2, 'start');
    h.client(0, 3, 'start');
    h.setNx(10, 1, true, 12);
    h.client(100, 1, 'crash');
    h.setNx(150, 2, false, 152);
    const pending = h.setNx(1_100, 3, false, null); // sent before the proof, not answered yet
    h.setNx(1_300, 2, false, 1_302);
    const c = checker().push(h.events);
    expect(c.verdict().checks.liveness.valid).toBe('violated');
    expect(c.decided()).toBeNull();
    h.answer(1_400, pending, 3);
    c.push(h.events.slice(-1));
    expect(c.decided()).not.toBeNull();
  });

  it('is never decided when the lock only waits for a TTL: it frees by itself', () => {
    const h = history();
    h.client(0, 1, 'start');
    h.client(0, 2, 'start');
    // The holder's key has a TTL, so the key expires and the wait ends.
    h.events.push({ seq: 100, t: 10, runId: 'r', type: 'redis', phase: 'invoke', opId: 900, client: 1, node: 1, command: 'SET', args: [KEY, 'token-1', 'NX', 'PX', '60000'] } as HistoryEvent);
    h.events.push({ seq: 101, t: 12, runId: 'r', type: 'redis', phase: 'ok', opId: 900, client: 1, node: 1, command: 'SET', reply: 'OK' } as HistoryEvent);
    h.events.push({ seq: 102, t: 100, runId: 'r', type: 'client', client: 1, event: 'crash' } as HistoryEvent);
    let seq = 103;
    for (let t = 200; t <= 3_000; t += 200) {
      h.events.push({ seq: seq++, t, runId: 'r', type: 'redis', phase: 'invoke', opId: 1000 + t, client: 2, node: 1, command: 'SET', args: [KEY, 'token-2', 'NX', 'PX', '60000'] } as HistoryEvent);
      h.events.push({ seq: seq++, t: t + 2, runId: 'r', type: 'redis', phase: 'ok', opId: 1000 + t, client: 2, node: 1, command: 'SET', reply: null } as HistoryEvent);
    }
    const c = checker().push(h.events);
    expect(c.decided()).toBeNull();
  });
});
