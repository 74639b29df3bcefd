/**
 * Where each client of a run stands, and what it printed, folded from the
 * history (pure; tests/unit/workspace-clients.test.ts).
 */
import type { HistoryEvent } from '@/lib/history';
import { words, type Words } from '@/lib/words';

/** `held`: frozen while the run stands at the learner's breakpoint (the run's own stop); `paused`: by a fault. */
export type ClientStatus = 'waiting' | 'running' | 'paused' | 'held' | 'crashed' | 'exited' | 'failed';

/** The status of clients 1..clients after the given events (a run's slice of the history). */
export function clientStatuses(history: readonly HistoryEvent[], clients: number): ClientStatus[] {
  const status: ClientStatus[] = Array.from({ length: clients }, () => 'waiting');
  for (const e of history) {
    if (e.type !== 'client' || e.client < 1 || e.client > clients) continue;
    const i = e.client - 1;
    switch (e.event) {
      case 'start':
        status[i] = 'running';
        break;
      case 'pause':
        // A fault's pause on a client already held says 'paused': it is the one the learner can act on.
        status[i] = e.breakpoint && status[i] !== 'paused' ? 'held' : 'paused';
        break;
      case 'resume':
        if (status[i] === 'paused' || status[i] === 'held') status[i] = 'running';
        break;
      case 'crash':
        status[i] = 'crashed';
        break;
      case 'exit':
        status[i] = 'exited';
        break;
      case 'error':
        status[i] = 'failed';
        break;
      default:
        break;
    }
  }
  return status;
}


export interface ConsoleLine {
  seq: number;
  t: number;
  client: number;
  level: 'log' | 'info' | 'warn' | 'error';
  text: string;
  /** The lab's note as data (lib/history.ts), when it has one. */
  words?: Words;
}

/** A client's end as a console line: the program's error as it is, or the lab's words (a crash, a limit) as data too. */
function clientErrorLine(e: Extract<HistoryEvent, { type: 'client' }>): ConsoleLine {
  const line = { seq: e.seq, t: e.t, client: e.client, level: 'error' as const };
  if (e.event === 'crash') {
    return e.detail
      ? { ...line, text: `crashed: ${e.detail}`, words: words('runNotes.crashedWhy', { detail: e.detailWords ? { words: e.detailWords } : e.detail }) }
      : { ...line, text: 'crashed', words: words('runNotes.crashed') };
  }
  if (e.detail === undefined) return { ...line, text: 'stopped by an error', words: words('runNotes.stoppedByError') };
  return e.detailWords ? { ...line, text: e.detail, words: e.detailWords } : { ...line, text: e.detail };
}

/** Console output and client errors, oldest first, at most `limit` (the newest). */
export function consoleLines(history: readonly HistoryEvent[], limit = 500, client: number | null = null): ConsoleLine[] {
  const lines: ConsoleLine[] = [];
  for (let i = history.length - 1; i >= 0 && lines.length < limit; i--) {
    const e = history[i];
    if (!e) continue;
    if (client !== null && 'client' in e && e.client !== client) continue;
    if (e.type === 'console') {
      lines.push(e.words ? { seq: e.seq, t: e.t, client: e.client, level: e.level, text: e.text, words: e.words } : { seq: e.seq, t: e.t, client: e.client, level: e.level, text: e.text });
    } else if (e.type === 'client' && (e.event === 'error' || e.event === 'crash')) {
      lines.push(clientErrorLine(e));
    }
  }
  return lines.reverse();
}
