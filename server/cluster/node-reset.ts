/**
 * Empties a node that is up, in place, so the next run finds it as a fresh
 * process would be: no learner connection left, no key in any database, no
 * script or function, no statistics from before. Far cheaper than a new
 * process (a stop and a spawn per node is what made a check's runs wait
 * seconds for their labs on a busy server), and the same to a learner's
 * program: a learner's user can change nothing else on a node (its ACL
 * leaves out @admin and @dangerous: no CONFIG, no CLIENT PAUSE, no REPLICAOF,
 * no DEBUG), and what their connections held (a MULTI, a subscription, a
 * blocked BLPOP, client tracking, a name) goes with the connections.
 */
import type Redis from 'ioredis';

export interface ResetAnswer {
  /** null: the node is empty; otherwise what refused (the caller starts the node afresh instead). */
  refused: string | null;
}

/**
 * The commands, in this order: the learner's connections are closed first,
 * so none can write between the flush and the next run. A node that is
 * running a learner's script answers BUSY to the flush; so does any other
 * state a reset cannot undo: the caller then replaces the process.
 */
export async function resetNodeInPlace(control: Redis, learnerUser: string): Promise<ResetAnswer> {
  const answers = await control
    .pipeline()
    .call('CLIENT', 'KILL', 'USER', learnerUser)
    .call('FLUSHALL', 'SYNC')
    .call('SCRIPT', 'FLUSH', 'SYNC')
    .call('FUNCTION', 'FLUSH', 'SYNC')
    .call('CONFIG', 'RESETSTAT')
    .call('SLOWLOG', 'RESET')
    .exec();
  if (!answers) return { refused: 'no answer (the connection closed)' };
  for (const [error] of answers) if (error) return { refused: error.message };
  return { refused: null };
}
