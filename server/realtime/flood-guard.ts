/**
 * A refused command also counts towards the flood limit: a tab that keeps
 * sending after being told to slow down is a script, not a person, and
 * answering it still costs the server, so it is told why and disconnected.
 */
import { refusal } from '@/lib/refusal-words';
import type { LabOperationError } from '@/lib/result';
import type { Said } from '@/lib/words';
import { refuse, type RefusalContext } from '../ops/refusals';
import type { LabSocket } from './socket-server';

/** `limited(message, labId)`: the refusal to throw for a rate limit hit, counted towards `flood`. */
export function floodGuard(
  socket: LabSocket,
  flood: { refusals: number; windowMs: number } | undefined,
  who: (labId?: string) => RefusalContext,
): (message: Said, labId?: string) => LabOperationError {
  const refusedAt: number[] = [];
  return (message, labId) => {
    const error = refuse('rate-limited', who(labId), message);
    if (!flood || socket.disconnected) return error;
    const now = performance.now();
    refusedAt.push(now);
    while (refusedAt.length && refusedAt[0]! <= now - flood.windowMs) refusedAt.shift();
    if (refusedAt.length > flood.refusals) {
      const cut = refuse(
        'socket-flood',
        { ...who(labId), detail: { refused: refusedAt.length, windowMs: flood.windowMs } },
        refusal('limit.flood', { refused: refusedAt.length, seconds: Math.round(flood.windowMs / 1000) }),
      );
      socket.emit('lab:error', cut.toLabError());
      // The error leaves first: engine.io flushes what is queued before it closes the connection.
      socket.disconnect(true);
    }
    return error;
  };
}
