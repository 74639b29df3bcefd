import { describe, expect, it } from 'vitest';
import { emptyLabData, MAX_HISTORY_BYTES, reduceHistory, type LabData } from '@/components/lab/lab-state';
import type { HistoryEvent } from '@/lib/history';
import { eventBytes, newestWithin, TAB_HISTORY_EVENTS } from '@/lib/history-size';
import { sendCatchUp } from '@/server/realtime/lab-view';
import { DEFAULT_HISTORY_BUDGET } from '@/server/lab/history-log';

const LAB = 'lab-aaaaaaaa';
const line = (seq: number, runId: string, text = 'x'.repeat(1_000)): HistoryEvent => ({ type: 'console', seq, t: seq, client: 1, level: 'log', text, runId });
const joined = (): LabData => ({ ...emptyLabData(), labId: LAB });

describe('the tab keeps the same history budget as the server', () => {
  it('counts the bytes it holds', () => {
    const events = [line(0, 'run-1'), line(1, 'run-1')];
    const data = reduceHistory(joined(), { labId: LAB, from: 0, events });
    expect(data.historyBytes).toBe(events.reduce((n, e) => n + eventBytes(e), 0));
  });

  it('drops the oldest events (older runs first) past its byte cap, keeping the count exact', () => {
    const one = eventBytes(line(0, 'run-1'));
    let data = joined();
    for (let seq = 0; seq < 10; seq++) data = reduceHistory(data, { labId: LAB, from: seq, events: [line(seq, seq < 5 ? 'run-1' : 'run-2')] }, 1_000, one * 4);
    expect(data.history.map((e) => e.seq)).toEqual([6, 7, 8, 9]);
    expect(data.history.every((e) => e.runId === 'run-2')).toBe(true);
    expect(data.historyBytes).toBe(one * 4);
    expect(data.nextSeq).toBe(10);
  });

  it('applies both caps to one large batch (a catch-up slice)', () => {
    const events = Array.from({ length: 50 }, (_, i) => line(i, 'run-1'));
    const data = reduceHistory(joined(), { labId: LAB, from: 0, events }, 30, eventBytes(events[0] as HistoryEvent) * 20);
    expect(data.history.map((e) => e.seq)).toEqual(Array.from({ length: 20 }, (_, i) => 30 + i));
    expect(data.historyBytes).toBe(data.history.reduce((n, e) => n + eventBytes(e), 0));
  });

  it('uses the server’s default per-lab budget', () => {
    expect(MAX_HISTORY_BYTES).toBe(DEFAULT_HISTORY_BUDGET.maxBytes);
  });
});

describe('the catch-up a joining tab gets is bounded the same way', () => {
  it('newestWithin keeps the newest events that fit both caps, in order', () => {
    const events = Array.from({ length: 10 }, (_, i) => line(i, i < 5 ? 'run-1' : 'run-2'));
    const one = eventBytes(events[0] as HistoryEvent);
    expect(newestWithin(events, 100, one * 3).map((e) => e.seq)).toEqual([7, 8, 9]);
    expect(newestWithin(events, 2, one * 100).map((e) => e.seq)).toEqual([8, 9]);
    expect(newestWithin(events, 100, one * 100)).toBe(events);
    // The newest event goes even when it alone is over the byte cap.
    expect(newestWithin(events, 100, 1).map((e) => e.seq)).toEqual([9]);
  });

  it('sendCatchUp sends no more than a tab keeps, in slices that continue the seqs', () => {
    const history = Array.from({ length: TAB_HISTORY_EVENTS + 5_000 }, (_, i) => line(i, 'run-1', 'x'));
    const sent: HistoryEvent[] = [];
    const froms: number[] = [];
    const socket = {
      emit: (event: string, batch: { from: number; events: HistoryEvent[] }) => {
        if (event !== 'history:append') return true;
        froms.push(batch.from);
        sent.push(...batch.events);
        return true;
      },
    } as unknown as Parameters<typeof sendCatchUp>[0];
    sendCatchUp(socket, LAB, history, null);
    expect(sent).toHaveLength(TAB_HISTORY_EVENTS);
    expect(sent[0]?.seq).toBe(5_000);
    expect(sent.at(-1)?.seq).toBe(TAB_HISTORY_EVENTS + 4_999);
    expect(froms[0]).toBe(5_000);
  });
});
