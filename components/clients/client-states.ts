/**
 * Where each client of a run stands, and what it printed, folded from the
 * history (pure; tests/unit/workspace-clients.test.ts).
 */
import type { HistoryEvent } from '@/lib/history';

export type ClientStatus = 'waiting' | 'running' | 'paused' | 'crashed' | 'exited' | 'failed';

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
        status[i] = 'paused';
        break;
      case 'resume':
        if (status[i] === 'paused') status[i] = 'running';
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
}

/** Console output and client errors, oldest first, at most `limit` (the newest). */
export function consoleLines(history: readonly HistoryEvent[], limit = 500, client: number | null = null): ConsoleLine[] {
  const lines: ConsoleLine[] = [];
  for (let i = history.length - 1; i >= 0 && lines.length < limit; i--) {
    const e = history[i];
    if (!e) continue;
    if (client !== null && 'client' in e && e.client !== client) continue;
    if (e.type === 'console') {
      lines.push({ seq: e.seq, t: e.t, client: e.client, level: e.level, text: e.text });
    } else if (e.type === 'client' && (e.event === 'error' || e.event === 'crash')) {
      lines.push({ seq: e.seq, t: e.t, client: e.client, level: 'error', text: e.event === 'crash' ? `crashed${e.detail ? `: ${e.detail}` : ''}` : (e.detail ?? 'stopped by an error') });
    }
  }
  return lines.reverse();
}
