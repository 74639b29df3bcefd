/**
 * Who holds a lock key a node shows: the client whose command wrote the
 * key's value (its token) on that node, or whose lock event carried that
 * token. Pure (tests/unit/key-holder.test.ts); read from the newest event
 * back, so a token taken over by another client names the newer writer, and
 * only the last `limit` events: a lock's SET is recent, and a tile asks as
 * often as the history grows.
 */
import type { HistoryEvent } from '@/lib/history';

/** The client that holds `key` = `value` on `node`, or null when the history does not say (a value set before the run, a counter). */
export function keyHolder(history: readonly HistoryEvent[], node: number, key: string, value: string | null, limit = 400): number | null {
  if (value === null || value === '') return null;
  const stop = Math.max(0, history.length - limit);
  for (let i = history.length - 1; i >= stop; i--) {
    const e = history[i];
    if (!e) continue;
    if (e.type === 'redis' && e.phase === 'invoke' && e.node === node && e.args.includes(key) && e.args.includes(value)) return e.client;
    if (e.type === 'lock' && e.token === value && e.resources.includes(key) && (e.event === 'acquired' || e.event === 'extended')) return e.client;
  }
  return null;
}
