/** How a node's facts read on its card, in the page's language (the `cluster` catalogue). */
import type { useTranslations } from 'next-intl';
import type { NodeView, Persistence } from '@/lib/cluster';

export type ClusterT = ReturnType<typeof useTranslations<'cluster'>>;

/** Catalogue keys of the persistence modes ("aof-everysec" is not a key a message can select on). */
const PERSISTENCE_KEYS = { none: 'none', 'aof-everysec': 'everysec', 'aof-always': 'always' } as const satisfies Record<Persistence, string>;

export function persistenceWords(t: ClusterT, mode: Persistence): string {
  return t(`persistence.long.${PERSISTENCE_KEYS[mode]}`);
}

export function persistenceShort(t: ClusterT, mode: Persistence): string {
  return t(`persistence.short.${PERSISTENCE_KEYS[mode]}`);
}

export function roleWords(t: ClusterT, node: Pick<NodeView, 'role' | 'replicaOf'>): string {
  if (node.role === 'replica') return node.replicaOf === null ? t('role.replica') : t('role.replicaOf', { n: node.replicaOf });
  return t('role.master');
}
