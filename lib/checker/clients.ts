/**
 * Client lifecycle, normalised. A pause can be reported twice (the nemesis
 * operation and the sandbox's own ClientEvent); the checks only want to hear
 * each transition once, with what they need to reason about it.
 */
import type { HistoryEvent } from '../history';

/** `atBreakpoint`: the client stood frozen at the learner's breakpoint (the run's own stop), not paused by a fault. */
export type ClientSignal =
  | { kind: 'pause'; client: number; t: number; seq: number; atBreakpoint: boolean }
  | { kind: 'resume'; client: number; t: number; seq: number; pausedAt: number; pausedSeq: number; atBreakpoint: boolean }
  /** The client's program is gone (crash, or its run ended / failed): it can no longer act. */
  | { kind: 'end'; client: number; t: number; seq: number; how: 'crash' | 'exit' | 'error'; paused: boolean }
  | { kind: 'start'; client: number; t: number; seq: number };

interface PauseMark {
  t: number;
  seq: number;
  atBreakpoint: boolean;
}

export class ClientTracker {
  private readonly paused = new Map<number, PauseMark>();
  private readonly ended = new Set<number>();

  isPaused(client: number): boolean {
    return this.paused.has(client);
  }

  hasEnded(client: number): boolean {
    return this.ended.has(client);
  }

  /** Turns an event into at most one lifecycle signal. */
  observe(event: HistoryEvent): ClientSignal | null {
    const intent = lifecycleIntent(event);
    if (!intent) return null;
    const { client, what, atBreakpoint } = intent;
    const { t, seq } = event;
    switch (what) {
      case 'start':
        this.ended.delete(client);
        this.paused.delete(client);
        return { kind: 'start', client, t, seq };
      case 'pause':
        if (this.paused.has(client) || this.ended.has(client)) return null;
        this.paused.set(client, { t, seq, atBreakpoint });
        return { kind: 'pause', client, t, seq, atBreakpoint };
      case 'resume': {
        const mark = this.paused.get(client);
        if (!mark) return null;
        this.paused.delete(client);
        // Held first and paused under the hold, or the reverse: what stopped it first is what the stop is called.
        return { kind: 'resume', client, t, seq, pausedAt: mark.t, pausedSeq: mark.seq, atBreakpoint: mark.atBreakpoint };
      }
      default: {
        if (this.ended.has(client)) return null;
        const paused = this.paused.delete(client);
        this.ended.add(client);
        return { kind: 'end', client, t, seq, how: what, paused };
      }
    }
  }
}

type Intent = { client: number; what: 'start' | 'pause' | 'resume' | 'crash' | 'exit' | 'error'; atBreakpoint: boolean };

function lifecycleIntent(event: HistoryEvent): Intent | null {
  if (event.type === 'client') {
    switch (event.event) {
      case 'start':
      case 'pause':
      case 'resume':
      case 'crash':
      case 'exit':
      case 'error':
        return { client: event.client, what: event.event, atBreakpoint: event.breakpoint === true };
      default:
        return null;
    }
  }
  // The nemesis's own record of a client fault counts once it succeeded.
  if (event.type === 'nemesis' && event.phase === 'ok' && event.client !== undefined) {
    if (event.op === 'client-pause') return { client: event.client, what: 'pause', atBreakpoint: false };
    if (event.op === 'client-resume') return { client: event.client, what: 'resume', atBreakpoint: false };
    if (event.op === 'client-crash') return { client: event.client, what: 'crash', atBreakpoint: false };
  }
  return null;
}
