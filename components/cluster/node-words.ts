/** How a node's facts read on its card. */
import type { NodeView, Persistence } from '@/lib/cluster';

export const PERSISTENCE_WORDS: Record<Persistence, string> = {
  none: 'none — data lost on restart',
  'aof-everysec': 'AOF, fsync every second',
  'aof-always': 'AOF, fsync on every write',
};

export const PERSISTENCE_SHORT: Record<Persistence, string> = {
  none: 'none',
  'aof-everysec': 'AOF every second',
  'aof-always': 'AOF always',
};

export function roleWords(node: Pick<NodeView, 'role' | 'replicaOf'>): string {
  if (node.role === 'replica') return node.replicaOf === null ? 'replica' : `replica of Node ${node.replicaOf}`;
  return 'master';
}
