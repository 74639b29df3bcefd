/**
 * What the lab last did to a node because of a learner's code (the node
 * guard: a script it stopped, a restart over the memory budget), told on the
 * node's card so the learner sees why the node answered errors or lost its keys.
 */
import { useTranslations } from 'next-intl';
import type { NodeIntervention as Intervention } from '@/lib/cluster';
import { useCheckerText } from '@/components/verdict/checker-text';
import styles from './cluster.module.css';

export function NodeIntervention({ intervention }: { intervention: Intervention | null }) {
  const t = useTranslations('cluster');
  const said = useCheckerText();
  if (!intervention) return null;
  return (
    <p className={styles.intervention} data-testid="node-intervention" data-cause={intervention.cause}>
      {/* The detail is the server's sentence, in the page's language when it sent its words. */}
      <strong>{t('steppedIn')}</strong> {said({ message: intervention.text, words: intervention.words })}
    </p>
  );
}
