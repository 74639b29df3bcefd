/**
 * History → when each client stood still, and why: paused by a fault (the learner's button, a scenario's step, a
 * random schedule), or held at the learner's breakpoint (the run's own stop: every running client frozen from the
 * stop to Resume, Step, or the client's own resume button). The two are different facts — a learner must never read
 * the run's stop as a fault they injected — so they are separate operations, read once here for every view.
 *
 * The sandbox marks a breakpoint's freeze and thaw with `breakpoint: true` (lib/history.ts); a run from before has no
 * mark and reads as pauses, as it always did. A client can be both at once: a scenario's timed pause that lands while
 * it is held ends, truthfully, when its time is up (the client stays held, so no event says so), and the thaw that
 * ends the hold ends any pause still open under it.
 */
import type { HistoryEvent } from '../history';

export type StopKind = 'pause' | 'breakpoint';

export type StopOp =
  /** The client stopped: `durationMs` for a pause planned to end by itself. */
  | { kind: 'stopped'; stop: StopKind; client: number; t: number; seq: number; durationMs?: number }
  /** It stopped standing still for that reason: `how` says whether it was let go or its pause's time ran out. */
  | { kind: 'went-on'; stop: StopKind; client: number; t: number; seq: number; how: 'resumed' | 'elapsed' };

interface OpenStop {
  t: number;
  durationMs?: number;
}

export class StopReader {
  private readonly paused = new Map<number, OpenStop>();
  private readonly held = new Map<number, OpenStop>();

  /** The stops one event starts or ends (most events: none). */
  observe(e: HistoryEvent): StopOp[] {
    if (e.type !== 'client') return NONE;
    const { client, t, seq } = e;
    switch (e.event) {
      case 'pause': {
        const stop: StopKind = e.breakpoint ? 'breakpoint' : 'pause';
        const open = stop === 'breakpoint' ? this.held : this.paused;
        // Told twice (a second pause while paused): the first one still stands.
        if (open.has(client)) return NONE;
        open.set(client, e.durationMs !== undefined ? { t, durationMs: e.durationMs } : { t });
        return [e.durationMs !== undefined ? { kind: 'stopped', stop, client, t, seq, durationMs: e.durationMs } : { kind: 'stopped', stop, client, t, seq }];
      }
      case 'resume': {
        // One resume lets the client go whatever held it: the thaw at Resume opens the gate a pause under it closed.
        const ops: StopOp[] = [];
        const pause = this.paused.get(client);
        const hold = this.held.get(client);
        if (pause) {
          this.paused.delete(client);
          // Held too: a timed pause's own end passed unrecorded (the client stayed frozen), so it ends at its time.
          const due = pause.durationMs !== undefined ? pause.t + pause.durationMs : Infinity;
          if (hold && due < t) ops.push({ kind: 'went-on', stop: 'pause', client, t: Math.max(due, hold.t, pause.t), seq, how: 'elapsed' });
          else ops.push({ kind: 'went-on', stop: 'pause', client, t, seq, how: 'resumed' });
        }
        if (hold) {
          this.held.delete(client);
          ops.push({ kind: 'went-on', stop: 'breakpoint', client, t, seq, how: 'resumed' });
        }
        return ops;
      }
      case 'crash':
      case 'exit':
      case 'error':
      case 'start':
        // It stands still no more: its views cut what it had open at its end.
        this.paused.delete(client);
        this.held.delete(client);
        return NONE;
      default:
        return NONE;
    }
  }
}

const NONE: StopOp[] = [];

/** Every stop of a whole history, in order. */
export function readStops(history: readonly HistoryEvent[]): StopOp[] {
  const reader = new StopReader();
  const out: StopOp[] = [];
  for (const e of history) for (const op of reader.observe(e)) out.push(op);
  return out;
}
